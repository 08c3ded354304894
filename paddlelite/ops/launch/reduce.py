"""kernels/reduce.cu: sums over broadcast dims (reduce_as) and the row/column sums other kernels reuse."""
import numpy as np

from ...device.kernels import kernel, sm_count
from .common import THREADS, aligned, blocks, i32, i64, prod, suffix


def reduce_as(xp, x, target):
    """x summed to target's shape (target: broadcastable to x, as in ops/grad_support.py)."""
    tshape = tuple(target.shape)
    if x.shape == tshape:
        return x.copy()  # fresh storage, as the reference forward's (gradients must not share it)
    if suffix(x.dtype) is None:
        return None
    lead = x.ndim - len(tshape)
    full_t = (1,) * lead + tshape
    dims = []  # merged (size, reduced) groups; size-1 dims dropped
    for xs, ts in zip(x.shape, full_t):
        if xs == 1:
            continue
        red = ts == 1
        if dims and dims[-1][1] == red:
            dims[-1][0] *= int(xs)
        else:
            dims.append([int(xs), red])
    if x.size == 0:
        return xp.zeros(tshape, dtype=x.dtype)
    if not any(r for _, r in dims):  # only size-1 dims differ
        return x.copy().reshape(tshape)
    cur = xp.ascontiguousarray(x)
    while True:
        k = max(i for i, (_, r) in enumerate(dims) if r)
        last_pass = sum(1 for _, r in dims if r) == 1
        out_dtype = x.dtype if last_pass else np.dtype(np.float32)
        A, R, B = prod(s for s, _ in dims[:k]), dims[k][0], prod(s for s, _ in dims[k + 1:])
        cur = reduce_mid(xp, cur, A, R, B, out_dtype) if B > 1 else reduce_last(xp, cur, A, R, out_dtype)
        del dims[k]
        merged = []
        for s, r in dims:
            if merged and merged[-1][1] == r:
                merged[-1][0] *= s
            else:
                merged.append([s, r])
        dims = merged
        if last_pass:
            return cur.reshape(tshape)


REDUCE_MID_BLOCKS_PER_SM = 4  # as kernels/reduce.cu


def col_grid(B, A, R, vec, per_sm):
    """The grid of a tile_colsum kernel over [A, R, B]: TILE_X * (4 if vec else 1) columns per block, the rows
    split over exactly one full wave of blocks (`per_sm` resident 256-thread blocks per SM, the kernel's
    __launch_bounds__; rounded down: a second, nearly empty wave would double the time), at least 32 rows per
    block."""
    gx, gz = -(-B // (32 * (4 if vec else 1))), min(A, 65535)
    gy = max(1, min(sm_count() * per_sm // (gx * gz), -(-R // 32), 1024))
    return gx, gy, gz


def reduce_mid(xp, x, A, R, B, out_dtype, grid_y=None):
    """[A, R, B] -> [A, B] in out_dtype (via float32 partials when the rows are split over blocks)."""
    vec = B % 4 == 0 and aligned(4, x)
    gx, gy, gz = col_grid(B, A, R, vec, REDUCE_MID_BLOCKS_PER_SM)
    grid_y = gy if grid_y is None else grid_y
    name_in = suffix(x.dtype)
    if grid_y == 1:
        out = xp.empty((A, B), dtype=out_dtype)
        kernel("reduce", f"reduce_mid_{name_in}_{suffix(out_dtype)}")(
            (gx, 1, gz), (32, 8), (x, out, i64(A), i64(R), i64(B), i32(vec)))
        return out
    part = xp.empty((A, grid_y, B), dtype=np.float32)
    kernel("reduce", f"reduce_mid_{name_in}_f32")((gx, grid_y, gz), (32, 8),
                                                  (x, part, i64(A), i64(R), i64(B), i32(vec)))
    return reduce_mid(xp, part, A, grid_y, B, out_dtype, grid_y=1)


def reduce_last(xp, x, A, R, out_dtype):
    """[A, R] -> [A] in out_dtype; rows by warps when many, split over blocks when few."""
    vec = i32(R % 4 == 0 and aligned(4, x))
    name_in = suffix(x.dtype)
    sm = sm_count()
    if A >= sm * 8 or R <= 1024:
        out = xp.empty((A,), dtype=out_dtype)
        kernel("reduce", f"reduce_last_warp_{name_in}_{suffix(out_dtype)}")(
            (blocks(A, 8),), (THREADS,), (x, out, i64(A), i64(R), vec))
        return out
    g = max(1, min(-(-sm * 4 // A), -(-R // (THREADS * 16)), 1024))
    if g == 1:
        out = xp.empty((A,), dtype=out_dtype)
        kernel("reduce", f"reduce_last_block_{name_in}_{suffix(out_dtype)}")(
            (1, min(A, 65535)), (THREADS,), (x, out, i64(A), i64(R), vec))
        return out
    part = xp.empty((A, g), dtype=np.float32)
    kernel("reduce", f"reduce_last_block_{name_in}_f32")((g, min(A, 65535)), (THREADS,),
                                                         (x, part, i64(A), i64(R), vec))
    return reduce_last(xp, part, A, g, out_dtype)
