"""The CPU thread policy (device/threads.py): NumPy's BLAS runs one thread between large products; a large
product gets the cores other processes leave, up to FLAGS_paddle_num_threads (Paddle's flag, mirrored)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.device import threads
from tests.differential import differential, raises

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
needs_blas = pytest.mark.skipif(not threads._pools, reason="threadpoolctl finds no BLAS library under NumPy")


@pytest.fixture
def flag():
    """Restores FLAGS_paddle_num_threads after the test."""
    before = paddle.get_flags("FLAGS_paddle_num_threads")
    yield
    paddle.set_flags(before)


@differential(expected={"set": {"FLAGS_paddle_num_threads": 3}})
def test_num_threads_flag_round_trip(paddle):
    before = paddle.get_flags(["FLAGS_paddle_num_threads"])
    paddle.set_flags({"FLAGS_paddle_num_threads": 3})
    got = paddle.get_flags(["FLAGS_paddle_num_threads"])
    paddle.set_flags(before)
    return {"set": got}


@differential(expected={"FLAGS_paddle_num_threads": 0})
def test_num_threads_below_one_reads_back_as_set(paddle):
    before = paddle.get_flags(["FLAGS_paddle_num_threads"])
    paddle.set_flags({"FLAGS_paddle_num_threads": 0})
    got = paddle.get_flags(["FLAGS_paddle_num_threads"])
    paddle.set_flags(before)
    return got


def test_num_threads_below_one_means_one(flag):
    paddle.set_flags({"FLAGS_paddle_num_threads": 0})  # Paddle's SetNumThreads: max(n, 1)
    assert threads.num_threads() == 1 and threads.wide_from == float("inf")


@differential(expected={"flag": {"FLAGS_paddle_num_threads": 5}})
def test_core_set_num_threads_leaves_the_flag(paddle):
    before = paddle.get_flags(["FLAGS_paddle_num_threads"])
    paddle.set_flags({"FLAGS_paddle_num_threads": 5})
    paddle.base.core.set_num_threads(3)  # Paddle's math library threads, not its flag
    flag = paddle.get_flags(["FLAGS_paddle_num_threads"])
    paddle.set_flags(before)
    return {"flag": flag}


@differential(expected=raises(TypeError))
def test_core_set_num_threads_takes_an_int(paddle):
    paddle.base.core.set_num_threads("2")


def test_core_set_num_threads_sets_the_policy(flag):
    paddle.base.core.set_num_threads(1)
    assert threads.num_threads() == 1 and threads.wide_from == float("inf")


@pytest.mark.parametrize("load, own, cores, limit, expected", [
    (0.1, 0.0, 2, 2, 2),    # an idle machine: every core
    (1.2, 1.0, 2, 2, 2),    # the load is this process's own
    (3.0, 1.0, 2, 8, 1),    # two other busy processes on two cores: one thread
    (2.6, 0.0, 8, 8, 5),    # the cores the others leave
    (0.0, 0.0, 16, 4, 4),   # never more than FLAGS_paddle_num_threads
    (40.0, 0.0, 4, 4, 1),   # never fewer than one
])
def test_threads_for_counts_the_cores_others_leave(load, own, cores, limit, expected):
    assert threads.threads_for(load, own, cores, limit) == expected


@needs_blas
def test_blas_runs_one_thread_between_products():
    assert [lib.num_threads for lib in threads._pools] == [1] * len(threads._pools)


@needs_blas
def test_wide_uses_the_free_cores_then_one_again(flag, monkeypatch):
    paddle.set_flags({"FLAGS_paddle_num_threads": 2})
    monkeypatch.setattr(threads, "_threads_now", lambda: 2)
    with threads.wide():
        inside = [lib.num_threads for lib in threads._pools]
    assert inside == [2] * len(threads._pools)
    assert [lib.num_threads for lib in threads._pools] == [1] * len(threads._pools)


@needs_blas
@pytest.mark.parametrize("x_shape, y_shape, wide", [
    ((128, 128), (128, 128), True),            # 2 M multiply-adds: LARGE_GEMM
    ((64, 64), (64, 64), False),
    ((4, 32, 128), (128, 128), True),          # rows of a batch times one matrix: one product of 128 rows
    ((8, 64, 64), (8, 64, 64), False),         # a batch of small products stays small, whatever its total
])
def test_only_large_products_go_wide(cpu_device, flag, monkeypatch, x_shape, y_shape, wide):
    paddle.set_flags({"FLAGS_paddle_num_threads": 2})
    entered = []
    real = threads.wide
    monkeypatch.setattr(threads, "wide", lambda: entered.append(1) or real())
    x, y = paddle.ones(x_shape), paddle.ones(y_shape)
    np.testing.assert_array_equal(paddle.matmul(x, y).numpy(), np.full(x_shape[:-1] + y_shape[-1:], x_shape[-1]))
    assert bool(entered) is wide


def test_one_thread_flag_never_goes_wide(flag):
    paddle.set_flags({"FLAGS_paddle_num_threads": 1})
    assert threads.wide_from == float("inf")


def _flag_in_a_fresh_process(value):
    env = dict(os.environ, PYTHONPATH=ROOT, FLAGS_paddle_num_threads=value)
    code = "import paddlelite; print(paddlelite.get_flags('FLAGS_paddle_num_threads'))"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)


def test_the_environment_sets_the_flag():
    out = _flag_in_a_fresh_process("3")
    assert out.stdout.strip() == "{'FLAGS_paddle_num_threads': 3}", out.stderr


def test_without_the_environment_the_flag_is_the_blas_choice():
    """The flag starts from the threads NumPy's BLAS chose when it loaded; the BLAS then runs one between products."""
    code = ("import numpy, threadpoolctl; "
            "chosen = max([i['num_threads'] for i in threadpoolctl.threadpool_info()] or [1]); "
            "import paddlelite; from paddlelite.device import threads; "
            "print(chosen, paddlelite.get_flags('FLAGS_paddle_num_threads')['FLAGS_paddle_num_threads'], "
            "max([lib.num_threads for lib in threads._pools] or [1]))")
    env = {k: v for k, v in os.environ.items() if k != "FLAGS_paddle_num_threads"}
    out = subprocess.run([sys.executable, "-c", code], env=dict(env, PYTHONPATH=ROOT), capture_output=True, text=True)
    chosen, flag, between = out.stdout.split()
    assert flag == chosen and between == "1", out
