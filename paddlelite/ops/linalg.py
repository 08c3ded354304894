"""Linear algebra: inverse, determinants, solves and the decompositions (cholesky, qr, svd, eigh), on the
array module's LAPACK (numpy.linalg / cupy.linalg).

Gradients are the standard adjoint formulas (PyTorch's FunctionsManual, Giles 2008, Murray 2016): the ones
that are short products of registered ops are written as formulas (and so have double gradients); the
decompositions' are dedicated grad ops computing the adjoint in one forward each. Ops whose LAPACK routine
reads one triangle only (cholesky, eigh) see the symmetric part of their input, so their gradient is the
symmetric one Paddle returns and finite differences agree with it.
"""
import numpy as np

from .formula import concat, matmul, transpose, unsqueeze, unstack
from .registry import Meta, register_op
from .shape_rules import broadcast_shapes, check_float, check_same_dtype


def _mT(a):
    return a.swapaxes(-1, -2)


def _mH(a):
    return a.swapaxes(-1, -2).conj() if a.dtype.kind == "c" else a.swapaxes(-1, -2)


def _sym_T(g, x):
    """The symbolic transpose of the last two dims of `x`."""
    nd = len(g.shape(x))
    return transpose(x, perm=list(range(nd - 2)) + [nd - 1, nd - 2])


def _lapack(name, fn, *arrays):
    """Run a LAPACK routine, re-raising its failure as the ValueError Paddle raises, naming the op."""
    try:
        return fn(*arrays)
    except Exception as e:  # numpy.linalg.LinAlgError / cupy's
        if type(e).__name__ != "LinAlgError":
            raise
        raise ValueError(f"op '{name}': {e} (the input matrix is singular or not positive definite)") from None


