"""paddle.linalg: inverse, determinants, solves, decompositions (ops/linalg.py) and the norms, conditions and
products composed from them. Each function validates its arguments and calls the dispatcher (or functional
APIs that do)."""
import builtins
import numbers

import numpy as np

from ..framework.mode import in_static_mode
from ..ops import dispatch
from ..ops import linalg as _l
from . import creation as _c
from . import manipulation as _mn
from . import math as _m
from . import reduce as _r
from .manipulation import transpose
from .math import bmm, dot, matmul, t

apply = dispatch.apply


def _check_matrix(x, api, arg="x", square=False, real=False):
    """x must be a float (or complex unless `real`) Tensor of at least 2 dims (square ones if `square`)."""
    _m.check_float_tensor(x, api, arg, real=real)
    shape = list(x.shape)
    if len(shape) < 2:
        raise ValueError(f"{api}: {arg} must be at least 2-D [..., M, N], received shape {shape}")
    if square and shape[-1] != shape[-2] and -1 not in shape[-2:]:
        raise ValueError(f"{api}: the last two dimensions of {arg} must be equal (square matrices), "
                         f"received shape {shape}")
    return shape


def _check_bool(value, api, arg):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{api}: {arg} must be a bool, received {type(value).__name__}")
    return bool(value)


def matrix_transpose(x, name=None):
    """Swap the last two dimensions."""
    _m._check_tensor(x, "matrix_transpose")
    nd = len(x.shape)
    if nd < 2:
        raise ValueError(f"matrix_transpose: x must be at least 2-D, received shape {list(x.shape)}")
    return transpose(x, list(range(nd - 2)) + [nd - 1, nd - 2])


# ---- inverse, determinants, solves ---------------------------------------------------------------------
def det(x, name=None):
    _check_matrix(x, "det", square=True)
    return apply(_l.DETERMINANT, x)


def slogdet(x, name=None):
    """[sign, log|det|] stacked on a new first axis."""
    _check_matrix(x, "slogdet", square=True)
    return apply(_l.SLOGDETERMINANT, x)


def _check_same_dtype(x, y, api):
    if x.dtype != y.dtype:
        raise TypeError(f"{api}: x ({x.dtype.name}) and y ({y.dtype.name}) must have the same dtype")


def solve(x, y, left=True, name=None, *, out=None):
    """The solution of x @ out = y (left) or out @ x = y."""
    _check_matrix(x, "solve", square=True)
    _m.check_float_tensor(y, "solve", "y", real=False)
    _check_same_dtype(x, y, "solve")
    if left:
        return apply(_l.SOLVE, x, y)
    if len(y.shape) < 2:
        raise ValueError(f"solve: with left=False y must be at least 2-D, received shape {list(y.shape)}")
    return matrix_transpose(apply(_l.SOLVE, matrix_transpose(x), matrix_transpose(y)))


def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None):
    _check_matrix(x, "triangular_solve", square=True)
    _check_matrix(y, "triangular_solve", "y")
    _check_same_dtype(x, y, "triangular_solve")
    return apply(_l.TRIANGULAR_SOLVE, x, y, upper=bool(upper), transpose=bool(transpose),
                 unitriangular=bool(unitriangular))


def cholesky(x, upper=False, name=None):
    _check_matrix(x, "cholesky", square=True)
    return apply(_l.CHOLESKY, x, upper=bool(upper))


def cholesky_solve(x, y, upper=False, name=None):
    """The solution of A out = x where y is A's Cholesky factor (lower, or upper if `upper`)."""
    _check_matrix(x, "cholesky_solve")
    _check_matrix(y, "cholesky_solve", "y", square=True)
    _check_same_dtype(x, y, "cholesky_solve")
    upper = bool(upper)
    z = apply(_l.TRIANGULAR_SOLVE, y, x, upper=upper, transpose=upper, unitriangular=False)
    return apply(_l.TRIANGULAR_SOLVE, y, z, upper=upper, transpose=not upper, unitriangular=False)


def cholesky_inverse(x, upper=False, name=None):
    """The inverse of A from its Cholesky factor x."""
    _check_matrix(x, "cholesky_inverse", square=True)
    a = matmul(x, x, transpose_x=True) if upper else matmul(x, x, transpose_y=True)
    return apply(_l.INVERSE, a)


