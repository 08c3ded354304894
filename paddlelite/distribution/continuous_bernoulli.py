"""ContinuousBernoulli(probs): the density proportional to p^x (1-p)^(1-x) on [0, 1]. Near p = 1/2 (inside
`lims`) the closed forms lose precision, and their Taylor expansions at 1/2 stand in."""

import numpy as np

from .. import tensor as _pt
from ..framework.dtype import get_default_dtype
from . import distribution
from .distribution import check_sample_shape, sample_by_rsample


class ContinuousBernoulli(distribution.Distribution):
    """The continuous Bernoulli distribution; probs clipped to [eps, 1 - eps]."""

    def __init__(self, probs, lims=(0.499, 0.501)):
        self.dtype = get_default_dtype()
        self.probs = self._to_tensor(probs)
        self.lims = _pt.to_tensor(lims, dtype=self.dtype)
        eps = float(np.finfo(self.probs.dtype.name).eps)
        self.probs = _pt.clip(self.probs, min=eps, max=1 - eps)
        super().__init__(self.probs.shape)

    def _to_tensor(self, probs):
        if isinstance(probs, (float, int)):
            return _pt.to_tensor([probs], dtype=self.dtype)
        self.dtype = probs.dtype
        return probs

    def _const(self, value):
        return _pt.to_tensor(value, dtype=self.dtype)

    def _outside_lims(self):
        """Where probs is far enough from 1/2 for the closed forms."""
        return _pt.logical_or(_pt.less_equal(self.probs, self.lims[0]), _pt.greater_than(self.probs, self.lims[1]))

    def _cut_probs(self):
        return _pt.where(self._outside_lims(), self.probs, self.lims[0] * _pt.ones_like(self.probs))

    def _tanh_inverse(self, value):
        return 0.5 * (_pt.log1p(value) - _pt.log1p(-value))

    def _log_constant(self):
        """log C(p), C the normaliser 2 atanh(1 - 2p) / (1 - 2p)."""
        cut = self._cut_probs()
        half = self._const(0.5)
        below = _pt.where(_pt.less_equal(cut, half), cut, _pt.zeros_like(cut))
        above = _pt.where(_pt.greater_equal(cut, half), cut, _pt.ones_like(cut))
        closed = _pt.log(2.0 * _pt.abs(self._tanh_inverse(1.0 - 2.0 * cut))) - _pt.where(
            _pt.less_equal(cut, half), _pt.log1p(-2.0 * below), _pt.log(2.0 * above - 1.0))
        x = _pt.square(self.probs - 0.5)
        taylor = _pt.log(self._const(2.0)) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return _pt.where(self._outside_lims(), closed, taylor)

    @property
    def mean(self):
        cut = self._cut_probs()
        closed = _pt.divide(cut, 2.0 * cut - 1.0) + _pt.divide(self._const(1.0),
                                                                2.0 * self._tanh_inverse(1.0 - 2.0 * cut))
        x = self.probs - 0.5
        return _pt.where(self._outside_lims(), closed, 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * _pt.square(x)) * x)

    @property
    def variance(self):
        cut = self._cut_probs()
        closed = _pt.divide(cut * (cut - 1.0), _pt.square(1.0 - 2.0 * cut)) + _pt.divide(
            self._const(1.0), _pt.square(_pt.log1p(-cut) - _pt.log(cut)))
        x = _pt.square(self.probs - 0.5)
        return _pt.where(self._outside_lims(), closed, 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x)

    sample = sample_by_rsample

    def rsample(self, shape=()):
        """icdf of uniform draws: gradients reach probs."""
        check_sample_shape(shape)
        u = _pt.uniform(shape=list(tuple(shape) + tuple(self.batch_shape)), dtype=self.dtype, min=0, max=1)
        return self.icdf(u)

    def log_prob(self, value):
        value = _pt.cast(value, self.dtype)
        eps = float(np.finfo(self.probs.dtype.name).eps)
        cross_entropy = _pt.nan_to_num(value * _pt.log(self.probs) + (1.0 - value) * _pt.log(1 - self.probs),
                                       neginf=-eps)
        return self._log_constant() + cross_entropy

    def prob(self, value):
        return _pt.exp(self.log_prob(value))

    def entropy(self):
        log_p, log_1mp = _pt.log(self.probs), _pt.log1p(-self.probs)
        return _pt.where(_pt.equal(self.probs, self._const(0.5)), _pt.full_like(self.probs, 0.0),
                         -self._log_constant() + self.mean * (log_1mp - log_p) - log_1mp)

    def cdf(self, value):
        value = _pt.cast(value, self.dtype)
        cut = self._cut_probs()
        cdfs = (_pt.pow(cut, value) * _pt.pow(1.0 - cut, 1.0 - value) + cut - 1.0) / (2.0 * cut - 1.0)
        inside = _pt.where(self._outside_lims(), cdfs, value)
        return _pt.where(_pt.less_equal(value, self._const(0.0)), _pt.zeros_like(value),
                         _pt.where(_pt.greater_equal(value, self._const(1.0)), _pt.ones_like(value), inside))

    def icdf(self, value):
        value = _pt.cast(value, self.dtype)
        cut = self._cut_probs()
        return _pt.where(self._outside_lims(), (_pt.log1p(-cut + value * (2.0 * cut - 1.0)) - _pt.log1p(-cut))
                         / (_pt.log(cut) - _pt.log1p(-cut)), value)

    def kl_divergence(self, other):
        if self.batch_shape != other.batch_shape:
            raise ValueError("KL divergence of two Continuous Bernoulli distributions should share the same "
                             "`batch_shape`.")
        log_q, log_1mq = _pt.log(other.probs), _pt.log1p(-other.probs)
        return -self.entropy() - (other._log_constant() + self.mean * (log_q - log_1mq) + log_1mq)
