"""The thread-safety contract (README, "Thread safety"): each promise hammered by several threads with a tiny
switch interval, so the interpreter changes threads every few bytecodes."""
import sys
import threading

import numpy as np
import pytest

import paddlelite as paddle
from tests.differential import differential


@pytest.fixture(autouse=True)
def tiny_switch_interval():
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(previous)


def run_threads(target, n=4):
    """Run target(k) in n threads started together; the results by k (a thread's exception re-raised here)."""
    start = threading.Barrier(n)
    results, errors = [None] * n, []

    def work(k):
        try:
            start.wait()
            results[k] = target(k)
        except BaseException as e:  # noqa: BLE001 -- handed to the test's thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def in_new_thread(fn):
    return run_threads(lambda _: fn(), n=1)[0]


# ---- static/eager mode: per thread ----------------------------------------------------------------------------

@differential(expected={"worker before": True, "worker after": True, "new thread": False,
                        "thread's own disable_static": True, "main after it": False, "new thread, main eager": True})
def test_static_mode_is_per_thread_and_new_threads_start_in_the_chosen_one(paddle):
    ready, go, worker = threading.Event(), threading.Event(), {}

    def early_worker():  # a thread already using the library keeps its mode when another enables static
        worker["before"] = paddle.in_dynamic_mode()
        ready.set()
        go.wait()
        worker["after"] = paddle.in_dynamic_mode()

    w = threading.Thread(target=early_worker)
    w.start()
    ready.wait()
    paddle.enable_static()
    go.set()
    w.join()
    new_thread = in_new_thread(paddle.in_dynamic_mode)

    def own_disable():
        paddle.disable_static()
        return paddle.in_dynamic_mode()

    own = in_new_thread(own_disable)
    main_after = paddle.in_dynamic_mode()
    paddle.disable_static()
    return {"worker before": worker["before"], "worker after": worker["after"], "new thread": new_thread,
            "thread's own disable_static": own, "main after it": main_after,
            "new thread, main eager": in_new_thread(paddle.in_dynamic_mode)}


def test_enable_static_in_one_thread_leaves_another_threads_ops_eager():
    def work(k):
        if k == 0:
            paddle.enable_static()
            try:
                x = paddle.static.data("x", [2], "float32")
                return [type(x + 1).__name__ for _ in range(200)]
            finally:
                paddle.disable_static()
        x = paddle.ones([2])
        return [type(x + 1).__name__ for _ in range(200)]

    results = run_threads(work)
    assert set(results[0]) == {"Variable"}
    assert all(set(r) == {"Tensor"} for r in results[1:])


def test_a_to_static_trace_leaves_other_threads_eager():
    tracing, checked, seen = threading.Event(), threading.Event(), {}

    @paddle.jit.to_static
    def f(x):
        tracing.set()
        assert checked.wait(10)
        return x * 2

    def eager():
        assert tracing.wait(10)
        seen["type"] = type(paddle.ones([2]) + 1).__name__
        seen["dynamic"] = paddle.in_dynamic_mode()
        checked.set()

    t = threading.Thread(target=eager)
    t.start()
    np.testing.assert_array_equal(f(paddle.ones([2])).numpy(), [2, 2])
    t.join()
    assert seen == {"type": "Tensor", "dynamic": True}


def test_a_to_static_function_called_from_threads_returns_each_callers_results():
    traces = []

    @paddle.jit.to_static
    def f(x, y):
        traces.append(1)  # runs only while tracing
        return paddle.matmul(x, y) + x.sum()

    def work(k):
        wrong = 0
        for j in range(20):
            x = paddle.full([2, 2], float(k * 100 + j))
            y = paddle.eye(2) * (k + 1)
            wrong += not np.allclose(f(x, y).numpy(), x.numpy() @ y.numpy() + x.numpy().sum())
        return wrong

    assert run_threads(work) == [0, 0, 0, 0]
    assert len(traces) == 1  # the threads' first calls at once traced the one signature once


def test_a_to_static_layer_trains_from_threads_with_each_callers_gradients():
    layer = paddle.jit.to_static(paddle.nn.Linear(3, 2))

    def work(k):
        x = paddle.full([4, 3], float(k + 1))
        x.stop_gradient = False
        for _ in range(10):
            out = layer(x)
            (dx,) = paddle.grad(out.sum(), x)
            expected = np.tile(layer.weight.numpy().sum(1), (4, 1))
            if not np.allclose(dx.numpy(), expected, rtol=1e-6):
                return False
        return True

    assert run_threads(work) == [True] * 4


def test_program_guard_in_one_thread_never_redirects_another_threads_ops():
    def work(k):
        paddle.enable_static()
        try:
            main, startup = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, startup):
                x = paddle.static.data(f"x{k}", [2], "float32")
                for _ in range(30):
                    x = x + float(k)
            return main, paddle.static.default_main_program()
        finally:
            paddle.disable_static()

    results = run_threads(work)
    for k, (main, after) in enumerate(results):
        assert len(main.global_block().ops) == 30
        assert [n for n in main.global_block().vars if n.startswith("x")] == [f"x{k}"]
        assert after is paddle.static.default_main_program()  # each thread back on the shared default program



# ---- the random generator: each draw reserves an offset of its own --------------------------------------------

@pytest.mark.parametrize("draw", [lambda: paddle.rand([4]),
                                  lambda: paddle.nn.functional.dropout(paddle.ones([16]), 0.5)],  # its mask
                         ids=["rand", "dropout"])
def test_threads_drawing_at_once_get_the_draws_of_one_sequence_each_once(draw):
    paddle.seed(7)
    sequential = [draw().numpy().tobytes() for _ in range(1000)]
    paddle.seed(7)
    threaded = run_threads(lambda k: [draw().numpy().tobytes() for _ in range(250)])
    assert sorted(sum(threaded, [])) == sorted(sequential)  # no offset drawn twice, none skipped
