"""Multinomial(total_count, probs): category counts of total_count Categorical draws."""
from collections.abc import Iterable

from .. import tensor as _pt
from ..nn import functional as _F
from . import categorical, distribution
from .distribution import check_sample_shape


class Multinomial(distribution.Distribution):
    """The multinomial distribution; `probs` (last axis: the categories) is normalised to sum to 1."""

    def __init__(self, total_count, probs):
        if not isinstance(total_count, int) or total_count < 1:
            raise ValueError("input parameter total_count must be int type and grater than zero.")
        if probs.dim() < 1:
            raise ValueError("probs parameter should not be none and over one dimension")
        self.probs = probs / probs.sum(-1, keepdim=True)
        self.total_count = total_count
        self._categorical = categorical.Categorical(logits=self._probs_to_logits(probs))
        super().__init__(probs.shape[:-1], probs.shape[-1:])

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def prob(self, value):
        return _pt.exp(self.log_prob(value))

    def log_prob(self, value):
        if _pt.is_integer(value):
            value = _pt.cast(value, self.probs.dtype)
        logits, value = _pt.broadcast_tensors([_pt.log(self.probs), value])
        logits = _pt.where((value == 0) & _pt.isinf(logits), _pt.zeros_like(logits), logits)  # 0 log 0 = 0
        return _pt.lgamma(value.sum(-1) + 1) - _pt.lgamma(value + 1).sum(-1) + (value * logits).sum(-1)

    def sample(self, shape=()):
        """Counts (in the dtype of probs) of shape `shape` + batch_shape + [K]."""
        check_sample_shape(shape, Iterable)
        draws = self._categorical.sample([self.total_count, *list(shape)])
        return _F.one_hot(draws, self.probs.shape[-1]).cast(self.probs.dtype).sum(0)

    def entropy(self):
        n = _pt.full(shape=[], fill_value=self.total_count, dtype=self.probs.dtype)
        support = _pt.arange(self.total_count + 1, dtype=self.probs.dtype).reshape(
            (-1,) + (1,) * len(self.probs.shape))[1:]
        binomial_pmf = _pt.exp(self._binomial_logpmf(n, support))
        return (n * self._categorical.entropy() - _pt.lgamma(n + 1)
                + (binomial_pmf * _pt.lgamma(support + 1)).sum([0, -1]))

    def _binomial_logpmf(self, count, value):
        """log Binomial(count, probs) pmf at value, per category (the marginals' pmf)."""
        logits = self._probs_to_logits(self.probs, is_binary=True)
        clipped = (logits.clip(min=0) + logits - logits.clip(max=0)) / 2
        norm = count * clipped + count * _pt.log1p(_pt.exp(-_pt.abs(logits))) - _pt.lgamma(count + 1)
        return value * logits - _pt.lgamma(value + 1) - _pt.lgamma(count - value + 1) - norm