def _solve(name, xp, a, b):
    """a^-1 b for (batches of) matrices, the batch dims broadcast as NumPy does (cupy.linalg.solve does not)."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return _lapack(name, xp.linalg.solve, xp.broadcast_to(a, batch + a.shape[-2:]),
                   xp.broadcast_to(b, batch + b.shape[-2:]))


def square_infer(name, slot="X"):
    """Shape rule of an op on a batch of square matrices [..., n, n] (float or complex)."""
    def check(x):
        check_float(name, x, slot)
        s = tuple(x.shape)
        if len(s) < 2:
            raise ValueError(f"op '{name}': input '{slot}' must be at least 2-D [..., n, n], received shape {list(s)}")
        if s[-1] != s[-2] and -1 not in s[-2:]:
            raise ValueError(f"op '{name}': the last two dimensions of '{slot}' must be equal (square matrices), "
                             f"received shape {list(s)}")
        return s
    return check


def _matrix_check(name, x, slot="X"):
    check_float(name, x, slot)
    if len(x.shape) < 2:
        raise ValueError(f"op '{name}': input '{slot}' must be at least 2-D [..., m, n], received shape "
                         f"{list(x.shape)}")
    return tuple(x.shape)


def _sym(xp, a):
    """The hermitian part (a + a^H) / 2."""
    return (a + _mH(a)) * 0.5


# ---- inverse: out = x^-1; dx = -out^T dout out^T ------------------------------------------------------
_check_inverse = square_infer("inverse")


def _inverse_grad(g):
    if g.needs("X"):
        out = g.output("Out")
        g.set_input_grad("X", -matmul(matmul(out, g.output_grad("Out"), transpose_x=True), out, transpose_y=True))


INVERSE = register_op("inverse", inputs=("X",), outputs=("Out",),
                      forward=lambda xp, x: _lapack("inverse", xp.linalg.inv, x),
                      infer=lambda x: Meta(_check_inverse(x), x.dtype), grad=_inverse_grad, double_grad=True)


# ---- determinant: dx = dout * det * x^-T ----------------------------------------------------------------
_check_det = square_infer("determinant")


def _determinant_grad(g):
    if g.needs("X"):
        x = g.input("X")
        scale = unsqueeze(g.output_grad("Out") * g.output("Out"), axis=[-1, -1])
        g.set_input_grad("X", scale * _sym_T(g, g.op("inverse", x)))


DETERMINANT = register_op("determinant", inputs=("X",), outputs=("Out",),
                          forward=lambda xp, x: xp.asarray(xp.linalg.det(x)),
                          infer=lambda x: Meta(_check_det(x)[:-2], x.dtype), grad=_determinant_grad,
                          double_grad=True)


# ---- slogdeterminant: [sign, log|det|] stacked on a new first axis (Paddle's layout) -------------------
_check_slogdet = square_infer("slogdeterminant")


def _slogdet_forward(xp, x):
    sign, logabs = xp.linalg.slogdet(x)
    return xp.stack([sign.astype(logabs.dtype) if x.dtype.kind != "c" else sign, logabs.astype(sign.dtype)])


def _slogdet_grad(g):
    if g.needs("X"):
        dlog = unstack(g.output_grad("Out"), axis=0, num=2)[1]
        g.set_input_grad("X", unsqueeze(dlog, axis=[-1, -1]) * _sym_T(g, g.op("inverse", g.input("X"))))


SLOGDETERMINANT = register_op("slogdeterminant", inputs=("X",), outputs=("Out",), forward=_slogdet_forward,
                              infer=lambda x: Meta((2,) + _check_slogdet(x)[:-2], x.dtype), grad=_slogdet_grad,
                              double_grad=True)


# ---- solve: out = x^-1 y; y is a (batch of) vector(s) when it has x's shape without the last dim ------
def _is_vector(x_shape, y_shape):
    return len(y_shape) == 1 or tuple(y_shape) == tuple(x_shape[:-1])


def _solve_forward(xp, x, y):
    if _is_vector(x.shape, y.shape):
        return _solve("solve", xp, x, y[..., None])[..., 0]
    return _solve("solve", xp, x, y)


_check_solve = square_infer("solve")


def _solve_infer(x, y):
    xs = _check_solve(x)
    check_same_dtype("solve", x, y)
    ys = tuple(y.shape)
    if _is_vector(xs, ys):
        batch = broadcast_shapes("solve", xs[:-2], ys[:-1])
        if ys[-1] != xs[-1] and -1 not in (ys[-1], xs[-1]):
            raise ValueError(f"op 'solve': Y {list(ys)} must have {xs[-1]} rows to match X {list(xs)}")
        return Meta(batch + (xs[-1],), x.dtype)
    if len(ys) < 2 or (ys[-2] != xs[-1] and -1 not in (ys[-2], xs[-1])):
        raise ValueError(f"op 'solve': Y {list(ys)} must be [..., {xs[-1]}, k] (or a vector of {xs[-1]}) to match "
                         f"X {list(xs)}")
    return Meta(broadcast_shapes("solve", xs[:-2], ys[:-2]) + (xs[-1], ys[-1]), x.dtype)


def _solve_grad(g):
    x, y, out = g.input("X"), g.input("Y"), g.output("Out")
    dy = g.op("solve", _sym_T(g, x), g.output_grad("Out"))
    if g.needs("Y"):
        g.set_input_grad("Y", g.reduce_as(dy, y))
    if g.needs("X"):
        if _is_vector(g.shape(x), g.shape(y)):
            dx = -matmul(unsqueeze(dy, axis=[-1]), unsqueeze(out, axis=[-2]))
        else:
            dx = -matmul(dy, out, transpose_y=True)
        g.set_input_grad("X", g.reduce_as(dx, x))


SOLVE = register_op("solve", inputs=("X", "Y"), outputs=("Out",), forward=_solve_forward, infer=_solve_infer,
                    grad=_solve_grad, same_dtype=("X", "Y"), double_grad=True)


# ---- triangular_solve: out = op(T)^-1 y, T the upper/lower triangle of x (unit diagonal if unitriangular) ---
def _triangle(xp, x, upper, unitriangular):
    t = xp.triu(x, 1 if unitriangular else 0) if upper else xp.tril(x, -1 if unitriangular else 0)
    if unitriangular:
        t = t + xp.eye(x.shape[-1], dtype=x.dtype)
    return t


def _triangular_solve_forward(xp, x, y, upper, transpose, unitriangular):
    t = _triangle(xp, x, upper, unitriangular)
    return _solve("triangular_solve", xp, _mT(t) if transpose else t, y)


_check_triangular = square_infer("triangular_solve")


def _triangular_solve_infer(x, y, upper, transpose, unitriangular):
    xs = _check_triangular(x)
    check_same_dtype("triangular_solve", x, y)
    ys = tuple(y.shape)
    if len(ys) < 2 or (ys[-2] != xs[-1] and -1 not in (ys[-2], xs[-1])):
        raise ValueError(f"op 'triangular_solve': Y {list(ys)} must be [..., {xs[-1]}, k] to match X {list(xs)}")
    return Meta(broadcast_shapes("triangular_solve", xs[:-2], ys[:-2]) + ys[-2:], x.dtype)


def _triangular_solve_grad(g):
    x, y, out, a = g.input("X"), g.input("Y"), g.output("Out"), g.attrs
    dy = g.op("triangular_solve", x, g.output_grad("Out"), upper=a["upper"], transpose=not a["transpose"],
              unitriangular=a["unitriangular"])
    if g.needs("Y"):
        g.set_input_grad("Y", g.reduce_as(dy, y))
    if g.needs("X"):
        dt = -matmul(out, dy, transpose_y=True) if a["transpose"] else -matmul(dy, out, transpose_y=True)
        diagonal = (1 if a["upper"] else -1) if a["unitriangular"] else 0
        g.set_input_grad("X", g.reduce_as(g.op("tril_triu", dt, diagonal=diagonal, lower=not a["upper"]), x))


TRIANGULAR_SOLVE = register_op("triangular_solve", inputs=("X", "Y"), outputs=("Out",),
                               forward=_triangular_solve_forward, infer=_triangular_solve_infer,
                               grad=_triangular_solve_grad, same_dtype=("X", "Y"),
                               attrs={"upper": True, "transpose": False, "unitriangular": False}, double_grad=True)


# ---- cholesky: x = L L^H (upper: U^H U); gA = sym(L^-H phi(L^H gL) L^-1), phi = tril, half diagonal ----
def _cholesky_forward(xp, x, upper):
    lower = _lapack("cholesky", xp.linalg.cholesky, _sym(xp, x))
    return _mH(lower) if upper else lower


def _cholesky_grad_forward(xp, out, dout, upper):
    low, dlow = (_mH(out), _mH(dout)) if upper else (out, dout)
    p = xp.tril(_mH(low) @ dlow)
    p = (p + _mH(xp.tril(p, -1))) * 0.5
    inv = xp.linalg.inv(low)
    return _sym(xp, _mH(inv) @ p @ inv)


_check_cholesky = square_infer("cholesky")


def _cholesky_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("cholesky_grad", g.output("Out"), g.output_grad("Out"), upper=g.attrs["upper"]))


CHOLESKY = register_op("cholesky", inputs=("X",), outputs=("Out",), forward=_cholesky_forward,
                       infer=lambda x, upper: Meta(_check_cholesky(x), x.dtype), grad=_cholesky_grad,
                       attrs={"upper": False})
CHOLESKY_GRAD = register_op("cholesky_grad", inputs=("Out", "DOut"), outputs=("DX",), forward=_cholesky_grad_forward,
                            infer=lambda out, dout, upper: Meta(tuple(out.shape), out.dtype), attrs={"upper": False})


# ---- qr: x = Q R; mode 'reduced' | 'complete' | 'r' (Q is then empty) ----------------------------------
def _qr_forward(xp, x, mode):
    if mode == "r":
        r = xp.linalg.qr(x, mode="r")
        return xp.zeros((0,), x.dtype), r
    q, r = xp.linalg.qr(x, mode=mode)
    return q, r


def _qr_infer(x, mode):
    s = _matrix_check("qr", x)
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"op 'qr': mode must be 'reduced', 'complete' or 'r', received '{mode}'")
    m, n = s[-2:]
    k = m if mode == "complete" or -1 in (m, n) else min(m, n)
    r = Meta(s[:-2] + (k, n), x.dtype)
    return (Meta((0,), x.dtype) if mode == "r" else Meta(s[:-2] + (m, k), x.dtype)), r


def _qr_square_adjoint(xp, q, r, dq, dr):
    """gA = [gQ + Q copyltu(M)] R^-H with M = R gR^H - gQ^H Q (m >= n, PyTorch's linalg_qr_backward)."""
    m_ = r @ _mH(dr) - _mH(dq) @ q
    m_ = xp.tril(m_) + _mH(xp.tril(m_, -1))  # copyltu: the lower triangle mirrored up
    b = dq + q @ m_
    return _mH(xp.linalg.solve(r, _mH(b)))  # b R^-H


def _qr_grad_forward(xp, x, q, r, dq, dr, mode):
    m, n = x.shape[-2:]
    dq = xp.zeros_like(q) if dq is None else dq
    dr = xp.zeros_like(r) if dr is None else dr
    if m >= n:
        return _qr_square_adjoint(xp, q, r, dq, dr)
    # m < n: x = [X | Y], X = Q U, Y = Q V; Y's gradient reaches Q through V = Q^H Y
    u, du, dv = r[..., :m], dr[..., :m], dr[..., m:]
    dx = _qr_square_adjoint(xp, q, u, dq + x[..., m:] @ _mH(dv), du)
    return xp.concatenate([dx, q @ dv], axis=-1)


def _qr_grad(g):
    if g.needs("X"):
        x, mode = g.input("X"), g.attrs["mode"]
        m, n = g.shape(x)[-2:]
        if mode == "r":
            raise ValueError("op 'qr': the derivative of qr is not implemented when mode='r' (Q is not computed); "
                             "use mode='reduced', as in Paddle")
        if mode == "complete" and m > n:
            raise ValueError("op 'qr': the derivative of qr is not implemented when mode='complete' and nrows > "
                             "ncols (the extra columns of Q are arbitrary), as in Paddle")
        g.set_input_grad("X", g.op("qr_grad", x, g.output("Q"), g.output("R"), g.output_grad("Q"),
                                   g.output_grad("R"), mode=mode))


QR = register_op("qr", inputs=("X",), outputs=("Q", "R"), forward=_qr_forward, infer=_qr_infer, grad=_qr_grad,
                 attrs={"mode": "reduced"})
QR_GRAD = register_op("qr_grad", inputs=("X", "Q", "R", "DQ", "DR"), outputs=("DX",), forward=_qr_grad_forward,
                      infer=lambda x, q, r, dq, dr, mode: Meta(tuple(x.shape), x.dtype),
                      optional_inputs=("DQ", "DR"), attrs={"mode": "reduced"})


# ---- svd: x = U diag(S) VH ------------------------------------------------------------------------------
def _svd_forward(xp, x, full_matrices):
    u, s, vh = _lapack("svd", lambda a: xp.linalg.svd(a, full_matrices=full_matrices), x)
    return u, s, vh


def _svd_infer(x, full_matrices):
    s = _matrix_check("svd", x)
    m, n = s[-2:]
    k = min(m, n) if -1 not in (m, n) else -1
    real = np.dtype(x.dtype).type(0).real.dtype
    return (Meta(s[:-2] + (m, m if full_matrices else k), x.dtype), Meta(s[:-2] + (k,), real),
            Meta(s[:-2] + (n if full_matrices else k, n), x.dtype))


def _skew(a):
    return a - _mH(a)


def _svd_grad_forward(xp, u, s, vh, du, ds, dvh):
    """PyTorch's svd_backward (real and the gauge-invariant complex part); s must be distinct and nonzero."""
    k = s.shape[-1]
    u, vh = u[..., :k], vh[..., :k, :]
    du = None if du is None else du[..., :k]
    dvh = None if dvh is None else dvh[..., :k, :]
    m, n = u.shape[-2], vh.shape[-1]
    inner = xp.zeros(s.shape + (k,), u.dtype)
    if ds is not None:
        inner = inner + xp.eye(k, dtype=u.dtype) * ds[..., None, :]
    if du is None and dvh is None:
        return (u * inner.diagonal(axis1=-2, axis2=-1)[..., None, :]) @ vh
    s2 = s * s
    e = s2[..., None, :] - s2[..., :, None] + xp.eye(k, dtype=s.dtype)
    sr, sc = s[..., None, :], s[..., :, None]
    if du is not None:
        uhgu = _mH(u) @ du
        inner = inner + _skew(uhgu) / e * sr
    if dvh is not None:
        v, dv = _mH(vh), _mH(dvh)
        vhgv = vh @ dv
        inner = inner + sc * (_skew(vhgv) / e)
    ga = u @ inner @ vh
    if du is not None and m > k:
        ga = ga + ((du - u @ uhgu) / sr) @ vh
    if dvh is not None and n > k:
        ga = ga + u @ _mH((dv - v @ vhgv) / sr)
    return ga


def _svd_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("svd_grad", g.output("U"), g.output("S"), g.output("VH"), g.output_grad("U"),
                                   g.output_grad("S"), g.output_grad("VH")))


