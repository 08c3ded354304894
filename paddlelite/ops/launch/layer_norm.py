"""kernels/layer_norm.cu: layer_norm's forward (a warp per row) and backward (dx, and dscale/dbias from per-block
partials)."""
import numpy as np

from ...device.kernels import kernel, sm_count
from .common import aligned, block_size, f32, i32, i64, prod, suffix
from .reduce import reduce_mid

MAXK = 8  # rows the warp kernels do not take: elements of a row each thread of a block keeps in registers
PREFER_OCCUPANCY = True  # rows that fit either warp kernel take ln_bwd_warp4 (twice the warps per SM, but
# 2 warps per row where ln_bwd_warp8 needs 1: a barrier per step)


def warp_plan(N, vec):
    """(kernel, vectors per lane, warps per row, resident blocks per SM) of the warp kernel for rows of N, or
    None (the block kernel). Rows over one warp need N % 4 == 0 and aligned arrays (vec)."""
    def pick(per_lane):
        g = next((k for k in (1, 2, 4, 8) if N <= 32 * 4 * per_lane * k), None)
        if g is None or (g > 1 and not vec):
            return None
        return g, (next(k for k in (1, 2, 4) if N <= 128 * k) if g == 1 and per_lane == 4 else per_lane)
    small, big = pick(4), pick(8)
    if small is not None and (PREFER_OCCUPANCY or small[0] == 1 or big is None):
        return "ln_bwd_warp4", small[1], small[0], 2
    if big is not None:
        return "ln_bwd_warp8", big[1], big[0], 1
    return None


def layer_norm(xp, x, scale, bias, epsilon, begin_norm_axis):
    """(Y, Mean, Variance) of layer_norm in one launch; None for what the kernel does not take (float64, a Scale
    and Bias of different dtypes, an empty tensor)."""
    got = _ln_fwd(xp, x, scale, bias, epsilon, begin_norm_axis)
    return None if got is None else (got[0], got[2], got[3])


def fused_layer_norm(xp, x, pre_bias, residual, scale, bias, epsilon, residual_alpha, begin_norm_axis):
    """(Y, ResidualOut, Mean, Variance, InvVar) of layer_norm over h = x + pre_bias + residual_alpha * residual in
    one launch (ResidualOut h, empty when neither is given); None where the kernel does not apply."""
    if any(a is not None and a.dtype != x.dtype for a in (pre_bias, residual)):
        return None
    return _ln_fwd(xp, x, scale, bias, epsilon, begin_norm_axis, pre_bias, residual, residual_alpha, True)


