"""F.pad's reflect / replicate / circular modes, zeropad2d and the Pad layers against real Paddle 3.3.1:
values and gradients (eager), a static program, layer printing and errors."""
import numpy as np
import pytest

from tests.differential import differential, raises, run_static

RNG = np.random.default_rng(23)
X3 = RNG.uniform(-1, 1, (2, 3, 5)).astype("float32")
X4 = RNG.uniform(-1, 1, (2, 3, 4, 5)).astype("float32")
X5 = RNG.uniform(-1, 1, (1, 2, 3, 4, 3)).astype("float32")

CASES = [(mode, nd, pad, fmt) for mode in ("reflect", "replicate", "circular", "constant")
         for nd, pad, fmt in ((3, [2, 1], "NCL"), (4, [1, 2, 3, 0], "NCHW"), (4, [0, 1, 1, 2], "NHWC"),
                              (5, [1, 0, 2, 1, 1, 2], "NCDHW"), (3, [1, 3], "NLC"))]


@pytest.mark.parametrize("mode,nd,pad,fmt", CASES)
def test_pad_modes(mode, nd, pad, fmt):
    @differential()
    def body(paddle):
        x = paddle.to_tensor({3: X3, 4: X4, 5: X5}[nd], stop_gradient=False)
        out = paddle.nn.functional.pad(x, pad, mode=mode, value=0.5, data_format=fmt)
        (out * out).sum().backward()
        return {"out": out, "grad": x.grad}
    body()


@differential()
def test_zeropad2d_and_layers(paddle):
    nn, F = paddle.nn, paddle.nn.functional
    x3, x4, x5 = (paddle.to_tensor(v, stop_gradient=False) for v in (X3, X4, X5))
    layers = [(nn.Pad1D(2, mode="reflect"), x3), (nn.ZeroPad1D([1, 2]), x3), (nn.ConstantPad1D(1, 2.0), x3),
              (nn.ReplicationPad1D([0, 3]), x3), (nn.CircularPad1D(2), x3), (nn.ReflectionPad1D([1, 0]), x3),
              (nn.Pad2D([1, 0, 2, 1], mode="circular"), x4), (nn.ZeroPad2D(1), x4), (nn.ConstantPad2D(2, -1.0), x4),
              (nn.ReflectionPad2D([2, 1, 0, 3]), x4), (nn.ReplicationPad2D(2), x4), (nn.CircularPad2D([1, 1, 2, 0]), x4),
              (nn.Pad3D(1, mode="replicate"), x5), (nn.ZeroPad3D(1), x5), (nn.ReflectionPad3D(1), x5),
              (nn.CircularPad3D([1, 0, 0, 1, 2, 0]), x5), (nn.ConstantPad3D(1, 0.25), x5),
              (nn.ReplicationPad3D([0, 1, 0, 1, 0, 1]), x5)]
    outs = [m(x) for m, x in layers] + [F.zeropad2d(x4, [1, 2, 0, 1])]
    sum(o.sum() * (i + 1) for i, o in enumerate(outs)).backward()
    return {"outs": outs, "grads": [x3.grad, x4.grad, x5.grad], "repr": [repr(m) for m, _ in layers],
            "aliases": [nn.ConstantPad2d is nn.ConstantPad2D, nn.ReflectionPad1d is nn.ReflectionPad1D,
                        nn.CircularPad3d is nn.CircularPad3D, nn.ReplicationPad2d is nn.ReplicationPad2D]}


@differential()
def test_static_program(paddle):

    def build():
        x = paddle.static.data("x", [2, 3, 4, 5], "float32")
        x.stop_gradient = False
        F = paddle.nn.functional
        outs = [F.pad(x, [1, 2, 1, 0], mode=m) for m in ("reflect", "replicate", "circular")]
        outs.append(paddle.nn.ZeroPad2D(1)(x))
        (gx,) = paddle.static.gradients(outs, [x])
        return outs + [gx]

    return run_static(paddle, build, {"x": X4})


@pytest.mark.parametrize("call", [
    lambda F, p, x: F.pad(x, [4, 0, 0, 0], mode="reflect"),
    lambda F, p, x: F.pad(x, [6, 0, 0, 0], mode="circular"),  # wraps around more than once
    lambda F, p, x: F.pad(x, [3, 12, 9, 1], mode="circular"),
    lambda F, p, x: F.pad(x, [1, 1], mode="reflect"),
    lambda F, p, x: p.nn.Conv2D(4, 2, 3, padding=[1, 1], padding_mode="reflect"),
])
def test_errors_match(call):
    @differential()
    def body(paddle):
        return call(paddle.nn.functional, paddle, paddle.to_tensor(X4))
    body()


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_conv_padding_mode(mode):
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        conv = paddle.nn.Conv2D(3, 2, 3, padding=2, padding_mode=mode)
        conv.weight.set_value(RNG_W)
        conv1 = paddle.nn.Conv1D(3, 2, 3, padding=2, padding_mode=mode)
        conv1.weight.set_value(RNG_W[:, :, 0])
        x = paddle.to_tensor(X4, stop_gradient=False)
        outs = [conv(x), conv1(paddle.reshape(x, [2, 3, 20]))]
        sum(o.sum() for o in outs).backward()
        return {"outs": outs, "grad": x.grad, "repr": [repr(conv), repr(conv1)]}
    body()


RNG_W = np.random.default_rng(5).uniform(-1, 1, (2, 3, 3, 3)).astype("float32")


@pytest.mark.parametrize("call", [
    lambda F, x3, x4: F.pad(x4, [1, 1, 1, 1], mode="reflect", data_format="NCL"),  # a format of another rank
    lambda F, x3, x4: F.pad(x3, [1, 1], mode="constant", data_format="NCHW"),
    lambda F, x3, x4: F.pad(x3, [1, 1], mode="reflect", data_format="ABC"),
    lambda F, x3, x4: F.pad(x3, [1, 1], mode="edge"),
    lambda F, x3, x4: F.pad(x3[0], [1, 1], mode="reflect"),  # 2-D
])
def test_bad_mode_rank_or_format_asserts_as_paddles(call):
    @differential(expected=raises(AssertionError))
    def body(paddle):
        return call(paddle.nn.functional, paddle.to_tensor(X3), paddle.to_tensor(X4))
    body()


def _default_format_and_constant_pad_op(paddle):
    F = paddle.nn.functional
    x3, x4 = paddle.to_tensor(X3, stop_gradient=False), paddle.to_tensor(X4)
    outs = [F.pad(x3, [2, 1], mode="reflect"), F.pad(x3, [1, 1], mode="replicate", data_format="ncl"),
            F.pad(x4, [1, 1], value=2.0), F.pad(x4, [0, 1, 1, 0, 1, 1, 0, 0], pad_from_left_axis=False),
            F.pad(x4, [1, 1, 0, 0, 0, 0, 2, 1]), F.pad(x3, [1, 0, 0, 0, 3, 0])]
    sum((o * o).sum() for o in outs).backward()
    return outs, x3.grad


@differential(expected={"shapes": [[2, 3, 8], [2, 3, 7], [2, 3, 4, 7], [2, 5, 5, 6], [4, 3, 4, 8], [3, 3, 8]]})
def test_default_format_and_constant_pad_op_shapes(paddle):  # a 3-D x's default format is NCL; short constant pads
    return {"shapes": [list(o.shape) for o in _default_format_and_constant_pad_op(paddle)[0]]}


@differential()
def test_default_format_and_constant_pad_op_values(paddle):
    outs, grad = _default_format_and_constant_pad_op(paddle)
    return {"outs": outs, "grad": grad}
