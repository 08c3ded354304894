"""3-D convolution and pooling against real Paddle 3.3.1: conv3d / conv3d_transpose, max/avg/adaptive pool3d,
max_pool3d's mask and max_unpool3d -- values and gradients (eager), a static program, the layers (parameters,
printing) and errors."""
import numpy as np
import pytest

from tests.differential import differential, raises, run_static

RNG = np.random.default_rng(3)
X = RNG.uniform(-1, 1, (2, 4, 5, 4, 6)).astype("float32")   # NCDHW
W = RNG.uniform(-1, 1, (6, 4, 3, 2, 3)).astype("float32")   # [out, in, kd, kh, kw]
WT = RNG.uniform(-1, 1, (4, 3, 2, 3, 2)).astype("float32")  # [in, out/groups, kd, kh, kw]
B = RNG.uniform(-0.5, 0.5, (6,)).astype("float32")

CONV = {  # name -> call(F, paddle, x, w, wt)
    "basic": lambda F, p, x, w, wt: F.conv3d(x, w),
    "stride_pad_bias": lambda F, p, x, w, wt: F.conv3d(x, w, p.to_tensor(B), stride=[2, 1, 2], padding=1),
    "pad6_dilation": lambda F, p, x, w, wt: F.conv3d(x, w, padding=[1, 0, 0, 1, 2, 1], dilation=[1, 2, 1]),
    "pairs": lambda F, p, x, w, wt: F.conv3d(x, w, padding=[[0, 0], [0, 0], [1, 1], [0, 1], [1, 0]]),
    "groups": lambda F, p, x, w, wt: F.conv3d(x, w[:, :2], groups=2, stride=2),
    "same_ndhwc": lambda F, p, x, w, wt: F.conv3d(p.transpose(x, [0, 2, 3, 4, 1]), w, p.to_tensor(B), stride=2,
                                                  padding="SAME", data_format="NDHWC"),
    "valid": lambda F, p, x, w, wt: F.conv3d(x, w, padding="VALID", stride=[1, 2, 1]),
    "t_basic": lambda F, p, x, w, wt: F.conv3d_transpose(x, wt),
    "t_stride_outpad": lambda F, p, x, w, wt: F.conv3d_transpose(x, wt, stride=2, padding=1, output_padding=1),
    "t_groups_bias": lambda F, p, x, w, wt: F.conv3d_transpose(x, wt, p.to_tensor(B), groups=2, dilation=[2, 1, 1]),
    "t_output_size": lambda F, p, x, w, wt: F.conv3d_transpose(x, wt, stride=2, padding=1, output_size=[9, 9, 11]),
    "t_same_ndhwc": lambda F, p, x, w, wt: F.conv3d_transpose(p.transpose(x, [0, 2, 3, 4, 1]), wt, stride=2,
                                                              padding="SAME", data_format="NDHWC"),
}


@pytest.mark.parametrize("name", list(CONV))
def test_conv3d_value_and_grad(name):
    @differential(rtol=1e-4, atol=1e-5)
    def body(paddle):
        x = paddle.to_tensor(X, stop_gradient=False)
        w, wt = paddle.to_tensor(W, stop_gradient=False), paddle.to_tensor(WT, stop_gradient=False)
        out = CONV[name](paddle.nn.functional, paddle, x, w, wt)
        (out * out).sum().backward()
        return {"out": out, "grads": [x.grad, w.grad, wt.grad]}
    body()


POOL = {  # name -> call(F, paddle, x)
    "max": lambda F, p, x: F.max_pool3d(x, 2),
    "max_stride_pad_ceil": lambda F, p, x: F.max_pool3d(x, [3, 2, 3], stride=[2, 1, 2], padding=1, ceil_mode=True),
    "max_same_ndhwc": lambda F, p, x: F.max_pool3d(p.transpose(x, [0, 2, 3, 4, 1]), 3, stride=2, padding="SAME",
                                                   data_format="NDHWC"),
    "avg": lambda F, p, x: F.avg_pool3d(x, 2, stride=1),
    "avg_pad_inclusive": lambda F, p, x: F.avg_pool3d(x, 3, stride=2, padding=[1, 0, 1], exclusive=False),
    "avg_exclusive_ceil": lambda F, p, x: F.avg_pool3d(x, [2, 3, 2], stride=2, padding=1, ceil_mode=True),
    "avg_divisor": lambda F, p, x: F.avg_pool3d(x, 2, divisor_override=3.0),
    "adaptive_avg": lambda F, p, x: F.adaptive_avg_pool3d(x, [2, 3, 4]),
    "adaptive_avg_none_ndhwc": lambda F, p, x: F.adaptive_avg_pool3d(p.transpose(x, [0, 2, 3, 4, 1]), [3, None, 1],
                                                                     data_format="NDHWC"),
    "adaptive_max": lambda F, p, x: F.adaptive_max_pool3d(x, 3),
    "global": lambda F, p, x: F.adaptive_avg_pool3d(x, 1),
}


