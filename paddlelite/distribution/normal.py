"""Normal(loc, scale): the Gaussian, real or complex (a complex loc: real and imaginary parts independent, each
with variance scale**2 / 2)."""
import math
from collections.abc import Iterable

import numpy as np

from .. import tensor as _pt
from ..tensor import random as _random
from ..tensor.tensor_args import is_tensor_like
from . import distribution
from ._params import PARAMETER_TYPES, draw_shape, two_parameters
from .distribution import check_sample_shape, check_type
from ..framework.mode import in_dynamic_mode


def _is_complex_loc(dist, loc):
    return (isinstance(loc, complex) or isinstance(loc, np.ndarray) and loc.dtype.kind == "c"
            or dist._validate_args(loc) and loc.dtype.is_complex)


class Normal(distribution.Distribution):
    """The normal distribution N(loc, scale**2); with a complex loc, the circular complex normal."""

    def __init__(self, loc, scale, name=None):
        if not in_dynamic_mode():
            check_type(loc, "loc", (*PARAMETER_TYPES, complex), "Normal")
            check_type(scale, "scale", PARAMETER_TYPES, "Normal")
        self.name = name if name is not None else "Normal"
        self.all_arg_is_float = False
        if isinstance(loc, (tuple, list)):
            loc = np.array(loc)
            loc = loc.astype({np.dtype(np.float64): "float32", np.dtype(np.complex128): "complex64"}.get(
                loc.dtype, loc.dtype))
        if isinstance(scale, (tuple, list)):
            scale = np.array(scale, dtype=np.float32)
        self._complex_gaussian = _is_complex_loc(self, loc)
        if self._complex_gaussian:
            self.all_arg_is_float = isinstance(loc, complex) and isinstance(scale, (int, float))
            if isinstance(loc, (complex, np.ndarray)):
                part = "float32" if isinstance(loc, complex) or loc.dtype == np.complex64 else "float64"
                loc = _pt.complex(_pt.to_tensor(np.real(loc), part), _pt.to_tensor(np.imag(loc), part))
            if not is_tensor_like(scale):
                scale = _pt.to_tensor(scale, dtype=scale.dtype if isinstance(scale, np.ndarray) else "float32")
            self.loc, self.scale, self.dtype = loc, scale, loc.dtype.name
        else:
            self.loc, self.scale, self.dtype, self.all_arg_is_float = two_parameters(
                self, loc, scale, ("loc", "scale"), "Normal")
        super().__init__(self.loc.shape)

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return self.scale.pow(2)

    def _standard_draws(self, shape, seed=0):
        """Standard normal draws of `shape` (complex: E|z|^2 = 1)."""
        if not self._complex_gaussian:
            return _random.gaussian(shape, mean=0.0, std=1.0, seed=seed, dtype=self.dtype)
        part = "float32" if self.dtype == "complex64" else "float64"
        std = math.sqrt(0.5)
        return _pt.complex(_random.gaussian(shape, std=std, seed=seed, dtype=part),
                           _random.gaussian(shape, std=std, seed=seed and seed + 1, dtype=part))

    def sample(self, shape=(), seed=0):
        """Draws of shape `shape` + batch_shape (no gradient reaches the parameters through the draw itself)."""
        check_sample_shape(shape, Iterable)
        if not in_dynamic_mode():
            check_type(seed, "seed", (int,), "sample")
        shape = list(shape)
        out_shape = draw_shape(shape, self.loc + self.scale)
        output = _pt.add(self._standard_draws(out_shape, seed) * (_pt.zeros(out_shape, self.dtype) + self.scale),
                         self.loc)
        return _pt.reshape(output, shape) if self.all_arg_is_float else output

    def rsample(self, shape=()):
        """Reparameterised draws loc + eps * scale: gradients reach loc and scale."""
        check_sample_shape(shape, Iterable)
        return self.loc + self._standard_draws(list(self._extend_shape(tuple(shape)))) * self.scale

    def entropy(self):
        """0.5 + 0.5 log(2 pi) + log(scale) (complex: 1 + log(pi) + 2 log(scale)), over the batch shape."""
        zero = _pt.zeros(draw_shape([], self.loc + self.scale), self.scale.dtype if self._complex_gaussian
                         else (self.loc + self.scale).dtype)
        if self._complex_gaussian:
            return _pt.add(1.0 + zero, math.log(math.pi) + 2.0 * _pt.log(self.scale + zero))
        return _pt.add(0.5 + zero, 0.5 * math.log(2 * math.pi) + _pt.log(self.scale + zero))

    def log_prob(self, value):
        value = self._check_values_dtype_in_probs(self.loc, value)
        var = self.scale * self.scale
        diff = value - self.loc
        if self._complex_gaussian:
            return _pt.subtract(-1.0 * (diff.conj() * diff) / var, 2.0 * _pt.log(self.scale) + math.log(math.pi))
        return _pt.subtract(-1.0 * (diff * diff) / (2.0 * var), _pt.log(self.scale) + math.log(math.sqrt(2 * math.pi)))

    def probs(self, value):
        value = self._check_values_dtype_in_probs(self.loc, value)
        var = self.scale * self.scale
        diff = value - self.loc
        if self._complex_gaussian:
            return _pt.divide(_pt.exp(-1.0 * (diff.conj() * diff) / var), math.pi * var)
        return _pt.divide(_pt.exp(-1.0 * (diff * diff) / (2.0 * var)), math.sqrt(2 * math.pi) * self.scale)

    def kl_divergence(self, other):
        """KL(self || other) of two normals over the same number field."""
        if not in_dynamic_mode():
            check_type(other, "other", (Normal,), "kl_divergence")
        if self._complex_gaussian != other._complex_gaussian:
            raise ValueError("The kl divergence must be computed between two distributions in the same number "
                             "field.")
        var_ratio = self.scale / other.scale
        var_ratio = var_ratio * var_ratio
        t1 = (self.loc - other.loc) / other.scale
        if self._complex_gaussian:
            return var_ratio + t1.conj() * t1 - 1.0 - _pt.log(var_ratio)
        return _pt.add(0.5 * var_ratio, 0.5 * (t1 * t1 - 1.0 - _pt.log(var_ratio)))
