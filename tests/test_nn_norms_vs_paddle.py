"""group_norm, instance_norm, local_response_norm and their layers against real Paddle 3.3.1: values and
gradients (eager), a static program, layer printing and errors."""
import numpy as np
import pytest

from tests.differential import differential, run_static

RNG = np.random.default_rng(17)
X = RNG.uniform(-2, 2, (2, 6, 3, 4)).astype("float32")
W = RNG.uniform(0.5, 1.5, (6,)).astype("float32")
B = RNG.uniform(-0.5, 0.5, (6,)).astype("float32")

CASES = {  # name -> call(F, paddle, x, w, b)
    "group_norm": lambda F, p, x, w, b: F.group_norm(x, 3, weight=w, bias=b),
    "group_norm_plain": lambda F, p, x, w, b: F.group_norm(x, 2, epsilon=1e-3),
    "group_norm_nhwc": lambda F, p, x, w, b: F.group_norm(p.transpose(x, [0, 2, 3, 1]), 3, weight=w, bias=b,
                                                         data_format="NHWC"),
    "group_norm_3d": lambda F, p, x, w, b: F.group_norm(p.reshape(x, [2, 6, 12]), 6, weight=w, bias=b,
                                                       data_format="NCL"),
    "instance_norm": lambda F, p, x, w, b: F.instance_norm(x, weight=w, bias=b),
    "instance_norm_plain": lambda F, p, x, w, b: F.instance_norm(p.reshape(x, [2, 6, 12]), eps=1e-3,
                                                                data_format="NCL"),
    "local_response_norm": lambda F, p, x, w, b: F.local_response_norm(x, 3),
    "local_response_norm_even": lambda F, p, x, w, b: F.local_response_norm(x, 4, alpha=0.1, beta=0.5, k=2.0),
    "local_response_norm_3d": lambda F, p, x, w, b: F.local_response_norm(p.reshape(x, [2, 6, 12]), 5, alpha=0.3,
                                                                         data_format="NCL"),
    "local_response_norm_nhwc": lambda F, p, x, w, b: F.local_response_norm(p.transpose(x, [0, 2, 3, 1]), 3,
                                                                           alpha=0.5, data_format="NHWC"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_value_and_grad(name):
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        x = paddle.to_tensor(X, stop_gradient=False)
        w, b = paddle.to_tensor(W, stop_gradient=False), paddle.to_tensor(B, stop_gradient=False)
        out = CASES[name](paddle.nn.functional, paddle, x, w, b)
        (out * out).sum().backward()
        return {"out": out, "grads": [x.grad, w.grad, b.grad]}
    body()


@differential(rtol=1e-5, atol=1e-5)
def test_static_program(paddle):

    def build():
        x = paddle.static.data("x", [2, 6, 3, 4], "float32")
        x.stop_gradient = False
        # (Paddle 3.3.1 cannot build local_response_norm on its legacy IR; it is checked in eager mode)
        layers = [paddle.nn.GroupNorm(3, 6), paddle.nn.InstanceNorm2D(6)]
        outs = [m(x) for m in layers]
        grads = paddle.static.gradients(outs, [x, layers[0].weight, layers[1].scale])
        return outs + grads

    return run_static(paddle, build, {"x": X})


@differential(rtol=1e-5, atol=1e-5)
def test_layers(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(X, stop_gradient=False)
    layers = [nn.GroupNorm(2, 6), nn.GroupNorm(3, 6, bias_attr=False), nn.InstanceNorm2D(6),
              nn.InstanceNorm1D(6), nn.InstanceNorm3D(6), nn.LocalResponseNorm(5, k=2.0)]
    inputs = [x, x, x, paddle.reshape(x, [2, 6, 12]), paddle.reshape(x, [2, 6, 3, 2, 2]), x]
    outs = [m(i) for m, i in zip(layers, inputs)]
    sum(o.sum() for o in outs).backward()
    return {"outs": outs, "grad": x.grad, "params": [[n for n, _ in m.named_parameters()] for m in layers],
            "state": [list(m.state_dict()) for m in layers], "repr": [repr(m) for m in layers]}


@differential(expected=["GroupNorm(num_groups=2, num_channels=4, epsilon=1e-05)",
                        "InstanceNorm2D(num_features=3, epsilon=1e-05)",
                        "LocalResponseNorm(size=3, alpha=0.0001, beta=0.75, k=1.0)",
                        "InstanceNorm1D(num_features=2, epsilon=0.001)",
                        "LocalResponseNorm(size=3, alpha=0.0001, beta=0.75, k=1.0, data_format=NHWC, name=a)"])
def test_printing(paddle):
    nn = paddle.nn
    return [repr(m) for m in (nn.GroupNorm(2, 4), nn.InstanceNorm2D(3), nn.LocalResponseNorm(3),
                              nn.InstanceNorm1D(2, 1e-3), nn.LocalResponseNorm(3, data_format="NHWC", name="a"))]


@pytest.mark.parametrize("call", [
    lambda F, p, x: F.group_norm(x, 4),
    lambda F, p, x: F.group_norm(x, 3, data_format="NCWH"),
    lambda F, p, x: F.local_response_norm(x, 3, data_format="NC"),
    lambda F, p, x: F.local_response_norm(p.reshape(x, [12, 12]), 3),
    lambda F, p, x: p.nn.GroupNorm(4, 6)(x),
    lambda F, p, x: p.nn.InstanceNorm2D(6)(p.reshape(x, [2, 6, 12])),
])
def test_errors_match(call):
    @differential()
    def body(paddle):
        return call(paddle.nn.functional, paddle, paddle.to_tensor(X))
    body()


def test_group_norm_without_affine_has_the_numeric_gradient():
    """Paddle 3.3.1's group_norm gradient is wrong when the layer has no weight (weight_attr=False), so this case
    is checked against finite differences instead."""
    import paddlelite as paddle
    x64 = X.astype("float64")
    w = np.linspace(-1, 1, X.size).reshape(X.shape)

    def loss(a):
        g = a.reshape(2, 3, -1)
        y = (g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + 1e-5)
        return (y.reshape(a.shape) * w).sum()
    numeric = np.zeros_like(x64)
    for i in np.ndindex(x64.shape):
        step = np.zeros_like(x64)
        step[i] = 1e-6
        numeric[i] = (loss(x64 + step) - loss(x64 - step)) / 2e-6
    x = paddle.to_tensor(x64, stop_gradient=False)
    layer = paddle.nn.GroupNorm(3, 6, weight_attr=False, bias_attr=False)
    (layer(x) * paddle.to_tensor(w)).sum().backward()
    assert layer.weight is None and layer.bias is None
    np.testing.assert_allclose(x.grad.numpy(), numeric, rtol=1e-6, atol=1e-7)


def test_rms_norm_matches_its_formula():
    """Paddle 3.3.1 has no CPU kernel for rms_norm, so it is checked against the formula (values, float64
    gradients by finite differences, and both modes)."""
    import paddlelite as paddle
    x64 = X.astype("float64")
    w = W[:4].astype("float64")

    def reference(a):
        inv = 1 / np.sqrt((a ** 2).mean(axis=-1, keepdims=True) + 1e-5)
        return a * inv * w, inv.reshape(-1)
    x = paddle.to_tensor(x64, stop_gradient=False)
    out, invvar = paddle.nn.functional.rms_norm(x, [4], paddle.to_tensor(w))
    np.testing.assert_allclose(out.numpy(), reference(x64)[0], rtol=1e-12)
    np.testing.assert_allclose(invvar.numpy(), reference(x64)[1], rtol=1e-6)
    assert invvar.dtype == paddle.float32 and invvar.shape == [36]
    probe = np.linspace(-1, 1, X.size).reshape(X.shape)
    (out * paddle.to_tensor(probe)).sum().backward()
    numeric = np.zeros_like(x64)
    for i in np.ndindex(x64.shape):
        step = np.zeros_like(x64)
        step[i] = 1e-6
        numeric[i] = ((reference(x64 + step)[0] - reference(x64 - step)[0]) * probe).sum() / 2e-6
    np.testing.assert_allclose(x.grad.numpy(), numeric, rtol=1e-6, atol=1e-8)
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            xs = paddle.static.data("x", [2, 6, 3, 4], "float64")
            outs = paddle.nn.functional.rms_norm(xs, [3, 4], eps=1e-3)
        (got, inv) = paddle.static.Executor(paddle.CPUPlace()).run(main, feed={"x": x64}, fetch_list=list(outs))
    finally:
        paddle.disable_static()
    expect = 1 / np.sqrt((x64 ** 2).mean(axis=(2, 3), keepdims=True) + 1e-3)
    np.testing.assert_allclose(got, x64 * expect, rtol=1e-12)
    np.testing.assert_allclose(inv, expect.reshape(-1), rtol=1e-6)


@pytest.mark.parametrize("default", ["float64", "float16"])
def test_norm_layers_take_the_default_dtype(default):
    """Parameters and running statistics in the default dtype (batch norms: float32 under a float16 default);
    the fluid-era BatchNorm in its `dtype` argument."""
    @differential(expected={"float64": {"BatchNorm2D": ["float64"] * 4, "SyncBatchNorm": ["float64"] * 4,
                                        "LayerNorm": ["float64"] * 2, "GroupNorm": ["float64"] * 2,
                                        "InstanceNorm2D": ["float64"] * 2, "BatchNorm": ["float64"] * 4},
                            "float16": {"BatchNorm2D": ["float32"] * 4, "SyncBatchNorm": ["float32"] * 4,
                                        "LayerNorm": ["float16"] * 2, "GroupNorm": ["float16"] * 2,
                                        "InstanceNorm2D": ["float16"] * 2, "BatchNorm": ["float64"] * 4}}[default])
    def body(paddle):
        previous = paddle.get_default_dtype()
        paddle.set_default_dtype(default)
        try:
            n = paddle.nn
            layers = [n.BatchNorm2D(3), n.SyncBatchNorm(3), n.LayerNorm(3), n.GroupNorm(1, 3), n.InstanceNorm2D(3),
                      n.BatchNorm(3, dtype="float64")]
            return {type(m).__name__: [str(v.dtype).split(".")[-1].lower() for v in m.state_dict().values()]
                    for m in layers}
        finally:
            paddle.set_default_dtype(previous)
    body()


@differential(rtol=1e-5, atol=1e-6)
def test_instance_norm_ignores_running_stats_as_paddles(paddle):  # Paddle's API always uses the input's stats
    x = paddle.to_tensor(np.arange(24, dtype="float32").reshape(2, 3, 4) ** 1.5)
    mean, var = paddle.to_tensor([5.0, 5.0, 5.0]), paddle.to_tensor([9.0, 9.0, 9.0])
    F = paddle.nn.functional
    return {"ignored": F.instance_norm(x, running_mean=mean, running_var=var, use_input_stats=False),
            "input_stats": F.instance_norm(x, weight=paddle.to_tensor([1.0, 2.0, 3.0]), bias=mean)}


@differential(expected={"slots": [["MeanOut", "ReserveSpace", "SavedMean", "SavedVariance", "VarianceOut", "Y"],
                                  ["MeanOut", "SavedMean", "SavedVariance", "VarianceOut", "Y"],
                                  ["MeanOut", "SavedMean", "SavedVariance", "VarianceOut", "Y"],
                                  ["MeanOut", "ReserveSpace", "SavedMean", "SavedVariance", "VarianceOut", "Y"]]})
def test_static_batch_norm_reserve_space_only_in_training(paddle):  # Paddle's APIs give cuDNN's workspace then
    paddle.enable_static()
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [None, 3, 4, 4], "float32")
        paddle.static.nn.batch_norm(x)
        paddle.static.nn.batch_norm(x, is_test=True)
        bn = paddle.nn.BatchNorm2D(3)
        bn.eval()
        bn(x)
        bn.train()
        bn(x)
    return {"slots": [sorted(op.output_names) for op in main.global_block().ops if op.type == "batch_norm"]}


@pytest.mark.parametrize("use_global_stats,trainable_statistics", [(False, True), (True, True), (True, False)])
def test_fluid_batch_norm_statistics_flags_in_eval(use_global_stats, trainable_statistics):
    """The fluid-era nn.BatchNorm hands both flags to the op: in eval mode trainable_statistics normalises with the
    batch's statistics (and updates the running ones) unless use_global_stats."""
    x = np.arange(48, dtype="float32").reshape(2, 3, 2, 4) / 7.0

    @differential(rtol=1e-5, atol=1e-6)
    def body(paddle):
        layer = paddle.nn.BatchNorm(3, use_global_stats=use_global_stats, trainable_statistics=trainable_statistics)
        layer.eval()
        y = layer(paddle.to_tensor(x))
        return {"y": y, "mean": layer._mean, "variance": layer._variance}

    body()
