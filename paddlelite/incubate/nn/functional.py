"""paddle.incubate.nn.functional: the fused transformer building blocks, written over the registry's ops (each
piece differentiable in both modes; on a GPU the attention runs through F.scaled_dot_product_attention's fused
op). Paddle's quantized variants (quant_scale > 0) are not supported."""
import numpy as np

from ... import tensor as T
from ...ops import activation as _act
from ...ops import dispatch
from ...ops import fused as _fused
from ...ops import norm as _norm
from ...nn import functional as F
from ...nn.functional.activation import swiglu
from ...nn.functional.attention import _padded_rows, _unpad, additive_mask
from ...tensor.math import check_float_tensor
from .fp8 import (fp8_gemm_blockwise, fp8_quant_blockwise, fused_act_dequant, fused_stack_transpose_quant,
                  fused_transpose_split_quant, fused_transpose_wlch_split_quant, fused_weighted_swiglu_act_quant)
from .moe import (build_src_rank_and_local_expert_id, cal_aux_loss, expand_modality_expert_id, moe_combine,
                  moe_gate_dispatch, moe_gate_dispatch_and_quant, moe_gate_dispatch_partial_nosoftmaxtopk,
                  moe_gate_dispatch_permute)
from .training_grads import cross_entropy_with_softmax_bwd_w_downcast, embedding_grad_add_to_, fused_swiglu_weighted_bwd

__all__ = ["fused_rms_norm", "fused_layer_norm", "fused_dropout_add", "fused_matmul_bias", "fused_linear",
           "fused_linear_activation", "fused_bias_act", "fused_rotary_position_embedding", "fused_feedforward",
           "fused_bias_dropout_residual_layer_norm", "fused_multi_head_attention", "swiglu", "fast_ln", "fast_rms_norm",
           "fused_rms_norm_ext", "int_bincount", "blha_get_max_len", "masked_multihead_attention",
           "variable_length_memory_efficient_attention", "moe_gate_dispatch", "moe_gate_dispatch_permute", "moe_combine",
           "cal_aux_loss", "expand_modality_expert_id", "build_src_rank_and_local_expert_id",
           "moe_gate_dispatch_and_quant", "fp8_quant_blockwise", "fp8_gemm_blockwise", "fused_act_dequant",
           "fused_stack_transpose_quant", "fused_transpose_split_quant", "fused_weighted_swiglu_act_quant",
           "cross_entropy_with_softmax_bwd_w_downcast", "embedding_grad_add_to_", "fused_swiglu_weighted_bwd",
           "moe_gate_dispatch_partial_nosoftmaxtopk", "fused_transpose_wlch_split_quant"]


def _no_quant(api, quant_scale):
    if quant_scale > 0:
        raise NotImplementedError(f"{api}: quantized outputs (quant_scale > 0) are not supported")


def _normalized(api, x, begin_norm_axis):
    axis = begin_norm_axis + len(x.shape) if begin_norm_axis < 0 else begin_norm_axis
    if not 0 < axis < len(x.shape) + (len(x.shape) == 1):
        raise ValueError(f"{api}: begin_norm_axis must lie in [1, {len(x.shape)}), received {begin_norm_axis}")
    return list(range(axis, len(x.shape)))


def fused_rms_norm(x, norm_weight, norm_bias, epsilon, begin_norm_axis=1, bias=None, residual=None, quant_scale=-1,
                   quant_round_type=0, quant_max_bound=0, quant_min_bound=0):
    """(out, residual_out): h = x + bias + residual; out = h / sqrt(mean(h^2) + epsilon) * norm_weight + norm_bias
    over the axes from begin_norm_axis; residual_out is h (an empty tensor when neither bias nor residual is
    given). One rms_norm op: one kernel launch on a GPU."""
    _no_quant("fused_rms_norm", quant_scale)
    axes = _normalized("fused_rms_norm", x, begin_norm_axis)
    out, residual_out, _ = dispatch.apply(_norm.RMS_NORM, x, bias, residual, norm_weight, norm_bias,
                                          epsilon=float(epsilon), begin_norm_axis=axes[0])
    return out, residual_out


def fused_layer_norm(x, norm_weight, norm_bias, epsilon, residual_alpha=1.0, begin_norm_axis=1, bias=None,
                     residual=None, quant_scale=-1, quant_round_type=0, quant_max_bound=0, quant_min_bound=0):
    """(out, residual_out, mean, inv_var): h = x + bias + residual_alpha * residual, layer-normalized over the axes
    from begin_norm_axis (mean and 1 / sqrt(var + epsilon) per normalized row, flattened). One
    fused_bias_residual_layernorm op: one kernel launch on a GPU."""
    _no_quant("fused_layer_norm", quant_scale)
    axes = _normalized("fused_layer_norm", x, begin_norm_axis)
    out, h, mean, _, inv_var = dispatch.apply(_norm.FUSED_LAYER_NORM, x, bias, residual, norm_weight, norm_bias,
                                              epsilon=float(epsilon), residual_alpha=float(residual_alpha),
                                              begin_norm_axis=axes[0])
    return out, h if bias is not None or residual is not None else x, T.reshape(mean, [-1]), T.reshape(inv_var, [-1])


def fast_ln(x, scale, bias, epsilon=1e-5):
    """(y, mean, invvar): layer norm over the last axis, mean and 1 / sqrt(var + epsilon) per row (float32 for
    16-bit x)."""
    out, _, mean, inv_var = fused_layer_norm(x, scale, bias, epsilon, begin_norm_axis=-1)
    return out, mean, inv_var


