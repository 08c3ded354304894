"""Eager per-op overhead and a small MLP's forward+backward, side by side with PyTorch (CPU).
With BENCH_DEVICE=gpu both run on the GPU: the tiny add then measures the host-side cost of launching one op.

Run: pytest bench/test_bench_eager.py --benchmark-only --benchmark-group-by=group
Results with machine, date and commit go to bench/results/.
"""
import os

import numpy as np
import pytest

import paddlelite as paddle

torch = pytest.importorskip("torch")
torch.set_num_threads(1)
GPU = os.environ.get("BENCH_DEVICE", "cpu") == "gpu"


@pytest.fixture(scope="module", autouse=True)  # before the module's data fixtures
def _device():
    if GPU and not (paddle.device.cuda.device_count() and torch.cuda.is_available()):
        pytest.skip("BENCH_DEVICE=gpu needs a GPU for both paddlelite and PyTorch")
    paddle.set_device("gpu" if GPU else "cpu")
    torch.set_default_device("cuda" if GPU else "cpu")
    yield
    torch.set_default_device("cpu")


@pytest.fixture(scope="module")
def tiny():
    a = np.ones(4, np.float32)
    return {
        "pl_grad": (paddle.to_tensor(a, stop_gradient=False), paddle.to_tensor(a)),
        "pl_nograd": (paddle.to_tensor(a), paddle.to_tensor(a)),
        "torch_grad": (torch.ones(4, requires_grad=True), torch.ones(4)),
        "torch_nograd": (torch.ones(4), torch.ones(4)),
        "numpy": (a, a.copy()),
    }


@pytest.mark.benchmark(group="tiny add, grad recorded")
def test_add_paddlelite_grad(benchmark, tiny):
    a, b = tiny["pl_grad"]
    benchmark(paddle.add, a, b)


@pytest.mark.benchmark(group="tiny add, grad recorded")
def test_add_torch_grad(benchmark, tiny):
    a, b = tiny["torch_grad"]
    benchmark(torch.add, a, b)


@pytest.mark.benchmark(group="tiny add, no grad")
def test_add_paddlelite_nograd(benchmark, tiny):
    a, b = tiny["pl_nograd"]
    benchmark(paddle.add, a, b)


@pytest.mark.benchmark(group="tiny add, no grad")
def test_add_torch_nograd(benchmark, tiny):
    a, b = tiny["torch_nograd"]
    benchmark(torch.add, a, b)


@pytest.mark.benchmark(group="tiny add, no grad")
def test_add_numpy(benchmark, tiny):
    a, b = tiny["numpy"]
    benchmark(np.add, a, b)


def _mlp_weights(rng, sizes=(64, 128, 128, 10)):
    return [(rng.standard_normal((i, o)).astype(np.float32) * 0.1, np.zeros(o, np.float32))
            for i, o in zip(sizes[:-1], sizes[1:])]


@pytest.fixture(scope="module")
def mlp_data():
    rng = np.random.default_rng(0)
    return _mlp_weights(rng), rng.standard_normal((32, 64)).astype(np.float32)


@pytest.mark.benchmark(group="MLP 64-128-128-10 fwd+bwd, batch 32")
def test_mlp_paddlelite(benchmark, mlp_data):
    weights, x = mlp_data
    params = [(paddle.to_tensor(w, stop_gradient=False), paddle.to_tensor(b, stop_gradient=False))
              for w, b in weights]
    xt = paddle.to_tensor(x)

    def step():
        h = xt
        for k, (w, b) in enumerate(params):
            h = paddle.matmul(h, w) + b
            if k < len(params) - 1:
                h = paddle.maximum(h, paddle.zeros_like(h))
        loss = paddle.mean(h * h)
        loss.backward()
        for w, b in params:
            w.clear_gradient(False)
            b.clear_gradient(False)

    benchmark(step)


@pytest.mark.benchmark(group="MLP 64-128-128-10 fwd+bwd, batch 32")
def test_mlp_torch(benchmark, mlp_data):
    weights, x = mlp_data
    params = [(torch.tensor(w, requires_grad=True), torch.tensor(b, requires_grad=True)) for w, b in weights]
    xt = torch.tensor(x)

    def step():
        h = xt
        for k, (w, b) in enumerate(params):
            h = h @ w + b
            if k < len(params) - 1:
                h = torch.maximum(h, torch.zeros_like(h))
        loss = (h * h).mean()
        loss.backward()
        for w, b in params:
            w.grad = None
            b.grad = None

    benchmark(step)
