"""nn.utils.weight_norm / remove_weight_norm / spectral_norm, nn.SpectralNorm and nn.initializer.Dirac against
real Paddle 3.3.1 (weights and the power-iteration vectors set from NumPy in both)."""
import numpy as np
import pytest

from tests.differential import differential, raises

RNG = np.random.default_rng(9)
X2 = RNG.uniform(-1, 1, (2, 3)).astype("float32")
X4 = RNG.uniform(-1, 1, (2, 2, 5, 5)).astype("float32")


def _fill(layer, seed=0):
    rng = np.random.default_rng(seed)
    for _, p in layer.named_parameters():
        p.set_value(rng.uniform(-1, 1, p.shape).astype("float32"))
    return layer


LAYERS = {  # name -> (make(nn), input)
    "linear": (lambda nn: nn.Linear(3, 4), X2),
    "conv": (lambda nn: nn.Conv2D(2, 3, 3), X4),
    "conv_transpose": (lambda nn: nn.Conv2DTranspose(2, 3, 2), X4),
}


@pytest.mark.parametrize("dim", [0, 1, -1, None])
@pytest.mark.parametrize("name", list(LAYERS))
def test_weight_norm(name, dim):
    make, x_np = LAYERS[name]

    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        layer = paddle.nn.utils.weight_norm(_fill(make(paddle.nn)), dim=dim)
        x = paddle.to_tensor(x_np, stop_gradient=False)
        out = layer(x)
        (out * out).sum().backward()
        result = {"out": out, "x_grad": x.grad, "names": [n for n, _ in layer.named_parameters()],
                  "grads": {n: p.grad for n, p in layer.named_parameters()}, "weight": layer.weight}
        paddle.nn.utils.remove_weight_norm(layer)
        result.update(after=[n for n, _ in layer.named_parameters()], restored=layer.weight)
        return result
    body()


@differential(expected=raises(ValueError))
def test_remove_weight_norm_without_one(paddle):
    paddle.nn.utils.remove_weight_norm(paddle.nn.Linear(2, 2))


@differential(expected=raises(RuntimeError))
def test_weight_norm_twice(paddle):
    paddle.nn.utils.weight_norm(paddle.nn.utils.weight_norm(paddle.nn.Linear(2, 2)))


@pytest.mark.parametrize("name", list(LAYERS))
def test_spectral_norm_hook(name):
    make, x_np = LAYERS[name]

    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        layer = paddle.nn.utils.spectral_norm(_fill(make(paddle.nn)), n_power_iterations=2)
        rng = np.random.default_rng(4)
        for buf in (layer.weight_u, layer.weight_v):
            buf.set_value(rng.uniform(-1, 1, buf.shape).astype("float32"))
        x = paddle.to_tensor(x_np, stop_gradient=False)
        out = layer(x)
        (out * out).sum().backward()
        layer.eval()
        frozen = layer(x)
        return {"out": out, "eval_out": frozen, "x_grad": x.grad, "orig_grad": layer.weight_orig.grad,
                "u": layer.weight_u, "v": layer.weight_v,
                "names": [n for n, _ in layer.named_parameters()], "buffers": [n for n, _ in layer.named_buffers()],
                "state": list(layer.state_dict())}
    body()


SPECTRAL_CASES = [((4, 3), 0, 1), ((2, 3, 2, 2), 1, 3), ((3, 5), 1, 2)]


def _spectral_case(paddle, shape, dim, iters):
    layer = paddle.nn.SpectralNorm(list(shape), dim=dim, power_iters=iters)
    rng = np.random.default_rng(6)
    for p in (layer.weight_u, layer.weight_v):
        p.set_value(rng.uniform(-1, 1, p.shape).astype("float32"))
    return layer, rng.uniform(-1, 1, shape).astype("float32"), rng.uniform(-1, 1, shape).astype("float32")


@pytest.mark.parametrize("shape,dim,iters", SPECTRAL_CASES)
def test_spectral_norm_layer(shape, dim, iters):
    # values only: Paddle's spectral_norm_grad kernel computes dout * (1 - u v^T sum(W / sigma)) / sigma, not
    # the derivative of W / sigma(W) (test_spectral_norm_layer_gradient checks ours numerically)
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        layer, w, _ = _spectral_case(paddle, shape, dim, iters)
        return {"out": layer(paddle.to_tensor(w)), "u": layer.weight_u,
                "names": [n for n, _ in layer.named_parameters()],
                "shapes": [list(layer.weight_u.shape), list(layer.weight_v.shape)]}
    body()


@pytest.mark.parametrize("shape,dim,iters", SPECTRAL_CASES)
def test_spectral_norm_layer_gradient(shape, dim, iters):
    """The gradient of W / (u^T W v) with u, v the power iteration's vectors held constant, against central
    differences of that function in NumPy (float64)."""
    import paddlelite as paddle
    layer, w_np, dout_np = _spectral_case(paddle, shape, dim, iters)
    layer.to(dtype="float64")
    w = paddle.to_tensor(w_np.astype("float64"), stop_gradient=False)
    (layer(w) * paddle.to_tensor(dout_np.astype("float64"))).sum().backward()

    def as_matrix(a):
        return np.moveaxis(a, dim, 0).reshape(shape[dim], -1)
    u, v = layer.weight_u.numpy(), layer.weight_v.numpy()
    mat = as_matrix(w_np.astype("float64"))
    for _ in range(iters):
        v = mat.T @ u
        v = v / (np.linalg.norm(v) + 1e-12)
        u = mat @ v
        u = u / (np.linalg.norm(u) + 1e-12)

    def f(a):
        return float((a / (u @ as_matrix(a) @ v) * dout_np).sum())
    numeric = np.zeros(shape)
    for idx in np.ndindex(*shape):
        plus, minus = w_np.astype("float64"), w_np.astype("float64")
        plus[idx] += 1e-6
        minus[idx] -= 1e-6
        numeric[idx] = (f(plus) - f(minus)) / 2e-6
    np.testing.assert_allclose(w.grad.numpy(), numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("make", [lambda nn, a: nn.Conv2D(4, 6, 3, weight_attr=a),
                                  lambda nn, a: nn.Conv1D(6, 4, 3, weight_attr=a),
                                  lambda nn, a: nn.Conv3D(4, 4, [1, 3, 2], weight_attr=a)])
@pytest.mark.parametrize("groups", [1, 2])
def test_dirac(make, groups):
    @differential()
    def body(paddle):
        attr = paddle.ParamAttr(initializer=paddle.nn.initializer.Dirac(groups))
        return {"weight": make(paddle.nn, attr).weight}
    body()


@differential(expected=raises(AssertionError))
def test_dirac_needs_a_conv_weight(paddle):
    paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Dirac()))
