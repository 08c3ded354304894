"""CUDA-graph replay of to_static steps (BuildStrategy.allow_cuda_graph_capture): a repeated step is captured
once and replayed, and training with replays computes what running the ops computes.

The replay logic is checked everywhere against a recording stand-in for CuPy's streams and graphs; the real
capture and replay run on a GPU (gpu-marked)."""
import types

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import nn
from paddlelite.device import graph_capture
from paddlelite.device.graph_capture import CaptureRefused, GraphReplay
from paddlelite.static import executor as executor_module
from paddlelite.utils import unique_name
from tests.test_jit_capture import _MODELS  # the models the capture-readiness tests train


class _FakeCupy:
    """Just enough of cupy.cuda for GraphReplay: pools, allocator scopes, streams that capture, graphs."""

    def __init__(self):
        self.log, self.capturing = [], False
        fake = self

        class Stream:
            def __init__(self, non_blocking=False):
                pass

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def begin_capture(self, mode):
                fake.capturing = True
                fake.log.append("begin")

            def end_capture(self):
                fake.capturing = False
                fake.log.append("end")
                return types.SimpleNamespace(launch=lambda stream: fake.log.append("launch"))

            def record(self):
                return None

            def wait_event(self, event):
                pass

            def is_capturing(self):
                return fake.capturing

        class Allocator:
            def __init__(self, malloc):
                pass

            def __enter__(self):
                fake.log.append("pool")

            def __exit__(self, *exc):
                return False

        self.cuda = types.SimpleNamespace(MemoryPool=lambda: types.SimpleNamespace(malloc=None), Stream=Stream,
                                          using_allocator=Allocator, get_current_stream=Stream)
        self.zeros = np.zeros


def test_a_step_is_captured_when_its_key_repeats_then_replayed():
    xp, runs = _FakeCupy(), []
    replay = GraphReplay(xp, clear=lambda: xp.log.append("clear"))

    def step():
        runs.append("captured" if xp.capturing else "ran")
        return ["out"]

    assert replay.run(step, "a") == ["out"]                   # new key: runs on the step's pool
    assert replay.run(step, "a") == ["out"]                   # repeated: captured, then launched
    assert replay.run(step, "a") == ["out"] and replay.replays == 2
    assert runs == ["ran", "captured"]
    assert xp.log == ["pool", "clear", "pool", "begin", "end", "launch", "launch"]
    replay.run(step, "b")                                     # another key runs the ops again
    assert runs[-1] == "ran" and replay.replays == 2
    replay.run(step, None)                                    # no key (reads a non-array): never captured
    assert runs[-1] == "ran"


def test_inside_an_enclosing_capture_a_step_runs_its_ops_into_it():
    xp, runs = _FakeCupy(), []
    replay = GraphReplay(xp, clear=lambda: None)
    outer = graph_capture.Capture(np)
    stream = types.SimpleNamespace(begin_capture=lambda mode: None, end_capture=lambda: "graph")
    with outer.recording(stream, 1):
        for _ in range(3):
            replay.run(lambda: runs.append("ran"), "a")
    assert runs == ["ran"] * 3 and xp.log == [] and replay.replays == 0


def test_a_refused_capture_runs_the_ops_from_then_on():
    xp, runs = _FakeCupy(), []
    replay = GraphReplay(xp, clear=lambda: None)

    def step():
        if xp.capturing:
            raise CaptureRefused("a CUDA graph cannot replay a step that draws from the global random stream")
        runs.append("ran")
        return ["out"]

    with pytest.warns(RuntimeWarning, match="refused .*global random stream"):
        for _ in range(4):
            assert replay.run(step, "a") == ["out"]
    assert runs == ["ran"] * 4 and replay.replays == 0 and "global random stream" in replay.refused


