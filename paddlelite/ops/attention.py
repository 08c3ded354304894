"""Fused attention: Paddle's `flash_attn` op and its grad op.

out = softmax(q k^T / sqrt(head_dim) + attn_mask, causal) v over q [batch, seq_q, heads, head_dim] and k, v
[batch, seq_k, kv_heads, head_dim] (heads a multiple of kv_heads: grouped queries share keys), with dropout on the
weights in training. The forward also returns the log-sum-exp of each score row (softmax_lse [batch, heads,
seq_q], float32; float64 for float64 inputs) and the dropout stream state (seed_offset [seed, offset], int64),
which is all the backward needs to recompute the weights: nothing of size seq_q x seq_k is kept between the passes.

On the GPU the binding runs cuDNN's SDPA graphs where cuDNN Frontend is installed and takes the shape (float16 /
bfloat16, ops/cudnn/attention.py), else paddlelite's own flash-attention kernels (kernels/attention.cu, any float
dtype but float64, head_dim <= 128), else the reference below. The reference forms the [seq_q, seq_k] scores, as the unfused ops
do; its dropout mask is the one the dropout op would draw from the same stream state, and so is the kernels'.
causal masks key j > query i (top-left aligned, as the unfused ops); attn_mask is added to the scaled scores,
broadcast to [batch, heads, seq_q, seq_k].
"""
import math

import numpy as np

from ..framework.random import Draws, next_seed_offset, stream_key
from .cudnn import attention as _cudnn_attention
from .launch import attention as _launch
from .registry import Meta, register_op
from .shape_rules import check_float

_ATTRS = {"dropout": 0.0, "causal": False, "return_softmax": False, "is_test": False, "rng_name": ""}
_GRAD_ATTRS = {"dropout": 0.0, "causal": False}


def _compute_dtype(dtype):
    return np.dtype(np.float64) if dtype == np.float64 else np.dtype(np.float32)


def dropout_active(dropout, is_test):
    return dropout > 0.0 and not is_test


def _check(op, q, k, v, mask, dropout):
    for slot, m in (("q", q), ("k", k), ("v", v)):
        check_float(op, m, slot, real=True)
        if len(m.shape) != 4:
            raise ValueError(f"op '{op}': {slot} must be 4-D [batch, seq, heads, head_dim], received shape "
                             f"{list(m.shape)}")
    if not q.dtype == k.dtype == v.dtype:
        raise TypeError(f"op '{op}': q, k and v must have one dtype, received {q.dtype}, {k.dtype}, {v.dtype}")
    (b, sq, h, d), (bk, sk, hk, dk), (bv, sv, hv, _) = q.shape, k.shape, v.shape
    if -1 not in (b, bk, bv, sk, sv, hk, hv, d, dk) and (not b == bk == bv or sk != sv or hk != hv or d != dk):
        raise ValueError(f"op '{op}': k and v must be [batch, seq_k, kv_heads, head_dim] alike, with q's batch and "
                         f"head_dim; received q {list(q.shape)}, k {list(k.shape)}, v {list(v.shape)}")
    if -1 not in (h, hk) and (hk == 0 or h % hk):
        raise ValueError(f"op '{op}': q's heads ({h}) must be a multiple of k's and v's heads ({hk})")
    if mask is not None:
        if mask.dtype != q.dtype:
            raise TypeError(f"op '{op}': attn_mask must be additive in q's dtype {q.dtype}, received {mask.dtype}")
        full = (b, h, sq, sk)
        if len(mask.shape) > 4 or any(m not in (1, -1, n) and n != -1
                                      for m, n in zip(reversed(mask.shape), reversed(full))):
            raise ValueError(f"op '{op}': attn_mask must broadcast to [batch, heads, seq_q, seq_k] = {list(full)}, "
                             f"received shape {list(mask.shape)}")
    if not 0.0 <= dropout < 1.0:
        raise ValueError(f"op '{op}': dropout must be in [0, 1), received {dropout!r}")


def _infer(q, k, v, fixed_seed_offset, attn_mask, dropout, causal, return_softmax, is_test, rng_name):
    _check("flash_attn", q, k, v, attn_mask, dropout)
    b, sq, h, _ = q.shape
    softmax = (b, h, sq, k.shape[1]) if return_softmax else (0,)
    return (Meta(tuple(q.shape[:3]) + (v.shape[3],), q.dtype), Meta(softmax, q.dtype),
            Meta((b, h, sq), _compute_dtype(q.dtype)), Meta((2,), np.dtype(np.int64)))


