"""Uniform(low, high): constant density on [low, high)."""
from .. import tensor as _pt
from . import distribution
from ._params import draw_shape, two_parameters
from .distribution import check_type
from ..framework.mode import in_dynamic_mode


class Uniform(distribution.Distribution):
    """The uniform distribution on [low, high)."""

    def __init__(self, low, high, name=None):
        self.name = name if name is not None else "Uniform"
        self.batch_size_unknown = False
        self.low, self.high, self.dtype, self.all_arg_is_float = two_parameters(
            self, low, high, ("low", "high"), "Uniform")
        super().__init__(self.low.shape)

    def sample(self, shape=(), seed=0):
        """Draws of shape `shape` + batch_shape: low + (high - low) * u, u uniform in [0, 1)."""
        if not in_dynamic_mode():
            check_type(shape, "shape", (list, tuple), "sample")
            check_type(seed, "seed", (int,), "sample")
        shape = list(shape)
        out_shape = draw_shape(shape, self.low + self.high)
        draws = _pt.uniform(out_shape, dtype=self.dtype, min=0.0, max=1.0, seed=seed)
        output = _pt.add(draws * (_pt.zeros(out_shape, dtype=self.dtype) + (self.high - self.low)), self.low)
        return _pt.reshape(output, shape) if self.all_arg_is_float else output

    def rsample(self, shape=()):
        """Reparameterised draws: gradients reach low and high."""
        out_shape = list(self._extend_shape(tuple(shape)))
        return self.low + (self.high - self.low) * _pt.uniform(out_shape, dtype=self.dtype, min=0.0, max=1.0)

    def _inside(self, value):
        """1 where low < value < high, else 0, in value's dtype."""
        return _pt.cast(self.low < value, value.dtype) * _pt.cast(value < self.high, value.dtype)

    def log_prob(self, value):
        value = self._check_values_dtype_in_probs(self.low, value)
        return _pt.subtract(_pt.log(self._inside(value)), _pt.log(self.high - self.low))

    def probs(self, value):
        value = self._check_values_dtype_in_probs(self.low, value)
        return _pt.divide(self._inside(value), self.high - self.low)

    def entropy(self):
        return _pt.log(self.high - self.low)

    @property
    def mean(self):
        return (self.low + self.high) / 2

    @property
    def variance(self):
        return (self.high - self.low).pow(2) / 12

    def kl_divergence(self, other):
        """KL(self || other): log of the width ratio where self's support lies inside other's, else inf."""
        inside = _pt.logical_and(other.low <= self.low, self.high <= other.high)
        ratio = _pt.log((other.high - other.low) / (self.high - self.low))
        return _pt.where(inside, ratio, _pt.full_like(ratio, float("inf")))
