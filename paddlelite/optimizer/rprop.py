"""Rprop (op `rprop`): per-element step sizes adapted by the sign agreement of successive gradients.
Full-batch only, as Paddle notes; the optimizer's learning rate seeds every element's step size."""
import numbers

from .optimizer import Optimizer

__all__ = ["Rprop"]


class Rprop(Optimizer):
    type = "rprop"

    def __init__(self, learning_rate=0.001, learning_rate_range=(1e-5, 50), parameters=None, etas=(0.5, 1.2),
                 grad_clip=None, multi_precision=False, name=None):
        if learning_rate is None:
            raise ValueError("Rprop: learning_rate is not set")
        if isinstance(learning_rate, numbers.Real) and not \
                0.0 < learning_rate_range[0] <= learning_rate <= learning_rate_range[1]:
            raise ValueError(f"Rprop: 0 < learning_rate_range[0] <= learning_rate <= learning_rate_range[1] must "
                             f"hold, received learning_rate={learning_rate}, learning_rate_range={learning_rate_range}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Rprop: 0 < etas[0] < 1 < etas[1] must hold, received etas={etas}")
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self._multi_precision = bool(multi_precision)
        self._learning_rate_range = [float(v) for v in learning_rate_range]
        self._etas = [float(v) for v in etas]

    def _append_updates(self, entries):
        for p, g, _, _ in entries:
            prev = self._acc("prevs", p)
            rates = self._acc("learning_rates", p, self.get_lr())
            self._run("rprop", {"param": p, "grad": g, "prev": prev, "learning_rate": rates},
                      {"param_out": p, "prev_out": prev, "learning_rate_out": rates},
                      {"learning_rate_range": self._learning_rate_range, "etas": self._etas})