def test_a_step_whose_capture_is_refused_part_way_runs_on_its_feeds():
    """A capture refused after some ops ran (they freed the feeds they read) is followed by a run of the whole
    step, which must find the call's feeds in place."""
    from tests.test_jit_capture import _linear_step
    xp, step = _FakeCupy(), _linear_step()
    step.graph = GraphReplay(xp, step._drop_results)
    step._replay_key = lambda: "same arrays"
    run_steps = step.plan.run_steps

    def refused_after_the_ops(steps, env):
        run_steps(steps, env)
        if xp.capturing:
            raise CaptureRefused("a CUDA graph cannot replay a step that calls cuBLAS")
    step.plan.run_steps = refused_after_the_ops
    w = np.eye(2, dtype=np.float32)
    for k in range(3):
        x = np.full((2, 2), float(k), np.float32)
        product, doubled = step.run([x, w])
        np.testing.assert_array_equal(doubled, 2 * x)
    assert "cuBLAS" in step.graph.refused and step.graph.replays == 0


def _train(make, shape, graphs, steps=6):
    paddle.seed(7)
    with unique_name.guard():
        layer = make()
    strategy = paddle.static.BuildStrategy()
    strategy.allow_cuda_graph_capture = graphs
    model = paddle.jit.to_static(layer, build_strategy=strategy)
    opt = paddle.optimizer.Adam(1e-2, parameters=model.parameters())
    rng = np.random.default_rng(0)
    losses = []
    for _ in range(steps):  # fresh data every step: a replay must read the new feeds
        x = paddle.to_tensor(rng.standard_normal(shape).astype(np.float32))
        y = paddle.to_tensor(rng.integers(0, 10, shape[0]))
        loss = nn.CrossEntropyLoss()(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    steps = [s for pair in model.forward.concrete_program._steps.values() for s in pair if s is not None]
    replays = sum(s.graph.replays for s in steps if s.graph is not None)
    why = [None if s.graph is None else s.graph.refused for s in steps]  # no GraphReplay, or why it refused
    return losses, [p.numpy() for p in layer.parameters()], (replays, why)


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(_MODELS))
def test_replayed_training_equals_running_the_ops(name):
    paddle.set_device("gpu")
    make, shape = _MODELS[name]
    losses, params, (replays, _) = _train(make, shape, graphs=False)
    g_losses, g_params, (g_replays, why) = _train(make, shape, graphs=True)
    assert replays == 0 and g_replays > 0, why  # forward and backward replayed from the third step on
    np.testing.assert_allclose(g_losses, losses, rtol=1e-6, atol=1e-6)
    for a, b in zip(g_params, params):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


class _DropoutMLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1, self.drop, self.fc2 = nn.Linear(16, 32), nn.Dropout(0.5), nn.Linear(32, 10)

    def forward(self, x):
        return self.fc2(self.drop(nn.functional.relu(self.fc1(x))))


@pytest.mark.gpu
def test_replays_draw_what_running_the_ops_draws():
    """Dropout in a replayed step: each replay draws fresh masks -- the very masks running the ops draws."""
    paddle.set_device("gpu")
    losses, params, _ = _train(_DropoutMLP, (4, 16), graphs=False, steps=8)
    g_losses, g_params, (g_replays, why) = _train(_DropoutMLP, (4, 16), graphs=True, steps=8)
    assert g_replays > 0, why
    np.testing.assert_allclose(g_losses, losses, rtol=1e-6, atol=1e-6)
    for a, b in zip(g_params, params):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    assert len(set(np.round(g_losses, 5))) == len(g_losses)


def _static_training(graphs, steps=6):
    """An MLP trained by the Executor with Adam and a learning-rate schedule; losses, parameters, replays."""
    paddle.seed(11)
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), unique_name.guard():
            x = paddle.static.data("x", [None, 16], "float32")
            y = paddle.static.data("y", [None], "int64")
            loss = nn.CrossEntropyLoss()(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 10))(x), y)
            sched = paddle.optimizer.lr.StepDecay(0.01, step_size=2, gamma=0.5)
            paddle.optimizer.Adam(sched).minimize(loss)
    finally:
        paddle.disable_static()
    strategy = paddle.static.BuildStrategy()
    strategy.allow_cuda_graph_capture = graphs
    compiled = paddle.static.CompiledProgram(main, build_strategy=strategy)
    exe, scope = paddle.static.Executor("gpu"), paddle.static.Scope()
    rng = np.random.default_rng(0)
    losses = []
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for _ in range(steps):
            feed = {"x": rng.standard_normal((4, 16)).astype(np.float32), "y": rng.integers(0, 10, 4)}
            losses.append(float(exe.run(compiled, feed=feed, fetch_list=[loss])[0]))
            sched.step()
    params = [np.array(scope.find_var(p.name).get_tensor()) for p in main.all_parameters()]
    replays = [s.graph.replays for s in exe._replayed.values() if s.graph is not None]
    why = [s.graph.refused for s in exe._replayed.values() if s.graph is not None]
    return losses, params, (sum(replays), why)


