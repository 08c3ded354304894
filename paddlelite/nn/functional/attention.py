"""scaled_dot_product_attention (Paddle's 'math' backend, composed of matmul / softmax / dropout ops) and
flash_attn_qkvpacked, the same on a packed query/key/value tensor."""
import numpy as np

from ... import tensor as T
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
    repeats = q_heads // k_heads if k_heads else 1
    key, value = _repeat_heads(key, repeats), _repeat_heads(value, repeats)
    head_dim = query.shape[-1]
    scale = scale or (head_dim ** -0.5 if head_dim else 1.0)
    q, k, v = (T.transpose(t, [0, 2, 1, 3]) for t in (query, key, value))
    product = T.matmul(q * scale, k, transpose_y=True)                 # [B, H, Sq, Sk]
    if is_causal:
        sq, sk = product.shape[-2], product.shape[-1]
        upper = np.triu(np.full((sq, sk), -np.inf, dtype=query.dtype.np), 1)
        product = product + T.assign(upper)
    elif attn_mask is not None:
        if attn_mask.dtype.name == "bool":
            attn_mask = T.where(attn_mask, T.zeros([], query.dtype), T.full([], -np.inf, query.dtype))
        product = product + attn_mask
    weights = softmax(product)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, training=training, mode="upscale_in_train")
    out = T.transpose(T.matmul(weights, v), [0, 2, 1, 3])
    return out if batched else T.squeeze(out, 0)


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
