"""F.interpolate / F.upsample (nearest, linear, bilinear, trilinear) and the Upsample layers against real Paddle
3.3.1: values and gradients (eager), a static program, layer printing and errors."""
import numpy as np
import pytest

from tests.differential import differential, run_static

RNG = np.random.default_rng(29)
X3 = RNG.uniform(-1, 1, (2, 3, 5)).astype("float32")
X4 = RNG.uniform(-1, 1, (2, 3, 4, 5)).astype("float32")
X5 = RNG.uniform(-1, 1, (1, 2, 3, 4, 3)).astype("float32")

CASES = {  # name -> (input, kwargs)
    "nearest_scale": (X4, dict(scale_factor=2)),
    "nearest_size": (X4, dict(size=[7, 3])),
    "nearest_frac_scale": (X4, dict(scale_factor=[1.5, 0.6])),
    "nearest_nhwc": (X4, dict(size=[6, 8], data_format="NHWC")),
    "bilinear": (X4, dict(size=[7, 9], mode="bilinear")),
    "bilinear_align": (X4, dict(size=[7, 9], mode="bilinear", align_corners=True)),
    "bilinear_mode1": (X4, dict(scale_factor=1.7, mode="bilinear", align_mode=1)),
    "bilinear_down": (X4, dict(size=[3, 2], mode="bilinear")),
    "bilinear_scale": (X4, dict(scale_factor=[2, 3], mode="bilinear")),
    "linear": (X3, dict(size=[9], mode="linear", data_format="NCW")),
    "linear_align": (X3, dict(scale_factor=2.5, mode="linear", align_corners=True, data_format="NCW")),
    "trilinear": (X5, dict(size=[4, 6, 5], mode="trilinear")),
    "trilinear_align": (X5, dict(scale_factor=2, mode="trilinear", align_corners=True)),
    "nearest_3d": (X5, dict(scale_factor=[2, 1, 1.5])),
    "bicubic": (X4, dict(scale_factor=1.5, mode="bicubic")),
    "bicubic_align_nhwc": (X4, dict(size=[7, 3], mode="bicubic", align_corners=True, data_format="NHWC")),
    # a single output: bilinear/bicubic/nearest read the first source position, linear/trilinear the centre
    "bilinear_single": (X4, dict(size=[1, 1], mode="bilinear")),
    "trilinear_single": (X5, dict(size=[1, 1, 2], mode="trilinear")),
    "bilinear_recompute": (X4, dict(scale_factor=1.3, mode="bilinear", recompute_scale_factor=True)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_value_and_grad(name):
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        data, kwargs = CASES[name]
        x = paddle.to_tensor(data, stop_gradient=False)
        out = paddle.nn.functional.interpolate(x, **kwargs)
        w = paddle.to_tensor(np.linspace(-1, 1, int(np.prod(out.shape))).reshape(out.shape).astype("float32"))
        (out * w).sum().backward()
        return {"out": out, "grad": x.grad}
    body()


@differential(expected={"out": [[[0.0], [5.0]]]})
def test_linear_single_output_reads_the_centre(paddle):  # as Paddle's forward kernel; its grad kernel routes the
    # gradient to the first position instead (inconsistent with its own forward): ours is the forward's gradient
    x = paddle.to_tensor(np.arange(10, dtype="float32").reshape(1, 2, 5) - 2.0)
    return {"out": paddle.nn.functional.interpolate(x, size=[1], mode="linear")}


@differential(rtol=1e-5, atol=1e-5)
def test_static_program(paddle):

    def build():
        x = paddle.static.data("x", [2, 3, 4, 5], "float32")
        x.stop_gradient = False
        F = paddle.nn.functional
        outs = [F.interpolate(x, scale_factor=2), F.interpolate(x, size=[7, 9], mode="bilinear"),
                paddle.nn.UpsamplingBilinear2D(size=[5, 6])(x), F.upsample(x, size=[3, 3], mode="bilinear",
                                                                         align_mode=1)]
        (gx,) = paddle.static.gradients(outs, [x])
        return outs + [gx]

    return run_static(paddle, build, {"x": X4})


@differential(rtol=1e-5, atol=1e-5)
def test_layers(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(X4, stop_gradient=False)
    layers = [nn.Upsample(scale_factor=2), nn.Upsample(size=[5, 7], mode="bilinear", align_corners=True, name="u"),
              nn.UpsamplingNearest2D(scale_factor=2), nn.UpsamplingBilinear2D(size=[4, 4])]
    outs = [m(x) for m in layers]
    sum(o.sum() for o in outs).backward()
    return {"outs": outs, "grad": x.grad, "repr": [repr(m) for m in layers]}


@pytest.mark.parametrize("call", [
    lambda F, p, x: F.interpolate(x),
    lambda F, p, x: F.interpolate(x, size=[4, 4], scale_factor=2),
    lambda F, p, x: F.interpolate(x, size=[4, 4], mode="linear"),
    lambda F, p, x: F.interpolate(x, size=[4, 4], align_corners=True),
    lambda F, p, x: F.interpolate(x, size=[4, 4], mode="bilinear", align_mode=2),
    lambda F, p, x: F.interpolate(x, size=[4, 4], mode="cubic"),
    lambda F, p, x: F.interpolate(p.reshape(x, [2, 3, 20]), size=[8]),
])
def test_errors_match(call):
    @differential()
    def body(paddle):
        return call(paddle.nn.functional, paddle, paddle.to_tensor(X4))
    body()