@pytest.mark.gpu
def test_executor_replays_the_whole_training_step():
    """Forward, backward and Adam's updates in one graph, the scheduled learning rate read from its fixed array."""
    losses, params, (replays, _) = _static_training(graphs=False)
    g_losses, g_params, (g_replays, why) = _static_training(graphs=True)
    assert replays == 0 and g_replays > 0, why
    np.testing.assert_allclose(g_losses, losses, rtol=1e-6, atol=1e-6)
    for a, b in zip(g_params, params):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


@pytest.mark.gpu
def test_cuda_graph_api_replays_eager_work_on_new_inputs():
    from paddlelite.device.cuda.graphs import CUDAGraph
    paddle.set_device("gpu")
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal((8, 16)).astype(np.float32))
    w = paddle.to_tensor(rng.standard_normal((16, 4)).astype(np.float32))
    paddle.nn.functional.relu(paddle.matmul(x, w))  # warm-up: kernels and the capture stream's cuBLAS workspace
    graph = CUDAGraph()
    graph.capture_begin()
    out = paddle.nn.functional.dropout(paddle.nn.functional.relu(paddle.matmul(x, w)), 0.5)
    graph.capture_end()
    masks = []
    for _ in range(3):
        new = rng.standard_normal((8, 16)).astype(np.float32)
        x.copy_(paddle.to_tensor(new), True)
        graph.replay()
        expected = np.maximum(new @ w.numpy(), 0)
        kept = out.numpy() != 0
        np.testing.assert_allclose(out.numpy()[kept], 2 * expected[kept], rtol=1e-5, atol=1e-5)
        masks.append(kept)
    assert not (masks[0] == masks[1]).all()  # a replay draws fresh numbers
    graph.reset()
    with pytest.raises(RuntimeError, match="nothing is captured"):
        graph.replay()


@pytest.mark.gpu
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "to_static model"])
def test_eager_whole_training_step_captured_by_the_cuda_graph_api(traced):
    """Forward, backward and optimizer step of eager code in one CUDAGraph (PyTorch's whole-network capture),
    replayed on new batches written into the captured inputs: the same parameters as running the steps. A
    to_static model's steps run their ops into the enclosing capture: the whole step is one graph."""
    from paddlelite.device.cuda.graphs import CUDAGraph
    paddle.set_device("gpu")
    rng = np.random.default_rng(0)
    batches = [(rng.standard_normal((4, 16)).astype(np.float32), rng.integers(0, 10, 4)) for _ in range(5)]

    def train(capture):
        paddle.seed(3)
        with unique_name.guard():
            model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 10))
        if traced:
            strategy = paddle.static.BuildStrategy()
            strategy.allow_cuda_graph_capture = True
            model = paddle.jit.to_static(model, build_strategy=strategy)
        opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
        x, y = paddle.to_tensor(batches[0][0]), paddle.to_tensor(batches[0][1])

        def step():
            loss = nn.functional.cross_entropy(model(x), y, reduction="mean")
            loss.backward()
            opt.step()
            opt.clear_grad(set_to_zero=False)
            return loss
        losses = [float(step())]  # warm-up (and the first step)
        if capture:
            graph = CUDAGraph()
            graph.capture_begin()
            loss = step()
            graph.capture_end()
        for bx, by in batches[1:]:
            x.copy_(paddle.to_tensor(bx), True)
            y.copy_(paddle.to_tensor(by), True)
            if capture:
                graph.replay()
                losses.append(float(loss))
            else:
                losses.append(float(step()))
        return losses, [p.numpy() for p in model.parameters()]

    losses, params = train(capture=False)
    g_losses, g_params = train(capture=True)
    np.testing.assert_allclose(g_losses, losses, rtol=1e-6, atol=1e-6)
    for a, b in zip(g_params, params):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