# ---- decompositions ------------------------------------------------------------------------------------
def qr(x, mode="reduced", name=None):
    """(Q, R), or R alone for mode='r'."""
    _check_matrix(x, "qr")
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', received {mode!r}")
    q, r = apply(_l.QR, x, mode=mode)
    return r if mode == "r" else (q, r)


def svd(x, full_matrices=False, name=None, *, out=None):
    """(U, S, VH) with x = U diag(S) VH."""
    _check_matrix(x, "svd")
    return tuple(apply(_l.SVD, x, full_matrices=bool(full_matrices)))


def svdvals(x, name=None):
    _check_matrix(x, "svdvals")
    return apply(_l.SVD, x, full_matrices=False)[1]


def _check_uplo(UPLO, api):
    if UPLO not in ("L", "U"):
        raise ValueError(f"{api}: UPLO must be 'L' or 'U', received {UPLO!r}")


def eigh(x, UPLO="L", name=None):
    """(eigenvalues ascending, eigenvectors) of a symmetric / hermitian matrix."""
    _check_matrix(x, "eigh", square=True)
    _check_uplo(UPLO, "eigh")
    return tuple(apply(_l.EIGH, x, UPLO=UPLO))


def eigvalsh(x, UPLO="L", name=None):
    _check_matrix(x, "eigvalsh", square=True)
    _check_uplo(UPLO, "eigvalsh")
    return apply(_l.EIGH, x, UPLO=UPLO)[0]


# ---- products ------------------------------------------------------------------------------------------
def matrix_power(x, n, name=None):
    """x @ x @ ... (n times); n = 0 gives identities, n < 0 powers of the inverse (square-and-multiply)."""
    _check_matrix(x, "matrix_power", square=True)
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (numbers.Integral, np.integer)):
        raise TypeError(f"matrix_power: n must be an int, received {type(n).__name__}")
    n = int(n)
    if n == 0:
        return _m.add(_m.scale(x, 0.0), _c.eye(x.shape[-1], dtype=x.dtype))
    base = apply(_l.INVERSE, x) if n < 0 else x
    result = None
    n = builtins.abs(n)
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result


def multi_dot(x, name=None):
    """matmul of a list of tensors (the first may be a row vector, the last a column vector)."""
    if not isinstance(x, (list, tuple)) or len(x) < 2:
        raise ValueError(f"multi_dot: x must be a list of at least 2 tensors, received {x!r}")
    for i, a in enumerate(x):
        _m._check_tensor(a, "multi_dot", f"x[{i}]")
        nd = len(a.shape)
        if not (nd == 2 or (nd == 1 and i in (0, len(x) - 1))):
            raise ValueError(f"multi_dot: x[{i}] must be 2-D (1-D allowed first and last), received shape "
                             f"{list(a.shape)}")
    out = x[0]
    for a in x[1:]:
        out = matmul(out, a)
    return out


def cross(x, y, axis=9, name=None):
    """Cross product along `axis` (default: the first axis of size 3)."""
    _m._check_tensor(x, "cross")
    _m._check_tensor(y, "cross", "y")
    if list(x.shape) != list(y.shape):
        raise ValueError(f"cross: x {list(x.shape)} and y {list(y.shape)} must have the same shape")
    nd = len(x.shape)
    if axis == 9:  # Paddle's DEFAULT_AXIS
        sizes = [i for i, d in enumerate(x.shape) if d == 3]
        if not sizes:
            raise ValueError(f"cross: no axis of x {list(x.shape)} has size 3")
        axis = sizes[0]
    if not -nd <= axis < nd:
        raise ValueError(f"cross: axis {axis} is out of range for a {nd}-D tensor")
    if x.shape[axis] != 3:
        raise ValueError(f"cross: axis {axis} of x {list(x.shape)} must have size 3")
    return apply(_l.CROSS, x, y, axis=axis % nd)


def vecdot(x, y, axis=-1, name=None):
    """sum(conj(x) * y, axis), with broadcasting."""
    _m._check_tensor(x, "vecdot")
    _m._check_tensor(y, "vecdot", "y")
    return _r.sum(_m.multiply(x, y), axis=axis)


