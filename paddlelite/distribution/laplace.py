"""Laplace(loc, scale): the double exponential."""
import numbers

import numpy as np

from .. import tensor as _pt
from ..tensor.tensor_args import is_tensor_like
from . import distribution
from .distribution import sample_by_rsample


def _as_tensor(value, name):
    if isinstance(value, numbers.Real):
        return _pt.full(shape=[], fill_value=value)
    if not is_tensor_like(value):
        raise TypeError(f"Expected type of {name} is Real|Variable, but got {type(value)}")
    return value


class Laplace(distribution.Distribution):
    """The Laplace distribution with density exp(-|x - loc| / scale) / (2 scale)."""

    def __init__(self, loc, scale):
        loc, scale = _as_tensor(loc, "loc"), _as_tensor(scale, "scale")
        if (len(scale.shape) > 0 or len(loc.shape) > 0) and loc.dtype == scale.dtype:
            loc, scale = _pt.broadcast_tensors([loc, scale])
        self.loc, self.scale = loc, scale
        super().__init__(self.loc.shape)

    @property
    def mean(self):
        return self.loc

    @property
    def stddev(self):
        return 2 ** 0.5 * self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def _validate_value(self, value):
        """(loc, scale, value) broadcast together, value in scale's dtype."""
        if isinstance(value, numbers.Real):
            value = _pt.full(shape=[], fill_value=value)
        if value.dtype != self.scale.dtype:
            value = _pt.cast(value, self.scale.dtype)
        if len(self.scale.shape) > 0 or len(self.loc.shape) > 0 or len(value.shape) > 0:
            return tuple(_pt.broadcast_tensors([self.loc, self.scale, value]))
        return self.loc, self.scale, value

    def log_prob(self, value):
        loc, scale, value = self._validate_value(value)
        return -_pt.log(2 * scale) - _pt.abs(value - loc) / scale

    def entropy(self):
        return 1 + _pt.log(2 * self.scale)

    def cdf(self, value):
        loc, scale, value = self._validate_value(value)
        return 0.5 - 0.5 * (value - loc).sign() * _pt.expm1(-(value - loc).abs() / scale)

    def icdf(self, value):
        loc, scale, value = self._validate_value(value)
        term = value - 0.5
        return loc - scale * term.sign() * _pt.log1p(-2 * term.abs())

    sample = sample_by_rsample

    def rsample(self, shape=()):
        """loc - scale sign(u) log(1 - |u|), u uniform in (-1, 1): gradients reach loc and scale."""
        eps = 2.22045e-16 if self.loc.dtype.name in ("float64", "complex128") else 1.19209e-07
        u = _pt.uniform(list(self._extend_shape(shape)), min=float(np.nextafter(-1, 1)) + eps / 2,
                        max=1.0 - eps / 2, dtype=self.loc.dtype)
        return self.loc - self.scale * u.sign() * _pt.log1p(-u.abs())

    def kl_divergence(self, other):
        t = _pt.abs(self.loc - other.loc)
        return (self.scale * _pt.exp(-t / self.scale) + t) / other.scale + _pt.log(other.scale / self.scale) - 1
