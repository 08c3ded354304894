"""Beta(alpha, beta): the two-category Dirichlet, on [0, 1]."""
import numbers

from .. import tensor as _pt
from . import dirichlet, exponential_family


class Beta(exponential_family.ExponentialFamily):
    """The beta distribution with density x^(alpha-1) (1-x)^(beta-1) / B(alpha, beta)."""

    def __init__(self, alpha, beta):
        if isinstance(alpha, numbers.Real):
            alpha = _pt.full(shape=[], fill_value=alpha)
        if isinstance(beta, numbers.Real):
            beta = _pt.full(shape=[], fill_value=beta)
        self.alpha, self.beta = _pt.broadcast_tensors([alpha, beta])
        self._dirichlet = dirichlet.Dirichlet(_pt.stack([self.alpha, self.beta], -1))
        super().__init__(self._dirichlet._batch_shape)

    @property
    def mean(self):
        return self.alpha / (self.alpha + self.beta)

    @property
    def variance(self):
        total = self.alpha + self.beta
        return self.alpha * self.beta / (total.pow(2) * (total + 1))

    def prob(self, value):
        return _pt.exp(self.log_prob(value))

    def log_prob(self, value):
        return self._dirichlet.log_prob(_pt.stack([value, 1.0 - value], -1))

    def sample(self, shape=()):
        return _pt.squeeze(self._dirichlet.sample(tuple(shape))[..., 0], axis=-1)

    def rsample(self, shape=()):
        """Reparameterised draws (the first component of a Dirichlet draw): gradients reach alpha and beta."""
        return _pt.squeeze(self._dirichlet.rsample(tuple(shape))[..., 0], axis=-1)

    def entropy(self):
        return self._dirichlet.entropy()

    @property
    def _natural_parameters(self):
        return (self.alpha, self.beta)

    def _log_normalizer(self, x, y):
        return _pt.lgamma(x) + _pt.lgamma(y) - _pt.lgamma(x + y)
