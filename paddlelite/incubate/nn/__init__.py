"""paddle.incubate.nn: layers over the fused building blocks of incubate.nn.functional."""
from . import functional  # noqa: F401
from ...nn import initializer as _init
from ...nn.layer.layers import Layer as _Layer
from ...nn.layer.transformer import _convert_attention_mask, _param_attrs
from . import functional as F

__all__ = ["FusedLinear", "FusedDropoutAdd", "FusedBiasDropoutResidualLayerNorm", "FusedFeedForward",
           "FusedMultiHeadAttention", "FusedTransformerEncoderLayer", "FusedMultiTransformer"]


class FusedLinear(_Layer):
    """x @ weight + bias with weight [in_features, out_features] ([out, in] with transpose_weight)."""

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, transpose_weight=False,
                 name=None):
        super().__init__()
        shape = [out_features, in_features] if transpose_weight else [in_features, out_features]
        self.weight = self.create_parameter(shape, attr=weight_attr)
        self.bias = self.create_parameter([out_features], attr=bias_attr, is_bias=True)
        self.transpose_weight = transpose_weight
        self.name = name

    def forward(self, input):
        return F.fused_linear(input, self.weight, self.bias, self.transpose_weight)


class FusedDropoutAdd(_Layer):
    """dropout(x) + y."""

    def __init__(self, p=0.5, mode="upscale_in_train", name=None):
        super().__init__()
        self.p, self.mode, self.name = p, mode, name

    def forward(self, x, y):
        return F.fused_dropout_add(x, y, self.p, self.training, self.mode)

    def extra_repr(self):
        return f"p={self.p}, mode={self.mode}"


def _norm_params(layer, size, scale_attr, bias_attr):
    return (layer.create_parameter([size], attr=scale_attr, default_initializer=_init.Constant(1.0)),
            layer.create_parameter([size], attr=bias_attr, is_bias=True))


class FusedBiasDropoutResidualLayerNorm(_Layer):
    """layer_norm(residual + dropout(x + linear_bias)) over embed_dim features."""

    def __init__(self, embed_dim, dropout_rate=0.5, weight_attr=None, bias_attr=None, epsilon=1e-5, name=None):
        super().__init__()
        if embed_dim <= 0:
            raise ValueError(f"Expected embed_dim to be greater than 0, but received {embed_dim}")
        self.embed_dim, self.dropout_rate, self._epsilon, self.name = embed_dim, dropout_rate, epsilon, name
        self.linear_bias = self.create_parameter([embed_dim], attr=bias_attr, is_bias=True)
        self.ln_scale, self.ln_bias = _norm_params(self, embed_dim, weight_attr, bias_attr)

    def forward(self, x, residual):
        return F.fused_bias_dropout_residual_layer_norm(x, residual, self.linear_bias, self.ln_scale, self.ln_bias,
                                                        self.dropout_rate, self._epsilon, self.training)

    def extra_repr(self):
        return f"embed_dim={self.embed_dim}, seq_len={self.dropout_rate}, dropout_rate={self.dropout_rate}, " \
               f"epsilon={self._epsilon}, dtype={self._dtype}"


class FusedFeedForward(_Layer):
    """The transformer feed-forward block (fused_feedforward): linear1 [d_model, dim_feedforward], activation,
    act_dropout, linear2 [dim_feedforward, d_model], dropout, the residual, layer norm before (normalize_before) or
    after."""

    def __init__(self, d_model, dim_feedforward, dropout_rate=0.1, epsilon=1e-5, activation="relu",
                 act_dropout_rate=None, normalize_before=False, linear1_weight_attr=None, linear1_bias_attr=None,
                 linear2_weight_attr=None, linear2_bias_attr=None, ln1_scale_attr=None, ln1_bias_attr=None,
                 ln2_scale_attr=None, ln2_bias_attr=None, nranks=1, ring_id=-1, name=None):
        super().__init__()
        if d_model <= 0 or dim_feedforward <= 0:
            raise ValueError(f"Expected d_model and dim_feedforward to be greater than 0, but received {d_model} and "
                             f"{dim_feedforward}")
        self._d_model, self._dim_feedforward = d_model, dim_feedforward
        self._dropout_rate = dropout_rate
        self._act_dropout_rate = dropout_rate if act_dropout_rate is None else act_dropout_rate
        self._act_method, self._normalize_before, self._epsilon = activation, normalize_before, epsilon
        self._ring_id = ring_id
        self._linear1_weight = self.create_parameter([d_model, dim_feedforward], attr=linear1_weight_attr)
        self._linear1_bias = self.create_parameter([dim_feedforward], attr=linear1_bias_attr, is_bias=True)
        self._linear2_weight = self.create_parameter([dim_feedforward, d_model], attr=linear2_weight_attr)
        self._linear2_bias = self.create_parameter([d_model], attr=linear2_bias_attr, is_bias=True)
        if normalize_before:
            self._ln1_scale, self._ln1_bias = _norm_params(self, d_model, ln1_scale_attr, ln1_bias_attr)
            self._ln2_scale = self._ln2_bias = None
        else:
            self._ln1_scale = self._ln1_bias = None
            self._ln2_scale, self._ln2_bias = _norm_params(self, d_model, ln2_scale_attr, ln2_bias_attr)
        self.name = name

    def forward(self, src, cache=None):
        return F.fused_feedforward(src, self._linear1_weight, self._linear2_weight, self._linear1_bias,
                                   self._linear2_bias, self._ln1_scale, self._ln1_bias, self._ln2_scale,
                                   self._ln2_bias, self._act_dropout_rate, self._dropout_rate, self._act_method,
                                   self._epsilon, self._epsilon, self._normalize_before, self.training,
                                   ring_id=self._ring_id)




