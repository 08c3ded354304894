"""scaled_dot_product_attention, flash_attention and flash_attn_qkvpacked.

As Paddle selects its backend by place: on a GPU, attention is the fused `flash_attn` op (ops/attention.py: cuDNN's
SDPA, or paddlelite's flash-attention kernels; no [seq, seq] matrix in memory); on the CPU it is Paddle's 'math'
backend, composed of matmul / softmax / dropout ops (what Paddle's CPU build runs and its static programs show).
Both compute the same numbers from the same random state: the fused op's dropout mask is the dropout op's.
paddle.nn.attention.sdpa_kernel (and sdp_kernel here) limits the choice for a block, as Paddle's backend flags do.
"""
import contextlib

import numpy as np

from ... import tensor as T
from .. import attention as _attention_backends
from ...device.place import current_place
from ...framework.mode import in_static_mode
from ...ops import attention as _attention
from ...ops.dispatch import apply
from ...tensor.math import check_float_tensor
from .activation import softmax
from .common import dropout

__all__ = ["flash_attn_qkvpacked", "scaled_dot_product_attention"]


def _repeat_heads(t, repeats):
    """[B, S, H, D] -> [B, S, H * repeats, D], each head repeated in place (grouped-query attention)."""
    if repeats == 1:
        return t
    b, s, h, d = t.shape
    return T.reshape(T.expand(T.unsqueeze(t, 3), [b, s, h, repeats, d]), [b, s, h * repeats, d])


def fused_applies(query, attn_mask=None):
    """Whether attention on `query` runs as the fused op: on a GPU (in a static program, the device it is built
    for, as Paddle's expected place), unless the mask wants a gradient (the fused op gives it none)."""
    place = current_place() if in_static_mode() else query.place
    return _attention_backends.fused_allowed(place.is_gpu_place()) and (attn_mask is None or attn_mask.stop_gradient)


def additive_mask(attn_mask, dtype):
    """Paddle's mask as scores to add: a bool mask keeps its True positions (-inf elsewhere), other masks are added
    as values in `dtype`."""
    if attn_mask is None:
        return None
    if attn_mask.dtype.name == "bool":
        return T.where(attn_mask, T.zeros([], dtype), T.full([], -np.inf, dtype))
    return attn_mask if attn_mask.dtype.name == dtype else T.cast(attn_mask, dtype)


def flash(query, key, value, mask=None, dropout_p=0.0, causal=False, training=True, fixed_seed_offset=None,
          return_softmax=False):
    """The flash_attn op on [B, S, H, D] query and [B, S, Hk, D] key/value (Hk dividing H) with an additive mask:
    (out, softmax or None)."""
    out, weights, _, _ = apply(_attention.FLASH_ATTN, query, key, value, fixed_seed_offset, mask,
                               dropout=float(dropout_p), causal=bool(causal), return_softmax=bool(return_softmax),
                               is_test=not training)
    return out, (weights if return_softmax else None)


