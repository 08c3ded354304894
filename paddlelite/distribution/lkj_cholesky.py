"""LKJCholesky(dim, concentration): Cholesky factors of correlation matrices whose density is proportional to
det(C)^(concentration - 1), drawn by the onion method or the C-vine method (Lewandowski, Kurowicka, Joe 2009)."""
import math

import numpy as np

from .. import tensor as _pt
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor
from ..nn import functional as _F
from ..static.framework import Variable
from . import distribution
from .beta import Beta
from .distribution import check_sample_shape, check_type

__all__ = ["LKJCholesky"]


def mvlgamma(a, p):
    """The multivariate log-gamma function of dimension p."""
    j = _pt.arange(1, p + 1, dtype=a.dtype)
    return p * (p - 1) / 4 * math.log(math.pi) + _pt.sum(_pt.lgamma(a.unsqueeze(-1) + (1 - j) / 2), axis=-1)


def _strictly_lower(dim):
    """The (row, col) positions below the diagonal of a dim x dim matrix, row by row."""
    return [(r, c) for r in range(dim) for c in range(r)]


class LKJCholesky(distribution.Distribution):
    """The LKJ distribution over lower Cholesky factors of dim x dim correlation matrices."""

    def __init__(self, dim=2, concentration=1.0, sample_method="onion"):
        if not in_dynamic_mode():
            check_type(dim, "dim", (int, Tensor, Variable), "LKJCholesky")
        self.concentration, self.dtype = self._float_parameter(concentration, "concentration", "LKJCholesky",
                                                               (float, list, tuple))
        self.dim = dim
        if not dim >= 2:
            raise ValueError(f"Expected dim greater than or equal to 2. Found dim={dim}.")
        if not isinstance(dim, int):
            raise TypeError(f"Expected dim to be an integer. Found dim={dim}.")
        if in_dynamic_mode() and not bool(_pt.all(self.concentration > 0)):
            raise ValueError("The arg of `concentration` must be positive.")
        self.sample_method = sample_method
        marginal = self.concentration + 0.5 * (dim - 2)
        if sample_method == "onion":  # row i's squared norm below the diagonal: Beta(i/2, marginal - (i-1)/2)
            offset = np.concatenate([[0.0], np.arange(dim - 1)])
            self._beta = Beta(_pt.to_tensor(offset + 0.5, dtype=self.concentration.dtype),
                              marginal.unsqueeze(-1) - _pt.to_tensor(0.5 * offset, dtype=self.concentration.dtype))
        elif sample_method == "cvine":  # the partial correlation at (r, c), rescaled to [0, 1]
            offset = np.array([0.5 * c for _, c in _strictly_lower(dim)])
            conc = marginal.unsqueeze(-1) - _pt.to_tensor(offset, dtype=self.concentration.dtype)
            self._beta = Beta(conc, conc)
        else:
            raise ValueError("`method` should be one of 'cvine' or 'onion'.")
        super().__init__(self.concentration.shape, (dim, dim))

    def _onion(self, sample_shape):
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u = _pt.randn(list(self._extend_shape(sample_shape)), dtype=y.dtype).tril(-1)
        norms = u.norm(axis=-1, keepdim=True)
        direction = u / _pt.where(norms > 0, norms, _pt.ones_like(norms))  # row 0 stays zero
        w = _pt.sqrt(y) * direction
        tiny = float(np.finfo(self.dtype).tiny)
        return w + _pt.diag_embed(_pt.clip(1 - _pt.sum(w ** 2, axis=-1), min=tiny).sqrt())

    def _cvine(self, sample_shape):
        positions = len(_strictly_lower(self.dim))
        partial = (2 * self._beta.sample(sample_shape) - 1).reshape(  # (Beta's draws drop a trailing 1)
            [*sample_shape, *self.concentration.shape, positions])
        placement = np.zeros((positions, self.dim * self.dim))
        for k, (r, c) in enumerate(_strictly_lower(self.dim)):
            placement[k, r * self.dim + c] = 1.0
        r = _pt.matmul(partial, _pt.to_tensor(placement, dtype=partial.dtype))
        r = r.reshape([*partial.shape[:-1], self.dim, self.dim])
        tiny = float(np.finfo(self.dtype).tiny)
        r = _pt.clip(r, min=-1 + tiny, max=1 - tiny)
        remaining = _pt.cumprod(_pt.sqrt(1 - r ** 2), dim=-1)
        shifted = _F.pad(remaining[..., :-1], [0, 0] * (remaining.ndim - 1) + [1, 0], mode="constant", value=1.0)
        return (r + _pt.eye(self.dim, dtype=r.dtype)) * shifted

    def sample(self, sample_shape=()):
        """Lower Cholesky factors of shape sample_shape + batch_shape + [dim, dim]."""
        check_sample_shape(sample_shape)
        draws = self._onion(sample_shape) if self.sample_method == "onion" else self._cvine(sample_shape)
        return draws.reshape([*sample_shape, *self.concentration.shape, self.dim, self.dim])

    def log_prob(self, value):
        diag = _pt.diagonal(value, offset=0, axis1=-1, axis2=-2)[..., 1:]
        order = _pt.arange(2, self.dim + 1, dtype=self.concentration.dtype)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized = _pt.sum(order * _pt.log(diag), axis=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        normalizer = 0.5 * dm1 * math.log(math.pi) + mvlgamma(alpha - 0.5, dm1) - _pt.lgamma(alpha) * dm1
        return unnormalized - normalizer
