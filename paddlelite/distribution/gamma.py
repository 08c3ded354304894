"""Gamma(concentration, rate), with reparameterised draws: a uniform u through the inverse of the regularized
incomplete gamma function (op gammaincinv), whose derivative in the concentration is the implicit
reparameterisation gradient."""
import numpy as np

from .. import tensor as _pt
from ..tensor.sampling import standard_gamma as _standard_gamma
from ..framework.dtype import get_default_dtype
from ..framework.mode import in_dynamic_mode, no_grad
from ..framework.tensor import Tensor
from ..ops import dispatch as _dispatch
from ..ops import special as _special_ops
from ..static.framework import Variable
from . import exponential_family
from .distribution import check_type

def standard_gamma_rsample(concentration):
    """Gamma(concentration, 1) draws shaped like `concentration`, differentiable in it."""
    tiny = float(np.finfo(concentration.dtype.name).tiny)
    u = _pt.uniform(list(concentration.shape), dtype=concentration.dtype, min=tiny, max=1.0)
    return _dispatch.apply(_special_ops.GAMMAINCINV, concentration, u)

class Gamma(exponential_family.ExponentialFamily):
    """The gamma distribution with density rate^a x^(a-1) e^(-rate x) / Gamma(a), a = concentration."""

    def __init__(self, concentration, rate):
        if not in_dynamic_mode():
            check_type(concentration, "concentration", (float, Tensor, Variable), "Gamma")
            check_type(rate, "rate", (float, Tensor, Variable), "Gamma")
        if self._validate_args(concentration, rate):
            self.concentration, self.rate = concentration, rate
            self.dtype = concentration.dtype.name
        else:
            self.concentration, self.rate = self._to_tensor(concentration, rate)
            self.dtype = get_default_dtype()
        super().__init__(self.concentration.shape)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def prob(self, value):
        return _pt.exp(self.log_prob(value))

    def log_prob(self, value):
        return (self.concentration * _pt.log(self.rate) + (self.concentration - 1) * _pt.log(value)
                - self.rate * value - _pt.lgamma(self.concentration))

    def entropy(self):
        a = self.concentration
        return a - _pt.log(self.rate) + _pt.lgamma(a) + (1.0 - a) * _pt.digamma(a)

    def sample(self, shape=()):
        """Draws of shape `shape` + batch_shape (no gradient)."""
        shape = list(self._extend_shape(shape))
        with no_grad():
            return _standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)

    def rsample(self, shape=()):
        """Reparameterised draws: gradients reach concentration and rate."""
        shape = list(self._extend_shape(shape))
        return standard_gamma_rsample(self.concentration.expand(shape)) / self.rate.expand(shape)

    def kl_divergence(self, other):
        if not isinstance(other, Gamma):
            raise TypeError(f"Expected type of other is Exponential, but got {type(other)}")
        a, b = self.concentration, other.concentration
        return (b * _pt.log(self.rate / other.rate) + _pt.lgamma(b) - _pt.lgamma(a)
                + (a - b) * _pt.digamma(a) + (other.rate - self.rate) * (a / self.rate))

    @property
    def _natural_parameters(self):
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        return _pt.lgamma(x + 1) + (x + 1) * _pt.log(-y.reciprocal())
