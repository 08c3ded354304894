"""paddle.profiler (issue 26 item 5): the scheduler and Profiler's state machine, exports, summaries and RecordEvent
against real Paddle 3.3.1 (what does not depend on timings: states, callbacks, files, event names and counts,
table titles), and what only paddlelite has (its ops' events in both modes, nothing left installed when off)."""
import contextlib
import io
import json
import os
import re
import warnings

import numpy as np
import pytest

from tests.differential import differential, raises


@pytest.mark.parametrize("kwargs", [dict(closed=1, ready=1, record=2), dict(closed=0, ready=2, record=1, repeat=2),
                                    dict(closed=2, ready=0, record=3, repeat=1, skip_first=2)], ids=str)
def test_make_scheduler(kwargs):
    @differential()
    def body(paddle):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            schedule = paddle.profiler.make_scheduler(**kwargs)
        return [schedule(step).name for step in range(14)]
    body()


@differential(expected=raises(AssertionError))
def test_make_scheduler_rejects_no_record_steps(paddle):
    paddle.profiler.make_scheduler(closed=1, ready=1, record=0)


@differential()
def test_enums(paddle):
    p = paddle.profiler
    return [[(m.name, m.value) for m in e] for e in (p.ProfilerState, p.ProfilerTarget, p.SortedKeys, p.SummaryView)]


def _train(paddle, prof, steps):
    layer = paddle.nn.Linear(8, 3)
    x = paddle.to_tensor(np.ones((4, 8), "float32"))
    for _ in range(steps):
        with paddle.profiler.RecordEvent("my_event"):
            layer(x).sum().backward()
        prof.step()


@pytest.mark.parametrize("scheduler", ["range", "cycle"])
def test_profiler_states_and_callbacks(scheduler):
    @differential()
    def body(paddle):
        seen = []
        chosen = (2, 5) if scheduler == "range" else paddle.profiler.make_scheduler(closed=1, ready=1, record=2,
                                                                                    repeat=2)
        prof = paddle.profiler.Profiler(targets=[paddle.profiler.ProfilerTarget.CPU], scheduler=chosen,
                                        on_trace_ready=lambda p: seen.append((p.step_num, p.current_state.name)))
        states = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            prof.start()
            for _ in range(9):
                states.append(prof.current_state.name)
                _train(paddle, prof, 1)
            prof.stop()
        return [states, seen, prof.step_num]
    body()


def _names(trace, cat):
    return sorted(e["name"].rsplit("[", 1)[0] for e in trace["traceEvents"] if e.get("cat") == cat)


def test_chrome_trace_and_summary(tmp_path):
    @differential()
    def body(paddle):
        out = tmp_path / paddle.__name__
        prof = paddle.profiler.Profiler(targets=[paddle.profiler.ProfilerTarget.CPU], scheduler=(1, 3),
                                        on_trace_ready=paddle.profiler.export_chrome_tracing(str(out), "worker"))
        prof.start()
        _train(paddle, prof, 4)
        prof.stop()
        files = sorted(os.listdir(out))
        trace = json.load(open(out / files[0]))
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            prof.summary(time_unit="us", views=[paddle.profiler.SummaryView.OverView,
                                                paddle.profiler.SummaryView.UDFView])
        titles = re.findall(r"-+(\w+ Summary)-+", text.getvalue())
        user_rows = re.findall(r"^(my_event)\s+(\d+)\s", text.getvalue(), re.M)
        return [len(files), bool(re.fullmatch(r"worker_time_\d{4}(_\d+){6}\.paddle_trace\.json", files[0])),
                sorted(k for k in trace if k != "span_index"), trace["schemaVersion"], trace["displayTimeUnit"],
                _names(trace, "ProfileStep"), _names(trace, "PythonUserDefined"), titles, user_rows,
                "Time unit: us" in text.getvalue()]
    body()


@differential()
def test_record_event_without_a_profiler_is_a_no_op(paddle):
    @paddle.profiler.RecordEvent("decorated")
    def f(v):
        return v + 1

    event = paddle.profiler.RecordEvent("manual")
    event.begin()
    event.end()
    return f(1)


@differential()
def test_step_info(paddle):
    prof = paddle.profiler.Profiler(timer_only=True)
    prof.start()
    for _ in range(3):
        prof.step(num_samples=8)
    info = prof.step_info(unit="images")
    prof.stop()
    return bool(re.search(r"batch_cost: \d+\.\d{5} s ips: \d+\.\d{3} images/s", info))


def test_ops_recorded_in_both_modes_and_nothing_left_installed(tmp_path):
    import paddlelite as paddle
    from paddlelite.ops import get_op, instrument

    matmul = get_op("matmul")
    forward = matmul.forward
    prof = paddle.profiler.Profiler(scheduler=(0, 1), on_trace_ready=paddle.profiler.export_protobuf(str(tmp_path)))
    prof.start()
    assert matmul.forward is not forward and instrument.token[0] is not None
    x = paddle.ones([2, 3])
    paddle.matmul(x, x.T)
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            v = paddle.static.data("v", [2, 3], "float32")
            y = paddle.tanh(v)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(main, feed={"v": np.ones((2, 3), "float32")}, fetch_list=[y])
        prof.step()
        prof.stop()
        assert matmul.forward is forward and instrument.token[0] is None
        # the plan compiled while recording is not run again: the same program now runs unrecorded
        exe.run(main, feed={"v": np.ones((2, 3), "float32")}, fetch_list=[y])
    finally:
        paddle.disable_static()
    names = [e.name for e in prof.profiler_result.events]
    assert {"matmul", "tanh", "ProfileStep#0"} <= set(names), names
    (pb,) = os.listdir(tmp_path)
    loaded = paddle.profiler.load_profiler_result(str(tmp_path / pb))
    assert [e.name for e in loaded.events] == names
    prof.export(str(tmp_path / "t.json"), "json")
    again = paddle.profiler.load_profiler_result(str(tmp_path / "t.json"))
    assert [(e.name, e.type, e.thread_id) for e in again.events] == [(e.name, e.type, e.thread_id)
                                                                     for e in loaded.events]
    tree = loaded.get_data()
    (root,) = tree.values()
    assert [n.name for n in root.children_node] == ["ProfileStep#0"]


def test_load_profiler_result_rejects_other_files(tmp_path):
    import paddlelite as paddle
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\x0a\xff\xff\xff\xff\x0fgarbage")
    with pytest.raises(ValueError, match="load_profiler_result"):
        paddle.profiler.load_profiler_result(str(bad))
    (tmp_path / "bad.json").write_text('{"traceEvents": [{"ph": "X"}]}')
    with pytest.raises(ValueError, match="load_profiler_result"):
        paddle.profiler.load_profiler_result(str(tmp_path / "bad.json"))


@pytest.mark.gpu
def test_device_time_of_ops_on_a_gpu():
    import paddlelite as paddle
    if not paddle.device.cuda.device_count():
        pytest.skip("needs an NVIDIA GPU with CuPy")
    prof = paddle.profiler.Profiler(targets=[paddle.profiler.ProfilerTarget.GPU], on_trace_ready=lambda p: None)
    x = paddle.ones([256, 256]).cuda()
    prof.start()
    paddle.matmul(x, x)
    prof.stop()
    ops = [e for e in prof.profiler_result.events if e.name == "matmul"]
    assert ops and all(e.device_ns is not None and e.device_ns > 0 for e in ops)
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        prof.summary(views=paddle.profiler.SummaryView.KernelView)
    assert "Kernel Summary" in text.getvalue()