SVD = register_op("svd", inputs=("X",), outputs=("U", "S", "VH"), forward=_svd_forward, infer=_svd_infer,
                  grad=_svd_grad, attrs={"full_matrices": False})
SVD_GRAD = register_op("svd_grad", inputs=("U", "S", "VH", "DU", "DS", "DVH"), outputs=("DX",),
                       forward=_svd_grad_forward, optional_inputs=("DU", "DS", "DVH"),
                       infer=lambda u, s, vh, du, ds, dvh: Meta(tuple(u.shape[:-1]) + (vh.shape[-1],), u.dtype))


# ---- eigh: eigenvalues (ascending, real) and eigenvectors of the hermitian part -------------------------
_check_eigh = square_infer("eigh")


def _eigh_infer(x, UPLO):
    s = _check_eigh(x)
    if UPLO not in ("L", "U"):
        raise ValueError(f"op 'eigh': UPLO must be 'L' or 'U', received '{UPLO}'")
    return Meta(s[:-1], np.dtype(x.dtype).type(0).real.dtype), Meta(s, x.dtype)


def _eigh_grad_forward(xp, w, v, dw, dv):
    """gA = V (diag(gW) + (V^H gV) / E) V^H, E_ij = w_j - w_i, symmetrized (w must be distinct)."""
    n = w.shape[-1]
    eye = xp.eye(n, dtype=w.dtype)
    inner = xp.zeros(w.shape + (n,), v.dtype)
    if dv is not None:
        inner = (_mH(v) @ dv) / (w[..., None, :] - w[..., :, None] + eye) * (1 - eye)
    if dw is not None:
        inner = inner + eye * dw[..., None, :]
    return _sym(xp, v @ inner @ _mH(v))