class FusedMultiHeadAttention(_Layer):
    """Self-attention (fused_multi_head_attention): qkv_weight [3, num_heads, head_dim, embed_dim] ([embed_dim,
    3 * embed_dim] with transpose_qkv_wb), qkv_bias, linear_weight [embed_dim, embed_dim], linear_bias, and the
    layer norm before (normalize_before: pre_ln_*) or after (ln_*)."""

    def __init__(self, embed_dim, num_heads, dropout_rate=0.5, attn_dropout_rate=0.5, kdim=None, vdim=None,
                 normalize_before=False, need_weights=False, qkv_weight_attr=None, qkv_bias_attr=None,
                 linear_weight_attr=None, linear_bias_attr=None, pre_ln_scale_attr=None, pre_ln_bias_attr=None,
                 ln_scale_attr=None, ln_bias_attr=None, epsilon=1e-5, nranks=1, ring_id=-1, transpose_qkv_wb=False,
                 name=None):
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise AssertionError(f"Expected embed_dim and nhead to be greater than 0, but received {embed_dim} and "
                                 f"{num_heads}")
        if embed_dim % num_heads:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if need_weights:
            raise AssertionError("Only support need_weight is False now.")
        if nranks != 1 or ring_id != -1:
            raise NotImplementedError("FusedMultiHeadAttention: tensor parallelism (nranks, ring_id) is not supported")
        self.normalize_before, self._epsilon, self._ring_id = normalize_before, epsilon, ring_id
        self.embed_dim, self.num_heads, self.head_dim = embed_dim, num_heads, embed_dim // num_heads
        self.kdim, self.vdim, self.need_weights = kdim, vdim, need_weights
        self.transpose_qkv_wb = transpose_qkv_wb
        qkv_shape = [embed_dim, 3 * embed_dim] if transpose_qkv_wb else [3, num_heads, self.head_dim, embed_dim]
        self.qkv_weight = self.create_parameter(qkv_shape, attr=qkv_weight_attr)
        self.qkv_bias = self.create_parameter([3 * embed_dim] if transpose_qkv_wb else qkv_shape[:3],
                                              attr=qkv_bias_attr, is_bias=True)
        self.linear_weight = self.create_parameter([embed_dim, embed_dim], attr=linear_weight_attr)
        self.linear_bias = self.create_parameter([embed_dim], attr=linear_bias_attr, is_bias=True)
        if normalize_before:
            self.pre_ln_scale, self.pre_ln_bias = _norm_params(self, embed_dim, pre_ln_scale_attr, pre_ln_bias_attr)
            self.ln_scale = self.ln_bias = None
        else:
            self.pre_ln_scale = self.pre_ln_bias = None
            self.ln_scale, self.ln_bias = _norm_params(self, embed_dim, ln_scale_attr, ln_bias_attr)
        self.dropout_rate, self.attn_dropout_rate, self.name = dropout_rate, attn_dropout_rate, name

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        return F.fused_multi_head_attention(
            query, self.qkv_weight, self.linear_weight, self.normalize_before, self.pre_ln_scale, self.pre_ln_bias,
            self.ln_scale, self.ln_bias, self._epsilon, self.qkv_bias, self.linear_bias, cache,
            _convert_attention_mask(attn_mask, query.dtype.name), self.dropout_rate, self.attn_dropout_rate, self._epsilon,
            self.training, num_heads=self.num_heads, transpose_qkv_wb=self.transpose_qkv_wb)

    def extra_repr(self):
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, dropout_rate={self.dropout_rate}, " \
               f"attn_dropout_rate={self.attn_dropout_rate}, epsilon={self._epsilon}, kdim={self.kdim}, " \
               f"vdim={self.vdim}, normalize_before={self.normalize_before}, need_weights={self.need_weights}, " \
               f"dtype={self._dtype}"


