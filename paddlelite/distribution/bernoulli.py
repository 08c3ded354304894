"""Bernoulli(probs): 1 with probability probs, else 0."""
import numpy as np

from .. import tensor as _pt
from ..framework.mode import in_dynamic_mode, no_grad
from ..framework.tensor import Tensor
from ..nn import functional as _F
from ..static.framework import Variable
from ..tensor.sampling import bernoulli as _bernoulli
from . import exponential_family
from .distribution import check_type

_SHAPE_TYPES = (np.ndarray, Tensor, Variable, list, tuple)


class Bernoulli(exponential_family.ExponentialFamily):
    """The Bernoulli distribution; probs are clipped to [eps, 1 - eps] of their dtype."""

    def __init__(self, probs, name=None):
        self.name = name or "Bernoulli"
        self.probs, self.dtype = self._float_parameter(probs, "probs", self.name)
        eps = float(np.finfo(self.dtype).eps)
        self.probs = _pt.clip(self.probs, min=eps, max=1 - eps).astype(self.dtype)
        self.logits = self._probs_to_logits(self.probs, is_binary=True)
        super().__init__(batch_shape=self.probs.shape, event_shape=())

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return _pt.multiply(self.probs, 1 - self.probs)

    def sample(self, shape=()):
        """0/1 draws (in the dtype of probs) of shape `shape` + batch_shape."""
        if not in_dynamic_mode():
            check_type(shape, "shape", _SHAPE_TYPES, self.name + "_sample")
        shape = list(self._extend_shape(tuple(shape)))
        with no_grad():
            return _bernoulli(self.probs.expand(shape))

    def rsample(self, shape=(), temperature=1.0):
        """Relaxed (Gumbel-softmax / concrete) draws: logistic noise plus the logits, over `temperature`; their
        sigmoid is a differentiable stand-in for a 0/1 draw."""
        if not in_dynamic_mode():
            check_type(shape, "shape", _SHAPE_TYPES, self.name + "_rsample")
            check_type(temperature, "temperature", (float,), self.name + "_rsample")
        shape = list(self._extend_shape(tuple(shape)))
        temperature = _pt.full(shape=[], fill_value=temperature, dtype=self.dtype)
        probs = self.probs.expand(shape)
        u = _pt.rand(shape, dtype=self.dtype)
        return _pt.divide(_pt.add(_pt.subtract(u.log(), (-u).log1p()), _pt.subtract(probs.log(), (-probs).log1p())),
                          temperature)

    def cdf(self, value):
        if not in_dynamic_mode():
            check_type(value, "value", (Tensor, Variable), self.name + "_cdf")
        value = self._check_values_dtype_in_probs(self.probs, value)
        probs, value = _pt.broadcast_tensors([self.probs, value])
        zeros, ones = _pt.zeros_like(probs), _pt.ones_like(probs)
        return _pt.where(value < 0, zeros, _pt.where(value < 1, _pt.subtract(ones, probs), ones))

    def log_prob(self, value):
        if not in_dynamic_mode():
            check_type(value, "value", (Tensor, Variable), self.name + "_log_prob")
        value = self._check_values_dtype_in_probs(self.probs, value)
        logits, value = _pt.broadcast_tensors([self.logits, value])
        return -_F.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def prob(self, value):
        if not in_dynamic_mode():
            check_type(value, "value", (Tensor, Variable), self.name + "_prob")
        return self.log_prob(value).exp()

    def entropy(self):
        return _F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def kl_divergence(self, other):
        if not in_dynamic_mode():
            check_type(other, "other", (Bernoulli,), self.name + "_kl_divergence")
        a, b = self.logits, other.logits
        pa, one_minus_pa = _F.sigmoid(a), _F.sigmoid(-a)
        return _pt.add(_pt.subtract(_pt.multiply(-_F.softplus(-a), pa), _pt.multiply(-_F.softplus(-b), pa)),
                       _pt.subtract(_pt.multiply(-_F.softplus(a), one_minus_pa),
                                    _pt.multiply(-_F.softplus(b), one_minus_pa)))

    @property
    def _natural_parameters(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        return _F.softplus(x)