def _eigh_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("eigh_grad", g.output("Eigenvalues"), g.output("Eigenvectors"),
                                   g.output_grad("Eigenvalues"), g.output_grad("Eigenvectors")))


EIGH = register_op("eigh", inputs=("X",), outputs=("Eigenvalues", "Eigenvectors"),
                   forward=lambda xp, x, UPLO: tuple(_lapack("eigh", xp.linalg.eigh, _sym(xp, x))),
                   infer=_eigh_infer, grad=_eigh_grad, attrs={"UPLO": "L"})
EIGH_GRAD = register_op("eigh_grad", inputs=("W", "V", "DW", "DV"), outputs=("DX",), forward=_eigh_grad_forward,
                        optional_inputs=("DW", "DV"), infer=lambda w, v, dw, dv: Meta(tuple(v.shape), v.dtype))


# ---- cross product along an axis of size 3: dx = y x dout, dy = dout x x ---------------------------------
def _cross_infer(x, y, axis):
    check_same_dtype("cross", x, y)
    if tuple(x.shape) != tuple(y.shape):
        raise ValueError(f"op 'cross': X {list(x.shape)} and Y {list(y.shape)} must have the same shape")
    if not -len(x.shape) <= axis < len(x.shape) or x.shape[axis] not in (3, -1):
        raise ValueError(f"op 'cross': axis {axis} of X {list(x.shape)} must have size 3")
    return Meta(tuple(x.shape), x.dtype)


