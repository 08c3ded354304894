"""Momentum (optionally Nesterov): v = mu * v + g; param -= lr * v (op `momentum`).

An optimizer-level L2Decay is fused into the op (regularization_method='l2_decay'), as Paddle does."""
import numbers

from .optimizer import Optimizer
from .regularizer import L2Decay

__all__ = ["Momentum"]


class Momentum(Optimizer):
    _op_type = "momentum"
    _fuses_l2 = True

    def __init__(self, learning_rate=0.001, momentum=0.9, parameters=None, use_nesterov=False, weight_decay=None,
                 grad_clip=None, multi_precision=False, rescale_grad=1.0, use_multi_tensor=False, name=None):
        if not isinstance(momentum, numbers.Real) or isinstance(momentum, bool):
            raise TypeError(f"Momentum: momentum must be a float, received {type(momentum).__name__}")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = bool(multi_precision)
        self._momentum = float(momentum)
        self._use_nesterov = bool(use_nesterov)
        self._rescale_grad = float(rescale_grad)

    def _append_updates(self, entries):
        for p, g, lr, group in entries:
            attrs = {"mu": float(group.get("momentum", self._momentum)), "use_nesterov": self._use_nesterov,
                     "rescale_grad": self._rescale_grad}
            reg = self._regularizer_of(p, group)
            if getattr(p, "regularizer", None) is None and isinstance(reg, L2Decay):
                attrs["regularization_method"] = "l2_decay"
                attrs["regularization_coeff"] = reg.coeff
            v = self._acc("velocity", p)
            self._run("momentum", {"Param": p, "Grad": g, "Velocity": v, "LearningRate": lr},
                      {"ParamOut": p, "VelocityOut": v}, attrs)
