"""SGD: param -= lr * grad (op `sgd` per parameter in a program; eagerly `merged_sgd`, every parameter sharing a
learning rate in one update -- one launch on a GPU)."""
from ..framework.mode import in_static_mode
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    type = "sgd"

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = bool(multi_precision)

    def _append_updates(self, entries):
        if in_static_mode():  # a program shows Paddle's static update: one sgd op per parameter
            for p, g, lr, _ in entries:
                self._run("sgd", {"Param": p, "LearningRate": lr, "Grad": g}, {"ParamOut": p}, None)
            return
        groups = {}
        for p, g, lr, _ in entries:
            groups.setdefault(id(lr), (lr, [], []))
            groups[id(lr)][1].append(p)
            groups[id(lr)][2].append(g)
        for lr, params, grads in groups.values():  # eagerly, the parameters sharing a rate in one update
            self._run("merged_sgd", {"Param": params, "LearningRate": [lr], "Grad": grads, "MasterParam": None},
                      {"ParamOut": params}, None)
