"""kernels/attention.cu: flash-attention forward and its two-pass backward (dQ and row deltas, then dK and dV)."""
import math

import numpy as np

from ...device.kernels import kernel
from .common import f32, i32, i64, suffix

_WARPS = 4
ROW_THREADS, KEY_THREADS = 32 * _WARPS, 32  # the forward / dQ blocks (4 warps of query rows), the dK/dV blocks


def _variant(dtype, head_dim):
    """The kernels' name suffix for q's dtype and head_dim (None: not covered)."""
    sfx = suffix(dtype)
    if sfx is None or head_dim == 0:
        return None
    for dmax in (64, 128):
        if head_dim <= dmax:
            return f"{sfx}_d{dmax}", dmax
    return None


def _rows(t):
    """t with a contiguous last dim (the kernels read rows of head_dim)."""
    return t if t.strides[-1] == t.itemsize else t.copy()


def _strides(t, dims=(0, 1, 2)):
    return [i64(t.strides[d] // t.itemsize) for d in dims]


def _mask_strides(mask):
    """The additive mask's element strides over [B, H, Sq, Sk] (0 on broadcast dims)."""
    shape = (1,) * (4 - mask.ndim) + tuple(mask.shape)
    strides = (0,) * (4 - mask.ndim) + tuple(mask.strides)
    return [i64(0 if n == 1 else s // mask.itemsize) for n, s in zip(shape, strides)]


def _check(q, k, v, mask):
    if not q.dtype == k.dtype == v.dtype or v.shape[3] != q.shape[3]:
        return None
    if mask is not None and mask.dtype != q.dtype:
        return None
    return _variant(q.dtype, q.shape[3])


def _args(q, k, v, o, mask, dropout, causal):
    """(the mask argument, the scalar arguments every pass takes after its arrays); o: out's and dout's strides."""
    b, sq, h, d = q.shape
    sk, hk = k.shape[1], k.shape[2]
    threshold = math.ceil(dropout * 2.0 ** 53) if dropout > 0.0 else 0
    scalars = [i64(b), i64(sq), i64(sk), i64(h), i64(hk), i64(d), *_strides(q), *_strides(k), *_strides(v),
               *_strides(o), *(_mask_strides(mask) if mask is not None else [i64(0)] * 4),
               f32(1.0 / math.sqrt(d)), f32(1.0 / (1.0 - dropout)), np.uint64(threshold), i32(causal),
               i32(mask is not None)]
    return (mask if mask is not None else q), scalars


def attention_forward(xp, q, k, v, mask, seed_offset, dropout, causal):
    """(out [B, Sq, H, D], lse [B, H, Sq] float32); None for what the kernels do not cover."""
    variant = _check(q, k, v, mask)
    if variant is None:
        return None
    name, dmax = variant
    q, k, v = _rows(q), _rows(k), _rows(v)
    b, sq, h, d = q.shape
    out = xp.empty(q.shape, dtype=q.dtype)
    lse = xp.empty((b, h, sq), dtype=np.float32)
    bias, scalars = _args(q, k, v, out, mask, dropout, causal)
    rows = _WARPS * (4 if dmax == 64 else 2)
    kernel("attention", f"attn_fwd_{name}")(((sq + rows - 1) // rows, h, b), (ROW_THREADS,),
                                            (q, k, v, bias, seed_offset, out, lse, *scalars))
    return out, lse


def attention_backward(xp, q, k, v, out, lse, seed_offset, mask, dout, dropout, causal):
    """(dq, dk, dv); None for what the kernels do not cover."""
    variant = _check(q, k, v, mask)
    if variant is None or out.dtype != q.dtype or dout.dtype != q.dtype:
        return None
    name, dmax = variant
    q, k, v = _rows(q), _rows(k), _rows(v)
    out, dout = xp.ascontiguousarray(out), xp.ascontiguousarray(dout)  # one stride set serves both
    lse = xp.ascontiguousarray(lse, dtype=np.float32)
    b, sq, h, d = q.shape
    sk, hk = k.shape[1], k.shape[2]
    dq = xp.empty(q.shape, dtype=q.dtype)
    dk, dv = xp.empty((b, sk, hk, d), dtype=k.dtype), xp.empty((b, sk, hk, d), dtype=v.dtype)
    delta = xp.empty((b, h, sq), dtype=np.float32)
    bias, scalars = _args(q, k, v, dout, mask, dropout, causal)
    rows = _WARPS * (4 if dmax == 64 else 2)
    kernel("attention", f"attn_bwd_dq_{name}")(((sq + rows - 1) // rows, h, b), (ROW_THREADS,),
                                               (q, k, v, bias, seed_offset, out, dout, lse, delta, dq, *scalars))
    keys = 32 // max(dmax // 64, 1)
    kernel("attention", f"attn_bwd_dkdv_{name}")(((sk + keys - 1) // keys, hk, b), (KEY_THREADS,),
                                                 (q, k, v, bias, seed_offset, dout, lse, delta, dk, dv, *scalars))
    return dq, dk, dv
