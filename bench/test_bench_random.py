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


_RNG = np.random.default_rng(0)
# group -> library -> one draw of SHAPE float32 values
_DRAWS = {
    "uniform 1e6 float32": {"paddlelite": lambda: paddle.rand(SHAPE), "torch": lambda: torch.rand(SHAPE),
                            "numpy": lambda: _RNG.random(SHAPE, np.float32)},
    "normal 1e6 float32": {"paddlelite": lambda: paddle.randn(SHAPE), "torch": lambda: torch.randn(SHAPE),
                           "numpy": lambda: _RNG.standard_normal(SHAPE, np.float32)},
}


@pytest.mark.parametrize(("group", "library"), [(g, lib) for g, libs in _DRAWS.items() for lib in libs])
def test_draws(benchmark, group, library):
    benchmark.group = group
    benchmark(_DRAWS[group][library])


@pytest.mark.benchmark(group="dropout 0.5 of 1e6 float32")
def test_dropout_paddlelite(benchmark):
    x = paddle.ones(SHAPE)
    benchmark(paddle.nn.functional.dropout, x, 0.5)


@pytest.mark.benchmark(group="dropout 0.5 of 1e6 float32")
def test_dropout_torch(benchmark):
    x = torch.ones(SHAPE)
    benchmark(torch.nn.functional.dropout, x, 0.5)
