"""paddle.incubate.nn: layers over the fused building blocks of incubate.nn.functional."""
from . import functional  # noqa: F401
from ...nn import initializer as _init
from ...nn.layer.layers import Layer as _Layer
from . import functional as F

__all__ = ["FusedLinear", "FusedDropoutAdd", "FusedBiasDropoutResidualLayerNorm", "FusedFeedForward"]


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


