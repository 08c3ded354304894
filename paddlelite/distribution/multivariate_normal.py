"""MultivariateNormal(loc, covariance_matrix | precision_matrix | scale_tril)."""
import math

from .. import linalg as _linalg
from .. import tensor as _pt
from ..framework.dtype import get_default_dtype
from . import distribution
from .distribution import check_sample_shape, sample_by_rsample


def _swap_last(t):
    perm = list(range(len(t.shape)))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return t.transpose(perm)


def precision_to_scale_tril(precision):
    """The lower Cholesky factor L of the covariance, from the precision matrix P = (L L^T)^-1."""
    flipped = _pt.flip(_linalg.cholesky(_pt.flip(precision, (-2, -1))), (-2, -1))
    return _linalg.triangular_solve(_swap_last(flipped), _pt.eye(precision.shape[-1], dtype=precision.dtype),
                                    upper=False)


def batch_mahalanobis(bL, bx):
    """|L^-1 x|^2 for a batch of lower factors L and vectors x (x's batch dims broadcast against L's)."""
    n = bx.shape[-1]
    bx_batch_shape = bx.shape[:-1]
    bL_batch_dims = bL.dim() - 2
    outer = len(bx_batch_shape) - bL_batch_dims
    old_batch_dims = outer + bL_batch_dims
    new_batch_dims = outer + 2 * bL_batch_dims
    new_shape = tuple(bx.shape[:outer])
    for sL, sx in zip(bL.shape[:-2], bx.shape[outer:-1]):
        new_shape += (sx // sL, sL)
    bx = bx.reshape(new_shape + (n,))
    perm = (list(range(outer)) + list(range(outer, new_batch_dims, 2)) + list(range(outer + 1, new_batch_dims, 2))
            + [new_batch_dims])
    bx = bx.transpose(perm)
    flat_L = bL.reshape((-1, n, n))
    flat_x = bx.reshape((-1, flat_L.shape[0], n)).transpose((1, 2, 0))
    m = _linalg.triangular_solve(flat_L, flat_x, upper=False).pow(2).sum(-2).t()
    m = m.reshape(bx.shape[:-1])
    inverse = list(range(outer))
    for i in range(bL_batch_dims):
        inverse += [outer + i, old_batch_dims + i]
    return m.transpose(inverse).reshape(bx_batch_shape)


class MultivariateNormal(distribution.Distribution):
    """The Gaussian in R^k, parameterised by exactly one of its covariance, precision or lower Cholesky factor."""

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None):
        self.dtype = get_default_dtype()
        if isinstance(loc, (float, int)):
            loc = _pt.to_tensor([loc], dtype=self.dtype)
        else:
            self.dtype = loc.dtype.name
        if loc.dim() < 1:
            loc = loc.reshape((1,))
        self.covariance_matrix = self.precision_matrix = self.scale_tril = None
        given = [(n, m) for n, m in (("scale_tril", scale_tril), ("covariance_matrix", covariance_matrix),
                                     ("precision_matrix", precision_matrix)) if m is not None]
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        name, matrix = given[0]
        if matrix.dim() < 2:
            what = "scale_tril matrix" if name == "scale_tril" else name
            raise ValueError(f"{what} must be at least two-dimensional, with optional leading batch dimensions")
        matrix = _pt.cast(matrix, self.dtype)
        batch_shape = _pt.broadcast_shape(matrix.shape[:-2], loc.shape[:-1])
        setattr(self, name, matrix.expand([*batch_shape, matrix.shape[-2], matrix.shape[-1]]))
        self.loc = loc.expand([*batch_shape, -1])
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = matrix
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = _linalg.cholesky(matrix)
        else:
            self._unbroadcasted_scale_tril = precision_to_scale_tril(matrix)
        super().__init__(batch_shape, self.loc.shape[-1:])

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return _pt.square(self._unbroadcasted_scale_tril).sum(-1).expand(self._batch_shape + self._event_shape)

    sample = sample_by_rsample

    def rsample(self, shape=()):
        """loc + L eps, eps standard normal: gradients reach loc and the matrix."""
        check_sample_shape(shape)
        eps = _pt.cast(_pt.normal(shape=list(self._extend_shape(shape))), self.dtype)
        return self.loc + _pt.matmul(self._unbroadcasted_scale_tril, eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(axis1=-2, axis2=-1).log().sum(-1)

    def log_prob(self, value):
        value = _pt.cast(value, self.dtype)
        m = batch_mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + m) - self._half_log_det()

    def prob(self, value):
        return _pt.exp(self.log_prob(value))

    def entropy(self):
        h = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return h if len(self._batch_shape) == 0 else h.expand(self._batch_shape)

    def kl_divergence(self, other):
        if self._batch_shape != other._batch_shape and self._event_shape != other._event_shape:
            raise ValueError("KL divergence of two Multivariate Normal distributions should share the same "
                             "`batch_shape` and `event_shape`.")
        l1, l2 = self._unbroadcasted_scale_tril, other._unbroadcasted_scale_tril
        cov1, cov2 = _pt.matmul(l1, _swap_last(l1)), _pt.matmul(l2, _swap_last(l2))
        expectation = _linalg.solve(cov2, cov1).diagonal(axis1=-2, axis2=-1).sum(-1)
        expectation += batch_mahalanobis(l2, self.loc - other.loc)
        return other._half_log_det() - self._half_log_det() + 0.5 * (expectation - self._event_shape[0])