def _math(q, k, v, mask, dropout_p, causal, training, scale):
    """Paddle's 'math' attention over [B, S, H, D]: (out, weights after dropout); causal adds -1e4 above the
    diagonal, as Paddle's get_triangle_upper_mask."""
    head_dim = q.shape[-1]
    scale = scale or (head_dim ** -0.5 if head_dim else 1.0)
    q, k, v = (T.transpose(t, [0, 2, 1, 3]) for t in (q, k, v))
    product = T.matmul(q * scale, k, transpose_y=True)                 # [B, H, Sq, Sk]
    if causal:
        sq, sk = product.shape[-2], product.shape[-1]
        upper = np.triu(np.full((sq, sk), -1e4, dtype=q.dtype.np), 1)
        product = product + T.assign(upper)
    elif mask is not None:
        product = product + mask
    weights = softmax(product)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, training=training, mode="upscale_in_train")
    return T.transpose(T.matmul(weights, v), [0, 2, 1, 3]), weights


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, training=True,
                                 backend=None, scale=None, enable_gqa=True, name=None):
    """softmax(query key^T * scale + mask) value over [batch, seq, heads, head_dim] (or unbatched 3-D) inputs;
    is_causal masks the upper triangle (attn_mask is then ignored, as in Paddle); a bool attn_mask keeps the
    True positions."""
    api = "scaled_dot_product_attention"
    for arg, t in (("query", query), ("key", key), ("value", value)):
        check_float_tensor(t, api, arg)
    batched = len(query.shape) == 4
    if not batched:
        query, key, value = (T.unsqueeze(t, 0) for t in (query, key, value))
    if not len(query.shape) == len(key.shape) == len(value.shape) == 4:
        raise ValueError(f"{api}: query, key and value must be 4-D [batch, seq, heads, head_dim] (or 3-D), "
                         f"received shapes {query.shape}, {key.shape}, {value.shape}")
    q_heads, k_heads, v_heads = query.shape[2], key.shape[2], value.shape[2]
    if enable_gqa:
        if k_heads and q_heads % k_heads or k_heads != v_heads:
            raise ValueError(f"{api}: with enable_gqa, query heads ({q_heads}) must be a multiple of key heads "
                             f"({k_heads}), which must equal value heads ({v_heads})")
    elif not q_heads == k_heads == v_heads:
        raise ValueError(f"{api}: query, key and value must have the same number of heads without enable_gqa, "
                         f"received {q_heads}, {k_heads}, {v_heads}")
    mask = None if is_causal else additive_mask(attn_mask, query.dtype.name)
    if scale is None and k_heads and fused_applies(query, mask):
        out = flash(query, key, value, mask, dropout_p, is_causal, training)[0]
    else:
        repeats = q_heads // k_heads if k_heads else 1
        out = _math(query, _repeat_heads(key, repeats), _repeat_heads(value, repeats), mask, dropout_p, is_causal,
                    training, scale)[0]
    return out if batched else T.squeeze(out, 0)


def flash_attention(query, key, value, dropout=0.0, causal=False, return_softmax=False, *, fixed_seed_offset=None,
                    rng_name="", training=True, name=None, softmax_scale=None):
    """Paddle's paddle.nn.functional.flash_attention.flash_attention: attention over [batch, seq, heads, head_dim]
    (key/value heads may divide the query heads on a GPU). Returns (out, softmax or None)."""
    api = "flash_attention"
    for arg, t in (("query", query), ("key", key), ("value", value)):
        check_float_tensor(t, api, arg)
        if len(t.shape) != 4:
            raise ValueError(f"{api}: {arg} must be 4-D [batch, seq, heads, head_dim], received shape {t.shape}")
    if softmax_scale is None and fused_applies(query):
        return flash(query, key, value, None, dropout, causal, training, fixed_seed_offset, return_softmax)
    out, weights = _math(query, key, value, None, dropout, causal, training, softmax_scale)
    return out, (weights if return_softmax else None)


def flash_attn_qkvpacked(qkv, dropout=0.0, causal=False, return_softmax=False, *, fixed_seed_offset=None,
                         rng_name="", training=True, name=None):
    """Attention on qkv [batch, seq, groups + 2, kv_heads, head_dim]: the first `groups` slots are the query
    heads (groups * kv_heads of them), then key and value. Returns (out, None), as Paddle's CPU build."""
    check_float_tensor(qkv, "flash_attn_qkvpacked", "qkv")
    if len(qkv.shape) != 5 or qkv.shape[2] < 3:
        raise ValueError(f"flash_attn_qkvpacked: qkv must be 5-D [batch, seq, groups + 2, kv_heads, head_dim] "
                         f"with groups >= 1, received shape {list(qkv.shape)}")
    b, s, slots, kv_heads, d = qkv.shape
    query = T.reshape(T.transpose(qkv[:, :, :slots - 2], [0, 1, 3, 2, 4]), [b, s, (slots - 2) * kv_heads, d])
    out = scaled_dot_product_attention(query, qkv[:, :, slots - 2], qkv[:, :, slots - 1], dropout_p=dropout,
                                       is_causal=causal, training=training)
    return out, None