# ---- norms ---------------------------------------------------------------------------------------------
def _check_p(p, api, allowed_strings):
    if isinstance(p, str):
        if p not in allowed_strings:
            raise ValueError(f"{api}: p must be one of {list(allowed_strings)} or a number, received {p!r}")
        return p
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, (numbers.Real, np.number)):
        raise TypeError(f"{api}: p must be a string or a number, received {type(p).__name__}")
    return float(p)


def vector_norm(x, p=2.0, axis=None, keepdim=False, name=None, *, dtype=None, out=None):
    """The p-norm of x over `axis` (all elements when None) as a vector."""
    _m.check_tensor_type(x, "vector_norm")
    p = _check_p(p, "vector_norm", ())
    if dtype is not None:
        x = _mn.cast(x, dtype)
    if isinstance(axis, tuple):
        axis = list(axis)
    return _r.norm(x, p=p, axis=axis, keepdim=bool(keepdim))


def _matrix_axes(x, axis, api):
    nd = len(x.shape)
    if not isinstance(axis, (list, tuple)) or len(axis) != 2:
        found = len(axis) if isinstance(axis, (list, tuple)) else type(axis).__name__
        raise ValueError(f"{api}: except axis type int or list (length of list == 2), found {found}")
    a0, a1 = (int(a) % nd if -nd <= int(a) < nd else None for a in axis)
    if a0 is None or a1 is None or a0 == a1:
        raise ValueError(f"{api}: axis {list(axis)} must name 2 distinct dims of a {nd}-D tensor")
    return a0, a1


def _to_last(x, a0, a1):
    """x with dims a0, a1 moved to the end (in that order)."""
    rest = [d for d in range(len(x.shape)) if d not in (a0, a1)]
    return transpose(x, rest + [a0, a1]) if (a0, a1) != (len(x.shape) - 2, len(x.shape) - 1) else x


def _restore_kept(value, x, a0, a1, keepdim):
    return _mn.unsqueeze(value, sorted((a0, a1))) if keepdim else value


def matrix_norm(x, p="fro", axis=[-2, -1], keepdim=False, name=None):  # noqa: B006  (Paddle's default)
    """Frobenius, nuclear, 1/-1 (max/min column sum), inf/-inf (row sum), 2/-2 (max/min singular value)."""
    _m._check_tensor(x, "matrix_norm")
    if len(x.shape) < 2:
        raise ValueError(f"matrix_norm: x must be at least 2-D, received shape {list(x.shape)}")
    p = _check_p(p, "matrix_norm", ("fro", "nuc"))
    a0, a1 = _matrix_axes(x, axis, "matrix_norm")
    keepdim = bool(keepdim)
    if p == "fro":
        return _r.norm(x, p=2.0, axis=[a0, a1], keepdim=keepdim)
    inf = float("inf")
    if p in (1.0, -1.0, inf, -inf):
        summed, reduce_axis = (a0, a1) if p in (1.0, -1.0) else (a1, a0)
        sums = _r.sum(_m.abs(x), axis=summed, keepdim=True)
        pick = _r.amax if p > 0 else _r.amin
        out = pick(sums, axis=reduce_axis, keepdim=True)
        return out if keepdim else _mn.squeeze(out, [a0, a1])
    if p not in ("nuc", 2.0, -2.0):
        raise ValueError(f"matrix_norm: p must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, received {p!r}")
    s = svdvals(_to_last(x, a0, a1))
    out = _r.sum(s, axis=-1) if p == "nuc" else (_r.amax if p == 2.0 else _r.amin)(s, axis=-1)
    return _restore_kept(out, x, a0, a1, keepdim)


def norm(x, p=None, axis=None, keepdim=False, out=None, dtype=None, name=None):
    """Vector norms (axis None or an int) and matrix norms (axis a pair, or a 2-D x with p a matrix order)."""
    _m.check_tensor_type(x, "norm")
    if isinstance(axis, tuple):
        axis = list(axis)
    elif isinstance(axis, list) and len(axis) == 1:
        axis = axis[0]
    if axis is not None and not isinstance(axis, (int, np.integer, list)):
        raise ValueError(f"norm: axis must be None, an int or a list of ints, received {axis!r}")
    if dtype is not None:
        x = _mn.cast(x, dtype)
    if isinstance(p, str):  # Paddle's dispatch: 'fro' over one axis or all is a vector 2-norm
        if p == "fro" and not isinstance(axis, list):
            return vector_norm(x, 2.0, axis=axis, keepdim=keepdim)
        return matrix_norm(x, p=p, axis=list(range(len(x.shape))) if axis is None else axis, keepdim=keepdim)
    p = 2.0 if p is None else p
    if isinstance(axis, list) and len(axis) == 2:
        return matrix_norm(x, p=p, axis=axis, keepdim=keepdim)
    return vector_norm(x, p, axis=axis, keepdim=keepdim)