def _ln_fwd(xp, x, scale, bias, epsilon, begin_norm_axis, pre_bias=None, residual=None, residual_alpha=1.0,
            with_inv=False):
    """(Y, ResidualOut, Mean, Variance, InvVar) from one ln_fwd launch (ResidualOut and InvVar None unless with_inv:
    plain layer_norm allocates nothing for them)."""
    sfx = suffix(x.dtype)
    if sfx is None or not 0 < begin_norm_axis < max(x.ndim, 1) + 1:
        return None
    M, N = prod(x.shape[:begin_norm_axis]), prod(x.shape[begin_norm_axis:])
    given = [a for a in (scale, bias) if a is not None]
    ssfx = suffix(given[0].dtype) if given else sfx
    if M == 0 or N == 0 or ssfx not in (sfx, "f32") or any(a.size != N or suffix(a.dtype) != ssfx for a in given) \
            or pre_bias is not None and pre_bias.size != N or residual is not None and residual.size != M * N:
        return None
    x2 = xp.ascontiguousarray(x).reshape(M, N)
    sc, bi, pre, res = (xp.ascontiguousarray(a.reshape(-1)) if a is not None else x2
                        for a in (scale, bias, pre_bias, residual))
    with_h = pre_bias is not None or residual is not None
    y = xp.empty((M, N), dtype=x.dtype)
    mean, var = xp.empty((M,), dtype=np.float32), xp.empty((M,), dtype=np.float32)
    h = xp.empty((M, N), dtype=x.dtype) if with_h else y  # y: a stand-in the kernel does not write
    inv = xp.empty((M,), dtype=np.float32) if with_inv else mean
    fn = kernel("layer_norm", f"ln_fwd_{sfx}_{ssfx}")
    threads = block_size(fn, 256)
    grid = max(1, min(-(-M // (threads // 32)), sm_count() * 8))
    fn((grid,), (threads,), (x2, sc, bi, y, mean, var, i64(M), i64(N), f32(epsilon), i32(scale is not None),
                             i32(bias is not None), pre, res, h, inv, f32(residual_alpha), i32(pre_bias is not None),
                             i32(residual is not None), i32(with_inv)))
    stats = x.shape[:begin_norm_axis]
    if not with_inv:
        return y.reshape(x.shape), None, mean.reshape(stats), var.reshape(stats), None
    return (y.reshape(x.shape), h.reshape(x.shape) if with_h else xp.empty((0,), dtype=x.dtype), mean.reshape(stats),
            var.reshape(stats), inv.reshape(stats))


def layer_norm_grad(xp, x, scale, mean, var, dy, epsilon, begin_norm_axis):
    sfx = suffix(x.dtype)
    if sfx is None or dy.dtype != x.dtype or not 0 < begin_norm_axis < max(x.ndim, 1) + 1:
        return None
    M, N = prod(x.shape[:begin_norm_axis]), prod(x.shape[begin_norm_axis:])
    if M == 0 or N == 0:
        return None
    if scale is not None:
        ssfx = suffix(scale.dtype)
        if scale.size != N or ssfx not in (sfx, "f32"):
            return None
    else:
        ssfx = sfx
    x2 = xp.ascontiguousarray(x).reshape(M, N)
    dy2 = xp.ascontiguousarray(dy).reshape(M, N)
    mu = xp.ascontiguousarray(mean.reshape(-1), dtype=np.float32)
    vr = xp.ascontiguousarray(var.reshape(-1), dtype=np.float32)
    sc = xp.ascontiguousarray(scale.reshape(-1)) if scale is not None else x2
    dx = xp.empty((M, N), dtype=x.dtype)
    pdt = scale.dtype if scale is not None else x.dtype
    pshape = scale.shape if scale is not None else (N,)
    vec = N % 4 == 0 and aligned(4, x2, sc, dy2, dx)
    plan = warp_plan(N, vec)
    if plan is not None:  # g warps per row, the row in registers
        name, kv, g, per_sm = plan
        fn = kernel("layer_norm", f"{name}_{sfx}_{ssfx}")
        threads = block_size(fn, 256)
        grid = max(1, min(-(-M // (threads // 32 // g)), sm_count() * per_sm))
        part = xp.empty((grid, 2 * N), dtype=np.float32)
        fn((grid,), (threads,), (x2, sc, mu, vr, dy2, dx, part, i64(M), i64(N), f32(epsilon),
                                 i32(scale is not None), i32(kv), i32(g), i32(vec)))
        sums = reduce_mid(xp, part, 1, grid, 2 * N, pdt)[0]
        return dx.reshape(x.shape), sums[:N].reshape(pshape), sums[N:].reshape(pshape)
    fn = kernel("layer_norm", f"ln_bwd_{sfx}_{ssfx}")
    threads = block_size(fn, max(32, -(-(-(-N // MAXK)) // 32) * 32))
    grid = max(1, min(M, sm_count() * 4))
    pg = xp.empty((grid, N), dtype=np.float32)
    pb = xp.empty((grid, N), dtype=np.float32)
    fn((grid,), (threads,), (x2, sc, mu, vr, dy2, dx, pg, pb, i64(M), i64(N), f32(epsilon), i32(scale is not None)))
    dscale = reduce_mid(xp, pg, 1, grid, N, pdt, grid_y=1).reshape(pshape)
    dbias = reduce_mid(xp, pb, 1, grid, N, pdt, grid_y=1).reshape(pshape)
    return dx.reshape(x.shape), dscale, dbias