def _cpu_build_raises(api, kernel):
    raise RuntimeError(f"{api}: the kernel `{kernel}` is not registered on the CPU: Paddle implements it for GPUs "
                       f"only (its CPU build raises too); paddlelite runs it on a GPU")


def _padded_rows(cu_seqlens, max_seqlen):
    """([B, max_seqlen] row of the packed tensor each padded position reads, [B, max_seqlen] bool: the position
    holds a token) of the sequences `cu_seqlens` [B + 1] delimits."""
    cu = T.cast(cu_seqlens, "int64")
    starts, lengths = cu[:-1], cu[1:] - cu[:-1]
    position = T.unsqueeze(T.arange(max_seqlen, dtype="int64"), 0)
    valid = position < T.unsqueeze(lengths, 1)
    return T.where(valid, T.unsqueeze(starts, 1) + position, T.zeros([], "int64")), valid


def _unpad(packed, rows):
    """[total, H, D] packed sequences -> [B, max_seqlen, H, D] (positions past a sequence's end hold its first
    row; the key mask or the repacking leaves them out)."""
    b, s = rows.shape
    return T.reshape(T.gather(packed, T.reshape(rows, [-1])), [b, s, *packed.shape[1:]])


def unpadded(query, key, value, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, scale, dropout=0.0,
             causal=False, return_softmax=False, fixed_seed_offset=None, training=True):
    """flash_attn_unpadded on any place: the packed sequences laid out [B, max_seqlen, H, D], the fused flash_attn
    op with the keys past each sequence's end masked, and the rows packed again. (out [total_q, H, D], softmax
    [B, H, max_seqlen_q, max_seqlen_k] or None)."""
    rows_q, _ = _padded_rows(cu_seqlens_q, max_seqlen_q)
    rows_k, valid_k = _padded_rows(cu_seqlens_k, max_seqlen_k)
    q, k, v = _unpad(query, rows_q), _unpad(key, rows_k), _unpad(value, rows_k)
    head_dim = query.shape[-1]
    if scale != head_dim ** -0.5:  # the op scales by 1 / sqrt(head_dim)
        q = q * (scale * head_dim ** 0.5)
    mask = T.unsqueeze(additive_mask(valid_k, query.dtype.name), [1, 2])  # [B, 1, 1, Sk]
    out, weights = flash(q, k, v, mask, dropout, causal, training, fixed_seed_offset, return_softmax)
    total = query.shape[0]
    row = T.arange(total, dtype="int64")
    cu = T.cast(cu_seqlens_q, "int64")
    batch = T.sum(T.cast(T.unsqueeze(row, 1) >= T.unsqueeze(cu[1:], 0), "int64"), axis=1)  # each row's sequence
    at = batch * max_seqlen_q + row - T.gather(cu, batch)
    return T.gather(T.reshape(out, [-1, *out.shape[2:]]), at), weights


