"""kernels/rope.cu: the rotary position embedding of q, k and v in one launch (forward, and with `inverse` the
gradient)."""
import numpy as np

from .common import THREADS, blocks, f32, i32, i64, suffix
from ...device.kernels import kernel


def rope(xp, q, k, v, sin, cos, position_ids, use_neox_rotary_style, time_major, rotary_emb_base, inverse):
    """(OutQ, OutK, OutV), an absent tensor's output empty; None where the kernel does not apply (float64, tables of
    another dtype than q's)."""
    given = [t for t in (q, k, v) if t is not None]
    if suffix(q.dtype) is None or any(t.dtype != q.dtype for t in given) or (sin is None) != (cos is None) \
            or sin is not None and (sin.dtype != q.dtype or cos.dtype != q.dtype):
        return None
    B, S = (q.shape[1], q.shape[0]) if time_major else (q.shape[0], q.shape[1])
    D = q.shape[-1]
    xs = [xp.ascontiguousarray(t) for t in given]
    outs = [xp.empty(t.shape, dtype=q.dtype) for t in given]
    pad = 3 - len(given)
    table = [xp.ascontiguousarray(t).reshape(-1) if t is not None else xs[0] for t in (sin, cos)]
    pos = xp.ascontiguousarray(position_ids, dtype=np.int64) if position_ids is not None else xs[0]
    n = max(t.size for t in given)
    if n:
        kernel("rope", f"rope_{suffix(q.dtype)}")(
            (blocks(n, THREADS * 4), len(given)), (THREADS,),
            (*xs, *xs[:1] * pad, *outs, *outs[:1] * pad, *(i64(t.shape[2]) for t in given), *[i64(0)] * pad,
             *table, i64(sin.size // D if sin is not None else 0), pos, i64(B), i64(S), i64(D), f32(rotary_emb_base), i32(use_neox_rotary_style), i32(time_major),
             i32(sin is not None), i32(position_ids is not None), i32(inverse)))
    it = iter(outs)
    return tuple(next(it) if t is not None else xp.empty((0,), dtype=q.dtype) for t in (q, k, v))