def dist(x, y, p=2, name=None):
    """The p-norm of x - y (broadcast), over all elements."""
    _m._check_tensor(x, "dist")
    _m._check_tensor(y, "dist", "y")
    return vector_norm(_m.subtract(x, y), p=float(p))


def cond(x, p=None, name=None):
    """The condition number: ||x|| ||x^-1|| (p=None/2/-2 from the singular values)."""
    _check_matrix(x, "cond")
    p = _check_p(2.0 if p is None else p, "cond", ("fro", "nuc"))
    if getattr(x, "_is_variable", False) and 0 in x.shape:  # ValueError, as Paddle's legacy static mode
        raise ValueError(f"cond: x must not be empty in static mode, received shape {list(x.shape)} (an empty x "
                         "works in dynamic mode)")
    if p in (2.0, -2.0):
        s = svdvals(x)
        big, small = _r.amax(s, axis=-1), _r.amin(s, axis=-1)
        return _m.divide(big, small) if p == 2.0 else _m.divide(small, big)
    _check_matrix(x, "cond", square=True)
    return _m.multiply(matrix_norm(x, p=p), matrix_norm(apply(_l.INVERSE, x), p=p))


def _tolerance_tensor(value, like):
    return value if _m.is_tensor_like(value) else _c.full([], float(value), dtype=like.dtype)


def matrix_rank(x, tol=None, hermitian=False, atol=None, rtol=None, name=None):
    """The number of singular values (|eigenvalues| if hermitian) above the tolerance, as int64."""
    _check_matrix(x, "matrix_rank")
    s = _m.abs(eigvalsh(x)) if hermitian else svdvals(x)
    smax = _r.amax(s, axis=-1, keepdim=True)
    if tol is not None:
        threshold = _tolerance_tensor(tol, s)
    elif atol is None and rtol is None:
        eps = float(np.finfo(x.dtype.np).eps)
        threshold = _m.scale(smax, eps * builtins.max(x.shape[-2:]))
    else:
        if rtol is None:
            rtol = 0.0 if atol is not None else float(np.finfo(x.dtype.np).eps) * builtins.max(x.shape[-2:])
        threshold = _m.maximum(_m.multiply(_tolerance_tensor(rtol, s), smax),
                               _tolerance_tensor(0.0 if atol is None else atol, s))
    if len(threshold.shape) < len(s.shape) and len(threshold.shape) == len(s.shape) - 1:
        threshold = _mn.unsqueeze(threshold, -1)
    return _r.sum(_mn.cast(_m.greater_than(s, threshold), "int64"), axis=-1)


def pinv(x, rcond=1e-15, hermitian=False, name=None):
    """The pseudo-inverse from the SVD (eigendecomposition if hermitian), cutting values below rcond * max."""
    _check_matrix(x, "pinv")
    if hermitian:
        w, v = eigh(x)
        s = _m.abs(w)
    else:
        u, s, vh = svd(x)
    cutoff = _m.multiply(_r.amax(s, axis=-1, keepdim=True), _tolerance_tensor(rcond, s))
    keep = _m.greater_than(s, cutoff)
    s_inv = _m.where(keep, _m.reciprocal(_m.where(keep, w if hermitian else s, _c.ones_like(s))), _c.zeros_like(s))
    if hermitian:
        return matmul(_m.multiply(v, _mn.unsqueeze(s_inv, -2)), v, transpose_y=True)
    return matmul(_m.multiply(matrix_transpose(vh), _mn.unsqueeze(s_inv, -2)), u, transpose_y=True)



# ---- LU, matrix exponential, Householder products, least squares, general eigenproblems --------
def lu(x, pivot=True, get_infos=False, name=None):
    """(LU, pivots) (and infos) of the partial-pivoting factorization x = P L U; pivots are 1-based int32."""
    _check_matrix(x, "lu")
    out, pivots, infos = apply(_l.LU, x, pivot=bool(pivot))
    return (out, pivots, infos) if get_infos else (out, pivots)


