"""kernels/dropout.cu: dropout's backward, alone or fused with the gradient of the activation before it."""
import numpy as np

from ...device.kernels import kernel
from .activation import ACT_CODES
from .common import THREADS, aligned, blocks, f32, i32, i64, suffix


def dropout_act_grad(xp, mask, a, dout, scale, act="identity"):
    """act_grad(a, dout * mask * scale); `a` is unused (None) for act='identity'."""
    sfx = suffix(dout.dtype)
    if sfx is None or mask.shape != dout.shape or mask.dtype.itemsize != 1 or mask.dtype.kind not in "bu" \
            or (a is not None and (a.dtype != dout.dtype or a.shape != dout.shape)):
        return None
    m_ = xp.ascontiguousarray(mask).view(np.uint8)
    d_ = xp.ascontiguousarray(dout)
    dx = xp.empty(dout.shape, dtype=dout.dtype)
    n = dx.size
    if n == 0:
        return dx
    grid = (blocks(n, THREADS * 4),)
    if act == "identity":
        vec = aligned(4, m_, d_, dx)
        kernel("dropout", f"dropout_grad_{sfx}")(grid, (THREADS,), (m_, d_, dx, i64(n), f32(scale), i32(vec)))
    else:
        a_ = xp.ascontiguousarray(a)
        vec = aligned(4, m_, a_, d_, dx)
        kernel("dropout", f"dropout_act_grad_{sfx}")(
            grid, (THREADS,), (m_, a_, d_, dx, i64(n), f32(scale), i32(ACT_CODES[act]), i32(vec)))
    return dx