# ---- on the CPU: the switch, random draws under capture, persistables written in place ------------------
def test_replay_policy(monkeypatch):
    monkeypatch.delenv("PADDLELITE_CUDA_GRAPH", raising=False)
    assert graph_capture.replay_enabled(None) is graph_capture.REPLAY_BY_DEFAULT is False
    assert graph_capture.replay_enabled(True) and not graph_capture.replay_enabled(False)
    monkeypatch.setattr(graph_capture, "REPLAY_BY_DEFAULT", True)
    assert graph_capture.replay_enabled(None)
    monkeypatch.setenv("PADDLELITE_CUDA_GRAPH", "0")  # the escape hatch beats every request
    assert not graph_capture.replay_enabled(None) and not graph_capture.replay_enabled(True)
    monkeypatch.setattr(graph_capture, "REPLAY_BY_DEFAULT", False)
    monkeypatch.setenv("PADDLELITE_CUDA_GRAPH", "1")
    assert graph_capture.replay_enabled(None) and not graph_capture.replay_enabled(False)


@pytest.mark.parametrize("strategy, default, env, expected", [
    (None, False, None, False), (None, True, None, True), (True, False, None, True), (False, True, None, False),
    (True, True, "0", False)])
def test_to_static_follows_the_policy(monkeypatch, strategy, default, env, expected):
    monkeypatch.setattr(graph_capture, "REPLAY_BY_DEFAULT", default)
    if env is None:
        monkeypatch.delenv("PADDLELITE_CUDA_GRAPH", raising=False)
    else:
        monkeypatch.setenv("PADDLELITE_CUDA_GRAPH", env)
    build = None
    if strategy is not None:
        build = paddle.static.BuildStrategy()
        build.allow_cuda_graph_capture = strategy
    layer = paddle.jit.to_static(nn.Linear(2, 2), build_strategy=build)
    layer(paddle.ones([1, 2]))
    assert layer.forward.concrete_program.cuda_graph is expected


class _NumpyDevice(types.ModuleType):
    """NumPy posing as a GPU array module (`xp is not np`), device 0: the draws' device code path on the CPU."""

    cuda = types.SimpleNamespace(Device=lambda: types.SimpleNamespace(id=0))

    def __getattr__(self, name):
        return getattr(np, name)


def test_captured_draws_are_the_draws_running_the_ops_makes():
    from paddlelite.framework import random
    xp = _NumpyDevice("numpy_device")
    paddle.seed(3)
    stream_key = random._word(3, random._STREAM_DOMAIN)
    eager = [random._word(stream_key, offset) for offset in range(6)]  # the keys of the first six draws
    capture = graph_capture.Capture(xp)
    stream = types.SimpleNamespace(begin_capture=lambda mode: None, end_capture=lambda: "graph")
    with capture.recording(stream, 1) as graph:
        draws = [random.get_rng(xp) for _ in range(3)]
    assert graph == ["graph"] and capture.draws == 3 and graph_capture.recording() is None
    assert random._stream(("gpu", 0)).offset == 0  # a capture records draws without taking them
    assert all(d.key.dtype == np.uint64 and d.key.shape == (1,) for d in draws)
    for launch in range(2):
        capture.before_launch()  # the host writes the stream's key and first offset; the kernels hash them
        keys = [int(random.captured_key(capture.random_words, i)[0]) for i in range(3)]
        assert keys == eager[3 * launch:3 * launch + 3]
        assert random._stream(("gpu", 0)).offset == 3 * (launch + 1)
    # a device key draws the very numbers its host value draws
    device_key = random.captured_key(capture.random_words, 1)
    for method, args in [("random", ((2, 3), np.float32)), ("normal", (0.0, 1.0, (5,), np.float32)),
                         ("integers", (0, 7, (4,)))]:
        np.testing.assert_array_equal(getattr(random.Draws(xp, device_key), method)(*args),
                                      getattr(random.Draws(np, eager[4]), method)(*args))
    with pytest.raises(CaptureRefused, match="seeded on the host"):
        random.Draws(xp, device_key).poisson(1.0)


