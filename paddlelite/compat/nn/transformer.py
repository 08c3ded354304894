"""paddle.compat.nn.MultiheadAttention: torch.nn.MultiheadAttention's layout (sequence first unless batch_first,
one packed in_proj_weight [3E, E] when key/value dims equal embed_dim), its masks (bool True = masked out, or
additive float) and its (output, averaged weights) result."""
from ... import nn as _nn
from ... import tensor as _t
from ...framework import dtype as _dtype
from ...framework.typeinfo import finfo
from ...nn import functional as F
from ...nn.initializer import XavierNormal, XavierUniform

_BOOL = _dtype.convert_dtype("bool")


class MultiheadAttention(_nn.Layer):
    """torch.nn.MultiheadAttention(embed_dim, num_heads, dropout, bias, add_bias_kv, add_zero_attn, kdim, vdim,
    batch_first, device, dtype)."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        if dtype:
            super().__init__(dtype=dtype)
        else:
            super().__init__()
        from . import Linear
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError(f"MultiheadAttention: embed_dim ({embed_dim}) must be divisible by num_heads "
                                 f"({num_heads})")

        def weight(shape, initializer=None, is_bias=False):
            return self.create_parameter(shape=shape, dtype=self._dtype, is_bias=is_bias, device=device,
                                         default_initializer=initializer)

        self.in_proj_bias = self.q_proj_bias = self.k_proj_bias = self.v_proj_bias = None
        if self._qkv_same_embed_dim:
            self.in_proj_weight = weight([3 * embed_dim, embed_dim], XavierUniform())
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
            if bias:
                self.in_proj_bias = weight([3 * embed_dim], is_bias=True)
        else:
            self.q_proj_weight = weight([embed_dim, embed_dim], XavierUniform())
            self.k_proj_weight = weight([embed_dim, self.kdim], XavierUniform())
            self.v_proj_weight = weight([embed_dim, self.vdim], XavierUniform())
            self.in_proj_weight = None
            if bias:
                self.q_proj_bias = weight([embed_dim], is_bias=True)
                self.k_proj_bias = weight([embed_dim], is_bias=True)
                self.v_proj_bias = weight([embed_dim], is_bias=True)
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, dtype=self._dtype)
        self.add_bias_kv, self.add_zero_attn = add_bias_kv, add_zero_attn
        if add_bias_kv:
            self.bias_k = weight([1, 1, embed_dim], XavierNormal(), is_bias=True)
            self.bias_v = weight([1, 1, embed_dim], XavierNormal(), is_bias=True)
        else:
            self.bias_k = self.bias_v = None

    @staticmethod
    def _bool_mask_as_float(mask, dtype):
        """True (masked out) as the dtype's lowest value, False as 0."""
        filler = _t.to_tensor(finfo(dtype).min, dtype=dtype)
        return _t.where(mask, filler, _t.zeros_like(mask, dtype=dtype))

    def _combine_masks(self, mask1, mask2, dtype):
        if mask1.dtype == _BOOL and mask2.dtype == _BOOL:
            return mask1 | mask2
        if mask1.dtype == _BOOL:
            mask1 = self._bool_mask_as_float(mask1, dtype)
        if mask2.dtype == _BOOL:
            mask2 = self._bool_mask_as_float(mask2, dtype)
        return mask1 + mask2

    @staticmethod
    def _pad_mask(mask, pad_amt=1):
        return _t.concat([mask, _t.zeros([*mask.shape[:-1], pad_amt], dtype=mask.dtype)], axis=-1)

    def _project_qkv(self, query, key, value):
        if not self._qkv_same_embed_dim:
            return (F.linear(query, self.q_proj_weight.T, self.q_proj_bias),
                    F.linear(key, self.k_proj_weight.T, self.k_proj_bias),
                    F.linear(value, self.v_proj_weight.T, self.v_proj_bias))
        if query is key and key is value:  # self-attention: one product
            return tuple(F.linear(query, self.in_proj_weight.T, self.in_proj_bias).split(3, axis=-1))
        weights = self.in_proj_weight.chunk(3, axis=0)
        biases = self.in_proj_bias.chunk(3, axis=0) if self.in_proj_bias is not None else (None,) * 3
        return tuple(F.linear(x, w.T, b) for x, w, b in zip((query, key, value), weights, biases))

    def _prepare_qkv_heads(self, q, k, v, batch_size, target_seq_len):
        if self.add_bias_kv:
            k = _t.concat([k, self.bias_k.expand([batch_size, -1, -1])], axis=1)
            v = _t.concat([v, self.bias_v.expand([batch_size, -1, -1])], axis=1)
        q = q.reshape([batch_size, target_seq_len, self.num_heads, self.head_dim]).transpose([0, 2, 1, 3])
        src_len = k.shape[1]
        k = k.reshape([batch_size, src_len, self.num_heads, self.head_dim]).transpose([0, 2, 1, 3])
        v = v.reshape([batch_size, src_len, self.num_heads, self.head_dim]).transpose([0, 2, 1, 3])
        if self.add_zero_attn:
            zeros = _t.zeros([batch_size, self.num_heads, 1, self.head_dim], dtype=k.dtype)
            k, v = _t.concat([k, zeros], axis=2), _t.concat([v, zeros], axis=2)
        return q, k, v

    def _prepare_attn_mask(self, attn_mask, key_padding_mask, target_seq_len, src_len, dtype, batch_size, is_causal,
                           need_weights):
        if is_causal and not self.add_bias_kv and not self.add_zero_attn and key_padding_mask is None \
                and not need_weights:
            return None  # the attention kernel's own causal mask
        if attn_mask is None and not is_causal and key_padding_mask is None:
            return None
        if attn_mask is None:
            attn_mask = (_t.triu(_t.ones([target_seq_len, src_len], dtype=_BOOL), diagonal=1) if is_causal
                         else _t.zeros([target_seq_len, src_len], dtype=dtype))
        pad_count = int(self.add_zero_attn + self.add_bias_kv)
        if pad_count > 0:
            attn_mask = self._pad_mask(attn_mask, pad_amt=pad_count)
            if key_padding_mask is not None:
                key_padding_mask = self._pad_mask(key_padding_mask, pad_amt=pad_count)
        if attn_mask.dim() == 2:
            attn_mask = attn_mask.expand([batch_size * self.num_heads, *attn_mask.shape])
        if attn_mask.dim() == 3:
            attn_mask = attn_mask.reshape([batch_size, self.num_heads, target_seq_len, -1])
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(axis=[1, 2]).repeat([1, *attn_mask.shape[1:3], 1])
            attn_mask = self._combine_masks(attn_mask, key_padding_mask, dtype)
        if attn_mask.dtype != dtype:
            attn_mask = (self._bool_mask_as_float(attn_mask, dtype) if attn_mask.dtype == _BOOL
                         else attn_mask.astype(dtype))
        return attn_mask

    def _attention_core(self, q, k, v, final_mask, need_weights, is_causal):
        from .functional import scaled_dot_product_attention
        batch_size, _, target_seq_len, _ = q.shape
        is_causal = is_causal and final_mask is None
        if not need_weights:
            out = scaled_dot_product_attention(q, k, v, attn_mask=final_mask,
                                               dropout_p=self.dropout if self.training else 0.0, is_causal=is_causal)
            return out.transpose([0, 2, 1, 3]).reshape([batch_size, target_seq_len, self.embed_dim]), None
        scores = _t.matmul(q, k, transpose_y=True) / self.head_dim ** 0.5
        if final_mask is not None:
            if final_mask.dtype == _BOOL:
                final_mask = self._bool_mask_as_float(final_mask, scores.dtype)
            scores = scores + final_mask
        weights = F.dropout(F.softmax(scores, axis=-1), self.dropout, training=self.training)
        out = _t.matmul(weights, v).transpose([0, 2, 1, 3]).reshape([batch_size, target_seq_len, self.embed_dim])
        return out, weights

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        """(attention output, attention weights averaged over the heads unless average_attn_weights=False, or None
        without need_weights)."""
        seq_axis = 0 if self.batch_first else 1
        is_batched = query.dim() == 3
        if not is_batched:
            query, key, value = query.unsqueeze(seq_axis), key.unsqueeze(seq_axis), value.unsqueeze(seq_axis)
            if key_padding_mask is not None and key_padding_mask.dim() != 2:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        if not self.batch_first:
            query, key, value = (t.transpose([1, 0, 2]) for t in (query, key, value))
        batch_size, target_seq_len, _ = query.shape
        src_len = key.shape[1]
        if key_padding_mask is not None and tuple(key_padding_mask.shape) != (batch_size, src_len):
            raise AssertionError(f"MultiheadAttention: key_padding_mask must have shape {(batch_size, src_len)}, "
                                 f"received {tuple(key_padding_mask.shape)}")
        q, k, v = self._prepare_qkv_heads(*self._project_qkv(query, key, value), batch_size, target_seq_len)
        final_mask = self._prepare_attn_mask(attn_mask, key_padding_mask, target_seq_len, src_len, q.dtype, batch_size,
                                             is_causal, need_weights)
        out, weights = self._attention_core(q, k, v, final_mask, need_weights, is_causal)
        out = self.out_proj(out)
        if not self.batch_first:
            out = out.transpose([1, 0, 2])
        if weights is not None and average_attn_weights:
            weights = weights.mean(axis=1)
        if not is_batched:
            out = out.squeeze(seq_axis)
            if weights is not None:
                weights = weights.squeeze(0)
        return out, weights
