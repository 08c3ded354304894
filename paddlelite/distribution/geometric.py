"""Geometric(probs): failures before the first success (support 0, 1, 2, ...)."""
import numbers

from .. import tensor as _pt
from ..framework.tensor import Tensor
from ..static.framework import Variable
from ..tensor.tensor_args import is_tensor_like
from . import distribution
from .exponential import TINY
from .distribution import sample_by_rsample


def _check_count(k):
    if not isinstance(k, (numbers.Integral, Tensor, Variable)):
        raise TypeError(f"Expected type of k is number.Real|framework.Variable|Value, but got {type(k)}")


class Geometric(distribution.Distribution):
    """The geometric distribution with success probability probs in (0, 1]."""

    def __init__(self, probs):
        if isinstance(probs, numbers.Real):
            probs = _pt.full(shape=[], fill_value=probs, dtype="float32")
        elif not is_tensor_like(probs):
            raise TypeError("Expected type of probs is Number.Real|Tensor|framework.Variable|Value, but got "
                            f"{type(probs)}")
        self.probs = probs
        super().__init__(tuple(probs.shape))

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    @property
    def stddev(self):
        return _pt.sqrt(self.variance)

    def pmf(self, k):
        _check_count(k)
        return _pt.pow(1.0 - self.probs, k) * self.probs

    def log_pmf(self, k):
        _check_count(k)
        return _pt.log(self.pmf(k))

    sample = sample_by_rsample

    def rsample(self, shape=()):
        """floor(log(u) / log(1 - probs)), u uniform in (0, 1]."""
        u = _pt.uniform(list(self._extend_shape(shape)), min=TINY, max=1.0, dtype=self.probs.dtype)
        return _pt.floor(_pt.log(u) / _pt.log1p(-self.probs))

    def entropy(self):
        p = self.probs
        return -((1.0 - p) * _pt.log(1.0 - p) + p * _pt.log(p)) / p

    def cdf(self, k):
        _check_count(k)
        return 1.0 - _pt.pow(1.0 - self.probs, k + 1)

    def kl_divergence(self, other):
        if not isinstance(other, Geometric):
            raise TypeError(f"Exacted type of other is geometric.Geometric, but got {type(other)}")
        p, q = self.probs, other.probs
        return p * _pt.log(p / q) + (1.0 - p) * _pt.log((1.0 - p) / (1.0 - q))
