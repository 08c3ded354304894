"""nn.functional activations against torch.nn.functional: values, gradients, double backward, dtypes, errors."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.nn.functional as F
from tests.references import TF, torch

RNG = np.random.default_rng(1)
V = np.concatenate([RNG.uniform(-4, 4, 22), [-3.5, -0.25, 0.3, 2.9, 6.5, 8.0, 25.0, -30.0]]).reshape(5, 6)

CASES = [  # name, paddle call, torch call
    ("relu", F.relu, lambda t: TF.relu(t)),
    ("relu6", F.relu6, lambda t: TF.relu6(t)),
    ("leaky_relu", lambda x: F.leaky_relu(x, 0.1), lambda t: TF.leaky_relu(t, 0.1)),
    ("elu", lambda x: F.elu(x, 0.7), lambda t: TF.elu(t, 0.7)),
    ("selu", F.selu, lambda t: TF.selu(t)),
    ("gelu", F.gelu, lambda t: TF.gelu(t)),
    ("gelu-tanh", lambda x: F.gelu(x, approximate=True), lambda t: TF.gelu(t, approximate="tanh")),
    ("silu", F.silu, lambda t: TF.silu(t)),
    ("swish", F.swish, lambda t: TF.silu(t)),
    ("sigmoid", F.sigmoid, lambda t: torch.sigmoid(t)),
    ("tanh", F.tanh, lambda t: torch.tanh(t)),
    ("softplus", F.softplus, lambda t: TF.softplus(t)),
    ("softplus-beta", lambda x: F.softplus(x, beta=2, threshold=10), lambda t: TF.softplus(t, 2, 10)),
    ("hardswish", F.hardswish, lambda t: TF.hardswish(t)),
    ("hardsigmoid", lambda x: F.hardsigmoid(x, slope=1 / 6), lambda t: TF.hardsigmoid(t)),
    ("hardtanh", lambda x: F.hardtanh(x, -2, 3), lambda t: TF.hardtanh(t, -2, 3)),
    ("mish", F.mish, lambda t: TF.mish(t)),
    ("softmax", F.softmax, lambda t: TF.softmax(t, -1)),
    ("softmax-axis0", lambda x: F.softmax(x, axis=0), lambda t: TF.softmax(t, 0)),
    ("log_softmax", F.log_softmax, lambda t: TF.log_softmax(t, -1)),
    ("log_softmax-axis0", lambda x: F.log_softmax(x, 0), lambda t: TF.log_softmax(t, 0)),
    ("softsign", F.softsign, lambda t: TF.softsign(t)),
    ("tanhshrink", F.tanhshrink, lambda t: TF.tanhshrink(t)),
    ("log_sigmoid", F.log_sigmoid, lambda t: TF.logsigmoid(t)),
]


@pytest.mark.parametrize("name,pf,tf", CASES, ids=[c[0] for c in CASES])
def test_values_and_grads_match_torch(name, pf, tf):
    w = RNG.uniform(-1, 1, V.shape)
    x = paddle.to_tensor(V, stop_gradient=False)
    out = pf(x)
    (out * paddle.to_tensor(w)).sum().backward()
    t = torch.tensor(V, requires_grad=True)
    ref = tf(t)
    (ref * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(out.numpy(), ref.detach().numpy(), rtol=1e-10, atol=1e-12)
    rtol = 1e-7 if name == "hardsigmoid" else 1e-9  # torch's kernel rounds 1/6 to float32
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=rtol, atol=1e-12)


@pytest.mark.parametrize("name,pf,tf", CASES, ids=[c[0] for c in CASES])
def test_float32_in_float32_out(name, pf, tf):
    out = pf(paddle.to_tensor(V.astype("float32")))
    assert out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), tf(torch.tensor(V, dtype=torch.float32)).numpy(), rtol=2e-5,
                               atol=2e-6)


SMOOTH = ["elu", "gelu", "gelu-tanh", "silu", "sigmoid", "tanh", "softplus", "mish", "softmax", "log_softmax",
          "log_sigmoid"]


@pytest.mark.parametrize("name", SMOOTH)
def test_double_backward_matches_torch(name):
    _, pf, tf = next(c for c in CASES if c[0] == name)
    v = V[:, :4].copy()
    v[v == 0] = 0.5  # elu's second derivative jumps at 0
    x = paddle.to_tensor(v, stop_gradient=False)
    (gx,) = paddle.grad((pf(x) * pf(x)).sum(), [x], create_graph=True)
    (ggx,) = paddle.grad((gx * paddle.sin(x)).sum(), [x])
    t = torch.tensor(v, requires_grad=True)
    (gt,) = torch.autograd.grad((tf(t) * tf(t)).sum(), [t], create_graph=True)
    (ggt,) = torch.autograd.grad((gt * torch.sin(t)).sum(), [t])
    np.testing.assert_allclose(ggx.numpy(), ggt.numpy(), rtol=1e-8, atol=1e-10)


@pytest.mark.usefixtures("cpu_device")
def test_grads_run_through_dedicated_grad_ops():
    """The fused GPU kernels replace these grad ops by type, so backward must use them."""
    from paddlelite.ops import registry
    seen = []
    originals = {}

    def spying(t, f):
        def spy(xp, *a, **k):
            seen.append(t)
            return f(xp, *a, **k)
        return spy

    for t in ("relu_grad", "sigmoid_grad", "tanh_grad", "gelu_grad", "silu_grad", "softmax_grad",
              "log_softmax_grad", "leaky_relu_grad"):
        op = registry.get_op(t)
        originals[t] = op.forward, dict(op.impls)
        op.forward = spying(t, op.forward)
        op.impls.update({device: spying(t, f) for device, f in op.impls.items()})  # the kernels (on a GPU)
    try:
        x = paddle.to_tensor(V, stop_gradient=False)
        y = (F.relu(x) + F.sigmoid(x) + F.tanh(x) + F.gelu(x) + F.silu(x) + F.softmax(x) + F.log_softmax(x)
             + F.leaky_relu(x))
        y.sum().backward()
    finally:
        for t, (forward, impls) in originals.items():
            op = registry.get_op(t)
            op.forward = forward
            op.impls.update(impls)
    assert sorted(set(seen)) == sorted(originals)


def test_sigmoid_and_softmax_do_not_overflow():
    x = paddle.to_tensor([-1000.0, 1000.0])
    np.testing.assert_array_equal(F.sigmoid(x).numpy(), [0.0, 1.0])
    # as Paddle's kernel, x - max(x) is clipped at -64
    np.testing.assert_allclose(F.softmax(paddle.to_tensor([1000.0, 0.0])).numpy(), [1.0, np.exp(np.float32(-64))])
    np.testing.assert_allclose(F.log_softmax(paddle.to_tensor([1000.0, 0.0])).numpy(), [0.0, -64.0])
    np.testing.assert_allclose(F.softplus(paddle.to_tensor([-800.0, 800.0])).numpy(), [0.0, 800.0])


def test_softmax_dtype_argument_casts_first():
    out = F.softmax(paddle.to_tensor(V.astype("float32")), dtype="float64")
    assert out.dtype == paddle.float64
    np.testing.assert_allclose(out.numpy(), TF.softmax(torch.tensor(V.astype("float32")).double(), -1).numpy())


def test_argument_errors():
    x = paddle.to_tensor(V)
    with pytest.raises(ValueError, match="relu: x must be a Tensor, received ndarray"):
        F.relu(V)
    with pytest.raises(TypeError, match="'relu'.*floating-point.*int64"):
        F.relu(paddle.to_tensor([1, 2]))
    with pytest.raises(TypeError, match="'softmax'.*floating-point"):
        F.softmax(paddle.to_tensor([1, 2]))
    with pytest.raises(ValueError, match="softmax: axis 2 is out of range for a 2-D tensor"):
        F.softmax(x, axis=2)
    with pytest.raises(TypeError, match="log_softmax: axis must be an int, received list"):
        F.log_softmax(x, axis=[0])
    with pytest.raises(TypeError, match="gelu: approximate must be a bool, 'tanh' or 'none', received list"):
        F.gelu(x, approximate=[True])
    with pytest.raises(TypeError, match="leaky_relu: negative_slope must be a number, received str"):
        F.leaky_relu(x, "0.1")
    with pytest.raises(ValueError, match="softplus: beta must be non-zero"):
        F.softplus(x, beta=0)
    with pytest.raises(ValueError, match="hardtanh: min .* must not exceed max"):
        F.hardtanh(x, 1.0, -1.0)


def test_paddle_namespace_and_methods_share_the_ops():
    x = paddle.to_tensor(V)
    np.testing.assert_array_equal(paddle.tanh(x).numpy(), F.tanh(x).numpy())
    np.testing.assert_array_equal(x.sigmoid().numpy(), F.sigmoid(x).numpy())
    assert F.tanh is paddle.tanh and F.sigmoid is paddle.sigmoid
