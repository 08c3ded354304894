"""Cauchy(loc, scale): the ratio of two normals; no mean or variance."""
import numbers

import numpy as np

from .. import tensor as _pt
from ..framework.tensor import Tensor
from ..static.framework import Variable
from ..tensor.tensor_args import is_tensor_like
from . import distribution
from .distribution import sample_by_rsample


def location_scale(loc, scale):
    """Cauchy's and Gumbel's two parameters as tensors (numbers: 0-D float32), broadcast together."""
    for value, name in ((loc, "loc"), (scale, "scale")):
        if not isinstance(value, (numbers.Real, Tensor, Variable)):
            raise TypeError(f"Expected type of {name} is Real|Variable|Value, but got {type(value)}")
    loc = _pt.full(shape=[], fill_value=loc) if isinstance(loc, numbers.Real) else loc
    scale = _pt.full(shape=[], fill_value=scale) if isinstance(scale, numbers.Real) else scale
    return tuple(_pt.broadcast_tensors([loc, scale])) if loc.shape != scale.shape else (loc, scale)


def _check_value(value):
    if not is_tensor_like(value):
        raise TypeError(f"Expected type of value is Variable or Value, but got {type(value)}")


class Cauchy(distribution.Distribution):
    """The Cauchy distribution with density 1 / (pi scale (1 + ((x - loc) / scale)^2))."""

    def __init__(self, loc, scale, name=None):
        self.name = name if name is not None else "Cauchy"
        self.loc, self.scale = location_scale(loc, scale)
        self.dtype = self.loc.dtype
        super().__init__(batch_shape=self.loc.shape, event_shape=())

    @property
    def mean(self):
        raise ValueError("Cauchy distribution has no mean.")

    @property
    def variance(self):
        raise ValueError("Cauchy distribution has no variance.")

    @property
    def stddev(self):
        raise ValueError("Cauchy distribution has no stddev.")

    sample = sample_by_rsample

    def rsample(self, shape=(), name=None):
        """loc + scale tan(pi (u - 1/2)), u uniform in [0, 1): gradients reach loc and scale."""
        if not isinstance(shape, (np.ndarray, Tensor, Variable, list, tuple)):
            raise TypeError(f"Expected type of shape is Sequence[int], but got {type(shape)}")
        shape = list(self._extend_shape(tuple(shape)))
        u = _pt.rand(shape, dtype=self.dtype)
        return _pt.add(self.loc.expand(shape), _pt.multiply(self.scale.expand(shape), _pt.tan(np.pi * (u - 0.5))))

    def prob(self, value):
        _check_value(value)
        return self.log_prob(value).exp()

    def log_prob(self, value):
        _check_value(value)
        value = self._check_values_dtype_in_probs(self.loc, value)
        loc, scale, value = _pt.broadcast_tensors([self.loc, self.scale, value])
        return _pt.subtract(-_pt.square(_pt.divide(_pt.subtract(value, loc), scale)).log1p(),
                            _pt.add(_pt.full(loc.shape, np.log(np.pi), dtype=self.dtype), scale.log()))

    def cdf(self, value):
        _check_value(value)
        value = self._check_values_dtype_in_probs(self.loc, value)
        loc, scale, value = _pt.broadcast_tensors([self.loc, self.scale, value])
        return _pt.atan(_pt.divide(_pt.subtract(value, loc), scale)) / np.pi + 0.5

    def entropy(self):
        return _pt.add(_pt.full(self.loc.shape, np.log(4 * np.pi), dtype=self.dtype), self.scale.log())

    def kl_divergence(self, other):
        if not isinstance(other, Cauchy):
            raise TypeError(f"Expected type of other is Cauchy, but got {type(other)}")
        t1 = _pt.add(_pt.pow(_pt.add(self.scale, other.scale), 2), _pt.pow(_pt.subtract(self.loc, other.loc), 2)).log()
        return _pt.subtract(t1, (4 * _pt.multiply(self.scale, other.scale)).log())