def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None):
    """(P, L, U) from lu()'s packed factors x and pivots y (empty tensors for what is not unpacked)."""
    _check_matrix(x, "lu_unpack")
    m, n = x.shape[-2:]
    k = builtins.min(m, n)
    empty = _c.zeros([0], dtype=x.dtype.name)
    p = apply(_l.LU_PERMUTATION, y, m=m, dtype=x.dtype.name) if unpack_pivots else empty
    if not unpack_ludata:
        return p, empty, empty
    tril = _mn.tril(x[..., :, :k], -1)
    lower = _m.add(tril, _c.eye(m, k, dtype=x.dtype.name))
    upper = _mn.triu(x[..., :k, :])
    return p, lower, upper


def lu_solve(b, lu, pivots, trans="N", name=None):
    """The solution of A x = b (A^T x = b for trans 'T'/'C') from A's LU factors."""
    _check_matrix(b, "lu_solve", "b")
    _check_matrix(lu, "lu_solve", "lu", square=True)
    if trans not in ("N", "T", "C"):
        raise ValueError(f"lu_solve: trans must be 'N', 'T' or 'C', received {trans!r}")
    p, _, _ = lu_unpack(lu, pivots, unpack_ludata=False)
    if trans == "N":
        z = apply(_l.TRIANGULAR_SOLVE, lu, matmul(p, b, transpose_x=True), upper=False, transpose=False,
                  unitriangular=True)
        return apply(_l.TRIANGULAR_SOLVE, lu, z, upper=True, transpose=False, unitriangular=False)
    z = apply(_l.TRIANGULAR_SOLVE, lu, b, upper=True, transpose=True, unitriangular=False)
    z = apply(_l.TRIANGULAR_SOLVE, lu, z, upper=False, transpose=True, unitriangular=True)
    return matmul(p, z)


def matrix_exp(x, name=None):
    """The exponential of square matrices [..., N, N]; as Paddle's, x may be a list or NumPy array, and a 0-D
    tensor is a 1 x 1 matrix (its exp)."""
    if not _m.is_tensor_like(x):
        x = _c.to_tensor(x)
    if x.dtype.name not in ("float32", "float64"):  # ValueError, as Paddle's, before the shape is looked at
        raise ValueError(f"matrix_exp: x must be a float32 or float64 tensor, received {x.dtype.name}; cast it "
                         "first, e.g. x.astype('float32')")
    if len(x.shape) == 0:
        return _mn.reshape(apply(_l.MATRIX_EXP, _mn.reshape(x, [1, 1])), [])
    _check_matrix(x, "matrix_exp", square=True)
    return apply(_l.MATRIX_EXP, x)


def _householder_q(x, tau, columns):
    """H_0 H_1 ... H_{k-1} (H_i = I - tau_i v_i v_i^H, v_i the i-th column below the diagonal with a unit
    head), its first `columns` columns."""
    m = x.shape[-2]
    k = tau.shape[-1]
    v = _m.add(_mn.tril(x[..., :, :k], -1), _c.eye(m, k, dtype=x.dtype.name))
    q = None
    for i in range(k):
        vi = v[..., :, i:i + 1]
        h = _m.subtract(_c.eye(m, dtype=x.dtype.name),
                        _m.multiply(_mn.unsqueeze(tau[..., i:i + 1], -1), matmul(vi, vi, transpose_y=True)))
        q = h if q is None else matmul(q, h)
    if q is None:
        q = _m.add(_m.scale(x[..., :, :1], 0.0), _c.eye(m, dtype=x.dtype.name))
    return q[..., :, :columns]


def householder_product(x, tau, name=None):
    """The first n columns of the product of the Householder reflectors stored in x and tau (LAPACK orgqr)."""
    _m._check_tensor(tau, "householder_product", "tau")
    if len(x.shape) < 2 or len(tau.shape) != len(x.shape) - 1:  # AssertionError, as Paddle's
        raise AssertionError(f"householder_product: x must be at least 2-D [..., M, N] and tau have one dim less, "
                             f"received shapes {list(x.shape)} and {list(tau.shape)}")
    _check_matrix(x, "householder_product")
    m, n = x.shape[-2:]
    if m < n:
        raise AssertionError(f"householder_product: x must have at least as many rows as columns, received shape "
                             f"{list(x.shape)}")
    if tau.shape[-1] > n or list(tau.shape[:-1]) != list(x.shape[:-2]):
        raise AssertionError(f"householder_product: tau must be [*, k] with k <= {n} and the batch dims of x "
                             f"{list(x.shape[:-2])}, received shape {list(tau.shape)}")
    return _householder_q(x, tau, n)


