"""conv1d_transpose / conv2d_transpose and their layers against real Paddle 3.3.1: values and gradients
(eager), a static program, output_size, layer printing and errors."""
import numpy as np
import pytest

from tests.differential import differential

RNG = np.random.default_rng(7)
X4 = RNG.uniform(-1, 1, (2, 4, 5, 4)).astype("float32")
W4 = RNG.uniform(-1, 1, (4, 3, 3, 2)).astype("float32")
X3 = RNG.uniform(-1, 1, (2, 4, 6)).astype("float32")
W3 = RNG.uniform(-1, 1, (4, 3, 3)).astype("float32")
B = np.array([0.1, -0.2, 0.3, 0.05, 0.4, -0.1], "float32")

CASES = {  # name -> call(F, paddle, x4, w4, x3, w3)
    "basic": lambda F, p, x, w, x1, w1: F.conv2d_transpose(x, w),
    "stride_pad_outpad": lambda F, p, x, w, x1, w1: F.conv2d_transpose(x, w, stride=2, padding=1,
                                                                      output_padding=1),
    "groups_bias": lambda F, p, x, w, x1, w1: F.conv2d_transpose(x, w[:, :3], p.to_tensor(B), groups=2,
                                                                stride=[2, 1]),
    "dilation_asym": lambda F, p, x, w, x1, w1: F.conv2d_transpose(x, w, padding=[1, 0, 0, 1], dilation=2),
    "same": lambda F, p, x, w, x1, w1: F.conv2d_transpose(x, w, stride=2, padding="SAME"),
    "valid": lambda F, p, x, w, x1, w1: F.conv2d_transpose(x, w, stride=2, padding="VALID"),
    "output_size": lambda F, p, x, w, x1, w1: F.conv2d_transpose(x, w, stride=2, padding=1, output_size=[10, 8]),
    "nhwc": lambda F, p, x, w, x1, w1: F.conv2d_transpose(p.transpose(x, [0, 2, 3, 1]), w, stride=2,
                                                         data_format="NHWC"),
    "1d": lambda F, p, x, w, x1, w1: F.conv1d_transpose(x1, w1, stride=2, padding=1, output_padding=1),
    "1d_groups_bias": lambda F, p, x, w, x1, w1: F.conv1d_transpose(x1, w1[:, :3], p.to_tensor(B), groups=2,
                                                                   dilation=2),
    "1d_nlc_size": lambda F, p, x, w, x1, w1: F.conv1d_transpose(p.transpose(x1, [0, 2, 1]), w1, stride=3,
                                                                output_size=17, data_format="NLC"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_value_and_grad(name):
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        x, w = paddle.to_tensor(X4, stop_gradient=False), paddle.to_tensor(W4, stop_gradient=False)
        x1, w1 = paddle.to_tensor(X3, stop_gradient=False), paddle.to_tensor(W3, stop_gradient=False)
        out = CASES[name](paddle.nn.functional, paddle, x, w, x1, w1)
        (out * out).sum().backward()
        return {"out": out, "grads": [x.grad, w.grad, x1.grad, w1.grad]}
    body()


@differential(rtol=1e-5, atol=1e-5)
def test_static_program(paddle):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 4, 5, 4], "float32")
            x.stop_gradient = False
            conv = paddle.nn.Conv2DTranspose(4, 6, [3, 2], stride=2, padding=1, groups=2)
            conv1 = paddle.nn.Conv1DTranspose(4, 3, 3, stride=2)
            outs = [conv(x), conv1(paddle.reshape(x, [2, 4, 20]))]
            grads = paddle.static.gradients(outs, [x, conv.weight, conv1.weight])
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        paddle.static.global_scope().find_var(conv.weight.name).get_tensor().set(W4[:, :3], paddle.CPUPlace())
        paddle.static.global_scope().find_var(conv1.weight.name).get_tensor().set(W3, paddle.CPUPlace())
        return [np.asarray(r) for r in exe.run(main, feed={"x": X4}, fetch_list=outs + grads)]
    finally:
        paddle.disable_static()


@differential(rtol=1e-5, atol=1e-5)
def test_layers(paddle):
    conv = paddle.nn.Conv2DTranspose(4, 6, [3, 2], stride=2, padding=1, output_padding=1, groups=2)
    conv.weight.set_value(W4[:, :3])
    conv1 = paddle.nn.Conv1DTranspose(4, 3, 3, dilation=2, bias_attr=False)
    conv1.weight.set_value(W3)
    x = paddle.to_tensor(X4, stop_gradient=False)
    outs = [conv(x), conv(x, output_size=[10, 8]), conv1(paddle.reshape(x, [2, 4, 20]))]
    sum(o.sum() for o in outs).backward()
    return {"outs": outs, "grad": x.grad, "w": conv.weight.grad, "b": conv.bias.grad, "w1": conv1.weight.grad,
            "shapes": [conv.weight.shape, conv.bias.shape, conv1.weight.shape], "b1": conv1.bias}


@differential(expected=["Conv2DTranspose(4, 6, kernel_size=[3, 3], stride=[2, 2], padding=1, output_padding=1, "
                        "groups=2, data_format=NCHW)", "Conv1DTranspose(2, 3, kernel_size=[3], data_format=NCL)",
                        "Conv2DTranspose(2, 3, kernel_size=[2, 3], dilation=[2, 2], data_format=NHWC)"])
def test_printing(paddle):
    nn = paddle.nn
    return [repr(nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2)),
            repr(nn.Conv1DTranspose(2, 3, 3)), repr(nn.Conv2DTranspose(2, 3, (2, 3), dilation=2, data_format="NHWC"))]


@pytest.mark.parametrize("call", [
    lambda F, p, x, w: F.conv2d_transpose(x, w, stride=2, output_size=[20, 20]),
    lambda F, p, x, w: F.conv2d_transpose(x, w, output_padding=1, output_size=[7, 5]),
    lambda F, p, x, w: F.conv2d_transpose(x, w, data_format="NCWH"),
    lambda F, p, x, w: F.conv2d_transpose(x, p.ones([3, 3, 3, 2])),
    lambda F, p, x, w: F.conv2d_transpose(p.reshape(x, [2, 4, 20]), w),
    lambda F, p, x, w: F.conv1d_transpose(x, w),
])
def test_errors_match(call):
    @differential()
    def body(paddle):
        return call(paddle.nn.functional, paddle, paddle.to_tensor(X4), paddle.to_tensor(W4))
    body()


@differential(rtol=1e-5, atol=1e-6)
def test_1d_pool_layers_and_aliases(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(X3, stop_gradient=False)
    layers = [nn.MaxPool1D(2), nn.MaxPool1D(3, 2, 1, ceil_mode=True), nn.AvgPool1D(2), nn.AvgPool1D(3, 1, 1, exclusive=False),
              nn.AdaptiveAvgPool1D(4), nn.AdaptiveMaxPool1D(3)]
    outs = [m(x) for m in layers]
    sum(o.sum() for o in outs).backward()
    return {"outs": outs, "grad": x.grad, "repr": [repr(m) for m in layers],
            "aliases": [nn.Conv1d is nn.Conv1D, nn.Conv2d is nn.Conv2D, nn.AdaptiveMaxPool1d is nn.AdaptiveMaxPool1D,
                        nn.AdaptiveMaxPool2d is nn.AdaptiveMaxPool2D]}