def seed_offset_of(xp, fixed_seed_offset, dropout, is_test):
    """The dropout stream state [seed, offset] (int64): the given one, else the next of the device's stream when
    dropout is active (as the dropout op takes it), else zeros."""
    if fixed_seed_offset is not None:
        return xp.array(fixed_seed_offset.reshape(-1)[:2], dtype=np.int64)  # a copy: outputs never alias inputs
    if not dropout_active(dropout, is_test):
        return xp.zeros(2, dtype=np.int64)
    seed, offset = next_seed_offset(xp)
    return xp.asarray(np.array([seed % 2 ** 64, offset], dtype=np.uint64).view(np.int64))


def _keep_mask(xp, seed_offset, shape, dropout):
    """The dropout op's keep mask for weights of `shape`, from stream state [seed, offset]."""
    seed, offset = (int(v) % 2 ** 64 for v in np.asarray(seed_offset.get() if hasattr(seed_offset, "get")
                                                         else seed_offset))
    return Draws(xp, stream_key(seed, offset)).random(shape) >= dropout


def _scores(xp, q, k, mask, causal):
    """Scaled, masked scores [B, H, Sq, Sk] in the compute dtype, K's heads repeated for grouped queries."""
    cdt = _compute_dtype(q.dtype)
    h, hk = q.shape[2], k.shape[2]
    qh = q.astype(cdt).transpose(0, 2, 1, 3)
    kh = xp.repeat(k.astype(cdt).transpose(0, 2, 1, 3), h // hk, axis=1)
    s = (qh @ kh.swapaxes(-1, -2)) * cdt.type(1.0 / math.sqrt(q.shape[3]) if q.shape[3] else 1.0)
    if mask is not None:
        s = s + mask.astype(cdt)
    if causal:
        sq, sk = s.shape[-2:]
        s = xp.where(xp.tril(xp.ones((sq, sk), dtype=bool)), s, cdt.type(-np.inf))
    return s


def _heads(xp, t, h):
    """[B, S, Hk, D] -> [B, H, S, D] in float, each head repeated h / Hk times."""
    return xp.repeat(t.astype(_compute_dtype(t.dtype)).transpose(0, 2, 1, 3), h // t.shape[2], axis=1)


def _forward(xp, q, k, v, fixed_seed_offset, attn_mask, dropout, causal, return_softmax, is_test, rng_name):
    _check("flash_attn", q, k, v, attn_mask, dropout)
    seed_offset = seed_offset_of(xp, fixed_seed_offset, dropout, is_test)
    return _reference(xp, q, k, v, attn_mask, seed_offset, dropout if dropout_active(dropout, is_test) else 0.0,
                      causal, return_softmax)


def _reference(xp, q, k, v, attn_mask, seed_offset, dropout, causal, return_softmax):
    """The forward from the scores matrix, with the dropout stream state already taken."""
    s = _scores(xp, q, k, attn_mask, causal)
    m = s.max(axis=-1, keepdims=True)
    e = xp.exp(s - m)
    total = e.sum(axis=-1, keepdims=True)
    p = e / total
    lse = (m + xp.log(total))[..., 0]
    if dropout > 0.0:
        p = p * _keep_mask(xp, seed_offset, p.shape, dropout) * p.dtype.type(1.0 / (1.0 - dropout))
    out = (p @ _heads(xp, v, q.shape[2])).transpose(0, 2, 1, 3).astype(q.dtype)
    softmax = p.astype(q.dtype) if return_softmax else xp.zeros((0,), dtype=q.dtype)
    return out, softmax, lse, seed_offset


def _grad_infer(q, k, v, out, lse, seed_offset, attn_mask, dout, dropout, causal):
    _check("flash_attn_grad", q, k, v, attn_mask, dropout)
    return Meta(q.shape, q.dtype), Meta(k.shape, k.dtype), Meta(v.shape, v.dtype)


def _grad_forward(xp, q, k, v, out, lse, seed_offset, attn_mask, dout, dropout, causal):
    """dq, dk, dv from the weights recomputed with the saved log-sum-exp (ds = p (dp - rowsum(dout * out)))."""
    b, sq, h, d = q.shape
    hk = k.shape[2]
    cdt = _compute_dtype(q.dtype)
    s = _scores(xp, q, k, attn_mask, causal)
    p = xp.exp(s - lse.astype(cdt)[..., None])
    do = dout.astype(cdt).transpose(0, 2, 1, 3)
    vh = _heads(xp, v, h)
    dp = do @ vh.swapaxes(-1, -2)
    if dropout > 0.0:
        keep = _keep_mask(xp, seed_offset, p.shape, dropout) * cdt.type(1.0 / (1.0 - dropout))
        pd, dp = p * keep, dp * keep
    else:
        pd = p
    delta = (do * out.astype(cdt).transpose(0, 2, 1, 3)).sum(axis=-1, keepdims=True)
    ds = p * (dp - delta) * cdt.type(1.0 / math.sqrt(d) if d else 1.0)
    dq = ds @ _heads(xp, k, h)
    dk = ds.swapaxes(-1, -2) @ q.astype(cdt).transpose(0, 2, 1, 3)
    dv = pd.swapaxes(-1, -2) @ do

    def fold(t):  # [B, H, Sk, D] -> [B, Sk, Hk, D]: the query heads sharing a key head add up
        return t.reshape(b, hk, h // hk, *t.shape[2:]).sum(axis=2).transpose(0, 2, 1, 3)
    return (dq.transpose(0, 2, 1, 3).astype(q.dtype), fold(dk).astype(k.dtype), fold(dv).astype(v.dtype))


def _gpu(xp, q, k, v, fixed_seed_offset, attn_mask, dropout, causal, return_softmax, is_test, rng_name):
    """cuDNN's SDPA, else paddlelite's kernels, else the reference -- on the one stream state taken here."""
    _check("flash_attn", q, k, v, attn_mask, dropout)
    seed_offset = seed_offset_of(xp, fixed_seed_offset, dropout, is_test)
    drop = dropout if dropout_active(dropout, is_test) else 0.0
    got = None if return_softmax else (  # only the reference forms the weights
        _cudnn_attention.sdpa_forward(xp, q, k, v, attn_mask, seed_offset, drop, causal)
        or _launch.attention_forward(xp, q, k, v, attn_mask, seed_offset, drop, causal))
    if got is None:
        return _reference(xp, q, k, v, attn_mask, seed_offset, drop, causal, return_softmax)
    out, lse = got
    return out, xp.zeros((0,), dtype=q.dtype), lse, seed_offset


def _grad_gpu(xp, q, k, v, out, lse, seed_offset, attn_mask, dout, dropout, causal):
    return (_cudnn_attention.sdpa_backward(xp, q, k, v, out, lse, seed_offset, attn_mask, dout, dropout, causal)
            or _launch.attention_backward(xp, q, k, v, out, lse, seed_offset, attn_mask, dout, dropout, causal))


def _grad(g):
    if g.needs_any("q", "k", "v"):
        dropout = g.attrs["dropout"] if dropout_active(g.attrs["dropout"], g.attrs["is_test"]) else 0.0
        g.set_input_grads(("q", "k", "v"), g.op("flash_attn_grad", g.input("q"), g.input("k"), g.input("v"),
                                                g.output("out"), g.output("softmax_lse"), g.output("seed_offset"),
                                                g.input("attn_mask"), g.output_grad("out"), dropout=dropout,
                                                causal=g.attrs["causal"]))


FLASH_ATTN = register_op("flash_attn", inputs=("q", "k", "v", "fixed_seed_offset", "attn_mask"),
                         outputs=("out", "softmax", "softmax_lse", "seed_offset"), forward=_forward, infer=_infer,
                         grad=_grad, attrs=_ATTRS, optional_inputs=("fixed_seed_offset", "attn_mask"),
                         nondiff_inputs=("fixed_seed_offset", "attn_mask"),
                         intermediate_outputs=("softmax", "softmax_lse", "seed_offset"), gpu=_gpu, draws=True)
FLASH_ATTN_GRAD = register_op("flash_attn_grad",
                              inputs=("q", "k", "v", "out", "softmax_lse", "seed_offset", "attn_mask", "out_grad"),
                              outputs=("q_grad", "k_grad", "v_grad"), forward=_grad_forward, infer=_grad_infer,
                              attrs=_GRAD_ATTRS, optional_inputs=("attn_mask",), gpu=_grad_gpu)
