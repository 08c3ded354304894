"""F.fractional_max_pool2d/3d and nn.FractionalMaxPool2D/3D against Paddle 3.3.1: with a fixed random_u the
pseudo-random windows, values, int32 masks and gradients match; bad arguments raise Paddle's classes."""
import numpy as np
import pytest

from tests.differential import differential, raises, run_static

_RNG = np.random.default_rng(7)
X4 = _RNG.standard_normal((2, 3, 7, 9))
X5 = _RNG.standard_normal((1, 2, 5, 6, 7))
# the docstring's example: windows [0:1], [1:3], [3:4], [4:6], [6:7] of a row of 7 for u = 0.3
EXPECTED_ROW_OUT, EXPECTED_ROW_MASK = [[[[2.0, 4.0, 1.0, 5.0, 3.0]]]], [[[[0, 1, 3, 4, 6]]]]


def _pool_and_grad(paddle, x, fn, output_size, kernel_size, random_u):
    t = paddle.to_tensor(x, stop_gradient=False)
    out, mask = getattr(paddle.nn.functional, fn)(t, output_size, kernel_size=kernel_size, random_u=random_u,
                                                  return_mask=True)
    (out * out).sum().backward()
    return {"out": out, "mask": mask, "grad": t.grad}


@pytest.mark.parametrize("output_size, kernel_size, random_u", [
    ((5, 4), None, 0.3), (3, None, 0.85), ([None, 2], None, 0.2), ((3, 5), (2, 3), 0.7), (4, 2, 0.05),
    ((1, 1), 2, 0.5)])
def test_fractional_max_pool2d(output_size, kernel_size, random_u):
    @differential()
    def body(paddle):
        return _pool_and_grad(paddle, X4, "fractional_max_pool2d", output_size, kernel_size, random_u)
    body()


@pytest.mark.parametrize("output_size, kernel_size, random_u", [
    ((3, 4, 5), None, 0.4), (2, 2, 0.9), ([None, 3, None], None, 0.6)])
def test_fractional_max_pool3d(output_size, kernel_size, random_u):
    @differential()
    def body(paddle):
        return _pool_and_grad(paddle, X5, "fractional_max_pool3d", output_size, kernel_size, random_u)
    body()


@differential(expected={"out": EXPECTED_ROW_OUT, "mask": EXPECTED_ROW_MASK})
def test_one_row_recorded(paddle):
    """Paddle's documented sequence, recorded (checked without Paddle too)."""
    x = paddle.to_tensor([[[[2.0, 4.0, 3.0, 1.0, 5.0, 2.0, 3.0]]]])
    out, mask = paddle.nn.functional.fractional_max_pool2d(x, [1, 5], random_u=0.3, return_mask=True)
    return {"out": out, "mask": mask}


@differential()
def test_layers_match(paddle):
    x = paddle.to_tensor(X5)
    out3, mask3 = paddle.nn.FractionalMaxPool3D(output_size=[2, 3, 3], kernel_size=2, random_u=0.25,
                                                return_mask=True)(x)
    out2 = paddle.nn.FractionalMaxPool2D(output_size=3, random_u=0.6)(paddle.to_tensor(X4))
    return {"out3": out3, "mask3": mask3, "out2": out2}


def test_random_u_none_draws_valid_windows():
    """Without random_u every window still lies inside x: each output is the max of a non-empty block."""
    import paddlelite as paddle
    paddle.seed(3)
    x = paddle.to_tensor(X4)
    out, mask = paddle.nn.functional.fractional_max_pool2d(x, [4, 5], return_mask=True)
    flat = X4.reshape(2, 3, -1)
    picked = np.take_along_axis(flat, mask.numpy().reshape(2, 3, -1).astype(np.int64), axis=2)
    np.testing.assert_array_equal(picked.reshape(out.shape), out.numpy())


@pytest.mark.parametrize("kwargs", [
    {"output_size": 3, "random_u": 1.0}, {"output_size": 3, "random_u": 0.0}, {"output_size": 3, "random_u": -0.5},
    {"output_size": 8, "kernel_size": 2, "random_u": 0.5}, {"output_size": 7, "kernel_size": 3, "random_u": 0.5}])
def test_bad_arguments(kwargs):
    @differential(expected=raises(ValueError))
    def body(paddle):
        paddle.nn.functional.fractional_max_pool2d(paddle.to_tensor(X4), **kwargs)
    body()


@differential(expected=raises(ValueError))
def test_bad_rank(paddle):
    paddle.nn.functional.fractional_max_pool3d(paddle.to_tensor(X4), 2, random_u=0.5)


@differential()
def test_static_program(paddle):
    """A static Program (forward, mask and append_backward's gradient) against Paddle's legacy IR."""
    def build():
        x = paddle.static.data("x", [2, 3, 7, 9], "float64")
        x.stop_gradient = False
        out, mask = paddle.nn.functional.fractional_max_pool2d(x, [4, 3], kernel_size=[2, 2], random_u=0.35,
                                                               return_mask=True)
        (gx,) = paddle.static.gradients([paddle.mean(out * out)], [x])
        return [out, mask, gx]

    out, mask, gx = run_static(paddle, build, {"x": X4})
    return {"out": out, "mask": mask, "grad": gx}
