"""kernels/activation.cu: activation gradients, the fused bias + activation and swiglu (forward and backward)."""
import numpy as np

from ...device.kernels import kernel
from .common import THREADS, aligned, blocks, i32, i64, prod, suffix
from .reduce import col_grid, reduce_mid

BIAS_ACT_GRAD_BLOCKS_PER_SM = 2  # as kernels/activation.cu

ACT_CODES = {"identity": 0, "relu": 1, "sigmoid": 2, "tanh": 3, "gelu": 4, "gelu_tanh": 5, "silu": 6,
             "relu_x": 7}


def act_grad(xp, a, dout, act):
    """dout * act'(a) with a the saved output or input (ACT_CODES)."""
    sfx = suffix(a.dtype)
    if sfx is None or dout.dtype != a.dtype or a.shape != dout.shape:
        return None
    a_, d_ = xp.ascontiguousarray(a), xp.ascontiguousarray(dout)
    dx = xp.empty(a.shape, dtype=a.dtype)
    n = dx.size
    if n:
        kernel("activation", f"act_grad_{sfx}")(
            (blocks(n, THREADS * 4),), (THREADS,),
            (a_, d_, dx, i64(n), i32(ACT_CODES[act]), i32(aligned(4, a_, d_, dx))))
    return dx


def bias_act(xp, x, bias, act):
    """act(x + bias), bias broadcast along x's last axis."""
    sfx = suffix(x.dtype)
    if sfx is None or bias.dtype != x.dtype or x.ndim == 0 or bias.size != x.shape[-1]:
        return None
    x_, b_ = xp.ascontiguousarray(x), xp.ascontiguousarray(bias.reshape(-1))
    out = xp.empty(x.shape, dtype=x.dtype)
    n, B = out.size, b_.size
    if n:
        vec = B % 4 == 0 and aligned(4, x_, b_, out)
        kernel("activation", f"bias_act_{sfx}")((blocks(n, THREADS * 4),), (THREADS,),
                                                (x_, b_, out, i64(n), i64(B), i32(ACT_CODES[act]), i32(vec)))
    return out


def bias_act_grad(xp, x, bias, dout, act):
    """(dx, dbias) of out = act(x + bias): dx written and its column sums taken in one pass."""
    sfx = suffix(x.dtype)
    if sfx is None or bias.dtype != x.dtype or dout.dtype != x.dtype or x.shape != dout.shape \
            or x.ndim == 0 or bias.size != x.shape[-1] or x.size == 0:
        return None
    x_, b_, d_ = xp.ascontiguousarray(x), xp.ascontiguousarray(bias.reshape(-1)), xp.ascontiguousarray(dout)
    B = b_.size
    R = x_.size // B
    dx = xp.empty(x.shape, dtype=x.dtype)
    dbias = xp.empty((B,), dtype=x.dtype)
    vec = B % 4 == 0 and aligned(4, x_, b_, d_, dx)
    gx, gy, _ = col_grid(B, 1, R, vec, BIAS_ACT_GRAD_BLOCKS_PER_SM)
    part = xp.empty((gy, B), dtype=np.float32) if gy > 1 else dbias
    kernel("activation", f"bias_act_grad_{sfx}")(
        (gx, gy), (32, 8), (x_, b_, d_, dx, dbias, part, i64(R), i64(B), i32(ACT_CODES[act]), i32(vec)))
    if gy > 1:
        dbias = reduce_mid(xp, part, 1, gy, B, x.dtype, grid_y=1)
    return dx, dbias.reshape(bias.shape)


def _glu_args(x, y, bias):
    """(suffix, D) of swiglu over x (and y, or bias [2D] of x's halves): D outputs per row; None where the kernels
    do not apply."""
    sfx = suffix(x.dtype)
    if sfx is None or x.ndim == 0 or y is not None and (y.dtype != x.dtype or y.shape != x.shape) \
            or bias is not None and (y is not None or bias.dtype != x.dtype or bias.size != x.shape[-1]):
        return None
    return sfx, x.shape[-1] if y is not None else x.shape[-1] // 2


def swiglu(xp, x, y, bias=None, act="silu"):
    """act(a) * b in one launch, (a, b) = (x, y) or the halves of x (+ bias) along its last axis."""
    args = _glu_args(x, y, bias)
    if args is None:
        return None
    sfx, D = args
    x_ = xp.ascontiguousarray(x)
    y_ = xp.ascontiguousarray(y) if y is not None else x_
    b_ = xp.ascontiguousarray(bias).reshape(-1) if bias is not None else x_
    out = xp.empty(x.shape[:-1] + (D,), dtype=x.dtype)
    n = prod(out.shape)
    if n:
        kernel("activation", f"swiglu_{sfx}")((blocks(n, THREADS * 4),), (THREADS,),
                                              (x_, y_, b_, out, i64(n), i64(D), i32(y is not None),
                                               i32(bias is not None), i32(ACT_CODES[act])))
    return out


def swiglu_grad(xp, x, y, dout, bias=None, act="silu"):
    """(dx, dy) of swiglu in one launch; dy empty without y (dx then holds both halves' gradients)."""
    args = _glu_args(x, y, bias)
    if args is None or dout.dtype != x.dtype:
        return None
    sfx, D = args
    x_ = xp.ascontiguousarray(x)
    y_ = xp.ascontiguousarray(y) if y is not None else x_
    b_ = xp.ascontiguousarray(bias).reshape(-1) if bias is not None else x_
    d_ = xp.ascontiguousarray(dout)
    dx = xp.empty(x.shape, dtype=x.dtype)
    dy = xp.empty(y.shape if y is not None else (0,), dtype=x.dtype)
    n = d_.size
    if n:
        kernel("activation", f"swiglu_grad_{sfx}")((blocks(n, THREADS * 4),), (THREADS,),
                                                   (x_, y_, b_, d_, dx, dy if y is not None else dx, i64(n), i64(D),
                                                    i32(y is not None), i32(bias is not None), i32(ACT_CODES[act])))
    return dx, dy


def glu_bias_grad(xp, x, bias, dout, act):
    """(dx, dbias) of act(a) * b over the halves of x + bias: swiglu_grad's launch, then dx's column sums."""
    got = swiglu_grad(xp, x, None, dout, bias, act) if x.size else None
    if got is None:
        return None
    dx = got[0]
    B = x.shape[-1]
    return dx, reduce_mid(xp, dx.reshape(-1, B), 1, dx.size // B, B, bias.dtype).reshape(bias.shape)
