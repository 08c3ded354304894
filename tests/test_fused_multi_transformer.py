"""paddle.incubate.nn.functional.fused_multi_transformer and paddle.incubate.nn.FusedMultiTransformer against a
NumPy transcription of the baseline of Paddle's test_fused_multi_transformer_op.py (PaddlePaddle/Paddle,
Apache-2.0): per layer [layer_norm ->] q, k, v -> softmax(q k^T / sqrt(head_dim) + attn_mask) v (a cache's steps
before the new k, v) -> out linear -> + residual [-> layer_norm], then [ffn layer_norm ->] ffn1 -> activation ->
ffn2 -> + residual [-> ffn layer_norm]; the cache's k in Paddle's blocked layout, read as that test reads it. Paddle's
kernel is GPU-only, so the layer's parameters (names, shapes, dtypes) and its wrapper's argument checks are compared
with real Paddle."""
import math

import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.incubate.nn.functional as IF
from paddlelite.incubate.nn import FusedMultiTransformer
from tests.differential import differential, raises, run_static

B, S, H, D, FF, LAYERS = 2, 3, 2, 8, 12, 2  # head_dim 8: two blocks of X in the cache k
E = H * D
X = 4  # float32 elements of a 16-byte vector: Paddle's cache k is [batch, heads, head_dim / X, max_seq_len, X]
_erf = np.vectorize(math.erf)


def _ln(x, g, b):
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * g + b


def _softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _params(seed, layers=LAYERS):
    r = np.random.default_rng(seed)

    def w(*shape, scale=0.3):
        return (r.standard_normal(shape) * scale).astype("float32")
    return [{"ln_scale": 1 + w(E), "ln_bias": w(E), "qkv_weight": w(3, H, D, E), "qkv_bias": w(3, H, D),
             "linear_weight": w(E, E), "linear_bias": w(E), "ffn_ln_scale": 1 + w(E), "ffn_ln_bias": w(E),
             "ffn1_weight": w(E, FF), "ffn1_bias": w(FF), "ffn2_weight": w(FF, E), "ffn2_bias": w(E)}
            for _ in range(layers)]


def _reference(x, params, pre, mask=None, past=None, activation="gelu"):
    """(out, [(k, v) [batch, heads, steps, head_dim] of each layer]); past: each layer's cached (k, v)."""
    act = (lambda a: 0.5 * a * (1 + _erf(a / np.sqrt(2)))) if activation == "gelu" else (lambda a: np.maximum(a, 0))
    kvs = []
    for i, p in enumerate(params):
        h = _ln(x, p["ln_scale"], p["ln_bias"]) if pre else x
        qkv = np.einsum("bse,thde->tbhsd", h, p["qkv_weight"]) + p["qkv_bias"][:, None, :, None]
        q, k, v = qkv
        if past is not None:
            k, v = np.concatenate([past[i][0], k], 2), np.concatenate([past[i][1], v], 2)
        kvs.append((k, v))
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D) + (0 if mask is None else mask)
        context = (_softmax(scores) @ v).transpose(0, 2, 1, 3).reshape(x.shape[0], -1, E)
        out = x + context @ p["linear_weight"] + p["linear_bias"]
        attn = out if pre else _ln(out, p["ln_scale"], p["ln_bias"])
        h = _ln(attn, p["ffn_ln_scale"], p["ffn_ln_bias"]) if pre else attn
        out = attn + act(h @ p["ffn1_weight"] + p["ffn1_bias"]) @ p["ffn2_weight"] + p["ffn2_bias"]
        x = out if pre else _ln(out, p["ffn_ln_scale"], p["ffn_ln_bias"])
    return x, kvs


def _lists(params, wrap=paddle.to_tensor):
    return [[wrap(p[name]) for p in params] for name in (
        "ln_scale", "ln_bias", "qkv_weight", "qkv_bias", "linear_weight", "linear_bias", "ffn_ln_scale",
        "ffn_ln_bias", "ffn1_weight", "ffn1_bias", "ffn2_weight", "ffn2_bias")]


def _causal(steps):
    return ((np.tril(np.ones((steps, steps))) - 1) * 1e4).astype("float32")[None, None]


