"""SGD: param -= lr * grad (op `sgd`)."""
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    _op_type = "sgd"

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = bool(multi_precision)

    def _append_updates(self, entries):
        run = self._run
        for p, g, lr, _ in entries:
            run("sgd", {"Param": p, "LearningRate": lr, "Grad": g}, {"ParamOut": p}, None)
