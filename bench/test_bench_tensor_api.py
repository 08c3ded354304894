"""einsum and scatter-reduce (put_along_axis) speed, side by side with PyTorch (CPU) and NumPy.

Run: pytest bench/test_bench_tensor_api.py --benchmark-only --benchmark-group-by=group
"""
import numpy as np
import pytest

import paddlelite as paddle

torch = pytest.importorskip("torch")
torch.set_num_threads(1)

RNG = np.random.default_rng(0)
A = RNG.standard_normal((16, 64, 48)).astype(np.float32)
B = RNG.standard_normal((16, 48, 32)).astype(np.float32)
EQUATION = "bij,bjk->bik"
INDEX = RNG.integers(0, 16, size=(1, 100000))
VALUES = RNG.standard_normal((1, 100000)).astype(np.float32)


@pytest.mark.benchmark(group="einsum bij,bjk->bik")
def test_einsum_paddlelite(benchmark):
    a, b = paddle.to_tensor(A), paddle.to_tensor(B)
    benchmark(paddle.einsum, EQUATION, a, b)


@pytest.mark.benchmark(group="einsum bij,bjk->bik")
def test_einsum_torch(benchmark):
    a, b = torch.from_numpy(A), torch.from_numpy(B)
    benchmark(torch.einsum, EQUATION, a, b)


@pytest.mark.benchmark(group="einsum bij,bjk->bik")
def test_einsum_numpy(benchmark):
    benchmark(np.einsum, EQUATION, A, B)


@pytest.mark.benchmark(group="scatter amax, 1e5 values into 16 bins")
def test_put_along_axis_paddlelite(benchmark):
    x, i, v = paddle.zeros([1, 16]), paddle.to_tensor(INDEX), paddle.to_tensor(VALUES)
    benchmark(paddle.put_along_axis, x, i, v, 1, "amax", broadcast=False)


@pytest.mark.benchmark(group="scatter amax, 1e5 values into 16 bins")
def test_scatter_reduce_torch(benchmark):
    x, i, v = torch.zeros(1, 16), torch.from_numpy(INDEX), torch.from_numpy(VALUES)
    benchmark(torch.scatter_reduce, x, 1, i, v, "amax")
