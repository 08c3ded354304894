"""Momentum (optionally Nesterov): v = mu * v + g; param -= lr * v (op `momentum` per parameter in a program; eagerly
`merged_momentum`, every parameter sharing a learning rate in one update -- one launch on a GPU).

An optimizer-level L2Decay is fused into the op (regularization_method='l2_decay'), as Paddle does."""
import numbers

from ..framework.mode import in_static_mode
from .optimizer import Optimizer
from .regularizer import L2Decay

__all__ = ["Momentum"]


class Momentum(Optimizer):
    type = "momentum"
    _fuses_l2 = True
    _velocity_acc_str = "velocity"  # the accumulator's name: Paddle's class attribute, which subclasses read

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
        groups = {}
        for p, g, lr, group in entries:
            mu = float(group.get("momentum", self._momentum))
            reg = self._regularizer_of(p, group)
            method, coeff = ("l2_decay", reg.coeff) if getattr(p, "regularizer", None) is None \
                and isinstance(reg, L2Decay) else ("", 0.0)
            v = self._acc(self._velocity_acc_str, p)
            if in_static_mode():  # a program shows Paddle's static update: one momentum op per parameter
                attrs = {"mu": mu, "use_nesterov": self._use_nesterov, "rescale_grad": self._rescale_grad}
                if method:
                    attrs.update(regularization_method=method, regularization_coeff=coeff)
                self._run("momentum", {"Param": p, "Grad": g, "Velocity": v, "LearningRate": lr},
                          {"ParamOut": p, "VelocityOut": v}, attrs)
                continue
            groups.setdefault((id(lr), mu), (lr, mu, []))[2].append((p, g, v, method, coeff))
        for lr, mu, rows in groups.values():  # eagerly, the parameters sharing a rate and mu in one update
            params, grads, vs, methods, coeffs = map(list, zip(*rows))
            self._run("merged_momentum",
                      {"Param": params, "Grad": grads, "Velocity": vs, "LearningRate": [lr], "MasterParam": None},
                      {"ParamOut": params, "VelocityOut": vs},
                      {"mu": mu, "use_nesterov": self._use_nesterov, "rescale_grad": self._rescale_grad,
                       "regularization_method": methods, "regularization_coeff": coeffs})
