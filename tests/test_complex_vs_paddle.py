"""Complex tensors against real Paddle 3.3.1: creation, parts, conj/angle, math and gradients
(Paddle's convention: a complex tensor's gradient is dL/d(re) + i dL/d(im))."""
import numpy as np

from tests.differential import differential, raises

X = [[1 + 2j, 3 - 1j, -0.5 + 0.25j], [2j, -1.5 - 2j, 4 + 0j]]
Y = [[2 - 1j, 1 + 1j, 0.5j], [1.5 + 0j, -1 + 1j, 2 - 2j]]


@differential(rtol=1e-6, atol=1e-6)
def test_creation_and_parts(paddle):
    x = paddle.to_tensor(X)
    x128 = paddle.to_tensor(np.array(X))
    r, i = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([[3.0], [4.0]])
    return {"x": x, "x128": x128, "real": paddle.real(x), "imag": x.imag(), "conj": x.conj(),
            "angle": paddle.angle(x), "angle_real": paddle.angle(paddle.to_tensor([-1.0, 2.0, 0.0])),
            "complex": paddle.complex(r, i), "as_real": paddle.as_real(x128),
            "as_complex": paddle.as_complex(paddle.as_real(x)), "is_complex": paddle.is_complex(x),
            "is_complex_real": paddle.is_complex(r), "abs": paddle.abs(x), "text": str(x)}


@differential(rtol=1e-5, atol=1e-6)
def test_math_and_reductions(paddle):
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    return {"add": x + y, "sub": x - y, "mul": x * y, "div": x / y, "matmul": paddle.matmul(x, y.T),
            "sum": x.sum(), "sum_axis": paddle.sum(x, axis=-1, keepdim=True), "mean": x.mean(axis=0),
            "exp": paddle.exp(x), "scalar": x * 2.0 + 1j}


@differential(rtol=1e-5, atol=1e-6)
def test_gradients(paddle):
    x = paddle.to_tensor(X, stop_gradient=False)
    y = paddle.to_tensor(Y, stop_gradient=False)
    loss = (paddle.matmul(x, y.T) * x.sum()).real().sum() + (x / y).imag().sum() + paddle.abs(x * y).sum() \
        + paddle.angle(x).sum()
    gx, gy = paddle.grad(loss, [x, y])
    re = paddle.to_tensor([[1.0, 2.0], [3.0, -4.0]], stop_gradient=False)
    im = paddle.to_tensor([0.5, -1.0], stop_gradient=False)
    z = paddle.complex(re, im)
    loss2 = (z * z.conj() * 1j).imag().sum() + paddle.as_real(z * z).sum()
    g_re, g_im = paddle.grad(loss2, [re, im])
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    loss3 = (paddle.as_complex(a) ** 2).real().sum()
    (g_a,) = paddle.grad(loss3, [a])
    return {"gx": gx, "gy": gy, "g_re": g_re, "g_im": g_im, "g_a": g_a}


@differential(rtol=1e-6, atol=1e-6)
def test_real_complex_mix_and_abs_at_zero(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    z = paddle.to_tensor([1 + 1j, 2 - 3j], stop_gradient=False)
    w = paddle.to_tensor([0j, 1 + 0j], stop_gradient=False)
    out = (x * z).real().sum() + paddle.abs(w).sum() + (z * z).sum().real()
    gx, gz, gw = paddle.grad(out, [x, z, w])
    return {"gx": gx, "gz": gz, "gw": gw, "to_real": z.astype("float32"), "prod": z.prod()}


@differential(expected=raises(ValueError))
def test_as_complex_requires_a_last_dim_of_2(paddle):
    paddle.as_complex(paddle.ones([2, 3]))


@differential(expected={"real": [[], []], "imag": [[], []]})
def test_real_imag_of_0d_keep_0d(paddle):  # value and gradient stay 0-D
    shapes = {}
    for name in ("real", "imag"):
        x = paddle.complex(paddle.to_tensor(1.5), paddle.to_tensor(-0.5))
        x.stop_gradient = False
        out = getattr(paddle, name)(x)
        out.backward()
        shapes[name] = [list(out.shape), list(x.grad.shape)]
    return shapes
