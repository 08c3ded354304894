"""kernels/rms_norm.cu: rms_norm's forward with its residual sum (a warp per row) and backward (dh, and the
norm weight's and bias's gradients from per-block partials)."""
import numpy as np

from ...device.kernels import kernel, sm_count
from .common import block_size, f32, i32, i64, prod, suffix
from .reduce import reduce_mid


def _rows(x, begin_norm_axis):
    return prod(x.shape[:begin_norm_axis]), prod(x.shape[begin_norm_axis:])


def _same_kind(sfx, n, x_shape, vectors=(), residuals=()):
    """Whether every given per-column vector has n elements and every residual x's shape, all in x's dtype."""
    return all(a is None or (a.size == n and suffix(a.dtype) == sfx) for a in vectors) and \
        all(a is None or (tuple(a.shape) == tuple(x_shape) and suffix(a.dtype) == sfx) for a in residuals)


def rms_norm(xp, x, bias, residual, norm_weight, norm_bias, epsilon, begin_norm_axis):
    """(Out, ResidualOut, InvVar) in one launch; None for what the kernel does not take (float64, mixed dtypes, an
    empty tensor)."""
    sfx = suffix(x.dtype)
    if sfx is None or not 0 <= begin_norm_axis < x.ndim:
        return None
    M, N = _rows(x, begin_norm_axis)
    if M == 0 or N == 0 or not _same_kind(sfx, N, x.shape, (bias, norm_weight, norm_bias), (residual,)):
        return None
    x2 = xp.ascontiguousarray(x).reshape(M, N)
    b, r, w, nb = (xp.ascontiguousarray(a).reshape(-1) if a is not None else x2
                   for a in (bias, residual, norm_weight, norm_bias))
    fused = bias is not None or residual is not None
    out = xp.empty((M, N), dtype=x.dtype)
    hout = xp.empty((M, N), dtype=x.dtype) if fused else xp.empty((0,), dtype=x.dtype)
    inv = xp.empty((M,), dtype=np.float32)
    fn = kernel("rms_norm", f"rms_fwd_{sfx}")
    threads = block_size(fn, 256)
    grid = max(1, min(-(-M // (threads // 32)), sm_count() * 8))
    fn((grid,), (threads,), (x2, b, r, w, nb, out, hout if fused else x2, inv, i64(M), i64(N), f32(epsilon),
                             i32(bias is not None), i32(residual is not None), i32(norm_weight is not None),
                             i32(norm_bias is not None)))
    return out.reshape(x.shape), hout.reshape(x.shape) if fused else hout, inv


def rms_norm_grad(xp, h, norm_weight, inv_var, dout, dresidual_out, epsilon, begin_norm_axis):
    """(DH, DNormWeight, DNormBias); None for what the kernel does not take."""
    sfx = suffix(h.dtype)
    if sfx is None or inv_var.dtype != np.float32 or not 0 <= begin_norm_axis < h.ndim:
        return None
    M, N = _rows(h, begin_norm_axis)
    if M == 0 or N == 0 or not _same_kind(sfx, N, h.shape, (norm_weight,), (dout, dresidual_out)):
        return None
    h2 = xp.ascontiguousarray(h).reshape(M, N)
    d2 = xp.ascontiguousarray(dout).reshape(M, N)
    w = xp.ascontiguousarray(norm_weight).reshape(-1) if norm_weight is not None else h2
    dr = xp.ascontiguousarray(dresidual_out).reshape(M, N) if dresidual_out is not None else h2
    dh = xp.empty((M, N), dtype=h.dtype)
    fn = kernel("rms_norm", f"rms_bwd_{sfx}")
    threads = block_size(fn, 256)
    grid = max(1, min(M, sm_count() * 4))
    pw = xp.empty((grid, N), dtype=np.float32)
    pb = xp.empty((grid, N), dtype=np.float32)
    fn((grid,), (threads,), (h2, w, xp.ascontiguousarray(inv_var), d2, dr, dh, pw, pb, i64(M), i64(N),
                             i32(norm_weight is not None), i32(dresidual_out is not None)))
    pshape = (N,) if norm_weight is None else norm_weight.shape
    return (dh.reshape(h.shape), reduce_mid(xp, pw, 1, grid, N, h.dtype, grid_y=1).reshape(pshape),
            reduce_mid(xp, pb, 1, grid, N, h.dtype, grid_y=1).reshape(pshape))
