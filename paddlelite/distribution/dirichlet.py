"""Dirichlet(concentration): distributions over the probability simplex of the last axis."""
import math

from .. import tensor as _pt
from ..tensor.sampling import standard_gamma as _standard_gamma
from ..framework.mode import no_grad
from . import exponential_family
from .gamma import standard_gamma_rsample


class Dirichlet(exponential_family.ExponentialFamily):
    """The Dirichlet distribution: event shape [K], batch shape the leading dims of `concentration`."""

    def __init__(self, concentration):
        if concentration.dim() < 1 or math.prod(concentration.shape) == 0:
            raise ValueError("`concentration` parameter must be at least one dimensional")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:])

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, keepdim=True)

    @property
    def variance(self):
        total = self.concentration.sum(-1, keepdim=True)
        return self.concentration * (total - self.concentration) / (total.pow(2) * (total + 1))

    def rsample(self, shape=()):
        """Normalised gamma draws: gradients reach the concentration."""
        draws = standard_gamma_rsample(self.concentration.expand(list(self._extend_shape(tuple(shape)))))
        return draws / draws.sum(-1, keepdim=True)

    def sample(self, shape=()):
        with no_grad():
            draws = _standard_gamma(self.concentration.expand(list(self._extend_shape(tuple(shape)))))
            return draws / draws.sum(-1, keepdim=True)

    def prob(self, value):
        return _pt.exp(self.log_prob(value))

    def log_prob(self, value):
        c = self.concentration
        return (_pt.log(value) * (c - 1.0)).sum(-1) + _pt.lgamma(c.sum(-1)) - _pt.lgamma(c).sum(-1)

    def entropy(self):
        c = self.concentration
        total = c.sum(-1)
        k = c.shape[-1]
        return (_pt.lgamma(c).sum(-1) - _pt.lgamma(total) - (k - total) * _pt.digamma(total)
                - ((c - 1.0) * _pt.digamma(c)).sum(-1))

    @property
    def _natural_parameters(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - _pt.lgamma(x.sum(-1))
