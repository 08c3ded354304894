"""Poisson(rate): counts of events at a constant rate."""

import numpy as np

from .. import tensor as _pt
from ..framework.dtype import get_default_dtype
from ..framework.mode import in_dynamic_mode, no_grad
from ..static.control_flow import cond as _cond
from . import distribution
from .distribution import check_sample_shape


class Poisson(distribution.Distribution):
    """The Poisson distribution; entropy and KL sum over the support up to max(rate) + 30 sqrt(max(rate))."""

    def __init__(self, rate):
        self.dtype = get_default_dtype()
        self.rate = self._to_tensor(rate)
        super().__init__(self.rate.shape)

    def _to_tensor(self, rate):
        if isinstance(rate, (float, int)):
            return _pt.to_tensor([rate], dtype=self.dtype)
        self.dtype = rate.dtype.name
        return rate

    @property
    def mean(self):
        return self.rate

    @property
    def variance(self):
        return self.rate

    def sample(self, shape=()):
        check_sample_shape(shape)
        rate = _pt.broadcast_to(self.rate, shape=list(tuple(shape) + tuple(self.batch_shape)))
        with no_grad():
            return _pt.poisson(rate)

    def _enumerate_bounded_support(self, rate):
        """0 .. max(rate + 30 s) - 1, s = sqrt(max(rate)) when max(rate) >= 1, else 1."""
        top = _pt.max(rate)
        at_least_one = _pt.greater_equal(top, _pt.to_tensor(1.0, dtype=self.dtype))
        if in_dynamic_mode():
            spread = _pt.sqrt(top) if bool(at_least_one) else _pt.ones_like(rate, dtype=self.dtype)
        else:
            spread = _cond(at_least_one, lambda: _pt.sqrt(top),
                                         lambda: _pt.to_tensor(1.0, dtype=self.dtype))
        return _pt.arange(0, _pt.max(_pt.cast(rate + 30 * spread, "int32")), dtype=self.dtype)

    def entropy(self):
        values = self._enumerate_bounded_support(self.rate).reshape((-1,) + (1,) * len(self.batch_shape))
        log_prob = self.log_prob(values)
        proposed = -(_pt.exp(log_prob) * log_prob).sum(0)
        return _pt.multiply(proposed, _pt.cast(_pt.not_equal(self.rate, _pt.to_tensor(0.0, dtype=self.dtype)),
                                               self.dtype))

    def log_prob(self, value):
        value = _pt.cast(value, self.dtype)
        eps = float(np.finfo(self.rate.dtype.name).eps)
        return _pt.nan_to_num(-self.rate + value * _pt.log(self.rate) - _pt.lgamma(value + 1), neginf=-eps)

    def prob(self, value):
        return _pt.exp(self.log_prob(value))

    def kl_divergence(self, other):
        if self.batch_shape != other.batch_shape:
            raise ValueError("KL divergence of two poisson distributions should share the same `batch_shape`.")
        support = self._enumerate_bounded_support(_pt.max(_pt.maximum(self.rate, other.rate)))
        common = _pt.arange(0, _pt.max(support), dtype=self.dtype).reshape((-1,) + (1,) * len(self.batch_shape))
        log_p, log_q = self.log_prob(common), other.log_prob(common)
        return (_pt.exp(log_p) * (log_p - log_q)).sum(0)