def fast_rms_norm(x, scale, epsilon=1e-5):
    """(y, invvar): y = x / sqrt(mean(x^2) + epsilon) * scale over the last axis (float32 statistics for 16-bit x);
    invvar per row (float32). One rms_norm op."""
    rows = x if len(x.shape) > 1 else T.reshape(x, [1, -1])
    y, _, inv_rms = dispatch.apply(_norm.RMS_NORM, rows, None, None, scale, None, epsilon=float(epsilon),
                                   begin_norm_axis=len(rows.shape) - 1)
    return T.reshape(y, x.shape) if rows is not x else y, T.reshape(inv_rms, [-1])


def fused_rms_norm_ext(x, scale, epsilon=1e-5, name=None):
    """(y, invvar): fast_rms_norm's."""
    return fast_rms_norm(x, scale, epsilon)


def int_bincount(x, low, high, dtype=None, name=None):
    """How often each of low, ..., high - 1 occurs in x (a 0-D, 1-D or 2-D int32/int64 tensor of non-negative
    ids), as a [high - low] tensor of `dtype` (x's by default)."""
    api = "int_bincount"
    if len(x.shape) > 2:
        raise ValueError(f"{api}: x must be a 0D, 1D or 2D tensor, but got ndim={len(x.shape)}")
    if x.dtype.name not in ("int32", "int64"):
        raise ValueError(f"{api}: x.dtype must be int32 or int64, but got {x.dtype.name}")
    if high < low:
        raise ValueError(f"{api}: 'high' ({high}) must be greater than or equal to 'low' ({low})")
    counts = T.bincount(T.reshape(x, [-1]), minlength=high)
    return T.slice(counts, [0], [low], [high]).astype(x.dtype if dtype is None else dtype)


def blha_get_max_len(seq_lens_encoder, seq_lens_decoder, batch_size):
    """(max_enc_len_this_time, max_dec_len_this_time): the longest encoder and decoder lengths among the first
    batch_size.shape[0] sequences (0 for none), each an int32 [1] tensor (block_multihead_attention's sizes)."""
    n = batch_size.shape[0]

    def longest(lens):
        if lens.size == 0:
            return T.zeros([1], dtype="int32")
        return T.reshape(T.maximum(T.max(lens[:n]).astype("int32"), T.zeros([], dtype="int32")), [1])
    return longest(seq_lens_encoder), longest(seq_lens_decoder)


def masked_multihead_attention(x, cache_kv=None, bias=None, src_mask=None, cum_offsets=None, sequence_lengths=None,
                               rotary_tensor=None, beam_cache_offset=None, qkv_out_scale=None, out_shift=None,
                               out_smooth=None, seq_len=1, rotary_emb_dims=0, use_neox_rotary_style=False,
                               compute_dtype='default', out_scale=-1, quant_round_type=1, quant_max_bound=127.0,
                               quant_min_bound=-127.0):
    """(out, cache_kv): one decoding step. x [batch, 3 * num_head * head_dim] (+ bias [3, num_head, head_dim]) splits
    into q, k, v; k and v are written in place into cache_kv [2, batch, num_head, max_seq_len, head_dim] at the
    time step (src_mask.shape[3] - 1 when a mask is given, else seq_len; sequence_lengths [batch, 1] gives each
    sequence its own), and q attends over the cached steps 0..time step with 1/sqrt(head_dim) scaling and src_mask
    added to the scores. out is [batch, num_head * head_dim]. Inference only (Paddle registers no gradient)."""
    api = "masked_multihead_attention"
    _no_quant(api, out_scale)
    for name, value in (("rotary_tensor", rotary_tensor), ("beam_cache_offset", beam_cache_offset),
                        ("qkv_out_scale", qkv_out_scale), ("out_shift", out_shift), ("out_smooth", out_smooth),
                        ("cum_offsets", cum_offsets)):
        if value is not None:
            raise NotImplementedError(f"{api}: '{name}' is not supported")
    if cache_kv is None or len(cache_kv.shape) != 5 or cache_kv.shape[0] != 2:
        raise ValueError(f"{api}: cache_kv must be a 5-D tensor [2, batch_size, num_head, max_seq_len, head_dim], "
                         f"received {None if cache_kv is None else cache_kv.shape}")
    _, batch, heads, max_len, head_dim = cache_kv.shape
    if list(x.shape) != [batch, 3 * heads * head_dim]:
        raise ValueError(f"{api}: x must have shape [{batch}, {3 * heads * head_dim}] to match cache_kv, "
                         f"received {x.shape}")
    qkv = T.reshape(x, [batch, 3, heads, head_dim])
    if bias is not None:
        qkv = qkv + T.reshape(bias, [1, 3, heads, head_dim])
    step = seq_len if src_mask is None else src_mask.shape[3] - 1
    steps = [step] * batch if sequence_lengths is None else [int(n) for n in sequence_lengths.numpy().reshape(-1)]
    for b, t in enumerate(steps):
        if not 0 <= t < max_len:
            raise ValueError(f"{api}: time step {t} of sequence {b} must lie in [0, {max_len})")
    if sequence_lengths is None:  # one step for the whole batch: one write
        cache_kv[:, :, :, step] = T.transpose(qkv[:, 1:], [1, 0, 2, 3])
    else:
        for b, t in enumerate(steps):
            cache_kv[:, b, :, t] = qkv[b, 1:]
    span = max(steps) + 1  # the batch attends over the longest sequence's steps, each masked past its own
    scores = T.matmul(T.unsqueeze(qkv[:, 0], 2), cache_kv[0, :, :, :span], transpose_y=True) * (head_dim ** -0.5)
    if src_mask is not None:
        scores = scores + src_mask[:, :, :, :span].astype(scores.dtype)
    if min(steps) + 1 < span:
        beyond = np.arange(span)[None, :] > np.array(steps)[:, None]
        scores = T.masked_fill(scores, T.to_tensor(beyond.reshape(batch, 1, 1, span)), float("-inf"))
    out = T.matmul(F.softmax(scores, axis=-1), cache_kv[1, :, :, :span])
    return T.reshape(out, [batch, heads * head_dim]), cache_kv


