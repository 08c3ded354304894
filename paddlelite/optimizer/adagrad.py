"""Adagrad: moment += g^2; param -= lr * g / (sqrt(moment) + eps) (op `adagrad`)."""
from .adam import _float
from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    type = "adagrad"

    def __init__(self, learning_rate, epsilon=1e-06, parameters=None, weight_decay=None, grad_clip=None, name=None,
                 initial_accumulator_value=0.0):
        self._epsilon = _float("Adagrad", "epsilon", epsilon)
        self.initial_accumulator_value = _float("Adagrad", "initial_accumulator_value", initial_accumulator_value)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _append_updates(self, entries):
        for p, g, lr, group in entries:
            moment = self._acc("moment", p, float(group.get("initial_accumulator_value",
                                                           self.initial_accumulator_value)))
            self._run("adagrad", {"Param": p, "Grad": g, "Moment": moment, "LearningRate": lr},
                      {"ParamOut": p, "MomentOut": moment},
                      {"epsilon": float(group.get("epsilon", self._epsilon))})
