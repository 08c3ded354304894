"""CUDA-graph replay of to_static steps (BuildStrategy.allow_cuda_graph_capture): a repeated step is captured
once and replayed, and training with replays computes what running the ops computes.

The replay logic is checked everywhere against a recording stand-in for CuPy's streams and graphs; the real
capture and replay run on a GPU (gpu-marked)."""
import types

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import nn
from paddlelite.device.graph_capture import CaptureRefused, GraphReplay
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

        class Allocator:
            def __init__(self, malloc):
                pass

            def __enter__(self):
                fake.log.append("pool")

            def __exit__(self, *exc):
                return False

        self.cuda = types.SimpleNamespace(MemoryPool=lambda: types.SimpleNamespace(malloc=None), Stream=Stream,
                                          using_allocator=Allocator, get_current_stream=Stream)


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
@pytest.mark.xfail(strict=True, reason="CuPy refuses cuBLAS calls while a stream captures (NotImplementedError, seen on "
                   "an H100 with CuPy 14.2), so a step with matmul or conv is never captured; strict, so the day "
                   "replays happen this marker must go")
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
