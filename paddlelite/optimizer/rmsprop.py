"""RMSProp (optionally centered, with momentum) through op `rmsprop`:
mean_square = rho * ms + (1 - rho) * g^2; moment = momentum * moment + lr * g / sqrt(ms [- mean_grad^2] + eps);
param -= moment."""
from .adam import _float
from .optimizer import Optimizer

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    type = "rmsprop"

    def __init__(self, learning_rate, rho=0.95, epsilon=1e-06, momentum=0.0, centered=False, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        if learning_rate is None:
            raise ValueError("RMSProp: learning_rate is not set")
        api = "RMSProp"
        self._rho = _float(api, "rho", rho, 0.0)
        self._epsilon = _float(api, "epsilon", epsilon, 0.0)
        self._momentum = _float(api, "momentum", momentum, 0.0)
        self._centered = bool(centered)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _append_updates(self, entries):
        for p, g, lr, group in entries:
            mom, ms, mg = (self._acc(n, p) for n in ("momentum", "mean_square", "mean_grad"))
            self._run("rmsprop", {"Param": p, "MeanSquare": ms, "Grad": g, "Moment": mom, "LearningRate": lr,
                                  "MeanGrad": mg},
                      {"ParamOut": p, "MomentOut": mom, "MeanSquareOut": ms, "MeanGradOut": mg},
                      {"epsilon": float(group.get("epsilon", self._epsilon)),
                       "decay": float(group.get("rho", self._rho)),
                       "momentum": float(group.get("momentum", self._momentum)),
                       "centered": bool(group.get("centered", self._centered))})
