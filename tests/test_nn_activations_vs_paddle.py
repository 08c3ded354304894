"""The activations added for issue 13 against real Paddle 3.3.1: values and gradients (eager), a static
program, layer printing and errors."""
import numpy as np
import pytest

from tests.differential import differential, raises

X = np.random.default_rng(13).uniform(-3, 3, (2, 4, 3, 2)).astype("float32")
X[0, 0, 0, :] = [0.25, -0.7]  # near the shrink thresholds, not on them

CASES = {  # name -> call(F, x, paddle)
    "celu": lambda F, x, p: F.celu(x, alpha=0.7),
    "hardshrink": lambda F, x, p: F.hardshrink(x, threshold=0.6),
    "softshrink": lambda F, x, p: F.softshrink(x, threshold=0.4),
    "logsigmoid": lambda F, x, p: F.logsigmoid(x),
    "thresholded_relu": lambda F, x, p: F.thresholded_relu(x, threshold=0.5, value=0.1),
    "glu": lambda F, x, p: F.glu(x, axis=1),
    "swiglu": lambda F, x, p: F.swiglu(x),
    "swiglu_xy": lambda F, x, p: F.swiglu(x, x * 0.5),
    "maxout": lambda F, x, p: F.maxout(x, groups=2, axis=1),
    "maxout_last": lambda F, x, p: F.maxout(p.transpose(x, [0, 2, 3, 1]), groups=2, axis=-1),
    "prelu": lambda F, x, p: F.prelu(x, p.to_tensor([0.1, 0.2, 0.3, 0.4])),
    "prelu_nhwc": lambda F, x, p: F.prelu(p.transpose(x, [0, 2, 3, 1]), p.to_tensor([0.1, 0.2, 0.3, 0.4]),
                                         data_format="NHWC"),
    "prelu_one": lambda F, x, p: F.prelu(x, p.to_tensor([0.3])),
    "rrelu_eval": lambda F, x, p: F.rrelu(x, 0.1, 0.3, training=False),
}


@pytest.mark.parametrize("name", list(CASES))
def test_value_and_grad(name):
    @differential()
    def body(paddle):
        x = paddle.to_tensor(X, stop_gradient=False)
        out = CASES[name](paddle.nn.functional, x, paddle)
        (out * out).sum().backward()
        return {"out": out, "grad": x.grad}
    body()


@differential()
def test_rrelu_training_keeps_positive_and_bounds_slopes(paddle):
    x = paddle.to_tensor(X)
    out = paddle.nn.functional.rrelu(x, 0.1, 0.3)
    ratio = paddle.where(x < 0, out / x, paddle.full_like(x, 0.2))
    return {"pos": paddle.where(x >= 0, out, paddle.zeros_like(x)) == paddle.nn.functional.relu(x),
            "in_range": ((ratio >= 0.1) & (ratio <= 0.3)).all()}


@differential()
def test_static_program(paddle):
    paddle.enable_static()
    try:
        F = paddle.nn.functional
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 4, 3, 2], "float32")
            x.stop_gradient = False
            # (Paddle 3.3.1's legacy-IR glu and swiglu fail, so they are checked in eager mode only)
            outs = [F.celu(x), F.softshrink(x), F.maxout(x, 2), F.thresholded_relu(x),
                    F.prelu(x, paddle.full([4], 0.2)), F.hardshrink(x)]
            (gx,) = paddle.static.gradients(outs, [x])  # (Paddle 3.3.1's legacy-IR paddle.sum is broken)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        res = exe.run(main, feed={"x": X}, fetch_list=outs + [gx])
        return [np.asarray(r) for r in res]
    finally:
        paddle.disable_static()


@differential(expected=["CELU(alpha=0.5)", "Hardshrink(threshold=0.5)", "Softshrink(threshold=0.3)", "LogSigmoid()",
                        "ThresholdedReLU(threshold=1.0, value=0.0)", "GLU(axis=-1)", "Maxout(groups=2, axis=1)",
                        "PReLU(num_parameters=3, data_format=NCHW, init=0.25, dtype=float32)",
                        "RReLU(lower=0.125, upper=0.3333333333333333, training=True, dtype=float32)",
                        "CELU(alpha=1.0, name=a)", "Softmax2D()", "Tanhshrink()", "Hardtanh(min=-1.0, max=1.0)",
                        "SELU(scale=1.0507009873554805, alpha=1.6732632423543772)", "Softsign()", "Silu(inplace=False)",
                        "PReLU(num_parameters=3, data_format=NCHW, init=0.25, dtype=float32, name=x)"])
