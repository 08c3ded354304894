"""paddle.device.cuda (issue 26 item 7): Paddle 3.3.1's CPU build where it runs there (streams, events and
synchronize raise RuntimeError; statistics and properties ValueError; empty_cache does nothing), and the CuPy
paths on a GPU."""
import numpy as np
import pytest

from paddlelite.device import cuda as _cuda
from tests.differential import differential, raises

cpu_build = pytest.mark.skipif(_cuda.cupy() is not None,
                               reason="compares with Paddle's CPU build: paddlelite has its CUDA backend here")
PADDLE_NAMES = ["Event", "Stream", "current_stream", "device_count", "empty_cache", "get_device_capability",
                "get_device_name", "get_device_properties", "max_memory_allocated", "max_memory_reserved",
                "memory_allocated", "memory_reserved", "memory_summary", "reset_max_memory_allocated",
                "reset_max_memory_reserved", "stream_guard", "synchronize", "vmm_compact"]  # Paddle 3.3.1's __all__


@differential(expected={"count": 0, "empty": None})
def test_count_and_empty_cache(paddle):
    if paddle.device.cuda.device_count():
        pytest.skip("compares with Paddle's CPU build")
    return {"count": paddle.device.cuda.device_count(), "empty": paddle.device.cuda.empty_cache()}


@cpu_build
@pytest.mark.parametrize("call", ["Stream()", "Stream(0, priority=1)", "Event()", "Event(enable_timing=True)",
                                  "synchronize()", "synchronize(0)"])
def test_streams_events_synchronize_need_cuda(call):
    @differential(expected=raises(RuntimeError))
    def body(paddle):
        eval("paddle.device.cuda." + call, {"paddle": paddle})
    body()


@cpu_build
@pytest.mark.parametrize("name", ["memory_allocated", "memory_reserved", "max_memory_allocated",
                                  "max_memory_reserved", "reset_max_memory_allocated", "reset_max_memory_reserved",
                                  "get_device_properties", "get_device_name", "get_device_capability",
                                  "vmm_compact"])
def test_statistics_and_properties_need_cuda(name):
    @differential(expected=raises(ValueError))
    def body(paddle):
        getattr(paddle.device.cuda, name)()
    body()


@cpu_build
def test_what_paddle_crashes_on_raises():
    """Paddle's CPU build segfaults in current_stream and stream_guard and fails with an AttributeError in
    memory_summary; paddlelite raises as their neighbours do, naming the API."""
    import paddlelite as paddle
    c = paddle.device.cuda
    for call, error in [(c.current_stream, RuntimeError), (lambda: c.stream_guard(None).__enter__(), RuntimeError),
                        (c.memory_summary, ValueError)]:
        with pytest.raises(error, match="paddle.device.cuda"):
            call()
    with pytest.raises(TypeError, match="stream_guard"):
        c.stream_guard("s").__enter__()


def test_names_and_classes():
    import paddlelite as paddle
    c = paddle.device.cuda
    assert issubclass(c.Stream, paddle.device.Stream) and issubclass(c.Event, paddle.device.Event)
    assert sorted(c.__all__) == sorted(PADDLE_NAMES + ["graphs"])
    from paddlelite.device.cuda import Stream, graphs  # noqa: F401  (importable by path)


@pytest.mark.gpu
def test_cuda_streams_events_and_statistics(capsys):
    import paddlelite as paddle
    c = paddle.device.cuda
    paddle.set_device("gpu:0")
    default = c.current_stream()
    assert c.current_stream(0) == default and c.current_stream("gpu:0") == default
    s = c.Stream(0, priority=1)
    start, end = c.Event(enable_timing=True), c.Event(enable_timing=True)
    x = paddle.ones([128, 128])
    with c.stream_guard(s):
        assert c.current_stream() == s
        s.wait_stream(default)
        start.record()
        y = x @ x
        end.record()
    assert c.current_stream() == default
    c.synchronize()
    c.synchronize("gpu:0")
    assert start.elapsed_time(end) >= 0.0 and end.query()
    np.testing.assert_allclose(y.numpy(), np.full([128, 128], 128.0))
    assert c.memory_allocated() >= 128 * 128 * 4 * 2 and c.max_memory_allocated() >= c.memory_allocated()
    assert c.memory_reserved() >= c.memory_allocated() and c.max_memory_reserved() >= c.memory_reserved()
    c.reset_max_memory_allocated()
    c.reset_max_memory_reserved()
    assert c.max_memory_allocated() == c.memory_allocated()
    del y
    assert c.vmm_compact() >= 0
    c.memory_summary()
    assert "Global Memory Snapshot" in capsys.readouterr().out
    props = c.get_device_properties(0)
    assert c.get_device_name() == props.name and c.get_device_capability("gpu:0") == (props.major, props.minor)
    with pytest.raises(ValueError):
        c.synchronize("cpu")