def flash_attn_unpadded(query, key, value, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, scale, dropout=0.0,
                        causal=False, return_softmax=False, fixed_seed_offset=None, rng_name="", training=True,
                        name=None):
    """Paddle's variable-length flash attention over packed sequences: query [total_q, H, D], key/value
    [total_k, Hk, D] (Hk dividing H), sequence i being rows cu_seqlens[i]:cu_seqlens[i + 1]; softmax(q k^T * scale)
    v within each sequence. A GPU API (Paddle's CPU build has no kernel; neither has paddlelite's CPU). causal
    masks key j > query i counted from each sequence's start, which is FlashAttention's alignment where a
    sequence's query and key lengths are equal (self-attention); the softmax returned is [B, H, max_seqlen_q,
    max_seqlen_k], unrounded. Returns (out [total_q, H, D], softmax or None)."""
    api = "flash_attn_unpadded"
    for arg, t in (("query", query), ("key", key), ("value", value)):
        check_float_tensor(t, api, arg)
        if len(t.shape) != 3:
            raise ValueError(f"{api}: {arg} must be 3-D [total_seq_len, heads, head_dim], received shape {t.shape}")
    for arg, t in (("cu_seqlens_q", cu_seqlens_q), ("cu_seqlens_k", cu_seqlens_k)):
        if t.dtype.name not in ("int32", "int64") or len(t.shape) != 1 or t.shape[0] < 2:
            raise ValueError(f"{api}: {arg} must be a 1-D int32 tensor of batch + 1 offsets, received "
                             f"{t.dtype.name} of shape {t.shape}")
    if cu_seqlens_q.shape[0] != cu_seqlens_k.shape[0]:
        raise ValueError(f"{api}: cu_seqlens_q and cu_seqlens_k must describe one batch, received "
                         f"{cu_seqlens_q.shape[0]} and {cu_seqlens_k.shape[0]} offsets")
    if not fused_applies(query):
        _cpu_build_raises(api, "flash_attn_unpadded")
    return unpadded(query, key, value, cu_seqlens_q, cu_seqlens_k, int(max_seqlen_q), int(max_seqlen_k),
                    float(scale), dropout, causal, return_softmax, fixed_seed_offset, training)


def reduced_scores(query, key, softmax_lse):
    """sum over the queries of softmax(q k^T / sqrt(head_dim)), from the forward's log-sum-exp of each score row
    ([B, H, >= Sq], float32): [B, H, 1, Sk] float32."""
    seq_q, head_dim = query.shape[1], query.shape[3]
    q, k = (T.transpose(T.cast(t, "float32"), [0, 2, 1, 3]) for t in (query, key))
    scores = T.matmul(q, k, transpose_y=True) * (head_dim ** -0.5)
    return T.sum(T.exp(scores - T.unsqueeze(softmax_lse[:, :, :seq_q], -1)), axis=2, keepdim=True)


def calc_reduced_attention_scores(query, key, softmax_lse):
    """Paddle's reduce_sum(softmax(q k^T / sqrt(d)), dim=-2) over query / key [batch, seq, heads, head_dim] and the
    softmax_lse flash attention returned: [batch, heads, 1, seq_k], float32. A GPU API, as in Paddle."""
    api = "calc_reduced_attention_scores"
    for arg, t in (("query", query), ("key", key)):
        check_float_tensor(t, api, arg)
        if len(t.shape) != 4:
            raise ValueError(f"{api}: {arg} must be 4-D [batch, seq, heads, head_dim], received shape {t.shape}")
    (b, sq, h, d), (bk, _, hk, dk) = query.shape, key.shape
    if (b, h, d) != (bk, hk, dk):
        raise ValueError(f"{api}: key must have query's batch, heads and head_dim, received query {query.shape} "
                         f"and key {key.shape}")
    if softmax_lse.dtype.name != "float32" or len(softmax_lse.shape) != 3 or softmax_lse.shape[:2] != [b, h] \
            or softmax_lse.shape[2] < sq:
        raise ValueError(f"{api}: softmax_lse must be float32 [batch, heads, >= seq_q] = [{b}, {h}, >= {sq}], "
                         f"received {softmax_lse.dtype.name} of shape {softmax_lse.shape}")
    if not fused_applies(query):
        _cpu_build_raises(api, "calc_reduced_attn_scores")
    return reduced_scores(query, key, softmax_lse)


@contextlib.contextmanager
def sdp_kernel(enable_math=False, enable_flash=True, enable_mem_efficient=True):
    """Within the block attention uses only the enabled implementations (paddle.nn.attention.sdpa_kernel)."""
    backends = [backend for backend, on in ((_attention_backends.SDPBackend.FLASH_ATTENTION, enable_flash),
                                            (_attention_backends.SDPBackend.EFFICIENT_ATTENTION, enable_mem_efficient),
                                            (_attention_backends.SDPBackend.MATH, enable_math)) if on]
    if not backends:
        raise ValueError("At least one backend must be enabled")
    with _attention_backends.sdpa_kernel(backends) as context:
        yield context