def _check_lengths(api, arg, lens, batch):
    if lens.dtype.name != "int32" or lens.size != batch:
        raise ValueError(f"{api}: {arg} must be an int32 tensor of {batch} lengths ([batch_size, 1]), received "
                         f"{lens.dtype.name} of shape {lens.shape}")


def variable_length_memory_efficient_attention(query, key, value, seq_lens, kv_seq_lens, mask=None, scale=None,
                                               causal=False, pre_cache_length=0):
    """Attention over query [batch, heads, seq_q, head_dim] and key/value [batch, kv_heads, seq_k, head_dim]
    (kv_heads dividing heads) where sequence b has its own lengths: its queries 0..seq_lens[b] attend to its keys
    0..kv_seq_lens[b] + pre_cache_length (the pre-cache only for a non-empty query), causal keeping key j <= query
    i; softmax(q k^T * scale + mask) v, mask [batch, 1 or heads, seq_q, seq_k] added after scaling. Query rows
    past seq_lens[b] (and rows with no key to attend) are zeros. Paddle's kernel is GPU-only; here it is one
    batched masked attention (F.scaled_dot_product_attention: the fused op on a GPU), differentiable."""
    api = "variable_length_memory_efficient_attention"
    for arg, t in (("query", query), ("key", key), ("value", value)):
        check_float_tensor(t, api, arg)
        if len(t.shape) != 4:
            raise ValueError(f"{api}: {arg} must be 4-D [batch_size, num_head, seq_len, head_size], received "
                             f"shape {t.shape}")
    batch, heads, seq_q, head_dim = query.shape
    _, kv_heads, seq_k, _ = key.shape
    if key.shape[0] != batch or kv_heads == 0 or heads % kv_heads or key.shape[3] != head_dim \
            or value.shape[:3] != key.shape[:3]:
        raise ValueError(f"{api}: key must be [{batch}, kv_num_head, seq_len, {head_dim}] with "
                         f"kv_num_head dividing {heads}, and value [{batch}, kv_num_head, seq_len, value_head_size] "
                         f"alike; received key {key.shape} and value {value.shape}")
    _check_lengths(api, "seq_lens", seq_lens, batch)
    _check_lengths(api, "kv_seq_lens", kv_seq_lens, batch)
    if mask is not None and (len(mask.shape) != 4 or mask.shape[0] != batch or mask.shape[1] not in (1, heads)
                             or list(mask.shape[2:]) != [seq_q, seq_k]):
        raise ValueError(f"{api}: mask must be [{batch}, 1 or {heads}, {seq_q}, {seq_k}], received {mask.shape}")
    scale = head_dim ** -0.5 if scale is None else float(scale)
    q_len = T.reshape(seq_lens, [batch, 1, 1])
    kv_len = T.reshape(kv_seq_lens, [batch, 1, 1]) + T.cast(q_len > 0, "int32") * int(pre_cache_length)
    q_pos = T.reshape(T.arange(seq_q, dtype="int32"), [1, seq_q, 1])
    k_pos = T.reshape(T.arange(seq_k, dtype="int32"), [1, 1, seq_k])
    keep = k_pos < kv_len                                                                  # [batch, 1 or seq_q, seq_k]
    if causal:
        keep = keep & (k_pos <= q_pos)
    q, k, v = (T.transpose(t, [0, 2, 1, 3]) for t in (query, key, value))
    return T.transpose(_attention_over(q, k, v, keep, q_pos < q_len, mask, scale), [0, 2, 1, 3])


def _fit(x, axis, size):
    """x cut or zero-padded to `size` along `axis`."""
    have = x.shape[axis]
    if have >= size:
        return T.slice(x, [axis], [0], [size])
    padding = list(x.shape)
    padding[axis] = size - have
    return T.concat([x, T.zeros(padding, x.dtype.name)], axis=axis)


