"""CPU threads: paddlelite with its default thread policy, with one thread, with the BLAS's own default threads
for every product (paddlelite before the policy), and PyTorch with its defaults, in the same run.

bench/conftest.py pins one thread for the other benchmarks (before the libraries load); here each library gets
back the thread count it chooses in a fresh process without those variables (asked once, in a subprocess).

* a training step of `python -m paddlelite.examples.train`'s model: MLP 64-128-128-10, batch 64, SGD
* one float32 matrix product n x n x n for n = 128 (below the policy's threshold), 256, 512 and 1024

Run: pytest bench/test_bench_threads.py --benchmark-only --benchmark-group-by=group
Results with machine, date and commit: bench/results/2026-11-28-threads-cpu-2core.md.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import paddlelite as paddle
from paddlelite.examples.train import build_model
from test_bench_train import _eager_step, _torch_step

torch = pytest.importorskip("torch")
PINNED = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


@pytest.fixture(scope="module")
def defaults():
    """{"paddlelite": FLAGS_paddle_num_threads, "torch": torch.get_num_threads()} in a process without the pins."""
    env = {k: v for k, v in os.environ.items() if k not in PINNED}
    code = ("import json, paddlelite, torch; print(json.dumps({'paddlelite': paddlelite.get_flags("
            "'FLAGS_paddle_num_threads')['FLAGS_paddle_num_threads'], 'torch': torch.get_num_threads()}))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture
def threads(defaults, request):
    """The configuration named by the test's parameter; the session's settings come back afterwards."""
    config = request.param
    flag, torch_threads = paddle.get_flags("FLAGS_paddle_num_threads"), torch.get_num_threads()
    if config == "torch_default":
        torch.set_num_threads(defaults["torch"])
        yield config
    elif config == "paddlelite_blas_default":  # every product with the BLAS's own threads: no policy
        paddle.set_flags({"FLAGS_paddle_num_threads": 1})
        with threadpool_limits(limits=defaults["paddlelite"], user_api="blas"):
            yield config
    else:
        n = defaults["paddlelite"] if config == "paddlelite_default" else 1
        paddle.set_flags({"FLAGS_paddle_num_threads": n})
        yield config
    paddle.set_flags(flag)
    torch.set_num_threads(torch_threads)


CONFIGS = ["paddlelite_default", "paddlelite_one_thread", "paddlelite_blas_default", "torch_default"]
B = 64


@pytest.fixture(scope="module")
def digits_batch():
    rng = np.random.default_rng(0)
    return rng.random((B, 64), dtype=np.float32), rng.integers(0, 10, B)


def _torch_mlp():  # examples.train's build_model
    return torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 128),
                               torch.nn.ReLU(), torch.nn.Linear(128, 10))


@pytest.mark.benchmark(group="threads: examples.train's MLP 64-128-128-10, b64, one SGD step")
@pytest.mark.parametrize("threads", CONFIGS, indirect=True)
def test_train_step(benchmark, threads, digits_batch):
    if threads == "torch_default":
        step = _torch_step(_torch_mlp, *digits_batch)
    else:
        step = _eager_step(lambda: build_model(paddle), *digits_batch)
    benchmark.name = threads
    benchmark(step)


@pytest.mark.parametrize("n", [128, 256, 512, 1024])
@pytest.mark.parametrize("threads", CONFIGS, indirect=True)
def test_matmul(benchmark, threads, n):
    rng = np.random.default_rng(0)
    a, b = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
    if threads == "torch_default":
        fn, args = torch.matmul, (torch.tensor(a), torch.tensor(b))
    else:
        fn, args = paddle.matmul, (paddle.to_tensor(a), paddle.to_tensor(b))
    benchmark.group = f"threads: float32 matmul {n}x{n}x{n}"
    benchmark.name = threads
    benchmark(fn, *args)