class FusedTransformerEncoderLayer(_Layer):
    """A transformer encoder layer of FusedMultiHeadAttention then FusedFeedForward; weight_attr / bias_attr one attr
    or a list of two (attention, feed-forward)."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout_rate=0.1, activation="relu", attn_dropout_rate=None,
                 act_dropout_rate=None, normalize_before=False, weight_attr=None, bias_attr=None):
        super().__init__()
        for arg, value in (("d_model", d_model), ("nhead", nhead), ("dim_feedforward", dim_feedforward)):
            if value <= 0:
                raise AssertionError(f"Expected {arg} to be greater than 0, but received {value}")
        weights = _param_attrs(weight_attr, 2, "FusedTransformerEncoderLayer", "weight_attr")
        biases = _param_attrs(bias_attr, 2, "FusedTransformerEncoderLayer", "bias_attr")
        self.normalize_before = normalize_before
        self.fused_attn = FusedMultiHeadAttention(
            d_model, nhead, dropout_rate=dropout_rate,
            attn_dropout_rate=dropout_rate if attn_dropout_rate is None else attn_dropout_rate,
            normalize_before=normalize_before, qkv_weight_attr=weights[0], qkv_bias_attr=biases[0],
            linear_weight_attr=weights[0], linear_bias_attr=biases[0], pre_ln_scale_attr=weights[0],
            pre_ln_bias_attr=biases[0], ln_scale_attr=weights[0], ln_bias_attr=biases[0])
        self.ffn = FusedFeedForward(
            d_model, dim_feedforward, dropout_rate=dropout_rate, activation=activation,
            act_dropout_rate=dropout_rate if act_dropout_rate is None else act_dropout_rate,
            normalize_before=normalize_before, linear1_weight_attr=weights[1], linear1_bias_attr=biases[1],
            linear2_weight_attr=weights[1], linear2_bias_attr=biases[1])

    def forward(self, src, src_mask=None, cache=None):
        if cache is not None:
            raise NotImplementedError("FusedTransformerEncoderLayer: incremental caches are not supported")
        return self.ffn(self.fused_attn(src, attn_mask=src_mask))


class FusedMultiTransformer(_Layer):
    """num_layers transformer layers of fused_multi_transformer. Each layer's parameters, created in Paddle's order
    and so under Paddle's names (its state_dict loads): ln_scale [embed_dim] (float32 for layernorm), ln_bias,
    qkv_weight [3, num_heads, head_dim, embed_dim] ([embed_dim, 3, num_heads, head_dim] without trans_qkvw),
    qkv_bias [3, num_heads, head_dim], linear_weight [num_heads * head_dim, embed_dim], linear_bias, ffn_ln_scale,
    ffn_ln_bias, ffn1_weight [embed_dim, dim_feedforward (twice that for a *glu activation)], ffn1_bias, ffn2_weight
    [dim_feedforward, embed_dim], ffn2_bias; a bias exists only when its attr is given (truthy), as in Paddle. The
    attrs are one for every layer or a list of one per layer."""

    def __init__(self, embed_dim, num_heads, dim_feedforward, dropout_rate=0.0, activation="gelu",
                 normalize_before=True, ln_scale_attrs=None, ln_bias_attrs=None, qkv_weight_attrs=None,
                 qkv_bias_attrs=None, linear_weight_attrs=None, linear_bias_attrs=None, ffn_ln_scale_attrs=None,
                 ffn_ln_bias_attrs=None, ffn1_weight_attrs=None, ffn1_bias_attrs=None, ffn2_weight_attrs=None,
                 ffn2_bias_attrs=None, epsilon=1e-5, residual_alpha=1.0, num_layers=-1, nranks=1, trans_qkvw=True,
                 ring_id=-1, norm_type="layernorm", use_neox_rotary_style=False, gqa_group_size=-1, name=None):
        super().__init__()
        for arg, value in (("embed_dim", embed_dim), ("nhead", num_heads), ("dim_feedforward", dim_feedforward)):
            if value <= 0:
                raise AssertionError(f"Expected {arg} to be greater than 0, but received {value}")
        if embed_dim % num_heads:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if nranks != 1 or ring_id != -1 or gqa_group_size > 0:
            raise NotImplementedError("FusedMultiTransformer: tensor parallelism (nranks, ring_id) and grouped "
                                      "heads (gqa_group_size) are not supported")
        if isinstance(qkv_weight_attrs, (list, tuple)):
            num_layers = len(qkv_weight_attrs)
        if num_layers <= 0:
            raise AssertionError(f"FusedMultiTransformer: num_layers must be positive (or the attrs lists), received "
                                 f"{num_layers}")
        self.normalize_before, self._epsilon, self._residual_alpha = normalize_before, epsilon, residual_alpha
        self._trans_qkvw, self._ring_id, self._norm_type = trans_qkvw, ring_id, norm_type
        self._use_neox_rotary_style, self._gqa_group_size = use_neox_rotary_style, gqa_group_size
        self.embed_dim, self.num_heads, self.head_dim = embed_dim, num_heads, embed_dim // num_heads
        self._dim_feedforward = dim_feedforward
        norm_dtype = "float32" if norm_type == "layernorm" else self._dtype
        ffn1_width = dim_feedforward * 2 if activation.endswith("glu") else dim_feedforward
        qkv_shape = [3, num_heads, self.head_dim, embed_dim] if trans_qkvw else [embed_dim, 3, num_heads,
                                                                                  self.head_dim]
        specs = (  # (list name, attrs, shape, is_bias, dtype, default initializer)
            ("ln_scales", ln_scale_attrs, [embed_dim], False, norm_dtype, _init.Constant(1.0)),
            ("ln_biases", ln_bias_attrs, [embed_dim], True, norm_dtype, None),
            ("qkv_weights", qkv_weight_attrs, qkv_shape, False, None, None),
            ("qkv_biases", qkv_bias_attrs, [3, num_heads, self.head_dim], True, None, None),
            ("linear_weights", linear_weight_attrs, [num_heads * self.head_dim, embed_dim], False, None, None),
            ("linear_biases", linear_bias_attrs, [embed_dim], True, None, None),
            ("ffn_ln_scales", ffn_ln_scale_attrs, [embed_dim], False, norm_dtype, _init.Constant(1.0)),
            ("ffn_ln_biases", ffn_ln_bias_attrs, [embed_dim], True, norm_dtype, None),
            ("ffn1_weights", ffn1_weight_attrs, [embed_dim, ffn1_width], False, None, None),
            ("ffn1_biases", ffn1_bias_attrs, [ffn1_width], True, None, None),
            ("ffn2_weights", ffn2_weight_attrs, [dim_feedforward, embed_dim], False, None, None),
            ("ffn2_biases", ffn2_bias_attrs, [embed_dim], True, None, None))
        lists = {spec[0]: [] for spec in specs}
        for i in range(num_layers):
            for key, attrs, shape, is_bias, dtype, initializer in specs:
                if isinstance(attrs, (list, tuple)) and len(attrs) != num_layers:
                    raise AssertionError(f"FusedMultiTransformer: {key[:-1]}_attrs must hold {num_layers} attrs, "
                                         f"received {len(attrs)}")
                attr = attrs[i] if isinstance(attrs, (list, tuple)) else attrs
                param = None
                if attr or not is_bias:  # Paddle creates a bias only for a given attr
                    param = self.create_parameter(shape, attr=attr, dtype=dtype, is_bias=is_bias,
                                                  default_initializer=initializer)
                    self._parameters[param.name] = param
                lists[key].append(param)
        for key, params in lists.items():
            setattr(self, key, None if params[0] is None else params)
        self.dropout_rate, self.activation, self.name = dropout_rate, activation, name

    def forward(self, src, attn_mask=None, caches=None, pre_caches=None, rotary_embs=None, rotary_emb_dims=0,
                beam_offset=None, seq_lens=None, time_step=None):
        return F.fused_multi_transformer(
            src, self.ln_scales, self.ln_biases, self.qkv_weights, self.qkv_biases, self.linear_weights,
            self.linear_biases, self.ffn_ln_scales, self.ffn_ln_biases, self.ffn1_weights, self.ffn1_biases,
            self.ffn2_weights, self.ffn2_biases, pre_layer_norm=self.normalize_before, epsilon=self._epsilon,
            residual_alpha=self._residual_alpha, cache_kvs=caches, beam_offset=beam_offset, pre_caches=pre_caches,
            rotary_embs=rotary_embs, time_step=time_step, seq_lens=seq_lens, attn_mask=attn_mask,
            dropout_rate=self.dropout_rate, rotary_emb_dims=rotary_emb_dims, activation=self.activation,
            training=self.training, mode="upscale_in_train", trans_qkvw=self._trans_qkvw, ring_id=self._ring_id,
            norm_type=self._norm_type, use_neox_rotary_style=self._use_neox_rotary_style,
            gqa_group_size=self._gqa_group_size, name=self.name)
