"""unfold / fold, bilinear, alpha dropouts and the Unfold, Fold, Bilinear, CosineSimilarity, Unflatten,
Dropout2D/3D, AlphaDropout, FeatureAlphaDropout layers against real Paddle 3.3.1."""
import numpy as np
import pytest

from tests.differential import differential, raises, run_static

RNG = np.random.default_rng(31)
X = RNG.uniform(-1, 1, (2, 3, 5, 6)).astype("float32")
COLS = RNG.uniform(-1, 1, (2, 12, 20)).astype("float32")
A = RNG.uniform(-1, 1, (4, 2)).astype("float32")
B2 = RNG.uniform(-1, 1, (4, 3)).astype("float32")
W = RNG.uniform(-1, 1, (5, 2, 3)).astype("float32")

CASES = {
    "unfold": lambda F, p, x, c: F.unfold(x, [2, 3]),
    "unfold_stride_pad": lambda F, p, x, c: F.unfold(x, 3, strides=2, paddings=1),
    "unfold_pad4_dilation": lambda F, p, x, c: F.unfold(x, [2, 2], paddings=[1, 0, 2, 1], dilations=[2, 1]),
    "fold": lambda F, p, x, c: F.fold(c, [5, 6], [2, 2]),
    "fold_stride_pad": lambda F, p, x, c: F.fold(p.reshape(c, [2, 12, 20])[:, :, :12], [6, 5], [2, 2], strides=2,
                                                 paddings=1),
    "fold_dilation": lambda F, p, x, c: F.fold(p.reshape(c, [2, 12, 20])[:, :, :12], [5, 5], [2, 2],
                                               dilations=[2, 1], paddings=[0, 0, 0, 0], strides=[1, 2]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_value_and_grad(name):
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        x, c = paddle.to_tensor(X, stop_gradient=False), paddle.to_tensor(COLS, stop_gradient=False)
        out = CASES[name](paddle.nn.functional, paddle, x, c)
        (out * out).sum().backward()
        return {"out": out, "grads": [x.grad, c.grad]}
    body()


@differential(rtol=1e-5, atol=1e-5)
def test_bilinear_and_layers(paddle):
    nn, F = paddle.nn, paddle.nn.functional
    a, b = paddle.to_tensor(A, stop_gradient=False), paddle.to_tensor(B2, stop_gradient=False)
    w = paddle.to_tensor(W, stop_gradient=False)
    bias = paddle.to_tensor(np.arange(5, dtype="float32").reshape(1, 5), stop_gradient=False)
    out = F.bilinear(a, b, w, bias) + F.bilinear(a, b, w)
    layer = nn.Bilinear(2, 3, 5)
    layer.weight.set_value(W)
    x = paddle.to_tensor(X, stop_gradient=False)
    outs = [out, layer(a, b), nn.Unfold([2, 2], strides=2)(x), nn.Fold([5, 6], 2)(paddle.to_tensor(COLS)),
            nn.CosineSimilarity(axis=-1)(a, a * 2 + 1), nn.Unflatten(1, [4, 5])(paddle.reshape(x, [2, 20, 9])),
            nn.Unflatten(-1, (3, 2))(x)]
    sum(o.sum() for o in outs).backward()
    return {"outs": outs, "grads": [a.grad, b.grad, w.grad, bias.grad, layer.weight.grad, layer.bias.grad, x.grad],
            "shapes": [layer.weight.shape, layer.bias.shape], "bias": layer.bias}


@differential(rtol=1e-5, atol=1e-5)
def test_static_program(paddle):

    def build():
        x = paddle.static.data("x", [2, 3, 5, 6], "float32")
        x.stop_gradient = False
        F = paddle.nn.functional
        cols = F.unfold(x, [2, 2], paddings=1)
        outs = [cols, F.fold(cols, [5, 6], [2, 2], paddings=1), F.alpha_dropout(x, 0.3, training=False)]
        (gx,) = paddle.static.gradients(outs[:2], [x])
        return outs + [gx]

    return run_static(paddle, build, {"x": X})


@differential()
def test_alpha_dropout_statistics(paddle):
    F = paddle.nn.functional
    paddle.seed(3)
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((200, 50, 4)).astype("float32"))
    y = F.alpha_dropout(x, 0.2)
    z = F.feature_alpha_dropout(x, 0.5)
    layer = paddle.nn.AlphaDropout(0.4)
    layer.eval()
    feature_rows = paddle.std(z, axis=-1) < 1e-6  # a dropped channel is constant along the last dim
    return {"mean": abs(float(y.mean())) < 0.05, "std": abs(float(y.std()) - 1) < 0.05,
            "f_mean": abs(float(z.mean())) < 0.06, "some_dropped": 0.4 < float(feature_rows.astype("float32").mean()) < 0.6,
            "eval": layer(x), "not_training": F.alpha_dropout(x, 0.9, training=False),
            "p0": F.feature_alpha_dropout(x, 0.0), "repr": [repr(layer), repr(paddle.nn.FeatureAlphaDropout(0.1))]}


@differential()
def test_channel_dropout_layers(paddle):
    paddle.seed(5)
    x = paddle.ones([8, 16, 3, 3])
    d2 = paddle.nn.Dropout2D(0.5)
    y = d2(paddle.ones([8, 16, 3, 3]))
    per_channel = y.reshape([8, 16, 9])
    d3 = paddle.nn.Dropout3D(0.3)
    d3.eval()
    return {"whole_channels": bool((per_channel.max(axis=-1) == per_channel.min(axis=-1)).all()),
            "values": sorted({float(v) for v in y.numpy().reshape(-1)}), "eval": d3(paddle.reshape(x, [8, 16, 3, 3, 1])),
            "repr": [repr(d2), repr(d3), repr(paddle.nn.Dropout2D(0.2, "NHWC"))]}


@pytest.mark.parametrize("call", [
    lambda F, p, x: F.unfold(x, [2, 2], paddings=[1, 1, 1]),
    lambda F, p, x: F.fold(p.reshape(x, [2, 9, 20]), [5, 6], [2, 2]),
    lambda F, p, x: F.alpha_dropout(x, 1.5),
    lambda F, p, x: p.nn.AlphaDropout(-0.1)(x),
])
def test_errors_match(call):
    @differential()
    def body(paddle):
        return call(paddle.nn.functional, paddle, paddle.to_tensor(X))
    body()


Q = RNG.uniform(-1, 1, (2, 5, 4, 8)).astype("float32")
K = RNG.uniform(-1, 1, (2, 6, 2, 8)).astype("float32")
V = RNG.uniform(-1, 1, (2, 6, 2, 8)).astype("float32")
SDPA = {
    "plain": lambda F, p, q, k, v: F.scaled_dot_product_attention(q[:, :, :2], k, v),
    "gqa_scale": lambda F, p, q, k, v: F.scaled_dot_product_attention(q, k, v, scale=0.3),
    "causal": lambda F, p, q, k, v: F.scaled_dot_product_attention(q[:, :, :2], k[:, :5], v[:, :5], is_causal=True),
    "float_mask": lambda F, p, q, k, v: F.scaled_dot_product_attention(
        q, k, v, attn_mask=p.to_tensor(np.linspace(-2, 1, 30).reshape(5, 6).astype("float32"))),
    "bool_mask": lambda F, p, q, k, v: F.scaled_dot_product_attention(
        q[:, :, :2], k, v, attn_mask=p.to_tensor(np.tril(np.ones((5, 6), bool), 1))),
    "unbatched": lambda F, p, q, k, v: F.scaled_dot_product_attention(q[0], k[0], v[0]),
    "eval_dropout": lambda F, p, q, k, v: F.scaled_dot_product_attention(q, k, v, dropout_p=0.5, training=False),
}


@pytest.mark.parametrize("name", list(SDPA))
def test_scaled_dot_product_attention(name):
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        q, k, v = (paddle.to_tensor(a, stop_gradient=False) for a in (Q, K, V))
        out = SDPA[name](paddle.nn.functional, paddle, q, k, v)
        (out * out).sum().backward()
        return {"out": out, "grads": [q.grad, k.grad, v.grad]}
    body()


LP = {
    "lp2": lambda F, p, x: F.lp_pool2d(x, 2, 2),
    "lp3_stride_pad": lambda F, p, x: F.lp_pool2d(p.abs(x) + 0.1, 3, [2, 3], stride=1, padding=1),
    "lp_ceil_nhwc": lambda F, p, x: F.lp_pool2d(p.transpose(x, [0, 2, 3, 1]), 2, 2, ceil_mode=True,
                                               data_format="NHWC"),
    "lp1d": lambda F, p, x: F.lp_pool1d(p.abs(p.reshape(x, [2, 3, 30])) + 0.1, 1.5, 4, 2),
    "lp_layers": lambda F, p, x: p.nn.LPPool2D(2, 3)(x).sum() + p.nn.LPPool1D(4, 3, 1, 1)(
        p.reshape(x, [2, 3, 30])).sum(),
}


@pytest.mark.parametrize("name", list(LP))
def test_lp_pool(name):
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        x = paddle.to_tensor(X, stop_gradient=False)
        out = LP[name](paddle.nn.functional, paddle, x)
        (out * out).sum().backward()
        return {"out": out, "grad": x.grad,
                "repr": [repr(paddle.nn.LPPool2D(2, 3)), repr(paddle.nn.LPPool1D(1.5, 2, 1))]}
    body()


POOL = {
    "k2": dict(kernel_size=2),
    "k3_s2_p1": dict(kernel_size=3, stride=2, padding=1),
    "k2_s1_ceil": dict(kernel_size=[2, 3], stride=[1, 2], ceil_mode=True),
    "k3_ceil_pad": dict(kernel_size=3, stride=2, padding=[1, 0], ceil_mode=True),
}


@pytest.mark.parametrize("name", list(POOL))
def test_max_pool2d_mask_and_unpool(name):
    @differential()
    def body(paddle):
        F = paddle.nn.functional
        x = paddle.to_tensor(X, stop_gradient=False)
        out, mask = F.max_pool2d(x, return_mask=True, **POOL[name])
        unpooled = F.max_unpool2d(out, mask, POOL[name]["kernel_size"], POOL[name].get("stride"),
                                  POOL[name].get("padding", 0), output_size=[5, 6])
        layer = paddle.nn.MaxUnPool2D(POOL[name]["kernel_size"], POOL[name].get("stride"),
                                      POOL[name].get("padding", 0), output_size=[5, 6])
        (out.sum() + (unpooled * unpooled).sum() + layer(out, mask).sum()).backward()
        return {"out": out, "mask": mask, "unpooled": unpooled, "grad": x.grad, "repr": repr(layer)}
    body()


@differential()
def test_max_unpool2d_default_size(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(X[:, :, :4, :6], stop_gradient=False)
    out, mask = F.max_pool2d(x, 2, return_mask=True)
    unpooled = F.max_unpool2d(out, mask, 2)
    unpooled.sum().backward()
    return {"unpooled": unpooled, "grad": x.grad, "repr": repr(paddle.nn.MaxUnPool2D(2))}


@pytest.mark.parametrize("kwargs", [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
                                    dict(kernel_size=2, stride=3, ceil_mode=True)])
def test_max_pool1d_mask_and_unpool(kwargs):
    @differential()
    def body(paddle):
        F = paddle.nn.functional
        x = paddle.to_tensor(X.reshape(2, 3, 30)[:, :, :11], stop_gradient=False)
        out, mask = F.max_pool1d(x, return_mask=True, **kwargs)
        # (default output sizes: Paddle 3.3.1's max_unpool1d rejects an explicit output_size)
        unpooled = F.max_unpool1d(out, mask, kwargs["kernel_size"], kwargs.get("stride"), kwargs.get("padding", 0))
        layer = paddle.nn.MaxUnPool1D(kwargs["kernel_size"], kwargs.get("stride"), kwargs.get("padding", 0))
        (out.sum() + (unpooled * unpooled).sum() + layer(out, mask).sum()).backward()
        return {"out": out, "mask": mask, "unpooled": unpooled, "grad": x.grad}
    body()


@differential(expected={"cols": [[[np.inf, 1.0, 3.0, 4.0], [1.0, 2.0, 4.0, np.nan], [3.0, 4.0, 6.0, 7.0],
                                  [4.0, np.nan, 7.0, 8.0]]],
                        "grad": [[[[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]]],
                        "too_big": "ValueError"})
def test_unfold_keeps_inf_and_nan_in_their_windows(paddle):
    # a gathered tap, not a one-hot conv: an inf or NaN appears only in the windows that contain it
    x = paddle.to_tensor(np.array([[[[np.inf, 1.0, 2.0], [3.0, 4.0, np.nan], [6.0, 7.0, 8.0]]]]), stop_gradient=False)
    cols = paddle.nn.functional.unfold(x, 2)
    cols.sum().backward()
    try:
        paddle.nn.functional.unfold(x, 4)
        too_big = None
    except ValueError as error:
        too_big = type(error).__name__
    return {"cols": cols, "grad": x.grad, "too_big": too_big}


def test_layer_astype_casts_every_parameter():
    """As Paddle documents it: every parameter and buffer, whatever its dtype (Layer.to casts floating point ones
    only). A deliberate difference: Paddle 3.3.1's own astype leaves them unchanged (it drops the casts' results)."""
    import paddlelite as paddle
    model = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.BatchNorm1D(2))
    paddle.nn.initializer.Constant(1.5)(model[0].weight)
    assert model.astype("int8") is model
    assert [str(p.dtype) for p in model.parameters()] == ["paddle.int8"] * 6
    assert model[0].weight.numpy().tolist() == [[1, 1], [1, 1]]


def test_layer_astype_rejects_unknown_dtypes():
    @differential(expected=raises(ValueError))
    def body(paddle):
        paddle.nn.Linear(2, 2).astype("float128")

    body()


@differential(expected={"unpooled": [[[0, 1, 0, 3, 0, 5, 0, 7]]], "int32": "RuntimeError"})
def test_max_unpool_of_int64_values(paddle):
    """max_unpool takes Paddle's kernel dtypes: float32, float64 and int64 (int32: RuntimeError, no kernel)."""
    F = paddle.nn.functional
    x = paddle.to_tensor(np.arange(8, dtype="float32").reshape([1, 1, 8]))
    out, mask = F.max_pool1d(x, 2, 2, return_mask=True)
    try:
        F.max_unpool1d(out.astype("int32"), mask, 2, 2)
        int32 = None
    except Exception as error:  # noqa: BLE001 -- the class is what is compared
        int32 = type(error).__name__
    return {"unpooled": F.max_unpool1d(out.astype("int64"), mask, 2, 2, output_size=x.shape), "int32": int32}