def test_layer_printing(paddle):
    nn = paddle.nn
    return [repr(m) for m in (nn.CELU(0.5), nn.Hardshrink(), nn.Softshrink(0.3), nn.LogSigmoid(), nn.ThresholdedReLU(),
                              nn.GLU(), nn.Maxout(2), nn.PReLU(3), nn.RReLU(), nn.CELU(name="a"), nn.Softmax2D(),
                              nn.Tanhshrink(), nn.Hardtanh(), nn.SELU(), nn.Softsign(), nn.Silu(),
                              nn.PReLU(3, name="x"))]


@differential()
def test_layers_forward(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(X, stop_gradient=False)
    prelu = nn.PReLU(4, init=0.3)
    layers = [nn.CELU(0.5), nn.Hardshrink(0.2), nn.Softshrink(0.3), nn.LogSigmoid(), nn.ThresholdedReLU(0.2),
              nn.GLU(1), nn.Maxout(2), prelu, nn.Softmax2D(), nn.Tanhshrink(), nn.Hardtanh(-0.5, 0.5), nn.SELU(),
              nn.Softsign()]
    outs = [m(x) for m in layers]
    sum(o.sum() for o in outs).backward()
    rrelu = nn.RReLU(0.1, 0.3)
    rrelu.eval()
    return {"outs": outs, "grad": x.grad, "prelu_w": prelu._weight.grad, "state": list(prelu.state_dict()), "rrelu": rrelu(x)}


@pytest.mark.parametrize("call", [
    lambda F, x: F.celu(x, alpha=0.0),
    lambda F, x: F.softshrink(x, threshold=-1.0),
    lambda F, x: F.glu(x, axis=-1),
    lambda F, x: F.maxout(x, groups=3),
])
def test_errors_match(call):
    @differential()
    def body(paddle):
        return call(paddle.nn.functional, paddle.to_tensor(X[:, :, :, :1]))
    body()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_softmax_family_clips_shifted_logits_at_minus_64(dtype):
    # Paddle's softmax kernels clip x - max(x) below at -64: a logit 300 below the maximum (or -inf) still
    # gets probability exp(-64), and cross_entropy's loss for it is 64
    @differential(expected={"softmax": [[1.0, 1.6038109e-28, 1.6038109e-28]], "log_softmax": [[0.0, -64.0, -64.0]],
                            "loss": 64.0, "grad": [[1.0, 1.6038109e-28, -1.0]],
                            "masked": [[4.7425874e-02, 1.5277489e-28, 9.5257413e-01]]}, rtol=1e-6)
    def body(paddle):
        F = paddle.nn.functional
        x = paddle.to_tensor(np.array([[100.0, 0.0, -200.0]], dtype), stop_gradient=False)
        loss = F.cross_entropy(x, paddle.to_tensor([2]))
        loss.backward()
        masked = paddle.to_tensor(np.array([[0.0, -np.inf, 3.0]], dtype))
        return {"softmax": F.softmax(x), "log_softmax": F.log_softmax(x), "loss": loss, "grad": x.grad,
                "masked": F.softmax(masked)}
    body()



EDGES = [0.5, -0.5, 0.4999, float("nan"), 0.0, -0.0, -1.0, float("inf"), -float("inf")]


@differential(expected={
    "relu": [0.5, 0.0, 0.4999, 0.0, 0.0, 0.0, 0.0, float("inf"), 0.0],
    "hardshrink": [0.5, -0.5, 0.0, float("nan"), 0.0, -0.0, -1.0, float("inf"), -float("inf")],
    "hardshrink_grad": [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
    "leaky_relu_grad": [1.0, 0.01, 1.0, 0.0, 1.0, 1.0, 0.01, 1.0, 0.01],
    "softshrink_grad": [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0]}, rtol=1e-6)
def test_activations_at_edges(paddle):
    # Paddle's masks: relu maps NaN to 0; hardshrink keeps |x| == threshold and NaN (gradient 0 there);
    # leaky_relu's slope is 1 from x >= 0 and 0 at NaN; softshrink's gradient is 0 on the threshold
    F = paddle.nn.functional
    grads = {}
    for name in ("hardshrink", "leaky_relu"):
        x = paddle.to_tensor(EDGES, stop_gradient=False)
        getattr(F, name)(x).sum().backward()
        grads[name + "_grad"] = x.grad
    x = paddle.to_tensor([0.5, -0.5, 0.4999, 0.0, -0.0, -1.0, 2.0], stop_gradient=False)
    F.softshrink(x).sum().backward()
    return {"relu": F.relu(paddle.to_tensor(EDGES)), "hardshrink": F.hardshrink(paddle.to_tensor(EDGES)),
            "softshrink_grad": x.grad, **grads}


@pytest.mark.parametrize("name", ["glu", "swiglu"])
def test_halving_activations_reject_0d_input(name):
    @differential(expected=raises(ValueError))
    def body(paddle):
        getattr(paddle.nn.functional, name)(paddle.to_tensor(1.0))
    body()