def _sgd_program():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), unique_name.guard():
            x = paddle.static.data("x", [None, 4], "float32")
            loss = paddle.mean(nn.Linear(4, 3)(x) ** 2)
            sched = paddle.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
            paddle.optimizer.SGD(sched).minimize(loss)
    finally:
        paddle.disable_static()
    return main, startup, loss, sched


def test_a_fixed_step_updates_parameters_and_learning_rate_in_place():
    """What a replayed Executor step relies on: its parameters and scheduled learning rate keep their arrays."""
    from paddlelite.static.executor import FixedStep, Plan
    main, startup, loss, sched = _sgd_program()
    exe = paddle.static.Executor("cpu")
    runs = {}
    for fixed in (False, True):
        scope = paddle.static.Scope()
        paddle.seed(2)
        with paddle.static.scope_guard(scope):
            exe.run(startup)
        plan = Plan(main, ["x"], [loss.name], paddle.CPUPlace())
        step = FixedStep(plan, [True], fixed=fixed)
        step.scope = scope
        arrays = dict(scope._values)
        sched.last_epoch = -1
        sched.step()
        out = []
        for k in range(3):
            executor_module._feed_lr(main, sched, scope, paddle.CPUPlace())
            out.append(step.run([np.full((2, 4), k + 1.0, np.float32)])[0])
            sched.step()
        same = [n for n, a in arrays.items() if scope._values[n] is a]
        runs[fixed] = out, {n: np.array(v) for n, v in scope._values.items()}, same
    (plain, plain_values, _), (fixed_out, fixed_values, kept) = runs[False], runs[True]
    np.testing.assert_array_equal(fixed_out, plain)
    for n, v in plain_values.items():
        np.testing.assert_array_equal(fixed_values[n], v)
    assert sorted(kept) == sorted(plain_values)  # every parameter and the learning rate: the arrays of the start


def test_to_static_batch_norm_statistics_are_written_into_the_buffers(monkeypatch):
    """On a GPU (fixed_io) a to_static step writes BatchNorm's running statistics into the buffers' own arrays."""
    from paddlelite.framework.tensor import Tensor
    from paddlelite.jit import program
    results = {}
    copied = []
    write = Tensor._write
    monkeypatch.setattr(Tensor, "_write", lambda t, a: (copied.append(t), write(t, a)))
    for fixed in (False, True):
        monkeypatch.setattr(program, "fixed_io", [fixed])
        paddle.seed(1)
        with unique_name.guard():
            layer = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1D(4))
        model = paddle.jit.to_static(layer)
        mean = layer[1]._mean
        before, version, copied[:] = mean._data, mean.inplace_version, []
        for k in range(3):
            model(paddle.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3) * (k + 1))).sum().backward()
        assert mean._data is before and mean.inplace_version == version + 3
        assert any(t is mean for t in copied) is not fixed  # fixed: the step wrote them, nothing copies them after
        results[fixed] = mean.numpy(), layer[1]._variance.numpy()
    for a, b in zip(results[True], results[False]):
        np.testing.assert_array_equal(a, b)


def test_a_captured_optimizer_step_reads_the_scheduled_rate_written_before_each_launch():
    """An eager update captured by CUDAGraph runs none of its host code on replay: the optimizer's learning-rate
    array is written before each launch (Capture.on_launch), never by a fill inside the graph."""
    layer = nn.Linear(2, 2)
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    opt = paddle.optimizer.SGD(sched, parameters=layer.parameters())
    layer(paddle.ones([1, 2])).sum().backward()
    opt.step()  # the warm-up step creates the rate's array
    (lr,) = [t for _, t in opt._lr_cache.values()]
    sched.step()  # 0.05 from now on
    capture = graph_capture.Capture(np)
    stream = types.SimpleNamespace(begin_capture=lambda mode: None, end_capture=lambda: "graph")
    with capture.recording(stream, 1):
        opt.step()
    assert float(lr.numpy()[0]) == pytest.approx(0.1)  # a fill inside the capture would replay a stale rate
    for rate in (0.05, 0.025):
        capture.before_launch()
        assert float(lr.numpy()[0]) == pytest.approx(rate)
        sched.step()