def ormqr(x, tau, y, left=True, transpose=False, name=None):
    """y multiplied by householder_product(x, tau) =: Q: Q y, Q^T y, y Q or y Q^T (Paddle's ormqr, reduced Q)."""
    _check_matrix(y, "ormqr", "y")
    q = householder_product(x, tau)
    if left:
        return matmul(q, y, transpose_x=bool(transpose))
    return matmul(y, q, transpose_y=bool(transpose))


def lstsq(x, y, rcond=None, driver=None, name=None):
    """(solution, residuals, rank, singular_values) of min ||x s - y||, as Paddle's CPU drivers return them."""
    _check_matrix(x, "lstsq")
    _check_matrix(y, "lstsq", "y")
    _check_same_dtype(x, y, "lstsq")
    driver = "gelsy" if driver is None else driver
    if driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise ValueError(f"lstsq: driver must be one of 'gels', 'gelsy', 'gelsd', 'gelss' on CPU, received "
                         f"{driver!r}")
    if rcond is None:
        rcond = float(np.finfo(x.dtype.np).eps) * builtins.max(x.shape[-2:])
    return tuple(apply(_l.LSTSQ, x, y, rcond=float(rcond), driver=driver))


def eig(x, name=None):
    """(eigenvalues, eigenvectors) of a general square matrix, complex."""
    _check_matrix(x, "eig", square=True)
    return tuple(apply(_l.EIG, x))


def eigvals(x, name=None):
    _check_matrix(x, "eigvals", square=True)
    return apply(_l.EIG, x)[0]


def svd_lowrank(x, q=None, niter=2, M=None, name=None):
    """(U, S, V) of a rank-q approximation of x - M by randomized subspace iteration (Halko et al. 2011)."""
    _check_matrix(x, "svd_lowrank")
    m, n = x.shape[-2:]
    q = builtins.min(6, m, n) if q is None else q
    if not isinstance(q, (int, np.integer)) or not 0 <= q <= builtins.min(m, n):
        raise ValueError(f"svd_lowrank: q must be an int in [0, {builtins.min(m, n)}], received {q!r}")
    if isinstance(niter, bool) or not isinstance(niter, (int, np.integer)) or niter < 0:
        raise ValueError(f"svd_lowrank: niter must be a non-negative int, received {niter!r}")
    a = x if M is None else _m.subtract(x, M)
    from .creation import randn
    omega = randn(list(a.shape[:-2]) + [n, q], dtype=x.dtype.name)
    basis = qr(matmul(a, omega))[0]
    for _ in range(int(niter)):
        basis = qr(matmul(a, basis, transpose_x=True))[0]
        basis = qr(matmul(a, basis))[0]
    u, s, vh = svd(matmul(basis, a, transpose_x=True))
    return matmul(basis, u), s, matrix_transpose(vh)


def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    """svd_lowrank of x with its column means subtracted (if center)."""
    _check_matrix(x, "pca_lowrank")
    m, n = x.shape[-2:]
    q = builtins.min(6, m, n) if q is None else q
    if center:
        x = _m.subtract(x, _r.mean(x, axis=-2, keepdim=True))
    return svd_lowrank(x, q=q, niter=niter)


def fp8_fp8_half_gemm_fused(x, y, transpose_x=False, transpose_y=False, bias=None, scale=1.0,
                            output_dtype="float16", act="identity", name=None):
    raise NotImplementedError("fp8_fp8_half_gemm_fused: Paddle runs it only as a fused CUTLASS kernel on "
                              "NVIDIA GPUs with FP8 tensor cores (SM89+); paddlelite has no such kernel. Cast to "
                              "float16/float32 and use paddle.matmul")

