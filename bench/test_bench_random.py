"""Random draws (framework/random.py's counter-based streams) beside PyTorch's and NumPy's generators:
uniform and normal samples and a dropout of a million float32 values, on the current device.

Run: pytest bench/test_bench_random.py --benchmark-only --benchmark-group-by=group
"""
import numpy as np
import pytest

import paddlelite as paddle

torch = pytest.importorskip("torch")
torch.set_num_threads(1)

SHAPE = [1000, 1000]


@pytest.mark.benchmark(group="uniform 1e6 float32")
def test_rand_paddlelite(benchmark):
    benchmark(paddle.rand, SHAPE)


@pytest.mark.benchmark(group="uniform 1e6 float32")
def test_rand_torch(benchmark):
    benchmark(torch.rand, SHAPE)


@pytest.mark.benchmark(group="uniform 1e6 float32")
def test_rand_numpy(benchmark):
    benchmark(np.random.default_rng(0).random, SHAPE, np.float32)


@pytest.mark.benchmark(group="normal 1e6 float32")
def test_randn_paddlelite(benchmark):
    benchmark(paddle.randn, SHAPE)


@pytest.mark.benchmark(group="normal 1e6 float32")
def test_randn_torch(benchmark):
    benchmark(torch.randn, SHAPE)


@pytest.mark.benchmark(group="normal 1e6 float32")
def test_randn_numpy(benchmark):
    benchmark(np.random.default_rng(0).standard_normal, SHAPE, np.float32)


@pytest.mark.benchmark(group="dropout 0.5 of 1e6 float32")
def test_dropout_paddlelite(benchmark):
    x = paddle.ones(SHAPE)
    benchmark(paddle.nn.functional.dropout, x, 0.5)


@pytest.mark.benchmark(group="dropout 0.5 of 1e6 float32")
def test_dropout_torch(benchmark):
    x = torch.ones(SHAPE)
    benchmark(torch.nn.functional.dropout, x, 0.5)
