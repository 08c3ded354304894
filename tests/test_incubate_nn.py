"""paddle.incubate.nn(.functional): the fused blocks against real Paddle 3.3.1 where its CPU build has kernels
(fused_rms_norm, fused_layer_norm, fused_dropout_add, swiglu), and against NumPy references where Paddle's are
GPU-only."""
import numpy as np
import pytest

from tests.differential import differential

G = np.random.default_rng(0)
X = G.uniform(-1, 1, (2, 4, 8)).astype("float32")
R = G.uniform(-1, 1, (2, 4, 8)).astype("float32")
W8, B8, BIAS = (G.uniform(0.5, 1.5, 8).astype("float32") for _ in range(3))


@differential(rtol=1e-5, atol=1e-5)
def test_fused_norms(paddle):
    F = paddle.incubate.nn.functional
    x, r = paddle.to_tensor(X), paddle.to_tensor(R)
    w, b, bias = paddle.to_tensor(W8), paddle.to_tensor(B8), paddle.to_tensor(BIAS)
    return {"rms": F.fused_rms_norm(x, w, b, 1e-5, 2), "rms_res": F.fused_rms_norm(x, w, None, 1e-6, 2, bias, r),
            "rms_axis1": F.fused_rms_norm(x, paddle.ones([32]), None, 1e-5, 1)[0],
            "ln": F.fused_layer_norm(x, w, b, 1e-5, begin_norm_axis=2)[0::2],
            "ln_res": F.fused_layer_norm(x, w, b, 1e-5, 0.5, 2, bias, r)}


@differential()
def test_fused_dropout_add_and_swiglu(paddle):
    F = paddle.incubate.nn.functional
    x, y = paddle.to_tensor(X), paddle.to_tensor(R)
    layer = paddle.incubate.nn.FusedDropoutAdd(0.3)
    layer.eval()
    return {"eval": F.fused_dropout_add(x, y, 0.3, training=False), "p0": F.fused_dropout_add(x, y, 0.0),
            "downscale": F.fused_dropout_add(x, y, 0.25, False, "downscale_in_infer"), "layer": layer(x, y),
            "swiglu": F.swiglu(x), "swiglu2": F.swiglu(x, y)}


def _lite():
    import paddlelite
    return paddlelite


def _gelu_tanh(h):
    return 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))


def test_matmul_family_and_bias_act():
    paddle = _lite()
    F = paddle.incubate.nn.functional
    x, w, b = X.reshape(8, 8), G.uniform(-1, 1, (8, 6)).astype("float32"), G.uniform(-1, 1, 6).astype("float32")
    t = paddle.to_tensor
    np.testing.assert_allclose(F.fused_matmul_bias(t(x), t(w), t(b)).numpy(), x @ w + b, rtol=1e-5)
    np.testing.assert_allclose(F.fused_matmul_bias(t(x.T), t(w.T), None, True, True).numpy(), (x @ w), rtol=1e-5)
    np.testing.assert_allclose(F.fused_linear(t(x), t(w.T), t(b), transpose_weight=True).numpy(), x @ w + b, rtol=1e-5)
    np.testing.assert_allclose(F.fused_linear_activation(t(x), t(w), t(b), activation="relu").numpy(),
                               np.maximum(x @ w + b, 0), rtol=1e-5)
    np.testing.assert_allclose(F.fused_linear_activation(t(x), t(w), t(b), activation="gelu").numpy(),
                               _gelu_tanh(x @ w + b), rtol=1e-5, atol=1e-6)
    h = X + BIAS
    np.testing.assert_allclose(F.fused_bias_act(t(X), t(BIAS), act_method="relu").numpy(), np.maximum(h, 0))
    silu = h[..., :4] / (1 + np.exp(-h[..., :4]))
    np.testing.assert_allclose(F.fused_bias_act(t(X), t(BIAS), act_method="swiglu").numpy(), silu * h[..., 4:],
                               rtol=1e-5)
    with pytest.raises(ValueError, match="act_method"):
        F.fused_bias_act(t(X), act_method="mish")
    layer = paddle.incubate.nn.FusedLinear(8, 6)
    assert list(layer(t(x)).shape) == [8, 6] and list(layer.weight.shape) == [8, 6]