# ---- statistics ----------------------------------------------------------------------------------------
def cov(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None):
    """The covariance of the variables in x's rows (columns if not rowvar), optionally weighted."""
    _m._check_tensor(x, "cov")
    if len(x.shape) > 2:
        raise ValueError(f"cov: x must be at most 2-D, received shape {list(x.shape)}")
    if len(x.shape) < 2:
        x = _mn.unsqueeze(x, 0)
    elif not rowvar:
        x = t(x)
    n = x.shape[1]
    weights = None
    for w, arg in ((fweights, "fweights"), (aweights, "aweights")):
        if w is None:
            continue
        _m._check_tensor(w, "cov", arg)
        if list(w.shape) != [n]:
            raise ValueError(f"cov: {arg} must be 1-D with {n} elements (the observations), received shape "
                             f"{list(w.shape)}")
        if not in_static_mode():  # Paddle checks the weights' values eagerly (a host sync, as its own)
            values = w.numpy()
            if values.size and values.min() < 0:
                raise ValueError(f"cov: {arg} must not be negative, received a minimum of {values.min()}")
            if arg == "fweights" and not np.array_equal(values, np.round(values)):
                raise ValueError("cov: fweights must hold integers (frequencies)")
        w = _mn.cast(w, x.dtype.name)
        weights = w if weights is None else _m.multiply(weights, w)
    if weights is None:
        weights = _c.ones([n], dtype=x.dtype.name)
    total = _r.sum(weights)
    if (fweights is not None or aweights is not None) and not in_static_mode() and total.item() == 0:
        raise ValueError("cov: the weights sum to zero, so the covariance cannot be normalised")
    mean = _m.divide(_r.sum(_m.multiply(x, weights), axis=1, keepdim=True), total)
    centered = _m.subtract(x, mean)
    if not ddof:
        norm_factor = total
    elif aweights is None:
        norm_factor = _m.scale(total, 1.0, -1.0)
    else:
        aw = _mn.cast(aweights, x.dtype.name)
        norm_factor = _m.subtract(total, _m.divide(_r.sum(_m.multiply(weights, aw)), total))
    c = matmul(_m.multiply(centered, weights), centered, transpose_y=True)
    return _mn.squeeze(_m.divide(c, norm_factor)) if c.shape == [1, 1] else _m.divide(c, norm_factor)


def corrcoef(x, rowvar=True, name=None):
    """Pearson correlation coefficients of the variables in x's rows (columns if not rowvar), clipped to [-1, 1]."""
    _m._check_tensor(x, "corrcoef")
    if not 1 <= len(x.shape) <= 2:
        raise ValueError(f"corrcoef: x must be 1-D or 2-D, received shape {list(x.shape)}")
    if in_static_mode() and x.dtype.name not in ("float32", "float64"):  # Paddle's static check (eager takes complex too)
        raise TypeError(f"corrcoef: x must be float32 or float64, received {x.dtype.name}")
    c = cov(x, rowvar=rowvar)
    if len(c.shape) == 0:
        return _m.divide(c, c)
    d = _m.sqrt(_r.sum(_m.multiply(c, _c.eye(c.shape[0], dtype=c.dtype.name)), axis=1))
    c = _m.divide(_m.divide(c, _mn.unsqueeze(d, 1)), _mn.unsqueeze(d, 0))
    return _m.clip(c, -1.0, 1.0)


__all__ = ["bmm", "cholesky", "cholesky_inverse", "cholesky_solve", "cond", "corrcoef", "cov", "cross", "det",
           "dist", "dot", "eig", "eigh", "eigvals", "eigvalsh", "fp8_fp8_half_gemm_fused",
           "householder_product", "lstsq", "lu", "lu_solve", "lu_unpack", "matmul", "matrix_exp", "matrix_norm",
           "matrix_power", "matrix_rank", "matrix_transpose", "multi_dot", "norm", "ormqr", "pca_lowrank", "pinv",
           "qr", "slogdet", "solve", "svd", "svd_lowrank", "svdvals", "t", "transpose", "triangular_solve",
           "vecdot", "vector_norm"]
TENSOR_METHODS = ["cholesky", "cholesky_inverse", "cholesky_solve", "cond", "corrcoef", "cov", "cross", "dist",
                  "eig", "eigvals", "eigvalsh", "householder_product", "lstsq", "lu", "lu_unpack",
                  "ormqr", "pca_lowrank", "svd_lowrank", "matrix_power", "matrix_transpose", "multi_dot", "norm", "pinv", "qr",
                  "slogdet", "solve"]
