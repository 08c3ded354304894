"""MultiHeadAttention, the Transformer encoder and decoder layers and stacks, and Transformer (Paddle's signatures,
layouts and parameter order)."""
import collections
import copy

from ... import tensor as _t
from ...framework import dtype as _dtype
from .. import functional as F
from ..functional import attention as _attention
from .common import Dropout, Linear
from .container import LayerList
from .layers import Layer
from .norm import LayerNorm
from .param_attr import ParamAttr

__all__ = ["MultiHeadAttention", "TransformerEncoderLayer", "TransformerEncoder", "TransformerDecoderLayer",
           "TransformerDecoder", "Transformer"]


def _convert_attention_mask(attn_mask, dtype):
    """Paddle's mask convention: a bool or integer mask keeps the positions that are 1 (True); a float mask
    is added to the scores."""
    from ... import cast
    if attn_mask is None:
        return None
    if attn_mask.dtype.name == "bool" or "int" in attn_mask.dtype.name:
        keep = cast(attn_mask, dtype)
        return (keep - 1.0) * 1e9
    if attn_mask.dtype.name != dtype:
        return cast(attn_mask, dtype)
    return attn_mask


def _convert_param_attr_to_list(param_attr, n):
    """One attr per sub-layer, as Paddle's: a list of n (True: a default attr, False: none), a bool for all n, or
    one attr copied n times (a named one named `<name>_<i>`)."""
    if isinstance(param_attr, (list, tuple)):
        if len(param_attr) != n:
            raise AssertionError(f"length of param_attr should be {n} when it is a list/tuple")
        return [(ParamAttr._to_attr(None) if attr else False) if isinstance(attr, bool) else ParamAttr._to_attr(attr)
                for attr in param_attr]
    if isinstance(param_attr, bool):
        return [ParamAttr._to_attr(None) for _ in range(n)] if param_attr else [False] * n
    attr = ParamAttr._to_attr(param_attr)
    attrs = []
    for i in range(n):
        attr_i = copy.deepcopy(attr)
        if attr.name:
            attr_i.name = f"{attr_i.name}_{i}"
        attrs.append(attr_i)
    return attrs


def _param_attrs(attr, n, api, arg):
    """_convert_param_attr_to_list, with an error naming the API and argument for a list of another length."""
    if isinstance(attr, (list, tuple)) and len(attr) != n:
        raise ValueError(f"{api}: {arg} must be one attr or a list of {n} attrs, received a list of {len(attr)}")
    return _convert_param_attr_to_list(attr, n)


class MultiHeadAttention(Layer):
    """Scaled dot-product attention over `num_heads` heads of size embed_dim // num_heads.

    forward(query, key=None, value=None, attn_mask=None, cache=None); inputs are [batch, seq, embed].
    `cache` is a MultiHeadAttention.Cache (keys/values of earlier steps, for incremental decoding) or
    a StaticCache (precomputed keys/values); with a Cache the updated cache is returned too.
    """

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(self, embed_dim, num_heads, dropout=0.0, kdim=None, vdim=None, need_weights=False,
                 weight_attr=None, bias_attr=None):
        super().__init__()
        if not isinstance(embed_dim, int) or embed_dim <= 0:
            raise ValueError(f"MultiHeadAttention: embed_dim must be a positive int, received {embed_dim!r}")
        if not isinstance(num_heads, int) or num_heads <= 0:
            raise ValueError(f"MultiHeadAttention: num_heads must be a positive int, received {num_heads!r}")
        if embed_dim % num_heads:
            raise ValueError(f"MultiHeadAttention: embed_dim ({embed_dim}) must be divisible by num_heads "
                             f"({num_heads})")
        self.embed_dim = embed_dim
        self.kdim = kdim or embed_dim
        self.vdim = vdim or embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.need_weights = need_weights
        self.head_dim = embed_dim // num_heads
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _heads(self, x):
        x = _t.manipulation.reshape(x, [0, 0, self.num_heads, self.head_dim])
        return _t.manipulation.transpose(x, [0, 2, 1, 3])

    def compute_kv(self, key, value):
        return self._heads(self.k_proj(key)), self._heads(self.v_proj(value))

    def gen_cache(self, key, value=None, type=None):
        """A StaticCache of projected key/value, or an empty Cache to grow during decoding."""
        type = type or MultiHeadAttention.Cache
        if type is MultiHeadAttention.StaticCache:
            k, v = self.compute_kv(key, key if value is None else value)
            return self.StaticCache(k, v)
        if value is None:  # an empty incremental cache shaped like `key`'s batch
            from ... import zeros
            shape = [key.shape[0], self.num_heads, 0, self.head_dim]
            return self.Cache(zeros(shape, dtype=key.dtype), zeros(shape, dtype=key.dtype))
        return self.Cache(key, value)

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        from ... import concat
        key = query if key is None else key
        value = query if value is None else value
        # on a GPU the fused attention op (F.scaled_dot_product_attention's), straight on [batch, seq, heads, dim]
        fused = not self.need_weights and _attention.fused_applies(query, attn_mask)
        q = _t.manipulation.reshape(self.q_proj(query), [0, 0, self.num_heads, self.head_dim])
        if not fused:
            q = _t.manipulation.transpose(q, [0, 2, 1, 3])
        if isinstance(cache, self.StaticCache):
            k, v = cache.k, cache.v
        else:
            k, v = self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k = concat([cache.k, k], axis=2)
            v = concat([cache.v, v], axis=2)
            cache = self.Cache(k, v)
        elif cache is not None and not isinstance(cache, self.StaticCache):
            raise TypeError(f"MultiHeadAttention: cache must be a MultiHeadAttention.Cache or StaticCache, "
                            f"received {type(cache).__name__}")
        if fused:  # k, v stay in Paddle's cache layout [batch, heads, seq, dim]: the op reads them through views
            out, weights = _attention.flash(q, _t.manipulation.transpose(k, [0, 2, 1, 3]),
                                            _t.manipulation.transpose(v, [0, 2, 1, 3]),
                                            _convert_attention_mask(attn_mask, q.dtype.name), self.dropout, training=self.training)
        else:
            out, weights = self._attend(q, k, v, attn_mask)
        out = _t.manipulation.reshape(out, [0, 0, self.embed_dim])
        out = self.out_proj(out)
        outs = [out]
        if self.need_weights:
            outs.append(weights)
        if cache is not None:  # a StaticCache comes back unchanged, as in Paddle
            outs.append(cache)
        return out if len(outs) == 1 else tuple(outs)

    def _attend(self, q, k, v, attn_mask):
        """The unfused attention over [batch, heads, seq, dim] heads (Paddle's ops, in its order): (out [batch, seq,
        heads, dim], weights)."""
        q = _t.math.scale(q, self.head_dim ** -0.5)
        product = _t.math.matmul(q, k, transpose_y=True)
        bias = _convert_attention_mask(attn_mask, product.dtype.name)
        if bias is not None:
            product = product + bias
        weights = F.softmax(product)
        if self.dropout:
            weights = F.dropout(weights, self.dropout, training=self.training, mode="upscale_in_train")
        out = _t.math.matmul(weights, v)
        return _t.manipulation.transpose(out, [0, 2, 1, 3]), weights


