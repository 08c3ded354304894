"""The dispatcher's own host cost per op on the GPU path, measured on the CPU (issue 24, item 4).

On a GPU an eager op costs its Python (argument checks, resolving the forward, wrapping the result, recording the
grad node) plus the array library's host work (CuPy's launches and allocations). Here the CPU place computes
through `FreeWork`, an array module standing in for CuPy whose work costs nothing -- each op's forward returns
the result it made on its first call -- so what is timed is paddlelite's own per-op cost on the path a GPU takes
(`OpDef.forward_for` resolves the module as CuPy). `test_generated_launch_host` times the host code of a generated
kernel's launch (ops/launch/generated.py) with a kernel backend that launches nothing.

Run: pytest bench/test_bench_dispatch.py --benchmark-only --benchmark-group-by=group
"""
import types

import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.nn.functional as F
from paddlelite.device import kernels
from paddlelite.device.launch_count import CountingKernels
from paddlelite.device.place import Place
from paddlelite.ops.launch import generated
from paddlelite.ops.registry import get_op


class FreeWork(types.ModuleType):
    """NumPy, except that an op's forward returns the result of its first call on inputs of those shapes and attrs:
    the array library's work is free (the lookup costs ~1 us of every op timed)."""

    def __init__(self):
        super().__init__("numpy")

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def instrument(op):
        made = {}

        def forward(xp, *arrays, **attrs):
            key = (*[getattr(a, "shape", None) for a in arrays], str(attrs))
            out = made.get(key)
            if out is None:
                out = made[key] = op.forward(np, *arrays, **attrs)
            return out
        return forward


@pytest.fixture
def gpu_path():
    """The CPU place computing through FreeWork, as count_launches switches it."""
    cpu = Place("cpu")
    before, cpu._xp = cpu._xp, FreeWork()
    try:
        yield
    finally:
        cpu._xp = before


def _tensors(*shapes, grad=False):
    rng = np.random.default_rng(0)
    return [paddle.to_tensor(rng.standard_normal(s).astype(np.float32), stop_gradient=not grad) for s in shapes]


@pytest.mark.benchmark(group="dispatcher on the GPU path, array work free")
@pytest.mark.parametrize("grad", [False, True], ids=["no grad", "grad recorded"])
def test_add(benchmark, gpu_path, grad):
    a, b = _tensors((4,), (4,), grad=grad)
    benchmark(paddle.add, a, b)


@pytest.mark.benchmark(group="dispatcher on the GPU path, array work free")
def test_relu_grad_recorded(benchmark, gpu_path):
    (a,) = _tensors((4, 8), grad=True)
    benchmark(F.relu, a)


@pytest.mark.benchmark(group="dispatcher on the GPU path, array work free")
def test_linear_grad_recorded(benchmark, gpu_path):
    x, w, b = _tensors((4, 8), (8, 16), (16,), grad=True)
    benchmark(F.linear, x, w, b)


@pytest.mark.benchmark(group="dispatcher on the GPU path, array work free")
def test_layer_norm_grad_recorded(benchmark, gpu_path):
    x, w, b = _tensors((4, 8), (8,), (8,), grad=True)
    benchmark(F.layer_norm, x, [8], w, b)


@pytest.mark.benchmark(group="dispatcher on the GPU path, array work free")
def test_cross_entropy_grad_recorded(benchmark, gpu_path):
    (x,) = _tensors((4, 10), grad=True)
    y = paddle.to_tensor(np.arange(4))
    benchmark(F.cross_entropy, x, y)


@pytest.mark.benchmark(group="dispatcher on the GPU path, array work free")
def test_mlp_forward_backward(benchmark, gpu_path):
    """Forward and backward of a 2-layer MLP with a cross-entropy loss: ~20 ops and their grad nodes."""
    model = paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.ReLU(), paddle.nn.Linear(16, 4))
    (x,) = _tensors((4, 8))
    y = paddle.to_tensor(np.arange(4) % 4)

    def step():
        F.cross_entropy(model(x), y).backward()
        for p in model.parameters():
            p.clear_gradient(False)
    benchmark(step)


@pytest.mark.benchmark(group="generated kernel launch, host code only")
@pytest.mark.parametrize("layout", ["same shapes", "bias broadcast"])
def test_generated_launch_host(benchmark, layout):
    op = get_op("add")
    a = np.ones((64, 32), np.float32)
    b = a.copy() if layout == "same shapes" else np.ones(32, np.float32)
    run = generated.single_op(op)
    with kernels.use_backend(CountingKernels()):
        run(np, a, b, axis=-1)
        benchmark(run, np, a, b, axis=-1)
