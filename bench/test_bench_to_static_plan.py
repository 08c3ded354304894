"""The cost of running a cached to_static plan, against eager mode in the same run (single-threaded, CPU):

* the MLP training step of test_bench_train.py (784-256-128-10, batch 128, SGD) -- eager and to_static
* a tiny function, x * w + b on 4x4 tensors (forward only, and forward + backward), where the per-call
  overhead (feeding the step's arrays, the op loop, the grad node) is all there is to measure

Run: pytest bench/test_bench_to_static_plan.py --benchmark-only --benchmark-group-by=group
"""
import numpy as np
import pytest

import paddlelite as paddle
from test_bench_train import _eager_step, _mlp

B = 128


@pytest.fixture(scope="module")
def mlp_data():
    rng = np.random.default_rng(0)
    return rng.random((B, 784), dtype=np.float32), rng.integers(0, 10, B)


@pytest.mark.benchmark(group="to_static plan: MLP train step, batch 128")
def test_mlp_step_eager(benchmark, mlp_data):
    benchmark(_eager_step(_mlp, *mlp_data))


@pytest.mark.benchmark(group="to_static plan: MLP train step, batch 128")
def test_mlp_step_to_static(benchmark, mlp_data):
    benchmark(_eager_step(_mlp, *mlp_data, to_static=True))


def _tiny(x, w, b):
    return x * w + b


def _tiny_args(stop_gradient):
    rng = np.random.default_rng(0)
    return [paddle.to_tensor(rng.random((4, 4), dtype=np.float32), stop_gradient=stop_gradient) for _ in range(3)]


def _tiny_call(fn, backward):
    args = _tiny_args(stop_gradient=not backward)
    if not backward:
        return lambda: fn(*args)

    def call():
        fn(*args).sum().backward()
    return call


@pytest.mark.parametrize("backward", [False, True], ids=["forward", "forward_backward"])
@pytest.mark.parametrize("mode", ["eager", "to_static"])
def test_tiny_function(benchmark, mode, backward):
    benchmark.group = f"to_static plan: tiny function x*w+b 4x4, {'forward + backward' if backward else 'forward'}"
    fn = paddle.jit.to_static(_tiny) if mode == "to_static" else _tiny
    call = _tiny_call(fn, backward)
    call()  # traces
    benchmark(call)


# ---- on a GPU: the same MLP step, each round ending when the device has finished -------------------------
def _gpu_step(mlp_data, to_static):
    from paddlelite.device import cuda
    if not cuda.is_available():
        pytest.skip("needs an NVIDIA GPU with CuPy")
    import cupy
    paddle.set_device("gpu")
    try:
        step = _eager_step(_mlp, *mlp_data, to_static=to_static)
    finally:
        paddle.set_device("cpu")

    def synced():
        step()
        cupy.cuda.Device().synchronize()
    synced()
    return synced


@pytest.mark.gpu
@pytest.mark.benchmark(group="to_static plan: MLP train step, batch 128, GPU")
def test_mlp_step_eager_gpu(benchmark, mlp_data):
    benchmark(_gpu_step(mlp_data, to_static=False))


@pytest.mark.gpu
@pytest.mark.benchmark(group="to_static plan: MLP train step, batch 128, GPU")
def test_mlp_step_to_static_gpu(benchmark, mlp_data):
    benchmark(_gpu_step(mlp_data, to_static=True))
