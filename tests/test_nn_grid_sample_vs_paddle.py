"""F.grid_sample and F.affine_grid against real Paddle: values and gradients for x, grid and theta."""
import itertools

import numpy as np
import pytest

from tests.differential import differential, raises, run_static

_RNG = np.random.default_rng(7)
_X4 = _RNG.standard_normal((2, 3, 4, 5))
# points inside, on the edges, and outside [-1, 1]; no exact ties for bilinear's floor
_GRID4 = _RNG.uniform(-1.4, 1.4, (2, 3, 4, 2))
_X5 = _RNG.standard_normal((1, 2, 3, 4, 5))
_GRID5 = _RNG.uniform(-1.3, 1.3, (1, 2, 3, 2, 3))


@pytest.mark.parametrize("mode,padding,align", list(itertools.product(
    ["bilinear", "nearest"], ["zeros", "border", "reflection"], [True, False])))
def test_grid_sample_4d(mode, padding, align):
    @differential(rtol=1e-9, atol=1e-9)
    def body(paddle):
        x = paddle.to_tensor(_X4, stop_gradient=False)
        grid = paddle.to_tensor(_GRID4, stop_gradient=False)
        out = paddle.nn.functional.grid_sample(x, grid, mode=mode, padding_mode=padding, align_corners=align)
        w = paddle.to_tensor(np.linspace(-1, 1, out.size).reshape(out.shape))
        (out * w).sum().backward()
        return {"out": out, "dx": x.grad, "dgrid": None if mode == "nearest" else grid.grad}


def test_grid_sample_nearest_rounds_ties_to_even():
    @differential(rtol=0, atol=0)
    def body(paddle):
        x = paddle.to_tensor(np.arange(20.0).reshape(1, 1, 4, 5))
        grid = paddle.to_tensor([[[[0.25, 1.0], [-0.5, 0.5], [0.0, -1.0 / 3.0]]]])
        return paddle.nn.functional.grid_sample(x, grid, mode="nearest")


@pytest.mark.parametrize("mode,padding,align", [("bilinear", "zeros", False), ("bilinear", "reflection", True),
                                                ("nearest", "border", False)])
def test_grid_sample_5d(mode, padding, align):
    @differential(rtol=1e-9, atol=1e-9)
    def body(paddle):
        x = paddle.to_tensor(_X5, stop_gradient=False)
        grid = paddle.to_tensor(_GRID5, stop_gradient=False)
        out = paddle.nn.functional.grid_sample(x, grid, mode=mode, padding_mode=padding, align_corners=align)
        w = paddle.to_tensor(np.linspace(-1, 1, out.size).reshape(out.shape))
        (out * w).sum().backward()
        return {"out": out, "dx": x.grad, "dgrid": None if mode == "nearest" else grid.grad}


@pytest.mark.parametrize("shape,align", [([2, 3, 4, 5], True), ([2, 3, 4, 5], False), ([2, 1, 3, 2, 4], False)])
def test_affine_grid_then_sample(shape, align):
    @differential(rtol=1e-9, atol=1e-9)
    def body(paddle):
        nd = len(shape) - 2
        theta = paddle.to_tensor(np.linspace(-0.9, 1.1, shape[0] * nd * (nd + 1)).reshape(shape[0], nd, nd + 1),
                                 stop_gradient=False)
        grid = paddle.nn.functional.affine_grid(theta, shape, align_corners=align)
        x = paddle.to_tensor(np.linspace(-2, 2, int(np.prod(shape))).reshape(shape), stop_gradient=False)
        out = paddle.nn.functional.grid_sample(x, grid, align_corners=align)
        (out * out).sum().backward()
        return {"grid": grid, "out": out, "dtheta": theta.grad, "dx": x.grad}


def test_grid_sample_float32_static():
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        def build():
            x = paddle.static.data("x", [2, 3, 4, 5], "float32")
            grid = paddle.static.data("grid", [2, 3, 4, 2], "float32")
            return [paddle.nn.functional.grid_sample(x, grid, padding_mode="border")]
        return run_static(paddle, build, {"x": _X4.astype("float32"), "grid": _GRID4.astype("float32")})


@differential(expected=raises(ValueError))
def test_grid_sample_bad_mode(paddle):
    paddle.nn.functional.grid_sample(paddle.ones([1, 1, 2, 2]), paddle.zeros([1, 2, 2, 2]), mode="bicubic")
