"""paddle.sparse and paddle.distribution on the CPU: paddlelite against real Paddle 3.3.1 in the same run.

* SubmConv3D(16 -> 16, 3x3x3) forward and backward on a point cloud of ~19k sites in a 64^3 grid
* sparse matmul (CSR 2000 x 2000, 1% dense, times a dense 2000 x 64): Paddle has no CPU kernel (skipped there)
* Gamma(2.5).rsample of 100k draws (reparameterised: paddlelite's inverse-CDF draws; Paddle's gamma draws)

Run: pytest bench/test_bench_sparse.py --benchmark-only --benchmark-group-by=group
"""

import numpy as np
import pytest

import paddlelite
from bench.references import LIBS

RNG = np.random.default_rng(0)
SITES = np.unique(RNG.integers(0, 64, (20000, 3)), axis=0)
INDICES = np.concatenate([np.zeros((len(SITES), 1), np.int64), SITES], 1).T
FEATURES = RNG.uniform(-1, 1, (len(SITES), 16)).astype(np.float32)
MATRIX = (RNG.uniform(size=(2000, 2000)) < 0.01) * RNG.uniform(-1, 1, (2000, 2000))

@pytest.mark.parametrize("lib", LIBS)
def test_subm_conv3d_step(benchmark, lib):
    paddle = LIBS[lib]()
    benchmark.group = f"SubmConv3D 16->16 k3, {len(SITES)} sites, forward + backward"
    conv = paddle.sparse.nn.SubmConv3D(16, 16, 3, padding=1)

    def step():
        x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(INDICES), paddle.to_tensor(FEATURES),
                                            [1, 64, 64, 64, 16], stop_gradient=False)
        y = conv(x)
        y.backward(y)
    step()  # (imports SciPy, builds the first rulebook)
    benchmark(step)


def test_sparse_matmul(benchmark):
    pytest.importorskip("scipy.sparse")
    benchmark.group = "sparse CSR 2000x2000 (1%) @ dense 2000x64"
    x = paddlelite.to_tensor(MATRIX.astype(np.float32)).to_sparse_csr()
    y = paddlelite.to_tensor(RNG.uniform(-1, 1, (2000, 64)).astype(np.float32))
    benchmark(paddlelite.sparse.matmul, x, y)


@pytest.mark.parametrize("lib", LIBS)
def test_gamma_rsample(benchmark, lib):
    paddle = LIBS[lib]()
    benchmark.group = "Gamma(2.5, 1).rsample, 100k draws"
    gamma = paddle.distribution.Gamma(paddle.full([100000], 2.5), paddle.ones([100000]))
    benchmark(gamma.rsample)
