"""The thread-safety contract (README, "Thread safety"): each promise hammered by several threads with a tiny
switch interval, so the interpreter changes threads every few bytecodes."""
import sys
import threading
import time

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


def run_threads(target, n=4, timeout=60):
    """Run target(k) in n threads started together; the results by k (a thread's exception re-raised here, a
    thread still running after `timeout` seconds a failure)."""
    start = threading.Barrier(n)
    results, errors = [None] * n, []

    def work(k):
        try:
            start.wait()
            results[k] = target(k)
        except BaseException as e:  # noqa: BLE001 -- handed to the test's thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(n)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + timeout
    for t in threads:
        t.join(max(deadline - time.monotonic(), 0))
    assert not any(t.is_alive() for t in threads), f"threads still running after {timeout} s: a hang"
    if errors:
        raise errors[0]
    return results


def in_new_thread(fn):
    return run_threads(lambda _: fn(), n=1)[0]


# ---- grad mode: per thread ------------------------------------------------------------------------------------

def test_no_grad_in_one_thread_leaves_another_recording():
    x = paddle.ones([3])
    x.stop_gradient = False

    def work(k):
        with paddle.no_grad() if k % 2 else paddle.enable_grad():
            return {(x * 2).stop_gradient for _ in range(300)}

    assert run_threads(work) == [{False}, {True}, {False}, {True}]


# ---- models and tensors: inference from several threads, backward into shared parameters --------------------

def _small_model():
    paddle.seed(3)
    model = paddle.nn.Sequential(paddle.nn.Conv2D(2, 4, 3, padding=1), paddle.nn.BatchNorm2D(4), paddle.nn.ReLU(),
                                 paddle.nn.Dropout(0.5), paddle.nn.Flatten(), paddle.nn.Linear(4 * 5 * 5, 3))
    model.eval()
    return model


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "to_static"])
def test_a_model_in_eval_mode_serves_inference_from_threads(traced):
    model = _small_model()
    if traced:
        model = paddle.jit.to_static(model)
    inputs = [paddle.to_tensor(np.random.default_rng(k).standard_normal((2, 2, 5, 5)).astype("float32"))
              for k in range(8)]
    expected = [model(x).numpy() for x in inputs]

    def work(k):
        return all(np.array_equal(model(inputs[j]).numpy(), expected[j]) for _ in range(5) for j in range(8))

    assert run_threads(work) == [True] * 4


def test_backward_in_threads_adds_every_gradient_into_shared_parameters():
    layer = paddle.nn.Linear(3, 2)
    inputs = [paddle.full([4, 3], float(k + 1)) for k in range(4)]

    def work(k):
        for _ in range(10):
            layer(inputs[k]).sum().backward()

    run_threads(work)
    # d(sum(x W + b))/dW = column sums of x, repeated for each output; each thread's 10 passes add up
    expected = sum(10 * inputs[k].numpy().sum(0) for k in range(4))
    np.testing.assert_allclose(layer.weight.grad.numpy(), np.stack([expected] * 2, 1), rtol=1e-6)
    np.testing.assert_allclose(layer.bias.grad.numpy(), [4 * 10 * 4] * 2)


def test_an_executor_runs_an_inference_program_from_threads():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 3], "float32")
            out = paddle.nn.functional.softmax(paddle.static.nn.fc(x, 4, activation="relu"))
        exe = paddle.static.Executor("cpu")
        exe.run(startup)
    finally:
        paddle.disable_static()
    feeds = [np.random.default_rng(k).standard_normal((5, 3)).astype("float32") for k in range(8)]
    expected = [exe.run(main, feed={"x": f}, fetch_list=[out])[0] for f in feeds]

    def work(k):
        return all(np.array_equal(exe.run(main, feed={"x": feeds[j]}, fetch_list=[out])[0], expected[j])
                   for _ in range(5) for j in range(8))

    assert run_threads(work) == [True] * 4


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
                with paddle.static.program_guard(paddle.static.Program()):
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
            before = paddle.static.default_main_program()
            with paddle.static.program_guard(main, startup):
                x = paddle.static.data(f"x{k}", [2], "float32")
                for _ in range(30):
                    x = x + float(k)
            return main, before, paddle.static.default_main_program()
        finally:
            paddle.disable_static()

    results = run_threads(work)
    for k, (main, before, after) in enumerate(results):
        assert len(main.global_block().ops) == 30
        assert [n for n in main.global_block().vars if n.startswith("x")] == [f"x{k}"]
        assert before is results[0][1] and after is before  # each thread back on the shared default program



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


# ---- a DataLoader iterator shared by threads: each batch goes to one of them ----------------------------------

class Numbers(paddle.io.Dataset):
    def __getitem__(self, i):
        return np.array([i], np.int64)

    def __len__(self):
        return 400


class NumberStream(paddle.io.IterableDataset):
    def __iter__(self):
        yield from (np.array([i], np.int64) for i in range(400))


@pytest.mark.parametrize("dataset, num_workers", [(Numbers(), 2), (NumberStream(), 0)], ids=["workers", "iterable"])
def test_threads_sharing_a_dataloader_iterator_get_every_batch_once(dataset, num_workers):
    batches = iter(paddle.io.DataLoader(dataset, batch_size=8, num_workers=num_workers))
    per_thread = run_threads(lambda k: [int(v) for batch in batches for v in batch.numpy().ravel()], n=3, timeout=30)
    assert sorted(sum(per_thread, [])) == list(range(400))
