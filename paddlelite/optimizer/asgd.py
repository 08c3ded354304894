"""ASGD (op `asgd`): the stochastic average gradient over the last `batch_num` gradients, kept in a
[batch_num, *param.shape] table."""
import numbers

from .optimizer import Optimizer

__all__ = ["ASGD"]


class ASGD(Optimizer):
    type = "asgd"

    def __init__(self, learning_rate=0.001, batch_num=1, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision=False, name=None):
        if learning_rate is None:
            raise ValueError("ASGD: learning_rate is not set")
        if batch_num is None:
            raise ValueError("ASGD: batch_num is not set")
        if not isinstance(batch_num, numbers.Integral) or isinstance(batch_num, bool):
            raise TypeError(f"ASGD: batch_num must be an int, received {type(batch_num).__name__}")
        if batch_num <= 0:
            raise ValueError(f"ASGD: batch_num must be greater than 0, received {batch_num}")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = bool(multi_precision)
        self._n = int(batch_num)

    def _append_updates(self, entries):
        for p, g, lr, _ in entries:
            d = self._acc("d", p)
            ys = self._acc("y", p, 0.0, [self._n] + list(p.shape))
            m = self._acc("m", p, 0, [1], "int64")
            self._run("asgd", {"param": p, "grad": g, "learning_rate": lr, "d": d, "y": ys, "m": m},
                      {"param_out": p, "d_out": d, "y_out": ys, "m_out": m}, {"batch_num": self._n})