def _cross_grad(g):
    x, y, dout, axis = g.input("X"), g.input("Y"), g.output_grad("Out"), g.attrs["axis"]
    if g.needs("X"):
        g.set_input_grad("X", g.op("cross", y, dout, axis=axis))
    if g.needs("Y"):
        g.set_input_grad("Y", g.op("cross", dout, x, axis=axis))


CROSS = register_op("cross", inputs=("X", "Y"), outputs=("Out",),
                    forward=lambda xp, x, y, axis: xp.cross(x, y, axis=axis), infer=_cross_infer, grad=_cross_grad,
                    same_dtype=("X", "Y"), attrs={"axis": -1}, double_grad=True)


# ---- lu: partial-pivoting LU (LAPACK getrf's algorithm, batched in xp); pivots are 1-based int32 ----------
def _lu_forward(xp, x, pivot):
    if not pivot:
        raise NotImplementedError("op 'lu': pivot=False (LU without pivoting) is only available on GPU in Paddle "
                                  "and not implemented here")
    shape = x.shape
    m, n = shape[-2:]
    k = min(m, n)
    a = x.reshape((-1, m, n)).copy()
    batch = xp.arange(a.shape[0])
    piv = xp.zeros((a.shape[0], k), np.int32)
    info = xp.zeros((a.shape[0],), np.int32)
    for j in range(k):
        p = xp.argmax(xp.abs(a[:, j:, j]), axis=1) + j
        piv[:, j] = p + 1
        row_j, row_p = a[batch, j].copy(), a[batch, p].copy()
        a[batch, p], a[batch, j] = row_j, row_p
        pivot_value = a[:, j, j]
        singular = pivot_value == 0
        info = xp.where(singular & (info == 0), j + 1, info).astype(np.int32)
        safe = xp.where(singular, xp.ones((), a.dtype), pivot_value)
        a[:, j + 1:, j] = a[:, j + 1:, j] / safe[:, None]
        a[:, j + 1:, j + 1:] -= a[:, j + 1:, j, None] * a[:, j, None, j + 1:]
    return a.reshape(shape), piv.reshape(shape[:-2] + (k,)), info.reshape(shape[:-2])