def _blocked_k(cache):
    """The keys [batch, heads, steps, head_dim] of a cache k buffer in Paddle's blocked layout, as Paddle's test
    reads them."""
    b, h, steps, d = cache.shape
    return cache.reshape(b, h, d // X, steps, X).transpose(0, 1, 3, 2, 4).reshape(b, h, steps, d)


@pytest.mark.parametrize("pre, activation", [(True, "gelu"), (False, "relu")])
def test_layers_match_reference(pre, activation):
    params = _params(0)
    x = np.random.default_rng(1).standard_normal((B, S, E)).astype("float32")
    out = IF.fused_multi_transformer(paddle.to_tensor(x), *_lists(params), pre_layer_norm=pre,
                                     attn_mask=paddle.to_tensor(_causal(S)), activation=activation)
    np.testing.assert_allclose(out.numpy(), _reference(x, params, pre, _causal(S), activation=activation)[0],
                               rtol=1e-4, atol=1e-5)


def test_trans_qkvw_false_and_static_mode():
    params = _params(2)
    x = np.random.default_rng(3).standard_normal((B, S, E)).astype("float32")
    expected = _reference(x, params, True)[0]

    def build():
        lists = _lists(params, paddle.assign)
        lists[2] = [paddle.transpose(w, [3, 0, 1, 2]) for w in lists[2]]  # [embed, 3, heads, head_dim]
        return [IF.fused_multi_transformer(paddle.static.data("x", [B, S, E], "float32"), *lists, trans_qkvw=False)]
    try:
        (got,) = run_static(paddle, build, {"x": x})
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


def test_context_stage_then_decoding_steps_equal_causal_attention():
    params = _params(4)
    steps, max_len = 5, 8
    xs = np.random.default_rng(5).standard_normal((B, steps, E)).astype("float32")
    caches = [paddle.zeros([2, B, H, max_len, D]) for _ in range(LAYERS)]
    context, returned = IF.fused_multi_transformer(paddle.to_tensor(xs[:, :S]), *_lists(params), cache_kvs=caches,
                                                   attn_mask=paddle.to_tensor(_causal(S)))
    assert returned is caches
    outs = [context.numpy()]
    for t in range(S, steps):
        out, _ = IF.fused_multi_transformer(
            paddle.to_tensor(xs[:, t:t + 1]), *_lists(params), cache_kvs=caches, time_step=paddle.to_tensor([t], "int32"),
            attn_mask=paddle.zeros([B, 1, 1, t + 1]))
        outs.append(out.numpy())
    expected, kvs = _reference(xs, params, True, _causal(steps))
    np.testing.assert_allclose(np.concatenate(outs, 1), expected, rtol=1e-4, atol=1e-5)
    for cache, (k, v) in zip(caches, kvs):  # the cache as Paddle's test reads it
        np.testing.assert_allclose(_blocked_k(cache.numpy()[0])[:, :, :steps], k, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(cache.numpy()[1, :, :, :steps], v, rtol=1e-4, atol=1e-5)
        np.testing.assert_array_equal(_blocked_k(cache.numpy()[0])[:, :, steps:], 0)
        np.testing.assert_array_equal(cache.numpy()[1, :, :, steps:], 0)


def test_decoding_step_on_a_prefilled_cache_with_mask():
    """Paddle's TestFusedMultiTransformerOpCacheKV: a random cache of cache_length steps laid out blocked, one new
    token at time_step = cache_length, the mask hiding the step before it."""
    params = _params(6)
    r = np.random.default_rng(7)
    cache_length, max_len = 4, 8
    past = [(r.standard_normal((B, H, cache_length, D)).astype("float32"),
             r.standard_normal((B, H, cache_length, D)).astype("float32")) for _ in range(LAYERS)]
    caches = []
    for k, v in past:
        buffer = np.zeros((2, B, H, max_len, D), "float32")
        buffer[0].reshape(B, H, D // X, max_len, X)[:, :, :, :cache_length] = \
            k.reshape(B, H, cache_length, D // X, X).transpose(0, 1, 3, 2, 4)
        buffer[1, :, :, :cache_length] = v
        caches.append(paddle.to_tensor(buffer))
    mask = np.zeros((B, 1, 1, cache_length + 1), "float32")
    mask[..., -2] = -1e4
    x = r.standard_normal((B, 1, E)).astype("float32")
    out, _ = IF.fused_multi_transformer(paddle.to_tensor(x), *_lists(params), pre_layer_norm=False, cache_kvs=caches,
                                        time_step=paddle.to_tensor([cache_length], "int32"),
                                        attn_mask=paddle.to_tensor(mask))
    expected, kvs = _reference(x, params, False, mask, past)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-4, atol=1e-5)
    for cache, (k, v) in zip(caches, kvs):
        np.testing.assert_allclose(_blocked_k(cache.numpy()[0])[:, :, :cache_length + 1], k, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(cache.numpy()[1, :, :, :cache_length + 1], v, rtol=1e-5, atol=1e-6)


def test_static_decoding_step_updates_the_fed_caches_as_eager():
    params = _params(11)
    r = np.random.default_rng(12)
    x = r.standard_normal((B, 1, E)).astype("float32")
    cache = r.standard_normal((2, B, H, 8, D)).astype("float32")

    def build():
        caches = [paddle.static.data(f"cache{i}", cache.shape, "float32") for i in range(LAYERS)]
        out, caches = IF.fused_multi_transformer(paddle.static.data("x", [B, 1, E], "float32"),
                                                 *_lists(params, paddle.assign), cache_kvs=caches,
                                                 time_step=paddle.static.data("t", [1], "int32"))
        return [out, *caches]
    try:
        got = run_static(paddle, build, {"x": x, "t": np.array([3], "int32"),
                                         **{f"cache{i}": cache for i in range(LAYERS)}})
    finally:
        paddle.disable_static()
    caches = [paddle.to_tensor(cache.copy()) for _ in range(LAYERS)]
    out, _ = IF.fused_multi_transformer(paddle.to_tensor(x), *_lists(params), cache_kvs=caches,
                                       time_step=paddle.to_tensor([3], "int32"))
    np.testing.assert_allclose(got[0], out.numpy(), rtol=1e-5, atol=1e-6)
    for fetched, written in zip(got[1:], caches):
        np.testing.assert_allclose(fetched, written.numpy(), rtol=1e-5, atol=1e-6)
    assert not np.allclose(got[1], cache)


def test_layer_parameters_load_and_run():
    layer = FusedMultiTransformer(E, H, FF, num_layers=LAYERS, ln_bias_attrs=True, qkv_bias_attrs=True,
                                  linear_bias_attrs=True, ffn_ln_bias_attrs=True, ffn1_bias_attrs=True,
                                  ffn2_bias_attrs=True)
    params = _params(8)
    names = ["ln_scale", "ln_bias", "qkv_weight", "qkv_bias", "linear_weight", "linear_bias", "ffn_ln_scale",
             "ffn_ln_bias", "ffn1_weight", "ffn1_bias", "ffn2_weight", "ffn2_bias"]
    keys = list(layer.state_dict())
    assert len(keys) == 12 * LAYERS
    layer.set_state_dict(dict(zip(keys, [p[n] for p in params for n in names])))
    layer.eval()
    x = np.random.default_rng(9).standard_normal((B, S, E)).astype("float32")
    out = layer(paddle.to_tensor(x), attn_mask=paddle.to_tensor(_causal(S)))
    np.testing.assert_allclose(out.numpy(), _reference(x, params, True, _causal(S))[0], rtol=1e-4, atol=1e-5)
    with pytest.raises(NotImplementedError, match="rotary_embs"):
        layer(paddle.to_tensor(x), rotary_embs=paddle.zeros([2, B, 1, S, D]), rotary_emb_dims=1)


@differential()
def test_layer_state_dict_as_paddle(paddle):
    default = paddle.incubate.nn.FusedMultiTransformer(8, 2, 16, num_layers=2)
    with_bias = paddle.incubate.nn.FusedMultiTransformer(8, 2, 16, num_layers=1, ln_bias_attrs=True,
                                                         qkv_bias_attrs=True, ffn1_bias_attrs=True, trans_qkvw=False)
    return {name: [(key, list(value.shape), value.dtype) for key, value in layer.state_dict().items()]
            for name, layer in (("default", default), ("with_bias", with_bias))} | {
                "none": [default.ln_biases is None, default.qkv_biases is None, with_bias.linear_biases is None]}


@differential(expected=raises(ValueError))
def test_bad_mode(paddle):
    x = paddle.ones([1, 2, 8])
    w = [paddle.ones([8])]
    paddle.incubate.nn.functional.fused_multi_transformer(x, w, w, [paddle.ones([3, 2, 4, 8])], None,
                                                          [paddle.ones([8, 8])], None, w, w, [paddle.ones([8, 8])],
                                                          None, [paddle.ones([8, 8])], None, mode="bad")


def test_bad_input():
    params = _params(10, layers=1)
    lists = _lists(params)
    x = paddle.ones([B, S, E])
    with pytest.raises(ValueError, match="x must be 3-D"):
        IF.fused_multi_transformer(paddle.ones([S, E]), *lists)
    with pytest.raises(ValueError, match="ffn1_weights must hold one tensor per layer"):
        IF.fused_multi_transformer(x, *lists[:8], lists[8] * 2, *lists[9:])
    with pytest.raises(ValueError, match="each cache_kvs tensor must be"):
        IF.fused_multi_transformer(x, *lists, cache_kvs=[paddle.zeros([2, B, H, 8, D + 1])])
    with pytest.raises(ValueError, match="takes one token per sequence"):
        IF.fused_multi_transformer(x, *lists, cache_kvs=[paddle.zeros([2, B, H, 8, D])],
                                   time_step=paddle.to_tensor([2], "int32"))
    with pytest.raises(NotImplementedError, match="'pre_caches' is not supported"):
        IF.fused_multi_transformer(x, *lists, pre_caches=[paddle.zeros([2, B, H, 2, D])])
