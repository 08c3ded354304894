"""Adamax: Adam with the infinity norm (op `adamax`; the beta1 power advances by a `scale` op, as in Paddle)."""
from .adam import set_moment_coefficients
from ..static.framework import name_scope, role_var_guard
from .optimizer import Optimizer

__all__ = ["Adamax"]


class Adamax(Optimizer):
    type = "adamax"

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        set_moment_coefficients(self, beta1, beta2, epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _append_updates(self, entries):
        powers = []
        for p, g, lr, group in entries:
            b1 = float(group.get("beta1", self._beta1))
            moment, inf_norm = self._acc("moment", p), self._acc("inf_norm", p)
            b1p = self._acc("beta1_pow_acc", p, b1, [1], _pow_dtype(p))
            self._run("adamax", {"Param": p, "Grad": g, "LearningRate": lr, "Moment": moment, "InfNorm": inf_norm,
                                 "Beta1Pow": b1p},
                      {"ParamOut": p, "MomentOut": moment, "InfNormOut": inf_norm},
                      {"beta1": b1, "beta2": float(group.get("beta2", self._beta2)),
                       "epsilon": float(group.get("epsilon", self._epsilon))})
            powers.append((p, g, b1p, b1))
        # after all the updates, each under its own name scope 'adamax' and (param, grad), as Paddle's _finish_update
        for p, g, b1p, b1 in powers:
            with name_scope("adamax"), role_var_guard(p, g):
                self._run("scale", {"X": b1p}, {"Out": b1p}, {"scale": b1})


def _pow_dtype(param):
    """Beta powers are float32 unless the parameter is float64 (as Paddle keeps them)."""
    return "float64" if param.dtype.name == "float64" else "float32"
