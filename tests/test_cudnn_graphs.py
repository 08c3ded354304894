"""The cuDNN bindings' graphs without a GPU: cuDNN Frontend's own graph IR built by the launch code, planned and
run by tests/cudnn_fake.py (NumPy through each tensor's declared dims and strides), against the ops' reference
forwards; plus the plan policy (Paddle's cuDNN flags), the graph cache and the fallback when cuDNN declines."""
import numpy as np
import pytest

from paddlelite.device import cudnn as dcudnn
from paddlelite.framework import flags
from paddlelite.ops.registry import device_impls, get_op
from tests import cudnn_fake

pytest.importorskip("cudnn")

TOL = {np.float32: 1e-5, np.float16: 1e-2}  # float16: the reference accumulates in float16 steps, the fake at once


@pytest.fixture
def fake(monkeypatch):
    with cudnn_fake.installed(monkeypatch) as f:
        yield f


def binding(op):
    """The op's GPU binding itself (None where it declines), not the registry's fallback wrapper."""
    return device_impls("gpu")[op].__wrapped__


def close(got, ref, dtype):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    tol = TOL[np.dtype(dtype).type]
    np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=tol, atol=tol)


def run_both(op, arrays, attrs, dtype):
    attrs = get_op(op).fill_attrs(attrs)
    got = binding(op)(np, *arrays, **attrs)
    assert got is not None, f"{op}: the cuDNN binding declined"
    ref = get_op(op).forward(np, *arrays, **attrs)
    for g, r in zip(got if isinstance(got, tuple) else (got,), ref if isinstance(ref, tuple) else (ref,)):
        close(g, r, dtype)
    return got


def randn(*shape, dtype=np.float32):
    """Values drawn from the shape alone, so every test sees the same inputs in any order of running."""
    return np.random.default_rng(hash(shape) & 0xFFFF).standard_normal(shape).astype(dtype)