def _lu_infer(x, pivot):
    s = _matrix_check("lu", x)
    k = min(s[-2:]) if -1 not in s[-2:] else -1
    return Meta(s, x.dtype), Meta(s[:-2] + (k,), np.dtype(np.int32)), Meta(s[:-2], np.dtype(np.int32))


def permutation_from_pivots(xp, pivots, m):
    """The [..., m, m] permutation P with A = P L U from LAPACK's 1-based row swaps."""
    flat = pivots.reshape((-1, pivots.shape[-1])).astype(np.int64) - 1
    perm = xp.broadcast_to(xp.arange(m), (flat.shape[0], m)).copy()
    batch = xp.arange(flat.shape[0])
    for j in range(flat.shape[1]):
        pj, pp = perm[batch, j].copy(), perm[batch, flat[:, j]].copy()
        perm[batch, j], perm[batch, flat[:, j]] = pp, pj
    eye = xp.eye(m, dtype=np.float64)
    return xp.swapaxes(eye[perm], -1, -2).reshape(pivots.shape[:-1] + (m, m))


def _lu_grad_forward(xp, lu, pivots, dlu):
    """PyTorch's linalg_lu_backward (square and tall/wide via the square block): gA = P L^-H phi U^-H."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    p = permutation_from_pivots(xp, pivots, m).astype(lu.dtype)
    lower = xp.tril(lu[..., :, :k], -1) + xp.eye(m, k, dtype=lu.dtype)
    upper = xp.triu(lu[..., :k, :])
    dl, du = xp.tril(dlu[..., :, :k], -1), xp.triu(dlu[..., :k, :])
    if m == n:
        phi = xp.tril(_mH(lower) @ dl, -1) + xp.triu(du @ _mH(upper))
        ga = xp.linalg.solve(_mH(lower), phi)
        return p @ _mH(xp.linalg.solve(upper, _mH(ga)))
    if m < n:  # A = P L [U1 | U2]
        u1, du1, du2 = upper[..., :, :k], du[..., :, :k], du[..., :, k:]
        phi = xp.tril(_mH(lower) @ dl, -1) + xp.triu(du1 @ _mH(u1)) - xp.tril(du2 @ _mH(upper[..., :, k:]), -1)
        ga1 = _mH(xp.linalg.solve(u1, _mH(xp.linalg.solve(_mH(lower), phi))))
        ga2 = xp.linalg.solve(_mH(lower), du2)
        return p @ xp.concatenate([ga1, ga2], axis=-1)
    # m > n: A = P [L1; L2] U
    l1, dl1, dl2 = lower[..., :k, :], dl[..., :k, :], dl[..., k:, :]
    phi = xp.tril(_mH(l1) @ dl1, -1) + xp.triu(du @ _mH(upper)) - xp.triu(_mH(lower[..., k:, :]) @ dl2)
    ga1 = xp.linalg.solve(_mH(l1), phi)
    ga1 = _mH(xp.linalg.solve(upper, _mH(ga1)))
    ga2 = _mH(xp.linalg.solve(upper, _mH(dl2)))
    return p @ xp.concatenate([ga1, ga2], axis=-2)


def _lu_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("lu_grad", g.output("Out"), g.output("Pivots"), g.output_grad("Out")))


LU = register_op("lu", inputs=("X",), outputs=("Out", "Pivots", "Infos"), forward=_lu_forward, infer=_lu_infer,
                 grad=_lu_grad, attrs={"pivot": True})
LU_GRAD = register_op("lu_grad", inputs=("LU", "Pivots", "DLU"), outputs=("DX",), forward=_lu_grad_forward,
                      nondiff_inputs=("Pivots",), infer=lambda lu, piv, dlu: Meta(tuple(lu.shape), lu.dtype))


def _lu_permutation_infer(pivots, m):
    return Meta(tuple(pivots.shape[:-1]) + (m, m), np.dtype(np.float64))


LU_PERMUTATION = register_op(
    "lu_permutation", inputs=("Pivots",), outputs=("Out",), attrs={"m": 1, "dtype": "float32"},
    forward=lambda xp, piv, m, dtype: permutation_from_pivots(xp, piv, m).astype(dtype),
    infer=lambda piv, m, dtype: Meta(tuple(piv.shape[:-1]) + (m, m), np.dtype(dtype)))


# ---- matrix_exp: scaling and squaring of a Taylor series; the gradient is a block of exp([[X^T, G], [0, X^T]]) --
def _matrix_exp_forward(xp, x):
    norm = float(xp.abs(x).sum(axis=-2).max()) if x.size else 0.0
    squarings = max(0, int(np.ceil(np.log2(norm / 0.5))) if norm > 0.5 else 0)
    a = x / (2.0 ** squarings)
    eye = xp.eye(x.shape[-1], dtype=x.dtype)
    term, out = eye + xp.zeros_like(x), eye + xp.zeros_like(x)
    for i in range(1, 20 if x.dtype == np.float64 else 12):
        term = term @ a / i
        out = out + term
    for _ in range(squarings):
        out = out @ out
    return out


_check_matrix_exp = square_infer("matrix_exp")


def _matrix_exp_grad(g):
    if g.needs("X"):
        x, dout = g.input("X"), g.output_grad("Out")
        nd, n = len(g.shape(x)), g.shape(x)[-1]
        xt = _sym_T(g, x)
        top = concat([xt, dout], axis=nd - 1)
        bottom = concat([g.zeros_like(x), xt], axis=nd - 1)
        big = g.op("matrix_exp", concat([top, bottom], axis=nd - 2))
        g.set_input_grad("X", g.op("slice", big, axes=[nd - 2, nd - 1], starts=[0, n], ends=[n, 2 * n]))


MATRIX_EXP = register_op("matrix_exp", inputs=("X",), outputs=("Out",), forward=_matrix_exp_forward,
                         infer=lambda x: Meta(_check_matrix_exp(x), x.dtype), grad=_matrix_exp_grad, double_grad=True,
                         host_sync="reads the norm on the host to choose the squarings")


# ---- lstsq: least squares per matrix (numpy.linalg.lstsq is not batched); not differentiable, as in Paddle ----
def _lstsq_forward(xp, x, y, rcond, driver):
    m, n = x.shape[-2:]
    batch = tuple(np.broadcast_shapes(x.shape[:-2], y.shape[:-2]))
    xs = xp.broadcast_to(x, batch + x.shape[-2:]).reshape((-1, m, n))
    ys = xp.broadcast_to(y, batch + y.shape[-2:]).reshape((-1, m, y.shape[-1]))
    results = [xp.linalg.lstsq(a, b, rcond=rcond) for a, b in zip(xs, ys)]
    solution = xp.stack([r[0] for r in results]).reshape(batch + (n, y.shape[-1])).astype(x.dtype)
    empty = xp.zeros((0,), x.dtype)
    # Paddle's outputs per driver: residuals for tall systems except gelsy, ranks except gels (int64 empty),
    # singular values for gelsd/gelss
    residuals = (((x @ solution - y) ** 2).sum(axis=-2) if m > n and driver != "gelsy" else empty)
    if driver == "gels":
        rank = xp.zeros((0,), np.int64)
    else:
        rank = xp.asarray([int(r[2]) for r in results], dtype=np.int32).reshape(batch)
    singular = (xp.stack([r[3] for r in results]).reshape(batch + (min(m, n),)).astype(x.dtype)
                if driver in ("gelsd", "gelss") else empty)
    return solution, residuals, rank, singular


def _lstsq_infer(x, y, rcond, driver):
    xs, ys = _matrix_check("lstsq", x), _matrix_check("lstsq", y, "Y")
    check_same_dtype("lstsq", x, y)
    if xs[-2] != ys[-2] and -1 not in (xs[-2], ys[-2]):  # ValueError, as Paddle's (one equation per row)
        raise ValueError(f"op 'lstsq': X and Y must have the same number of rows, received shapes {list(xs)} and "
                         f"{list(ys)}")
    batch = broadcast_shapes("lstsq", xs[:-2], ys[:-2])
    return (Meta(batch + (xs[-1], ys[-1]), x.dtype), Meta((-1,), x.dtype), Meta((-1,), np.dtype(np.int32)),
            Meta((-1,), x.dtype))


LSTSQ = register_op("lstsq", inputs=("X", "Y"), outputs=("Solution", "Residuals", "Rank", "SingularValues"),
                    forward=_lstsq_forward, infer=_lstsq_infer, attrs={"rcond": None, "driver": "gelsy"},
                    host_sync="reads each system's rank on the host")


# ---- eig / eigvals: general eigen decomposition, complex results ------------------------------------------
def _complex_dtype(dtype):
    return np.dtype(np.complex128 if np.dtype(dtype) in (np.float64, np.complex128) else np.complex64)


_check_eig = square_infer("eig")


def _eig_forward(xp, x):
    if xp is not np:  # cuSOLVER has no general eigensolver: LAPACK on the host, as Paddle's GPU kernel does
        w, v = np.linalg.eig(xp.asnumpy(x))
        w, v = xp.asarray(w), xp.asarray(v)
    else:
        w, v = np.linalg.eig(x)
    c = _complex_dtype(x.dtype)
    return w.astype(c), v.astype(c)


def _eig_grad_forward(xp, x, w, v, dw, dv):
    """gA = V^-H (diag(gW) + (V^H gV - V^H V diag(Re diag(V^H gV))) / conj(E)) V^H with E_ij = w_j - w_i (unit-norm
    eigenvectors, distinct eigenvalues); a real A takes the real part."""
    vh = _mH(v)
    off = ~xp.eye(w.shape[-1], dtype=bool)
    inner = xp.zeros(v.shape, v.dtype)
    if dv is not None:
        vhgv = vh @ dv
        re_diag = xp.real(xp.diagonal(vhgv, axis1=-2, axis2=-1))
        e = xp.conj(w[..., None, :] - w[..., :, None])
        inner = xp.where(off, (vhgv - vh @ (v * re_diag[..., None, :])) / xp.where(off, e, 1), 0)
    if dw is not None:
        inner = inner + ~off * dw[..., None, :]
    ga = xp.linalg.solve(vh, inner @ vh)
    return (ga if x.dtype.kind == "c" else ga.real).astype(x.dtype)


def _eig_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("eig_grad", g.input("X"), g.output("Eigenvalues"), g.output("Eigenvectors"),
                                   g.output_grad("Eigenvalues"), g.output_grad("Eigenvectors")))


EIG = register_op("eig", inputs=("X",), outputs=("Eigenvalues", "Eigenvectors"), forward=_eig_forward,
                  infer=lambda x: (Meta(_check_eig(x)[:-1], _complex_dtype(x.dtype)),
                                   Meta(tuple(x.shape), _complex_dtype(x.dtype))), grad=_eig_grad,
                  host_sync="runs LAPACK on the host")
EIG_GRAD = register_op("eig_grad", inputs=("X", "W", "V", "DW", "DV"), outputs=("DX",), forward=_eig_grad_forward,
                       meta_inputs=("X",), optional_inputs=("DW", "DV"),
                       infer=lambda x, w, v, dw, dv: Meta(tuple(x.shape), x.dtype))
