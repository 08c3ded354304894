"""Exponential(rate): waiting times of a Poisson process."""
import numpy as np

from .. import tensor as _pt
from . import exponential_family
from .distribution import sample_by_rsample

TINY = float(np.finfo(np.float32).tiny)  # the low end of the uniform draws inverted through -log(u)


class Exponential(exponential_family.ExponentialFamily):
    """The exponential distribution with density rate * exp(-rate * x) on x >= 0."""

    def __init__(self, rate):
        self.rate, self.dtype = self._float_parameter(rate, "rate", "Exponential")
        super().__init__(self.rate.shape)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    sample = sample_by_rsample

    def rsample(self, shape=()):
        """-log(u) / rate, u uniform in (0, 1]: gradients reach rate."""
        u = _pt.uniform(list(self._extend_shape(shape)), min=TINY, max=1.0, dtype=self.rate.dtype)
        return -_pt.log(u) / self.rate

    def prob(self, value):
        return self.rate * _pt.exp(-self.rate * value)

    def log_prob(self, value):
        return _pt.log(self.rate) - self.rate * value

    def entropy(self):
        return 1.0 - _pt.log(self.rate)

    def cdf(self, value):
        return 1.0 - _pt.exp(-self.rate * value)

    def icdf(self, value):
        return -_pt.log1p(-value) / self.rate

    def kl_divergence(self, other):
        if not isinstance(other, Exponential):
            raise TypeError(f"Expected type of other is Exponential, but got {type(other)}")
        ratio = other.rate / self.rate
        return -_pt.log(ratio) + ratio - 1

    @property
    def _natural_parameters(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -_pt.log(-x)
