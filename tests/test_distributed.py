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