def _rotary_reference(x, neox, base=10000.0):
    """Rotary embedding of x [batch, seq, heads, dim] in NumPy, position p rotating pair i by p / base^(2i/dim)."""
    _, seq, _, dim = x.shape
    angle = np.arange(seq)[:, None] / base ** (np.arange(0, dim, 2) / dim)            # [seq, dim/2]
    sin, cos = np.sin(angle)[None, :, None], np.cos(angle)[None, :, None]
    if neox:
        a, b = x[..., :dim // 2], x[..., dim // 2:]
        return np.concatenate([a * cos - b * sin, b * cos + a * sin], -1)
    a, b = x[..., 0::2], x[..., 1::2]
    return np.stack([a * cos - b * sin, b * cos + a * sin], -1).reshape(x.shape)


@pytest.mark.parametrize("neox", [True, False])
def test_rotary_position_embedding(neox):
    paddle = _lite()
    F = paddle.incubate.nn.functional
    q, k = G.uniform(-1, 1, (2, 5, 3, 8)).astype("float32"), G.uniform(-1, 1, (2, 5, 3, 8)).astype("float32")
    out_q, out_k, out_v = F.fused_rotary_position_embedding(paddle.to_tensor(q), paddle.to_tensor(k),
                                                            use_neox_rotary_style=neox)
    assert out_v is None
    np.testing.assert_allclose(out_q.numpy(), _rotary_reference(q, neox), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out_k.numpy(), _rotary_reference(k, neox), rtol=1e-5, atol=1e-6)
    positions = paddle.to_tensor(np.array([[4, 3, 2, 1, 0]] * 2))   # position_ids pick the table's rows
    (moved,) = [t for t in F.fused_rotary_position_embedding(paddle.to_tensor(q[:, ::-1].copy()),
                                                             position_ids=positions, use_neox_rotary_style=neox)
                if t is not None]
    np.testing.assert_allclose(moved.numpy()[:, ::-1], _rotary_reference(q, neox), rtol=1e-5, atol=1e-6)


def _layer_norm(h, eps=1e-5):
    return (h - h.mean(-1, keepdims=True)) / np.sqrt(h.var(-1, keepdims=True) + eps)


def test_feedforward_and_residual_layer_norm():
    paddle = _lite()
    F = paddle.incubate.nn.functional
    w1, w2 = G.uniform(-1, 1, (8, 16)).astype("float32"), G.uniform(-1, 1, (16, 8)).astype("float32")
    t = paddle.to_tensor
    post = F.fused_feedforward(t(X), t(w1), t(w2), dropout1_rate=0, dropout2_rate=0).numpy()
    np.testing.assert_allclose(post, _layer_norm(X + np.maximum(X @ w1, 0) @ w2), rtol=1e-4, atol=1e-5)
    pre = F.fused_feedforward(t(X), t(w1), t(w2), dropout1_rate=0, dropout2_rate=0, pre_layer_norm=True,
                              activation="gelu", add_residual=False).numpy()
    h = _layer_norm(X) @ w1
    np.testing.assert_allclose(pre, (0.5 * h * (1 + np.vectorize(__import__("math").erf)(h / np.sqrt(2)))) @ w2,
                               rtol=1e-4, atol=1e-5)
    out = F.fused_bias_dropout_residual_layer_norm(t(X), t(R), t(BIAS), t(W8), t(B8), dropout_rate=0).numpy()
    np.testing.assert_allclose(out, _layer_norm(R + X + BIAS) * W8 + B8, rtol=1e-4, atol=1e-5)
    layer = paddle.incubate.nn.FusedFeedForward(8, 16, dropout_rate=0.0, normalize_before=True)
    x = t(X, stop_gradient=False)
    layer(x).sum().backward()
    assert x.grad is not None and layer._linear1_weight.grad is not None
    norm = paddle.incubate.nn.FusedBiasDropoutResidualLayerNorm(8, dropout_rate=0.0)
    np.testing.assert_allclose(norm(t(X), t(R)).numpy(), _layer_norm(R + X), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("pre_layer_norm", [False, True])
def test_multi_head_attention(pre_layer_norm):
    paddle = _lite()
    F = paddle.incubate.nn.functional
    qkv_w = G.uniform(-0.5, 0.5, (3, 2, 4, 8)).astype("float32")
    out_w, mask = G.uniform(-0.5, 0.5, (8, 8)).astype("float32"), np.where(G.random((2, 1, 4, 4)) < 0.3, -1e4, 0)
    t = paddle.to_tensor
    got = F.fused_multi_head_attention(t(X), t(qkv_w), t(out_w), pre_layer_norm, attn_mask=t(mask, dtype="float32"),
                                       dropout_rate=0, attn_dropout_rate=0).numpy()
    src = _layer_norm(X) if pre_layer_norm else X
    q, k, v = (np.einsum("bse,hde->bhsd", src, qkv_w[i]) for i in range(3))
    s = q @ k.transpose(0, 1, 3, 2) / 2.0 + mask
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    h = X + (p @ v).transpose(0, 2, 1, 3).reshape(2, 4, 8) @ out_w
    np.testing.assert_allclose(got, h if pre_layer_norm else _layer_norm(h), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("normalize_before", [False, True])
def test_attention_and_encoder_layers(normalize_before):
    paddle = _lite()
    paddle.seed(2)
    inc = paddle.incubate.nn
    attn = inc.FusedMultiHeadAttention(8, 2, dropout_rate=0.0, attn_dropout_rate=0.0, normalize_before=normalize_before)
    x = paddle.to_tensor(X)
    mask = paddle.to_tensor(np.tril(np.ones((4, 4), bool)))
    got = attn(x, attn_mask=mask).numpy()
    w, b = attn.qkv_weight.numpy(), attn.qkv_bias.numpy()
    src = _layer_norm(X) if normalize_before else X
    q, k, v = (np.einsum("bse,hde->bhsd", src, w[i]) + b[i][None, :, None, :] for i in range(3))
    s = q @ k.transpose(0, 1, 3, 2) / 2.0 + np.where(np.tril(np.ones((4, 4))) > 0, 0, -1e9)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    h = X + (p @ v).transpose(0, 2, 1, 3).reshape(2, 4, 8) @ attn.linear_weight.numpy() + attn.linear_bias.numpy()
    np.testing.assert_allclose(got, h if normalize_before else _layer_norm(h), rtol=1e-4, atol=1e-5)
    assert [list(p.shape) for p in attn.parameters()][:2] == [[3, 2, 4, 8], [3, 2, 4]]
    layer = inc.FusedTransformerEncoderLayer(8, 2, 16, dropout_rate=0.0, normalize_before=normalize_before)
    xg = paddle.to_tensor(X, stop_gradient=False)
    out = layer(xg, mask)
    out.sum().backward()
    assert list(out.shape) == [2, 4, 8] and xg.grad is not None and layer.fused_attn.qkv_weight.grad is not None


# fast_ln, fast_rms_norm, fused_rms_norm_ext, int_bincount and blha_get_max_len have only GPU kernels in Paddle 3.3.1:
# their reference is the formula of Paddle's kernels (and, for int_bincount, its math_int_bincount)
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_fast_norms_against_their_formulas(dtype):
    import paddlelite as paddle
    F = paddle.incubate.nn.functional
    rng = np.random.default_rng(3)
    x, w, b = (rng.standard_normal(s).astype("float32") for s in ((2, 3, 8), (8,), (8,)))
    mean = x.mean(-1)
    inv_var = 1 / np.sqrt(x.var(-1) + 1e-5)
    inv_rms = 1 / np.sqrt((x * x).mean(-1) + 1e-5)
    tol = {"rtol": 1e-5, "atol": 1e-5} if dtype == "float32" else {"rtol": 2e-2, "atol": 2e-2}
    xt, wt, bt = (paddle.to_tensor(a).astype(dtype) for a in (x, w, b))
    y, m, iv = F.fast_ln(xt, wt, bt)
    assert y.dtype.name == dtype and m.dtype.name == iv.dtype.name == "float32" and m.shape == [6]
    np.testing.assert_allclose(y.astype("float32").numpy(), (x - mean[..., None]) * inv_var[..., None] * w + b, **tol)
    np.testing.assert_allclose(m.numpy(), mean.ravel(), **tol)
    np.testing.assert_allclose(iv.numpy(), inv_var.ravel(), **tol)
    for fn in (F.fast_rms_norm, F.fused_rms_norm_ext):
        y, iv = fn(xt, wt)
        assert y.dtype.name == dtype and iv.dtype.name == "float32"
        np.testing.assert_allclose(y.astype("float32").numpy(), x * inv_rms[..., None] * w, **tol)
        np.testing.assert_allclose(iv.numpy(), inv_rms.ravel(), **tol)


def test_fast_rms_norm_gradient():
    import paddlelite as paddle
    x = paddle.to_tensor(np.linspace(-1, 2, 8, dtype="float64").reshape(2, 4), stop_gradient=False)
    w = paddle.to_tensor([1.0, 0.5, 2.0, -1.0], dtype="float64", stop_gradient=False)
    (y, _) = paddle.incubate.nn.functional.fast_rms_norm(x, w)
    (y * y).sum().backward()
    xn, wn = x.numpy(), w.numpy()

    def loss(a, v):
        return float((((a / np.sqrt((a * a).mean(-1, keepdims=True) + 1e-5)) * v) ** 2).sum())
    h = 1e-6
    numeric = np.zeros_like(xn)
    for i in np.ndindex(xn.shape):
        d = np.zeros_like(xn)
        d[i] = h
        numeric[i] = (loss(xn + d, wn) - loss(xn - d, wn)) / (2 * h)
    np.testing.assert_allclose(x.grad.numpy(), numeric, rtol=1e-5, atol=1e-7)


def test_int_bincount_and_blha_get_max_len():
    import paddlelite as paddle
    F = paddle.incubate.nn.functional
    ids = np.array([[1, 3, 9], [3, 0, 4]])
    got = F.int_bincount(paddle.to_tensor(ids), 1, 5, "int32")
    assert got.dtype.name == "int32"
    np.testing.assert_array_equal(got.numpy(), [np.sum(ids == v) for v in range(1, 5)])
    assert F.int_bincount(paddle.to_tensor(ids), 0, 3).dtype.name == "int64"
    with pytest.raises(ValueError, match="high"):
        F.int_bincount(paddle.to_tensor(ids), 3, 1)
    with pytest.raises(ValueError, match="int32 or int64"):
        F.int_bincount(paddle.to_tensor([1.0]), 0, 2)
    enc, dec = F.blha_get_max_len(paddle.to_tensor([3, 0, 9], "int32"), paddle.to_tensor([0, 7, 20], "int32"),
                                  paddle.ones([2]))  # the third sequence is past the batch
    assert enc.dtype.name == "int32" and enc.shape == [1] and (enc.item(), dec.item()) == (3, 7)
    empty = paddle.zeros([0], "int32")
    assert [t.item() for t in F.blha_get_max_len(empty, empty, paddle.ones([2]))] == [0, 0]
