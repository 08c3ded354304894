"""paddle.distributed on the CPU with 2 MPI ranks: each test launches `mpiexec -n 2 python <worker>`
(the workers in tests/distributed/ check their results themselves and exit non-zero on a mismatch),
bounded by a timeout so a hang fails instead of blocking CI. Skips when mpi4py or mpiexec is missing."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKERS = os.path.join(ROOT, "tests", "distributed")
TIMEOUT = 240


def _mpiexec():
    pytest.importorskip("mpi4py")
    exe = shutil.which("mpiexec")
    if exe is None:
        pytest.skip("mpiexec is not on PATH (pip install mpich)")
    return exe


def _env():
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PADDLELITE_DEVICE="cpu", OMP_NUM_THREADS="1")
    return env


def run(args, timeout=TIMEOUT, **kw):
    try:
        return subprocess.run(args, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{' '.join(args)} did not finish within {timeout}s (a hang):\n{e.stdout}\n{e.stderr}")


def mpirun(worker, n=2, *args, timeout=TIMEOUT):
    return run([_mpiexec(), "-n", str(n), sys.executable, os.path.join(WORKERS, worker), *args], timeout=timeout)


def ok(proc):
    assert proc.returncode == 0, f"exit code {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return proc.stdout


def test_collectives_match_numpy():
    out = ok(mpirun("check_collectives.py"))
    assert "rank 0: collectives OK" in out and "rank 1: collectives OK" in out


def test_data_parallel_matches_one_process_with_the_doubled_batch_eager_and_static():
    out = ok(mpirun("check_data_parallel.py"))
    assert "rank 0: data parallel OK" in out and "rank 1: data parallel OK" in out


# ---- DistributedBatchSampler: Paddle's sharding, checked against real Paddle ----------------------
from tests.differential import differential, raises  # noqa: E402


@differential(expected={"r0": [[0, 1, 2], [6, 7, 8], [12]], "r1": [[3, 4, 5], [9, 10, 11], [0]], "len": 3})
def test_distributed_batch_sampler_shards_like_paddle(paddle):
    data = list(range(13))
    shards = {f"r{r}": list(paddle.io.DistributedBatchSampler(data, 3, num_replicas=2, rank=r)) for r in range(2)}
    shards["len"] = len(paddle.io.DistributedBatchSampler(data, 3, num_replicas=2, rank=0))
    return shards


@differential()
def test_distributed_batch_sampler_shuffle_and_drop_last_like_paddle(paddle):
    out = {}
    for r in range(3):
        s = paddle.io.DistributedBatchSampler(list(range(20)), 4, num_replicas=3, rank=r, shuffle=True, drop_last=True)
        s.set_epoch(5)
        out[f"r{r}"] = list(s)
        out[f"len{r}"] = len(s)
        out[f"next_epoch{r}"] = list(s)  # the epoch advanced
    return out


@differential(expected=raises(AssertionError))
def test_distributed_batch_sampler_bad_batch_size(paddle):
    paddle.io.DistributedBatchSampler(list(range(4)), 0)


@differential(expected={"w": "float64", "b": "float64"})
def test_linear_takes_the_default_dtype(paddle):  # data-parallel float64 runs rely on it
    previous = paddle.get_default_dtype()
    paddle.set_default_dtype("float64")
    try:
        layer = paddle.nn.Linear(2, 3)
        return {"w": str(layer.weight.dtype).split(".")[-1], "b": str(layer.bias.dtype).split(".")[-1]}
    finally:
        paddle.set_default_dtype(previous)
