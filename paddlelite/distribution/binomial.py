"""Binomial(total_count, probs): successes in total_count Bernoulli trials."""

import numpy as np

from .. import tensor as _pt
from ..framework.dtype import get_default_dtype
from ..framework.mode import no_grad
from . import distribution
from .distribution import check_sample_shape


class Binomial(distribution.Distribution):
    """The binomial distribution; total_count and probs broadcast together, in the dtype of probs."""

    def __init__(self, total_count, probs):
        self.dtype = get_default_dtype()
        self.total_count, self.probs = self._to_tensor(total_count, probs)
        super().__init__(self.total_count.shape)

    def _to_tensor(self, total_count, probs):
        if isinstance(probs, float):
            probs = _pt.to_tensor(probs, dtype=self.dtype)
        else:
            self.dtype = probs.dtype
        total_count = _pt.to_tensor(total_count, dtype=self.dtype) if isinstance(total_count, int) else \
            _pt.cast(total_count, self.dtype)
        return _pt.broadcast_tensors([total_count, probs])

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, shape=()):
        """Counts (in the dtype of probs) of shape `shape` + batch_shape."""
        check_sample_shape(shape)
        with no_grad():
            out_shape = list(tuple(shape) + tuple(self.batch_shape))
            count = _pt.broadcast_to(self.total_count, shape=out_shape)
            probs = _pt.broadcast_to(self.probs, shape=out_shape)
            return _pt.cast(_pt.binomial(_pt.cast(count, "int32"), probs), self.dtype)

    def _enumerate_support(self):
        """0 .. max(total_count), shaped to broadcast against the batch."""
        values = _pt.arange(1 + _pt.max(self.total_count), dtype=self.dtype)
        return values.reshape((-1,) + (1,) * len(self.batch_shape))

    def entropy(self):
        log_prob = self.log_prob(self._enumerate_support())
        return -(_pt.exp(log_prob) * log_prob).sum(0)

    def log_prob(self, value):
        value = _pt.cast(value, self.dtype)
        n = self.total_count
        log_comb = _pt.lgamma(n + 1.0) - _pt.lgamma(n - value + 1.0) - _pt.lgamma(value + 1.0)
        eps = float(np.finfo(self.probs.dtype.name).eps)
        probs = _pt.clip(self.probs, min=eps, max=1 - eps)
        return _pt.nan_to_num(log_comb + value * _pt.log(probs) + (n - value) * _pt.log(1 - probs), neginf=-eps)

    def prob(self, value):
        return _pt.exp(self.log_prob(value))

    def kl_divergence(self, other):
        support = self._enumerate_support()
        log_p, log_q = self.log_prob(support), other.log_prob(support)
        return _pt.multiply(_pt.exp(log_p), _pt.subtract(log_p, log_q)).sum(0)