class _TransformerBlock(Layer):
    """What the encoder and decoder layers share: attention sublayers (`attentions` names them, in order), then
    a feed-forward block, each with residual + dropout + LayerNorm. weight_attr/bias_attr: one attr, or one per
    attention plus one for the feed-forward block. `_config` keeps the arguments (stacks copy layers with it)."""

    def __init__(self, attentions, d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout,
                 normalize_before, weight_attr, bias_attr, layer_norm_eps):
        self._config = dict(d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward, dropout=dropout,
                            activation=activation, attn_dropout=attn_dropout, act_dropout=act_dropout,
                            normalize_before=normalize_before, weight_attr=weight_attr, bias_attr=bias_attr,
                            layer_norm_eps=layer_norm_eps)
        super().__init__()
        api = type(self).__name__
        if activation not in ("relu", "gelu"):
            raise ValueError(f"{api}: activation must be 'relu' or 'gelu', received {activation!r}")
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        n = len(attentions)
        w = _param_attrs(weight_attr, n + 1, api, "weight_attr")
        b = _param_attrs(bias_attr, n + 1, api, "bias_attr")
        for i, name in enumerate(attentions):
            setattr(self, name, MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=w[i],
                                                   bias_attr=b[i]))
        self.linear1 = Linear(d_model, dim_feedforward, w[n], bias_attr=b[n])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, w[n], bias_attr=b[n])
        for i in range(1, n + 2):
            setattr(self, f"norm{i}", LayerNorm(d_model, layer_norm_eps))
        for i in range(1, n + 2):
            setattr(self, f"dropout{i}", Dropout(dropout, mode="upscale_in_train"))
        self.activation = getattr(F, activation)

    def _sublayer(self, x, norm, dropout, fn):
        """residual + dropout(fn(x)), normalised before fn (pre-norm) or after the sum (post-norm)."""
        out = fn(norm(x) if self.normalize_before else x)
        out = x + dropout(out)
        return out if self.normalize_before else norm(out)

    def _feed_forward(self, x):
        return self.linear2(self.dropout(self.activation(self.linear1(x))))


class TransformerEncoderLayer(_TransformerBlock):
    """Self-attention then a feed-forward block, each with residual + LayerNorm (post-norm by default)."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None, layer_norm_eps=1e-5):
        super().__init__(("self_attn",), d_model, nhead, dim_feedforward, dropout, activation, attn_dropout,
                         act_dropout, normalize_before, weight_attr, bias_attr, layer_norm_eps)

    def forward(self, src, src_mask=None, cache=None):
        """cache: the self-attention's incremental Cache (gen_cache); with it the updated one is returned too."""
        caches = []

        def attend(x):
            if cache is None:
                return self.self_attn(x, x, x, src_mask)
            out, new = self.self_attn(x, x, x, src_mask, cache)
            caches.append(new)
            return out

        src = self._sublayer(src, self.norm1, self.dropout1, attend)
        src = self._sublayer(src, self.norm2, self.dropout2, self._feed_forward)
        return src if cache is None else (src, caches[0])

    def gen_cache(self, src):
        return self.self_attn.gen_cache(src, type=MultiHeadAttention.Cache)


