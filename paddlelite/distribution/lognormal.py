"""LogNormal(loc, scale): exp of a Normal(loc, scale) draw."""
from .. import tensor as _pt
from .normal import Normal
from .transform import ExpTransform
from .transformed_distribution import TransformedDistribution


class LogNormal(TransformedDistribution):
    """The log-normal distribution: log(x) ~ Normal(loc, scale)."""

    def __init__(self, loc, scale):
        self._base = Normal(loc=loc, scale=scale)
        self.loc, self.scale = self._base.loc, self._base.scale
        super().__init__(self._base, [ExpTransform()])

    @property
    def mean(self):
        return _pt.exp(self._base.mean + self._base.variance / 2)

    @property
    def variance(self):
        return _pt.expm1(self._base.variance) * _pt.exp(2 * self._base.mean + self._base.variance)

    def entropy(self):
        return self._base.entropy() + self._base.mean

    def probs(self, value):
        return _pt.exp(self.log_prob(value))

    def kl_divergence(self, other):
        return self._base.kl_divergence(other._base)