def block_multihead_attention(qkv, key_cache, value_cache, seq_lens_encoder, seq_lens_decoder, seq_lens_this_time,
                              padding_offsets, cum_offsets, cu_seqlens_q, cu_seqlens_k, block_tables,
                              pre_key_cache=None, pre_value_cache=None, cache_k_quant_scales=None,
                              cache_v_quant_scales=None, cache_k_dequant_scales=None, cache_v_dequant_scales=None,
                              qkv_out_scale=None, qkv_bias=None, out_shift=None, out_smooth=None,
                              max_enc_len_this_time=None, max_dec_len_this_time=None, rope_emb=None, mask=None,
                              tgt_mask=None, max_seq_len=-1, block_size=64, use_neox_style=False,
                              use_dynamic_cachekv_quant=False, quant_round_type=1, quant_max_bound=127.0,
                              quant_min_bound=-127.0, out_scale=-1, compute_dtype="default", rope_theta=10000.0):
    """(out [token_num, num_head * head_dim], qkv, key_cache, value_cache): attention over a paged KV cache.
    qkv [token_num, (num_head + 2 * kv_num_head) * head_dim] packs each sequence's seq_lens_this_time[b] tokens
    (sequence b from row cu_seqlens_q[b]); key_cache / value_cache [max_block_num, kv_num_head, block_size,
    head_dim] hold step p of sequence b at block block_tables[b, p // block_size], slot p % block_size. An encoder
    sequence (seq_lens_encoder[b] > 0) writes its tokens at steps 0.. and attends causally among them (mask
    [batch, 1, seq, seq] added); a decoder sequence writes its token at step seq_lens_decoder[b] and attends over
    steps 0..seq_lens_decoder[b] (tgt_mask [batch, 1 or num_head, 1, steps] added). The caches (and qkv, with
    qkv_bias added) are written in place. The float path of Paddle's GPU kernel: pre-caches, rotary embeddings and
    the quantization arguments raise NotImplementedError. max_seq_len (> 0) bounds the tokens of a sequence this
    time; without it the bound is read from seq_lens_this_time (eager mode)."""
    api = "block_multihead_attention"
    _no_quant(api, out_scale)
    for name, value in (("pre_key_cache", pre_key_cache), ("pre_value_cache", pre_value_cache),
                        ("cache_k_quant_scales", cache_k_quant_scales), ("cache_v_quant_scales", cache_v_quant_scales),
                        ("cache_k_dequant_scales", cache_k_dequant_scales),
                        ("cache_v_dequant_scales", cache_v_dequant_scales), ("qkv_out_scale", qkv_out_scale),
                        ("out_shift", out_shift), ("out_smooth", out_smooth), ("rope_emb", rope_emb),
                        ("use_dynamic_cachekv_quant", use_dynamic_cachekv_quant or None)):
        if value is not None:
            raise NotImplementedError(f"{api}: '{name}' is not supported (the float path without rotary embeddings "
                                      f"or pre-caches only)")
    check_float_tensor(qkv, api, "qkv")
    if len(key_cache.shape) != 4 or list(value_cache.shape) != list(key_cache.shape) or key_cache.shape[2] != block_size:
        raise ValueError(f"{api}: key_cache and value_cache must both be [max_block_num, kv_num_head, block_size = "
                         f"{block_size}, head_dim], received {key_cache.shape} and {value_cache.shape}")
    num_blocks, kv_heads, _, head_dim = key_cache.shape
    token_num, width = qkv.shape if len(qkv.shape) == 2 else (None, None)
    heads = width // head_dim - 2 * kv_heads if width else 0
    if width is None or width % head_dim or heads <= 0 or heads % kv_heads:
        raise ValueError(f"{api}: qkv must be [token_num, (num_head + 2 * {kv_heads}) * {head_dim}] with num_head a "
                         f"multiple of {kv_heads}, received {qkv.shape}")
    batch = seq_lens_this_time.size
    if len(block_tables.shape) != 2 or block_tables.shape[0] != batch:
        raise ValueError(f"{api}: block_tables must be [{batch}, block_num_per_seq], received {block_tables.shape}")
    steps = block_tables.shape[1] * block_size                                      # each sequence's cache length
    if qkv_bias is not None:
        qkv = T.assign(qkv + T.reshape(qkv_bias, [-1]), output=qkv)
    tokens = T.reshape(qkv, [token_num, heads + 2 * kv_heads, head_dim])
    q, k, v = tokens[:, :heads], tokens[:, heads:heads + kv_heads], tokens[:, heads + kv_heads:]

    def lengths(t):
        return T.reshape(T.cast(t, "int64"), [batch])
    encoder = lengths(seq_lens_encoder) > 0
    start = T.where(encoder, T.zeros([], "int64"), lengths(seq_lens_decoder))    # the step of a sequence's 1st token
    cu = T.reshape(T.cast(cu_seqlens_q, "int64"), [-1])
    row = T.arange(token_num, dtype="int64")
    sequence = T.sum(T.cast(T.unsqueeze(row, 1) >= T.unsqueeze(cu[1:], 0), "int64"), axis=1)   # each token's
    offset = row - T.gather(cu, sequence)
    step = T.gather(start, sequence) + offset
    tables = T.maximum(T.cast(block_tables, "int64"), T.zeros([], "int64"))  # unused entries may hold -1
    slot = T.gather_nd(tables, T.stack([sequence, step // block_size], axis=1)) * block_size + step % block_size
    layout = [num_blocks * block_size, kv_heads, head_dim]  # the caches as rows of (block, slot)
    seq_slots = T.reshape(T.unsqueeze(tables * block_size, 2) + T.arange(block_size, dtype="int64"), [-1])
    per_sequence = []
    for cache, new in ((key_cache, k), (value_cache, v)):
        rows = T.scatter(T.reshape(T.transpose(cache, [0, 2, 1, 3]), layout), slot, new, overwrite=True)
        T.assign(T.transpose(T.reshape(rows, [num_blocks, block_size, kv_heads, head_dim]), [0, 2, 1, 3]),
                 output=cache)
        per_sequence.append(T.reshape(T.gather(rows, seq_slots), [batch, steps, kv_heads, head_dim]))
    longest = max_seq_len if max_seq_len > 0 else int(np.max(seq_lens_this_time.numpy(), initial=0))
    padded, valid = _padded_rows(cu, longest)
    query_step = T.unsqueeze(start, 1) + T.arange(longest, dtype="int64")                         # [batch, longest]
    keep = T.reshape(T.arange(steps, dtype="int64"), [1, 1, steps]) <= T.unsqueeze(query_step, 2)
    added = None
    for given, applies in ((mask, encoder), (tgt_mask, ~encoder)):
        if given is not None:
            given = _fit(_fit(T.cast(given, qkv.dtype.name), 3, steps), 2, longest) if given.shape[2] > 1 else \
                _fit(T.cast(given, qkv.dtype.name), 3, steps)
            given = given * T.reshape(T.cast(applies, qkv.dtype.name), [batch, 1, 1, 1])
            added = given if added is None else added + given
    out = _attention_over(_unpad(q, padded), *per_sequence, keep, T.unsqueeze(valid, 2), added, head_dim ** -0.5)
    out = T.gather(T.reshape(out, [batch * longest, heads * head_dim]), sequence * longest + offset)
    return out, qkv, key_cache, value_cache


def _attention_over(q, k, v, keep, rows, mask, scale):
    """softmax(q k^T * scale + mask) v over q [batch, seq_q, heads, head_dim] and k / v [batch, seq_k, kv_heads, *]
    where keep (bool, broadcasting to [batch, seq_q, seq_k]) picks each query's keys and rows ([batch, seq_q, 1])
    the queries that give output; the other rows, and rows that attend nothing, are zeros. mask [batch, 1 or heads,
    seq_q, seq_k] is added to the scaled scores. One batched attention (the fused op on a GPU)."""
    head_dim = q.shape[-1]
    attended = rows & T.any(keep, axis=-1, keepdim=True)                                   # [batch, seq_q, 1]
    keep = keep | ~attended  # a row that attends nothing takes every key, then is zeroed: no NaN, nor in gradients
    scores_mask = additive_mask(T.unsqueeze(keep, 1), q.dtype.name)                  # [batch, 1, seq_q, seq_k]
    if mask is not None:
        scores_mask = scores_mask + T.cast(mask, q.dtype.name)
    same_dims = v.shape[3] == head_dim  # the fused op scales by 1 / sqrt(head_dim) and wants one head size
    if same_dims and scale != head_dim ** -0.5:
        q = q * (scale * head_dim ** 0.5)
    out = F.scaled_dot_product_attention(q, k, v, scores_mask, training=False, scale=None if same_dims else scale)
    return T.where(T.unsqueeze(attended, 2), out, T.zeros([], out.dtype.name))


def _dropout_add(x, bias, y, p, training, mode):
    """dropout(x + bias) + y: in training with p > 0 one fused_dropout_add op (its mask drawn from the global
    generator as F.dropout's), else F.dropout's inference rules."""
    if not training or not p or mode not in ("upscale_in_train", "downscale_in_infer"):
        return F.dropout(x if bias is None else x + bias, p, training=training, mode=mode) + y
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise ValueError(f"fused_dropout_add: p must be a number in [0, 1], received {p!r}")
    return dispatch.apply(_fused.FUSED_DROPOUT_ADD, x, bias, y, dropout_prob=float(p), seed=0,
                          dropout_implementation="upscale_in_train" if mode == "upscale_in_train" else
                          "downgrade_in_infer")[0]


def fused_dropout_add(x, y, p=0.5, training=True, mode="upscale_in_train", name=None):
    """dropout(x) + y; in training one fused_dropout_add op (one kernel after the generator's draws)."""
    return _dropout_add(x, None, y, p, training, mode)


def fused_matmul_bias(x, y, bias=None, transpose_x=False, transpose_y=False, name=None):
    """matmul(x, y) (either transposed) + bias."""
    out = T.matmul(x, y, transpose_x, transpose_y)
    return out if bias is None else out + bias


def fused_linear(x, weight, bias=None, transpose_weight=False, name=None):
    """x @ weight (+ bias); weight [in, out], or [out, in] with transpose_weight."""
    return fused_matmul_bias(x, weight, bias, False, transpose_weight)


_GEMM_ACTS = {None: None, "none": None, "relu": F.relu, "gelu": lambda h: F.gelu(h, approximate=True)}


def fused_linear_activation(x, y, bias, trans_x=False, trans_y=False, activation=None):
    """activation(matmul(x, y) + bias): relu, or gelu in cuBLASLt's epilogue form (the tanh approximation)."""
    if activation not in _GEMM_ACTS:
        raise ValueError(f"fused_linear_activation: activation must be one of ['gelu', 'relu', 'none', None], "
                         f"received {activation!r}")
    out = fused_matmul_bias(x, y, bias, trans_x, trans_y)
    act = _GEMM_ACTS[activation]
    return out if act is None else act(out)


_BIAS_ACTS = {"gelu": F.gelu, "relu": F.relu, "silu": F.silu, "swish": F.silu, "sigmoid": F.sigmoid, "tanh": T.tanh,
              "identity": lambda h: h}
_GLU_ACTS = {"swiglu": "silu", "geglu": "gelu"}  # act(a) * b over the halves: the fused_glu op, bias add included
# act_method -> the act of the fused_bias_act op (one kernel with its bias add, forward and backward)
_FUSED_BIAS_ACTS = {"gelu": "gelu", "relu": "relu", "silu": "silu", "swish": "silu", "sigmoid": "sigmoid",
                    "tanh": "tanh", "identity": "identity"}


def fused_bias_act(x, bias=None, dequant_scales=None, shift=None, smooth=None, act_method="gelu",
                   compute_dtype="default", quant_scale=-1, quant_round_type=0, quant_max_bound=0, quant_min_bound=0):
    """act_method(x + bias); swiglu / geglu split the last axis into halves (a, b) and give act(a) * b. The bias add
    runs in the activation's kernel: the fused_bias_act op for a [cols] bias and a plain activation, the fused_glu op
    for swiglu / geglu (one launch each way)."""
    _no_quant("fused_bias_act", quant_scale)
    if dequant_scales is not None or shift is not None or smooth is not None:
        raise NotImplementedError("fused_bias_act: dequant_scales, shift and smooth (quantized inputs) are not "
                                  "supported")
    if act_method not in _BIAS_ACTS and act_method not in _GLU_ACTS:
        raise ValueError(f"fused_bias_act: act_method must be one of {sorted([*_BIAS_ACTS, *_GLU_ACTS])}, received "
                         f"{act_method!r}")
    if act_method in _GLU_ACTS:
        if x.shape[-1] % 2:
            raise ValueError(f"fused_bias_act: {act_method} splits the last dim of x in halves; it must be even, "
                             f"received shape {x.shape}")
        return dispatch.apply(_act.FUSED_GLU, x, bias, act=_GLU_ACTS[act_method])
    if bias is not None and act_method in _FUSED_BIAS_ACTS and bias.shape == x.shape[-1:]:
        return dispatch.apply(_fused.FUSED_BIAS_ACT, x, bias, act=_FUSED_BIAS_ACTS[act_method])
    return _BIAS_ACTS[act_method](x if bias is None else x + bias)


def fused_rotary_position_embedding(q, k=None, v=None, sin=None, cos=None, position_ids=None,
                                    use_neox_rotary_style=True, time_major=False, rotary_emb_base=10000.0):
    """(q, k, v) rotated by their positions (rotary embedding): [batch, seq, heads, head_dim] tensors ([seq, batch,
    ...] with time_major); sin / cos [positions, head_dim] (or [1, positions, 1, head_dim]) computed from
    rotary_emb_base when not given, their rows picked by position_ids [batch, seq] when given (else the first seq).
    use_neox_rotary_style rotates the two halves of head_dim, else adjacent pairs. One fused_rope op: one kernel
    launch on a GPU for all three."""
    outs = dispatch.apply(_fused.FUSED_ROPE, q, k, v, sin, cos, position_ids,
                           use_neox_rotary_style=bool(use_neox_rotary_style), time_major=bool(time_major),
                           rotary_emb_base=float(rotary_emb_base), inverse=False)
    return tuple(None if t is None else out for t, out in zip((q, k, v), outs))


def _layer_norm(x, scale, bias, epsilon):
    return F.layer_norm(x, x.shape[-1:], scale, bias, epsilon)


def _dropout(x, rate, training, mode):
    return F.dropout(x, rate, training=training, mode=mode) if rate else x


def _collective(api, ring_id):
    if ring_id != -1:
        raise NotImplementedError(f"{api}: tensor-parallel rings (ring_id) are not supported")


def fused_feedforward(x, linear1_weight, linear2_weight, linear1_bias=None, linear2_bias=None, ln1_scale=None,
                      ln1_bias=None, ln2_scale=None, ln2_bias=None, dropout1_rate=0.5, dropout2_rate=0.5,
                      activation="relu", ln1_epsilon=1e-5, ln2_epsilon=1e-5, pre_layer_norm=False, training=True,
                      mode="upscale_in_train", ring_id=-1, add_residual=True, name=None):
    """The transformer feed-forward block: [layer_norm1 ->] linear1 -> activation -> dropout1 -> linear2 ->
    dropout2 [-> + x] [-> layer_norm2 when not pre_layer_norm]."""
    _collective("fused_feedforward", ring_id)
    out = _layer_norm(x, ln1_scale, ln1_bias, ln1_epsilon) if pre_layer_norm else x
    out = getattr(F, activation)(F.linear(out, linear1_weight, linear1_bias))
    out = F.linear(_dropout(out, dropout1_rate, training, mode), linear2_weight, linear2_bias)
    out = _dropout(out, dropout2_rate, training, mode)
    out = x + out if add_residual else out
    return out if pre_layer_norm else _layer_norm(out, ln2_scale, ln2_bias, ln2_epsilon)


def fused_bias_dropout_residual_layer_norm(x, residual, bias=None, ln_scale=None, ln_bias=None, dropout_rate=0.5,
                                           ln_epsilon=1e-5, training=True, mode="upscale_in_train", name=None):
    """layer_norm(residual + dropout(x + bias)): in training the fused_dropout_add op (bias, dropout and residual in
    one kernel), then layer_norm's."""
    return _layer_norm(_dropout_add(x, bias, residual, dropout_rate, training, mode), ln_scale, ln_bias, ln_epsilon)


def fused_multi_head_attention(x, qkv_weight, linear_weight, pre_layer_norm=False, pre_ln_scale=None,
                               pre_ln_bias=None, ln_scale=None, ln_bias=None, pre_ln_epsilon=1e-5, qkv_bias=None,
                               linear_bias=None, cache_kv=None, attn_mask=None, dropout_rate=0.5,
                               attn_dropout_rate=0.5, ln_epsilon=1e-5, training=True, mode="upscale_in_train",
                               ring_id=-1, add_residual=True, num_heads=-1, transpose_qkv_wb=False, name=None):
    """Self-attention block on x [batch, seq, embed]: [pre layer_norm ->] one projection to q, k, v (qkv_weight
    [3, heads, head_dim, embed], or [embed, 3 * embed] with transpose_qkv_wb and num_heads) -> softmax(q k^T /
    sqrt(head_dim) + attn_mask) with attention dropout -> v (F.scaled_dot_product_attention: the fused attention
    op on a GPU) -> linear_weight [embed, embed] (+ linear_bias) ->
    dropout [-> + x] [-> layer_norm when not pre_layer_norm]."""
    _collective("fused_multi_head_attention", ring_id)
    if cache_kv is not None:
        raise NotImplementedError("fused_multi_head_attention: cache_kv (incremental decoding) is not supported")
    if attn_dropout_rate and training and mode != "upscale_in_train":
        raise NotImplementedError("fused_multi_head_attention: attention dropout is upscale_in_train only")
    if transpose_qkv_wb:
        if num_heads <= 0:
            raise ValueError("fused_multi_head_attention: num_heads must be given with transpose_qkv_wb")
        qkv_weight = T.reshape(T.transpose(qkv_weight, [1, 0]), [3, num_heads, -1, x.shape[-1]])
        qkv_bias = None if qkv_bias is None else T.reshape(qkv_bias, qkv_weight.shape[:3])

    def attend(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, attn_mask, attn_dropout_rate, training=training)
    return _attention_block(x, qkv_weight, qkv_bias, linear_weight, linear_bias, attend, pre_layer_norm,
                            (pre_ln_scale, pre_ln_bias, pre_ln_epsilon), (ln_scale, ln_bias, ln_epsilon),
                            dropout_rate, training, mode, add_residual)


def _k_cache_block(dtype):
    """Elements of one 16-byte vector: Paddle's cache k stores [batch, heads, head_dim / x, max_seq_len, x] (the
    step's x-element slices of a head contiguous) in its [batch, heads, max_seq_len, head_dim] buffer."""
    return 16 // np.dtype(dtype.np).itemsize


def _k_from_cache(cache_k):
    """[batch, heads, max_seq_len, head_dim] keys in step order from Paddle's blocked cache-k buffer."""
    b, h, steps, d = cache_k.shape
    x = _k_cache_block(cache_k.dtype)
    return T.reshape(T.transpose(T.reshape(cache_k, [b, h, d // x, steps, x]), [0, 1, 3, 2, 4]), [b, h, steps, d])


def _k_to_cache(keys):
    """The inverse of _k_from_cache."""
    b, h, steps, d = keys.shape
    x = _k_cache_block(keys.dtype)
    return T.reshape(T.transpose(T.reshape(keys, [b, h, steps, d // x, x]), [0, 1, 3, 2, 4]), [b, h, steps, d])


def _cached_attention(api, cache_kv, time_step, attn_mask):
    """attend(q, k, v) of one layer with a cache_kv [2, batch, heads, max_seq_len, head_dim] (its k blocked as
    Paddle's kernel keeps it): without time_step (the context stage) k and v fill steps 0..seq - 1 and q attends
    over them with attn_mask; with it (a decoding step, seq 1) they are written at step time_step and q attends over
    steps 0..time_step, attn_mask [batch, 1, 1, time_step + 1] added. The cache is written in place."""
    def attend(q, k, v):                                                             # [batch, seq, heads, head_dim]
        batch, seq, heads, head_dim = q.shape
        if list(cache_kv.shape) != [2, batch, heads, cache_kv.shape[3], head_dim] or head_dim % _k_cache_block(
                q.dtype) or cache_kv.shape[3] < seq:
            raise ValueError(f"{api}: each cache_kvs tensor must be [2, {batch}, {heads}, max_seq_len >= {seq}, "
                             f"{head_dim}] (head_dim a multiple of {_k_cache_block(q.dtype)}), received "
                             f"{cache_kv.shape}")
        max_len = cache_kv.shape[3]
        keys, values = T.transpose(k, [0, 2, 1, 3]), T.transpose(v, [0, 2, 1, 3])    # [batch, heads, seq, head_dim]
        if time_step is None:
            if seq < max_len:
                keys = T.concat([keys, _k_from_cache(cache_kv[0])[:, :, seq:]], axis=2)
                values = T.concat([values, cache_kv[1][:, :, seq:]], axis=2)
            T.assign(T.stack([_k_to_cache(keys), values]), output=cache_kv)  # in place, in both modes
            return F.scaled_dot_product_attention(q, k, v, attn_mask, training=False)
        if seq != 1:
            raise ValueError(f"{api}: a decoding step (time_step given) takes one token per sequence, received x "
                             f"of {seq} steps")
        step = T.reshape(T.cast(time_step, "int32"), [1, 1, 1, 1])
        position = T.reshape(T.arange(max_len, dtype="int32"), [1, 1, max_len, 1])
        keys = T.where(position == step, keys, _k_from_cache(cache_kv[0]))
        values = T.where(position == step, values, cache_kv[1])
        T.assign(T.stack([_k_to_cache(keys), values]), output=cache_kv)
        mask = additive_mask(T.reshape(position <= step, [1, 1, 1, max_len]), q.dtype.name)
        if attn_mask is not None:
            given = attn_mask.shape[-1]
            if given > max_len:
                raise ValueError(f"{api}: attn_mask covers {given} steps, more than the cache's {max_len}")
            padding = T.zeros([*attn_mask.shape[:-1], max_len - given], q.dtype.name)
            mask = mask + T.concat([additive_mask(attn_mask, q.dtype.name), padding], axis=-1)
        return F.scaled_dot_product_attention(q, T.transpose(keys, [0, 2, 1, 3]), T.transpose(values, [0, 2, 1, 3]),
                                              mask, training=False)
    return attend


def fused_multi_transformer(x, ln_scales, ln_biases, qkv_weights, qkv_biases, linear_weights, linear_biases,
                            ffn_ln_scales, ffn_ln_biases, ffn1_weights, ffn1_biases, ffn2_weights, ffn2_biases,
                            pre_layer_norm=True, epsilon=1e-05, residual_alpha=1.0, cache_kvs=None, beam_offset=None,
                            pre_caches=None, seq_lens=None, rotary_embs=None, time_step=None, attn_mask=None,
                            dropout_rate=0.0, rotary_emb_dims=0, activation="gelu", training=False,
                            mode="upscale_in_train", trans_qkvw=True, ring_id=-1, norm_type="layernorm",
                            use_neox_rotary_style=False, gqa_group_size=-1, name=None):
    """A stack of transformer layers on x [batch, seq, embed], layer i the self-attention block of
    fused_multi_head_attention (qkv_weights[i] [3, heads, head_dim, embed], or [embed, 3, heads, head_dim] without
    trans_qkvw; linear_weights[i] [heads * head_dim, embed]; ln_scales / ln_biases its layer norm) then the
    feed-forward block of fused_feedforward (ffn1_weights[i] [embed, dim_feedforward], ffn2_weights[i]
    [dim_feedforward, embed], ffn_ln_* its layer norm), layer norms before the blocks (pre_layer_norm) or after the
    residuals, dropout_rate on the attention weights and the blocks' outputs. With cache_kvs (one [2, batch, heads,
    max_seq_len, head_dim] per layer, written in place) it is a generation model: without time_step the context
    stage fills the caches, with it each call is one decoding step at step time_step (see _cached_attention).
    Returns out, or (out, cache_kvs) with caches. Rotary embeddings, pre-caches, beam offsets, padding removal
    (seq_lens), grouped heads, rms norm and residual_alpha != 1 raise NotImplementedError."""
    api = "fused_multi_transformer"
    if mode not in ("downscale_in_infer", "upscale_in_train"):
        raise ValueError("mode argument should be 'downscale_in_infer' or 'upscale_in_train'")
    _collective(api, ring_id)
    unsupported = {"rotary_embs": rotary_embs is not None, "rotary_emb_dims": rotary_emb_dims != 0,
                   "pre_caches": pre_caches is not None, "beam_offset": beam_offset is not None,
                   "seq_lens": seq_lens is not None, "gqa_group_size": gqa_group_size > 0,
                   "norm_type": norm_type != "layernorm", "residual_alpha": residual_alpha != 1.0}
    for arg, given in unsupported.items():
        if given:
            raise NotImplementedError(f"{api}: '{arg}' is not supported")
    if activation not in ("gelu", "relu"):
        raise NotImplementedError(f"{api}: activation must be 'gelu' or 'relu', received {activation!r}")
    check_float_tensor(x, api, "x")
    if len(x.shape) != 3:
        raise ValueError(f"{api}: x must be 3-D [batch_size, seq_len, dim_embed], received shape {x.shape}")
    layers = len(qkv_weights)
    per_layer = {"ln_scales": ln_scales, "ln_biases": ln_biases, "qkv_biases": qkv_biases,
                 "linear_weights": linear_weights, "linear_biases": linear_biases, "ffn_ln_scales": ffn_ln_scales,
                 "ffn_ln_biases": ffn_ln_biases, "ffn1_weights": ffn1_weights, "ffn1_biases": ffn1_biases,
                 "ffn2_weights": ffn2_weights, "ffn2_biases": ffn2_biases, "cache_kvs": cache_kvs}
    for arg, values in per_layer.items():
        if values is not None and len(values) != layers:
            raise ValueError(f"{api}: {arg} must hold one tensor per layer ({layers}, as qkv_weights), received "
                             f"{len(values)}")
    if time_step is not None and cache_kvs is None:
        raise ValueError(f"{api}: time_step (a decoding step) needs cache_kvs")

    def layer(values, i):
        return None if values is None else values[i]
    out = x
    for i in range(layers):
        qkv_weight = qkv_weights[i] if trans_qkvw else T.transpose(qkv_weights[i], [1, 2, 3, 0])
        if len(qkv_weight.shape) != 4 or qkv_weight.shape[0] != 3 or qkv_weight.shape[3] != x.shape[2]:
            raise ValueError(f"{api}: qkv_weights[{i}] must be [3, num_head, dim_head, {x.shape[2]}]"
                             f"{'' if trans_qkvw else ' before the transpose of trans_qkvw=False'}, received "
                             f"{qkv_weights[i].shape}")
        if cache_kvs is None:
            def attend(q, k, v):
                return F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_rate, training=training)
        else:
            attend = _cached_attention(api, cache_kvs[i], time_step, attn_mask)
        out = _attention_block(out, qkv_weight, layer(qkv_biases, i), linear_weights[i], layer(linear_biases, i),
                               attend, pre_layer_norm, (ln_scales[i], layer(ln_biases, i), epsilon),
                               (ln_scales[i], layer(ln_biases, i), epsilon), dropout_rate, training, mode)
        ffn_ln = (ffn_ln_scales[i], layer(ffn_ln_biases, i))
        out = fused_feedforward(out, ffn1_weights[i], ffn2_weights[i], layer(ffn1_biases, i), layer(ffn2_biases, i),
                                *ffn_ln, *ffn_ln, dropout_rate, dropout_rate, activation, epsilon, epsilon,
                                pre_layer_norm, training, mode)
    return out if cache_kvs is None else (out, cache_kvs)


def _attention_block(x, qkv_weight, qkv_bias, linear_weight, linear_bias, attend, pre_layer_norm, pre_ln, post_ln,
                     dropout_rate, training, mode, add_residual=True):
    """The self-attention block of the fused transformers on x [batch, seq, embed]: [layer_norm(*pre_ln) ->] q, k, v
    [batch, seq, heads, head_dim] from qkv_weight [3, heads, head_dim, embed] (+ qkv_bias [3, heads, head_dim]) ->
    attend(q, k, v) (the attention, [batch, seq, heads, head_dim]) -> linear_weight [heads * head_dim, embed]
    (+ linear_bias) -> dropout [-> + x] [-> layer_norm(*post_ln) when not pre_layer_norm]."""
    batch, seq, embed = x.shape
    out = _layer_norm(x, *pre_ln) if pre_layer_norm else x
    _, heads, head_dim, _ = qkv_weight.shape
    qkv = T.matmul(out, T.reshape(qkv_weight, [3 * heads * head_dim, embed]), transpose_y=True)
    if qkv_bias is not None:
        qkv = qkv + T.reshape(qkv_bias, [-1])
    q, k, v = T.unbind(T.reshape(qkv, [batch, seq, 3, heads, head_dim]), axis=2)             # [batch, seq, heads, d]
    context = T.reshape(attend(q, k, v), [batch, seq, heads * head_dim])
    out = _dropout(F.linear(context, linear_weight, linear_bias), dropout_rate, training, mode)
    out = x + out if add_residual else out
    return out if pre_layer_norm else _layer_norm(out, *post_ln)
