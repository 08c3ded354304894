"""kernels/dropout.cu: dropout's backward, alone or fused with the gradient of the activation before it, and the
fused (bias +) dropout + add forward."""
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


def dropout_add(xp, draws, x, bias, y, p, scale):
    """(Out, Mask) of (x + bias) * (u >= p) * scale + y in one launch, u from the next words of `draws` (a
    framework.random.Draws, consumed only when the kernel applies: a fallback draws its own), computed in the
    kernel."""
    sfx = suffix(x.dtype)
    if sfx is None or y.dtype != x.dtype or y.shape != x.shape or x.ndim == 0 \
            or bias is not None and (bias.dtype != x.dtype or bias.size != x.shape[-1]):
        return None
    x_, y_ = xp.ascontiguousarray(x), xp.ascontiguousarray(y)
    out = xp.empty(x.shape, dtype=x.dtype)
    mask = xp.empty(x.shape, dtype=np.uint8)
    if x.size:
        key, first = draws.take_words(x.size)
        on_device = not isinstance(key, int)
        kernel("dropout", f"dropout_add_{sfx}")(
            (blocks(x.size, THREADS * 4),), (THREADS,),
            (np.uint64(0 if on_device else key), key if on_device else out, np.uint64(first), x_, xp.ascontiguousarray(bias).reshape(-1) if bias is not None else x_, y_,
             out, mask, i64(x.size), i64(x.shape[-1]), np.float64(p), f32(scale), i32(bias is not None),
             i32(on_device)))
    return out, mask
