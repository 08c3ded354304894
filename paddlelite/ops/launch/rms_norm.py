"""kernels/rms_norm.cu: rms_norm's forward (a warp per row) and backward (dh, and the weight, norm-bias and bias
gradients from per-block partials)."""
import numpy as np

from ...device.kernels import kernel, sm_count
from .common import block_size, f32, i32, i64, prod, suffix
from .reduce import reduce_mid


def _rows(x, begin_norm_axis):
    """(M, N) of x's [rows, normalised] view, or None where the kernels do not apply."""
    if suffix(x.dtype) is None or not 0 < begin_norm_axis < max(x.ndim, 1) + 1:
        return None
    M, N = prod(x.shape[:begin_norm_axis]), prod(x.shape[begin_norm_axis:])
    return None if M == 0 or N == 0 else (M, N)


def _param_suffix(x, params):
    """The kernels' suffix for the given weights (x's, or f32 for float32 weights of a 16-bit x); None if mixed."""
    sfx = suffix(x.dtype)
    pdts = {suffix(p.dtype) for p in params if p is not None}
    ssfx = pdts.pop() if len(pdts) == 1 else (sfx if not pdts else None)
    return ssfx if ssfx in (sfx, "f32") else None


def rms_norm(xp, x, bias, residual, norm_weight, norm_bias, epsilon, begin_norm_axis):
    """(Out, ResidualOut, InvVar) in one launch; None for what the kernel does not take (float64, mixed weight
    dtypes, an empty tensor)."""
    rows, ssfx = _rows(x, begin_norm_axis), _param_suffix(x, (norm_weight, norm_bias))
    if rows is None or ssfx is None or any(a is not None and a.dtype != x.dtype for a in (bias, residual)):
        return None
    M, N = rows
    x2 = xp.ascontiguousarray(x).reshape(M, N)
    bi, res, w, nb = (xp.ascontiguousarray(a).reshape(-1) if a is not None else x2
                      for a in (bias, residual, norm_weight, norm_bias))
    with_h = bias is not None or residual is not None
    y = xp.empty((M, N), dtype=x.dtype)
    h = xp.empty((M, N) if with_h else (0,), dtype=x.dtype)
    inv = xp.empty((M,), dtype=np.float32)
    fn = kernel("rms_norm", f"rms_fwd_{suffix(x.dtype)}_{ssfx}")
    threads = block_size(fn, 256)
    grid = max(1, min(-(-M // (threads // 32)), sm_count() * 8))
    fn((grid,), (threads,), (x2, bi, res, w, nb, y, h if with_h else y, inv, i64(M), i64(N), f32(epsilon),
                             i32(bias is not None), i32(residual is not None), i32(norm_weight is not None),
                             i32(norm_bias is not None)))
    return y.reshape(x.shape), h.reshape(x.shape) if with_h else h, inv.reshape(x.shape[:begin_norm_axis])


def rms_norm_grad(xp, h, norm_weight, inv_var, dout, dresidual_out, begin_norm_axis):
    """(DH, DNormWeight, DNormBias, DBias): one launch for DH and the column partials, one to sum them."""
    rows, ssfx = _rows(h, begin_norm_axis), _param_suffix(h, (norm_weight,))
    if rows is None or ssfx is None or dout.dtype != h.dtype or inv_var.dtype != np.float32 \
            or (dresidual_out is not None and dresidual_out.dtype != h.dtype):
        return None
    M, N = rows
    h2 = xp.ascontiguousarray(h).reshape(M, N)
    dy2 = xp.ascontiguousarray(dout).reshape(M, N)
    dr = xp.ascontiguousarray(dresidual_out).reshape(M, N) if dresidual_out is not None else h2
    w = xp.ascontiguousarray(norm_weight).reshape(-1) if norm_weight is not None else h2
    inv = xp.ascontiguousarray(inv_var).reshape(-1)
    dh = xp.empty((M, N), dtype=h.dtype)
    fn = kernel("rms_norm", f"rms_bwd_{suffix(h.dtype)}_{ssfx}")
    threads = block_size(fn, min(256, -(-N // 32) * 32))
    grid = max(1, min(M, sm_count() * 4))
    part = xp.empty((grid, 3 * N), dtype=np.float32)
    fn((grid,), (threads,), (h2, w, inv, dy2, dr, dh, part, i64(M), i64(N), i32(norm_weight is not None),
                             i32(dresidual_out is not None)))
    pdt = norm_weight.dtype if norm_weight is not None else h.dtype
    sums = reduce_mid(xp, part, 1, grid, 3 * N, pdt)[0]
    pshape = norm_weight.shape if norm_weight is not None else (N,)
    return (dh.reshape(h.shape), sums[:N].reshape(pshape), sums[N:2 * N].reshape(pshape),
            sums[2 * N:].astype(h.dtype, copy=False))
