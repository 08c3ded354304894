"""Adadelta (op `adadelta`): step = -sqrt((E[dx^2] + eps) / (E[g^2] + eps)) * g; param += lr * step."""
from .adam import _float
from .optimizer import Optimizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    type = "adadelta"

    def __init__(self, learning_rate=0.001, epsilon=1e-06, rho=0.95, parameters=None, weight_decay=None,
                 grad_clip=None, name=None):
        if learning_rate is None:
            raise ValueError("Adadelta: learning_rate is not set")
        self._epsilon = _float("Adadelta", "epsilon", epsilon)
        self._rho = _float("Adadelta", "rho", rho)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _append_updates(self, entries):
        for p, g, lr, group in entries:
            asg, asu = self._acc("_avg_squared_grad", p), self._acc("_avg_squared_update", p)
            self._run("adadelta", {"Param": p, "Grad": g, "AvgSquaredGrad": asg, "AvgSquaredUpdate": asu,
                                   "LearningRate": lr},
                      {"ParamOut": p, "AvgSquaredGradOut": asg, "AvgSquaredUpdateOut": asu},
                      {"rho": float(group.get("rho", self._rho)),
                       "epsilon": float(group.get("epsilon", self._epsilon))})