class TransformerEncoder(Layer):
    """`num_layers` encoder layers: the given one, then fresh copies of it (same config, new parameters)."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        if not isinstance(encoder_layer, TransformerEncoderLayer):
            raise TypeError(f"TransformerEncoder: encoder_layer must be a TransformerEncoderLayer, received "
                            f"{type(encoder_layer).__name__}")
        if not isinstance(num_layers, int) or num_layers <= 0:
            raise ValueError(f"TransformerEncoder: num_layers must be a positive int, received {num_layers!r}")
        layers = [encoder_layer]
        for _ in range(num_layers - 1):
            layers.append(type(encoder_layer)(**copy.copy(encoder_layer._config)))
        self.layers = LayerList(layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src, src_mask=None, cache=None):
        output = src
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, src_mask=src_mask)
            else:
                output, c = layer(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src):
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(_TransformerBlock):
    """Self-attention, cross-attention over `memory`, then a feed-forward block, each with residual + LayerNorm
    (post-norm by default). weight_attr/bias_attr: one attr, or 3 (self-attention, cross-attention, FFN)."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None, layer_norm_eps=1e-5):
        super().__init__(("self_attn", "cross_attn"), d_model, nhead, dim_feedforward, dropout, activation,
                         attn_dropout, act_dropout, normalize_before, weight_attr, bias_attr, layer_norm_eps)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        """cache: (incremental Cache of the self-attention, StaticCache of the cross-attention) from gen_cache;
        with a cache the updated one is returned too."""
        caches = []

        def attend(attn, key, mask, index):
            def run(q):
                if cache is None:
                    return attn(q, key(q), key(q), mask, None)
                out, new = attn(q, key(q), key(q), mask, cache[index])
                caches.append(new)
                return out
            return run

        tgt = self._sublayer(tgt, self.norm1, self.dropout1, attend(self.self_attn, lambda q: q, tgt_mask, 0))
        tgt = self._sublayer(tgt, self.norm2, self.dropout2,
                             attend(self.cross_attn, lambda q: memory, memory_mask, 1))
        tgt = self._sublayer(tgt, self.norm3, self.dropout3, self._feed_forward)
        return tgt if cache is None else (tgt, tuple(caches))

    def gen_cache(self, memory):
        """(an empty incremental Cache for the self-attention, the cross-attention's StaticCache of memory)."""
        return (self.self_attn.gen_cache(memory, type=MultiHeadAttention.Cache),
                self.cross_attn.gen_cache(memory, memory, type=MultiHeadAttention.StaticCache))


class TransformerDecoder(Layer):
    """`num_layers` decoder layers: the given one, then fresh copies of it (same config, new parameters)."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        if not isinstance(decoder_layer, TransformerDecoderLayer):
            raise TypeError(f"TransformerDecoder: decoder_layer must be a TransformerDecoderLayer, received "
                            f"{type(decoder_layer).__name__}")
        if not isinstance(num_layers, int) or num_layers <= 0:
            raise ValueError(f"TransformerDecoder: num_layers must be a positive int, received {num_layers!r}")
        self.layers = LayerList([decoder_layer] + [type(decoder_layer)(**copy.copy(decoder_layer._config))
                                                   for _ in range(num_layers - 1)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        output = tgt
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)
            else:
                output, c = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory, do_zip=False):
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


def _split_attrs(attr, api, arg):
    """Transformer's weight_attr/bias_attr -> (the encoder layers' 2, the decoder layers' 3), as Paddle splits
    a list of 1, 2 or 3."""
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return list(attr), [attr[0], attr[0], attr[-1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], list(attr)
    # AssertionError, as Paddle raises
    raise AssertionError(f"{api}: {arg} must hold 1, 2 or 3 attrs when it is a list/tuple, received {len(attr)}")


class Transformer(Layer):
    """Encoder-decoder Transformer (each stack ends in a LayerNorm); custom_encoder/custom_decoder replace them."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation="relu", attn_dropout=None, act_dropout=None, normalize_before=False,
                 weight_attr=None, bias_attr=None, custom_encoder=None, custom_decoder=None):
        super().__init__()
        enc_w, dec_w = _split_attrs(weight_attr, "Transformer", "weight_attr")
        enc_b, dec_b = _split_attrs(bias_attr, "Transformer", "bias_attr")
        args = (d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout, normalize_before)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(TransformerEncoderLayer(*args, enc_w, enc_b), num_encoder_layers,
                                              LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(TransformerDecoderLayer(*args, dec_w, dec_b), num_decoder_layers,
                                              LayerNorm(d_model))
        self.d_model = d_model
        self.nhead = nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None):
        memory = self.encoder(src, src_mask=src_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length):
        """[length, length]: 0 on and below the diagonal, -inf above (a position sees itself and earlier ones)."""
        n = int(length.item()) if hasattr(length, "item") else int(length)
        return _t.triu(_t.full([n, n], float("-inf"), dtype=_dtype.get_default_dtype()), 1)
