"""Lamb: Adam moments with a layer-wise trust ratio ||param|| / ||update|| (op `lamb`); the decay
`lamb_weight_decay` is part of the update, skipped for parameters exclude_from_weight_decay_fn selects."""
from .adam import _float, set_moment_coefficients
from .adamax import _pow_dtype
from .optimizer import Optimizer

__all__ = ["Lamb"]


class Lamb(Optimizer):
    type = "lamb"
    _decoupled_decay = True

    def __init__(self, learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999, epsilon=1e-06,
                 parameters=None, grad_clip=None, exclude_from_weight_decay_fn=None, multi_precision=False,
                 always_adapt=False, name=None):
        api = "Lamb"
        set_moment_coefficients(self, beta1, beta2, epsilon)
        self._lamb_weight_decay = _float(api, "lamb_weight_decay", lamb_weight_decay)
        if exclude_from_weight_decay_fn is not None and not callable(exclude_from_weight_decay_fn):
            raise TypeError(f"Lamb: exclude_from_weight_decay_fn must be callable, received "
                            f"{type(exclude_from_weight_decay_fn).__name__}")
        self._exclude_fn = exclude_from_weight_decay_fn
        self._always_adapt = bool(always_adapt)
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self._multi_precision = bool(multi_precision)

    def _append_updates(self, entries):
        for p, g, lr, group in entries:
            b1 = float(group.get("beta1", self._beta1))
            b2 = float(group.get("beta2", self._beta2))
            decay = float(group.get("lamb_weight_decay", self._lamb_weight_decay))
            if self._exclude_fn is not None and self._exclude_fn(p):
                decay = 0.0
            m1, m2 = self._acc("moment1", p), self._acc("moment2", p)
            b1p = self._acc("beta1_pow_acc", p, b1, [1], _pow_dtype(p), "cpu")
            b2p = self._acc("beta2_pow_acc", p, b2, [1], _pow_dtype(p), "cpu")
            self._run("lamb", {"Param": p, "Grad": g, "LearningRate": lr, "Moment1": m1, "Moment2": m2,
                               "Beta1Pow": b1p, "Beta2Pow": b2p},
                      {"ParamOut": p, "Moment1Out": m1, "Moment2Out": m2, "Beta1PowOut": b1p, "Beta2PowOut": b2p},
                      {"weight_decay": decay, "beta1": b1, "beta2": b2,
                       "epsilon": float(group.get("epsilon", self._epsilon)), "always_adapt": self._always_adapt})