@pytest.mark.parametrize("name", list(POOL))
def test_pool3d_value_and_grad(name):
    @differential(rtol=1e-5, atol=1e-6)
    def body(paddle):
        x = paddle.to_tensor(X, stop_gradient=False)
        out = POOL[name](paddle.nn.functional, paddle, x)
        (out * out).sum().backward()
        return {"out": out, "grad": x.grad}
    body()


@pytest.mark.parametrize("kwargs", [{"kernel_size": 2}, {"kernel_size": [3, 2, 3], "stride": [2, 1, 2], "padding": 1},
                                    {"kernel_size": 2, "stride": 2, "ceil_mode": True}])
def test_max_pool3d_mask_and_unpool(kwargs):
    @differential(rtol=1e-6, atol=1e-6)
    def body(paddle):
        F = paddle.nn.functional
        x = paddle.to_tensor(X, stop_gradient=False)
        out, mask = F.max_pool3d(x, return_mask=True, **kwargs)
        shape = {"output_size": list(X.shape[2:])} if kwargs.get("ceil_mode") or "padding" in kwargs else {}
        up = F.max_unpool3d(out, mask, kwargs["kernel_size"], kwargs.get("stride"), kwargs.get("padding", 0), **shape)
        (up * up).sum().backward()
        return {"out": out, "mask": mask, "unpool": up, "grad": x.grad}
    body()


@differential(rtol=1e-5, atol=1e-5)
def test_layers(paddle):
    nn = paddle.nn
    paddle.seed(1)
    x = paddle.to_tensor(X, stop_gradient=False)
    layers = [nn.Conv3D(4, 6, 3, padding=1), nn.Conv3d(4, 2, [1, 2, 3], stride=2, groups=2, bias_attr=False),
              nn.Conv3DTranspose(4, 2, 2, stride=2), nn.MaxPool3D(2, 2), nn.AvgPool3D(3, 1, 1, exclusive=False),
              nn.AdaptiveAvgPool3D([1, 2, 3]), nn.AdaptiveMaxPool3D(2), nn.AdaptiveMaxPool3d(1)]
    rng = np.random.default_rng(0)
    for m in layers:
        for _, p in m.named_parameters():
            p.set_value(rng.uniform(-0.5, 0.5, p.shape).astype("float32"))
    outs = [m(x) for m in layers]
    sum((o * o).sum() for o in outs).backward()
    pool = nn.MaxPool3D(2, return_mask=True)
    values, mask = pool(x)
    unpooled = nn.MaxUnPool3D(2)(values, mask)
    return {"outs": outs, "grad": x.grad, "unpooled": unpooled, "repr": [repr(m) for m in layers + [pool]],
            "params": [[(n, list(p.shape)) for n, p in m.named_parameters()] for m in layers]}


@differential(rtol=1e-4, atol=1e-5)
def test_static_program(paddle):
    def build():
        x = paddle.static.data("x", [2, 4, 5, 4, 6], "float32")
        x.stop_gradient = False
        w = paddle.static.create_parameter([6, 4, 3, 2, 3], "float32",
                                           default_initializer=paddle.nn.initializer.Assign(W))
        F = paddle.nn.functional
        y = F.max_pool3d(F.conv3d(x, w, stride=[1, 2, 1], padding=1), 2, ceil_mode=True)
        z = F.conv3d_transpose(F.avg_pool3d(x, 2), paddle.static.create_parameter(
            [4, 3, 2, 3, 2], "float32", default_initializer=paddle.nn.initializer.Assign(WT)), stride=2)
        loss = paddle.mean(y * y) + paddle.mean(z)
        return [y, z, *paddle.static.gradients([loss], [x, w])]
    return run_static(paddle, build, {"x": X})


@pytest.mark.parametrize("call,exc", [
    (lambda F, p, x: F.conv3d(x, p.to_tensor(W[:, :3])), ValueError),
    (lambda F, p, x: F.conv3d(p.reshape(x, [8, 5, 4, 6]), p.to_tensor(W)), ValueError),
    (lambda F, p, x: F.conv3d(x, p.to_tensor(W), data_format="NCHW"), ValueError),
    (lambda F, p, x: F.max_pool3d(x, [2, 2]), ValueError),
    (lambda F, p, x: F.avg_pool3d(x, 2, data_format="NHWC"), ValueError),
    (lambda F, p, x: F.conv3d_transpose(x, p.to_tensor(WT), stride=2, output_size=[30, 9, 11]), ValueError),
])
def test_bad_arguments(call, exc):
    @differential(expected=raises(exc))
    def body(paddle):
        call(paddle.nn.functional, paddle, paddle.to_tensor(X))
    body()


@pytest.mark.parametrize("call", [
    lambda F, x: F.max_pool2d(x, 2, padding="VALID", ceil_mode=True),
    lambda F, x: F.avg_pool2d(x, 2, padding="VALID", ceil_mode=True),
    lambda F, x: F.max_pool2d(x, 3, padding=[1, 0, 0, 1], return_mask=True),  # the op pads both sides alike
])
def test_pool_padding_errors_as_paddles(call):
    @differential(expected=raises(ValueError))
    def body(paddle):
        call(paddle.nn.functional, paddle.ones([1, 1, 5, 5]))
    body()