CONVS = [  # op, x shape, w shape, attrs
    ("conv2d", (2, 4, 7, 6), (6, 2, 3, 2), {"groups": 2, "paddings": [1, 0, 2, 1], "strides": [2, 1],
                                            "dilations": [1, 2]}),
    ("conv2d", (1, 3, 5, 5), (4, 3, 3, 3), {"padding_algorithm": "SAME", "strides": [2, 2]}),
    ("conv2d", (2, 5, 6, 3), (4, 3, 2, 2), {"data_format": "NHWC", "paddings": [1, 1]}),
    ("conv2d", (2, 4, 1, 9), (4, 1, 1, 3), {"groups": 4, "paddings": [0, 1]}),       # conv1d's shape, depthwise
    ("conv3d", (1, 2, 4, 5, 3), (3, 2, 2, 3, 2), {"paddings": [1, 0, 1], "strides": [1, 2, 1]}),
    ("conv3d", (1, 4, 3, 5, 4), (2, 2, 2, 2, 3), {"data_format": "NDHWC", "groups": 2}),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("op,xs,ws,attrs", CONVS, ids=[f"{c[0]}-{i}" for i, c in enumerate(CONVS)])
def test_conv_forward_and_grads(fake, op, xs, ws, attrs, dtype):
    x, w = randn(*xs, dtype=dtype), randn(*ws, dtype=dtype)
    y = run_both(op, [x, w], attrs, dtype)
    dy = randn(*y.shape, dtype=dtype)
    run_both(f"{op}_grad", [x, w, dy], {**attrs, "input_grad": True}, dtype)
    dx, dw = binding(f"{op}_grad")(np, x, w, dy, **get_op(f"{op}_grad").fill_attrs({**attrs, "input_grad": False}))
    assert dx.strides == (0,) * x.ndim and dw.shape == w.shape  # the filter gradient alone: one wgrad graph


@pytest.mark.parametrize("op,xs,ws,attrs", [
    ("conv2d_transpose", (2, 4, 3, 4), (4, 3, 3, 2), {"strides": [2, 1], "paddings": [1, 0], "output_padding": [1, 0]}),
    ("conv2d_transpose", (1, 4, 3, 3), (4, 1, 2, 2), {"groups": 2, "dilations": [2, 1]}),
    ("conv2d_transpose", (1, 3, 4, 2), (2, 3, 3, 3), {"data_format": "NHWC", "paddings": [1, 1]}),
    ("conv3d_transpose", (1, 2, 3, 2, 3), (2, 2, 2, 2, 2), {"strides": [2, 1, 2]}),
])
def test_conv_transpose(fake, op, xs, ws, attrs):
    run_both(op, [randn(*xs), randn(*ws)], attrs, np.float32)


def test_bfloat16_conv(fake):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    bf = np.dtype(ml_dtypes.bfloat16)
    x, w = randn(1, 3, 5, 4).astype(bf), randn(2, 3, 3, 3).astype(bf)
    attrs = get_op("conv2d").fill_attrs({"paddings": [1, 1]})
    got = binding("conv2d")(np, x, w, **attrs)
    ref = get_op("conv2d").forward(np, x.astype(np.float32), w.astype(np.float32), **attrs)
    assert got.dtype == bf
    np.testing.assert_allclose(got.astype(np.float32), ref, rtol=2e-2, atol=5e-2)


BNS = [((4, 3, 5, 2), "NCHW"), ((3, 4, 2, 5), "NHWC"), ((6, 5), "NC"), ((2, 3, 7), "NCL"), ((2, 3, 2, 2, 3), "NCDHW")]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("shape,layout", BNS, ids=[b[1] for b in BNS])
def test_batch_norm(fake, shape, layout, dtype):
    x = randn(*shape, dtype=dtype)
    c = shape[-1] if layout in ("NHWC", "NLC", "NDHWC") else shape[1]
    scale, bias = randn(c) + 1.5, randn(c)
    mean, var = randn(c), np.abs(randn(c)) + 0.5
    attrs = {"data_layout": layout, "epsilon": 1e-4, "momentum": 0.8}
    y, _, _, saved_mean, saved_inv = run_both("batch_norm", [x, scale, bias, mean, var], attrs, dtype)
    run_both("batch_norm", [x, scale, bias, mean, var], {**attrs, "is_test": True}, dtype)
    run_both("batch_norm", [x, None, None, mean, var], attrs, dtype)
    dy = randn(*shape, dtype=dtype)
    run_both("batch_norm_grad", [x, scale, saved_mean, saved_inv, dy], attrs, dtype)
    assert binding("batch_norm_grad")(np, x, scale, saved_mean, saved_inv, dy, **get_op("batch_norm").fill_attrs(
        {**attrs, "use_global_stats": True})) is None  # dX is a plain scaling there: the reference runs


def test_graph_cache_one_build_per_key(fake):
    x, w = randn(2, 3, 5, 5), randn(4, 3, 3, 3)
    attrs = get_op("conv2d").fill_attrs({"paddings": [1, 1]})
    for _ in range(3):
        binding("conv2d")(np, x, w, **attrs)
    assert len(fake.steps) == 1 and fake.executions == 3
    binding("conv2d")(np, randn(1, 3, 5, 5), w, **attrs)       # a new shape: a new graph
    binding("conv2d")(np, x.astype(np.float16), w.astype(np.float16), **attrs)  # a new dtype too
    assert len(fake.steps) == 3


def test_flags_choose_the_plans(fake):
    cudnn = pytest.importorskip("cudnn")
    x, w = randn(2, 3, 5, 5), randn(4, 3, 3, 3)
    attrs = get_op("conv2d").fill_attrs({})
    binding("conv2d")(np, x, w, **attrs)
    flags.set_flags({"FLAGS_cudnn_deterministic": True, "FLAGS_conv_workspace_size_limit": 64})
    try:
        binding("conv2d")(np, x, w, **attrs)  # the policy is part of the key: a second graph
    finally:
        flags.set_flags({"FLAGS_cudnn_deterministic": False, "FLAGS_conv_workspace_size_limit": 512})
    (_, first), (_, second) = fake.steps.values()
    nondeterministic = ("deselect_numeric_notes", ([cudnn.numerical_note.NONDETERMINISTIC],))
    assert nondeterministic in second and nondeterministic not in first
    assert ("deselect_workspace_greater_than", (64 << 20,)) in second


def test_tf32_switch_keeps_float32_off_tensor_cores(fake):
    """set_cudnn_switch(False): float32 convolutions get no tensor-core (TF32) plans; float16 ones still do, and
    with the switch on (Paddle's default) float32 ones too."""
    cudnn = pytest.importorskip("cudnn")
    from paddlelite.base import core
    x, w = randn(2, 3, 5, 5), randn(4, 3, 3, 3)
    attrs = get_op("conv2d").fill_attrs({})
    was = core.get_cudnn_switch()
    try:
        core.set_cudnn_switch(False)
        binding("conv2d")(np, x, w, **attrs)
        binding("conv2d")(np, x.astype(np.float16), w.astype(np.float16), **attrs)
        core.set_cudnn_switch(True)
        binding("conv2d")(np, x, w, **attrs)
    finally:
        core.set_cudnn_switch(was)
    (_, f32), (_, f16), (_, f32_tf32) = fake.steps.values()
    no_tc = ("deselect_numeric_notes", ([cudnn.numerical_note.TENSOR_CORE],))
    assert no_tc in f32 and no_tc not in f16 and no_tc not in f32_tf32


def test_exhaustive_search_keeps_the_fastest_plan(fake):
    fake.plans, fake.times = 3, {0: 5.0, 1: 2.0, 2: 9.0}
    x, w = randn(2, 3, 5, 5), randn(4, 3, 3, 3)
    attrs = get_op("conv2d").fill_attrs({})
    flags.set_flags({"FLAGS_cudnn_exhaustive_search": True})
    try:
        run_both("conv2d", [x, w], attrs, np.float32)
        run_both("conv2d", [x, w], attrs, np.float32)
    finally:
        flags.set_flags({"FLAGS_cudnn_exhaustive_search": False})
    (_, steps), = fake.steps.values()
    tried = [args[0] for step, args in steps if step == "build_plan_at_index"]
    assert tried == [0, 1, 2, 1]  # each plan timed once, then the fastest selected, for good
    assert not any(step == "build_plans" for step, _ in steps)


def test_declined_graph_falls_back_once(fake):
    fake.decline = ("CONV_FPROP",)
    x, w = randn(2, 3, 5, 5), randn(4, 3, 3, 3)
    attrs = get_op("conv2d").fill_attrs({})
    assert binding("conv2d")(np, x, w, **attrs) is None
    assert binding("conv2d")(np, x, w, **attrs) is None
    assert len(fake.steps) == 1  # the refusal is remembered
    np.testing.assert_allclose(device_impls("gpu")["conv2d"](np, x, w, **attrs),  # the registry runs im2col
                               get_op("conv2d").forward(np, x, w, **attrs))


def test_disabled_and_float64_take_the_reference(fake):
    x, w = randn(2, 3, 5, 5), randn(4, 3, 3, 3)
    attrs = get_op("conv2d").fill_attrs({})
    with dcudnn.disabled():
        assert binding("conv2d")(np, x, w, **attrs) is None
    assert binding("conv2d")(np, x.astype(np.float64), w.astype(np.float64), **attrs) is None
    from paddlelite.device.launch_count import COUNTING  # the launch counter's array module is no device's
    assert binding("conv2d")(COUNTING, x, w, **attrs) is None
    assert not fake.steps
