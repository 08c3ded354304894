"""kernels/rope.cu: rotary position embedding, forward and gradient, one launch each."""
from ...device.kernels import kernel
from .common import THREADS, blocks, i32, i64, suffix


def rope(xp, x, sin, cos, use_neox_rotary_style, time_major, grad=False):
    """x rotated by the sin / cos tables [Bs, S, D] (or, with grad, its gradient taken back); None for what the
    kernel does not take."""
    sfx = suffix(x.dtype)
    if sfx is None or x.ndim != 4 or sin.dtype != x.dtype or cos.dtype != x.dtype or sin.shape != cos.shape:
        return None
    S, B = (x.shape[0], x.shape[1]) if time_major else (x.shape[1], x.shape[0])
    H, D = x.shape[2], x.shape[3]
    if sin.ndim != 3 or sin.shape[1:] != (S, D) or sin.shape[0] not in (1, B) or D % 2:
        return None
    x_ = xp.ascontiguousarray(x)
    out = xp.empty(x.shape, dtype=x.dtype)
    if out.size:
        kernel("rope", f"rope_{sfx}")((blocks(out.size, THREADS * 4),), (THREADS,),
                                      (x_, xp.ascontiguousarray(sin), xp.ascontiguousarray(cos), out, i64(B), i64(S),
                                       i64(H), i64(D), i64(sin.shape[0]), i32(use_neox_rotary_style),
                                       i32(time_major), i32(grad)))
    return out


def rope_grad(xp, dout, sin, cos, use_neox_rotary_style, time_major):
    return rope(xp, dout, sin, cos, use_neox_rotary_style, time_major, grad=True)
