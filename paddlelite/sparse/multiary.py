"""paddle.sparse.addmm and pca_lowrank."""
from .. import linalg as _linalg
from ..tensor import creation as _creation
from ..tensor import manipulation as _manip
from ..tensor import math as _math
from ..tensor import random as _random
from ..tensor.manipulation import _check_tensor
from ._kinds import check_sparse
from .binary import add, matmul
from .unary import scale_values, sum as _sparse_sum, transpose as _sparse_transpose


def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """beta * input + alpha * (x @ y), x sparse: dense for a dense y, sparse (all three sparse) otherwise."""
    _check_tensor(input, "sparse.addmm", "input")
    product = matmul(x, y)
    if product.is_sparse():
        check_sparse(input, "sparse.addmm", "input")
        return add(scale_values(input, beta), scale_values(product, alpha))
    return _math.add(_math.scale(input.to_dense() if input.is_sparse() else input, float(beta)),
                     _math.scale(product, float(alpha)))


def _transpose(t):
    perm = list(range(len(t.shape)))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return _sparse_transpose(t, perm) if t.is_sparse() else _manip.transpose(t, perm)


def _product(a, b):
    return matmul(a, b) if a.is_sparse() else _math.matmul(a, b)


def _basis(x, x_t, q, niter, m, m_t):
    """An orthonormal basis of the range of x - m by randomized subspace iteration (Halko et al. 2011)."""
    n = x.shape[-1]
    r = _random.randn([n, q], dtype=x.dtype)
    q_mat = _linalg.qr(_product(x, r) - _math.matmul(m, r) if m is not None else _product(x, r))[0]
    for _ in range(niter):
        q_mat = _linalg.qr(_product(x_t, q_mat) - (_math.matmul(m_t, q_mat) if m_t is not None else 0))[0]
        q_mat = _linalg.qr(_product(x, q_mat) - (_math.matmul(m, q_mat) if m is not None else 0))[0]
    return q_mat


def _svd_lowrank(x, q, niter, m):
    rows, cols = x.shape[-2:]
    x_t = _transpose(x)
    m_t = None if m is None else _transpose(m)
    if rows < cols or cols > q:  # the basis of x^T's range
        basis = _basis(x_t, x, q, niter, m_t, m)
        b_t = _product(x, basis) - (_math.matmul(m, basis) if m is not None else 0)
        u, s, vh = _linalg.svd(b_t, full_matrices=False)
        return u, s, _math.matmul(basis, _transpose(vh))
    basis = _basis(x, x_t, q, niter, m, m_t)
    b = _product(x_t, basis) - (_math.matmul(m_t, basis) if m_t is not None else 0)
    u, s, vh = _linalg.svd(_transpose(b), full_matrices=False)
    return _math.matmul(basis, u), s, _transpose(vh)


def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    """(U, S, V) of a rank-q approximate PCA of sparse x: x - mean ~ U diag(S) V^T, by randomized SVD."""
    check_sparse(x, "sparse.pca_lowrank")
    rows, cols = x.shape[-2:]
    if q is None:
        q = min(6, rows, cols)
    elif not 0 <= q <= min(rows, cols):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(rows, cols)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return _svd_lowrank(x, q, niter, None)
    if len(x.shape) != 2:
        raise ValueError("input is expected to be 2-dimensional tensor")
    column_means = _math.scale(_sparse_sum(x, axis=-2).to_dense(), 1.0 / rows)  # [cols]
    means = _math.matmul(_creation.ones([rows, 1], x.dtype), _manip.unsqueeze(column_means, 0))
    return _svd_lowrank(x, q, niter, means)
