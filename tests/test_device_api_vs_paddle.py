"""paddle.device's public API (issue 12): against real Paddle 3.3.1's CPU build where it runs there, and
on a GPU (CuPy) for streams, events, memory statistics and device properties.

Without CuPy paddlelite answers as Paddle's CPU build; the differential tests compare exactly that,
so they skip where paddlelite has its CUDA backend.
"""
import numpy as np
import pytest

from paddlelite.device import cuda as _cuda
from tests.differential import differential, raises

cpu_build = pytest.mark.skipif(_cuda.cupy() is not None,
                               reason="compares with Paddle's CPU build: paddlelite has its CUDA backend here")


@cpu_build
@differential(expected={"count": 0, "available": False, "types": [], "devices": [], "custom_types": [],
                        "custom_devices": [], "cudnn": None, "cuda": False, "rocm": False, "xpu": False,
                        "ipu": False, "cinn": False, "custom": False, "distribute": True, "capturing": False})
def test_what_the_build_has(paddle):
    d = paddle.device
    return {"count": d.device_count(), "available": d.is_available(), "types": d.get_all_device_type(),
            "devices": d.get_available_device(), "custom_types": d.get_all_custom_device_type(),
            "custom_devices": d.get_available_custom_device(), "cudnn": d.get_cudnn_version(),
            "cuda": d.is_compiled_with_cuda(), "rocm": d.is_compiled_with_rocm(), "xpu": d.is_compiled_with_xpu(),
            "ipu": d.is_compiled_with_ipu(), "cinn": d.is_compiled_with_cinn(),
            "custom": d.is_compiled_with_custom_device("npu"), "distribute": d.is_compiled_with_distribute(),
            "capturing": d.is_current_stream_capturing()}


@pytest.mark.usefixtures("cpu_device")
def test_bf16_is_supported_on_every_cpu():
    """A deliberate difference (README, Compatibility): Paddle's CPU build answers from the host's
    instruction set (AVX-512 BF16), so its answer varies by machine; paddlelite computes bfloat16 through
    ml_dtypes on any CPU, so it answers True everywhere, emulated or not."""
    import paddlelite as paddle
    assert paddle.device.is_bf16_supported() is True
    assert paddle.device.is_bf16_supported(False) is True


@cpu_build
@pytest.mark.parametrize("name", ["max_memory_allocated", "max_memory_reserved", "reset_max_memory_allocated",
                                  "reset_max_memory_reserved", "reset_peak_memory_stats"])
def test_memory_statistics_need_a_gpu(name):
    @differential(expected=raises(ValueError))
    def body(paddle):
        getattr(paddle.device, name)()
    body()


@cpu_build
@pytest.mark.parametrize("name", ["memory_allocated", "memory_reserved", "get_device_name", "get_device_capability",
                                  "get_device_properties", "Stream", "Event", "get_stream_from_external"])
def test_gpu_only_apis_raise_value_error_without_cuda(name):
    """Paddle's CPU build lacks memory_allocated/memory_reserved and fails with NameError in the others;
    its GPU build's CPU-only checks raise ValueError, as paddlelite does."""
    import paddlelite as paddle
    args = (0,) if name == "get_stream_from_external" else ()
    with pytest.raises(ValueError, match="CPU-only"):
        getattr(paddle.device, name)(*args)


@cpu_build
@differential(expected=raises(RuntimeError))
def test_ipc_collect_needs_cuda(paddle):
    paddle.device.ipc_collect()


@cpu_build
def test_empty_cache_without_cuda_does_nothing():
    import paddlelite as paddle
    assert paddle.device.empty_cache() is None


@pytest.mark.usefixtures("cpu_device")
@pytest.mark.parametrize("call", ["synchronize()", "synchronize('cpu')", "current_stream()",
                                  "current_stream('cpu')", "current_stream(paddle.CPUPlace())"])
def test_streams_are_not_on_the_cpu(call):
    @differential(expected=raises(TypeError))
    def body(paddle):
        eval("paddle.device." + call, {"paddle": paddle})
    body()


@pytest.mark.parametrize("call", ["XPUPlace(0)", "IPUPlace()"])
def test_no_xpu_or_ipu(call):
    @differential(expected=raises(ValueError))
    def body(paddle):
        eval("paddle.device." + call, {"paddle": paddle})
    body()


@pytest.mark.usefixtures("cpu_device")
@differential(expected={"inside": "cpu", "after": "cpu", "guarded": "cpu", "tensor": -1, "place_guard": "cpu",
                        "index_zero": "cpu"})
def test_device_context_managers_on_the_cpu(paddle):
    with paddle.device.device("cpu"):
        inside = paddle.device.get_device()
    with paddle.device.device_guard("cpu"):
        guarded = paddle.device.get_device()
    with paddle.device.device_guard(paddle.CPUPlace()):
        place_guard = paddle.device.get_device()
    with paddle.device.device(0):  # an index of the current device's kind
        index_zero = paddle.device.get_device()
    return {"inside": inside, "after": paddle.device.get_device(), "guarded": guarded,
            "tensor": paddle.device.get_device(paddle.ones([1])), "place_guard": place_guard,
            "index_zero": index_zero}


@differential(expected=raises(ValueError))
def test_device_guard_refuses_an_int(paddle):
    paddle.device.device_guard(3)


@differential(expected=raises(ValueError))
def test_cpu_has_only_index_zero(paddle):
    paddle.device.device(1)


@differential(expected={"entered": True})
def test_stream_guard_of_none_changes_nothing(paddle):
    with paddle.device.stream_guard(None):
        pass
    with paddle.device.StreamContext():
        pass
    return {"entered": paddle.device.StreamContext is paddle.device.stream_guard}


@differential(expected={"cls": "GeneratorState", "restored": True, "reseeded": True, "drawn_differs": True})
def test_rng_state_and_manual_seed(paddle):
    state = paddle.device.get_rng_state()
    first = paddle.rand([4]).numpy()
    second = paddle.rand([4]).numpy()
    paddle.device.set_rng_state(state)
    again = paddle.rand([4]).numpy()
    paddle.device.manual_seed(7)
    a = paddle.rand([4]).numpy()
    paddle.device.manual_seed(7)
    b = paddle.rand([4]).numpy()
    return {"cls": type(state).__name__, "restored": bool(np.array_equal(first, again)),
            "reseeded": bool(np.array_equal(a, b)), "drawn_differs": not np.array_equal(first, second)}


def test_public_names_cover_paddles():
    import paddlelite as paddle
    names = set(paddle.device.__all__)
    for name in ("Stream", "Event", "StreamContext", "current_stream", "set_stream", "stream_guard", "synchronize",
                 "device_count", "empty_cache", "memory_allocated", "get_rng_state", "manual_seed", "device",
                 "device_guard", "XPUPlace", "IPUPlace", "get_stream_from_external", "ipc_collect"):
        assert name in names


# ---- on a GPU --------------------------------------------------------------------------------------------
@pytest.mark.gpu
def test_gpu_facts():
    import paddlelite as paddle
    d = paddle.device
    n = d.device_count()
    assert n >= 1 and d.is_available() and d.is_compiled_with_cuda()
    assert d.get_all_device_type() == ["gpu"] and d.get_available_device() == [f"gpu:{i}" for i in range(n)]
    props = d.get_device_properties(0)
    assert props.total_memory > 0 and props.multi_processor_count > 0
    assert d.get_device_name("gpu:0") == props.name
    assert d.get_device_capability(paddle.CUDAPlace(0)) == (props.major, props.minor)
    with pytest.raises(ValueError, match="out of range"):
        d.get_device_properties(n)
    paddle.set_device("gpu:0")
    assert d.is_bf16_supported() == (props.major >= 8)
    assert d.is_current_stream_capturing() is False


@pytest.mark.gpu
def test_gpu_memory_statistics_follow_allocations():
    import paddlelite as paddle
    d = paddle.device
    paddle.set_device("gpu:0")
    d.empty_cache()
    d.reset_max_memory_allocated()
    before = d.memory_allocated()
    x = paddle.ones([1024, 1024], dtype="float32")  # 4 MiB
    during = d.memory_allocated(0)
    assert during - before >= 4 << 20
    assert d.memory_reserved() >= during
    del x
    assert d.memory_allocated() <= during - (4 << 20)
    assert d.max_memory_allocated() >= during  # the peak remembers the freed tensor
    assert d.max_memory_reserved() >= d.memory_reserved()
    d.reset_peak_memory_stats()
    assert d.max_memory_allocated() == d.memory_allocated()
    d.empty_cache()
    d.reset_max_memory_reserved()
    assert d.max_memory_reserved() == d.memory_reserved()
    d.ipc_collect()


@pytest.mark.gpu
def test_streams_and_events_order_work():
    import paddlelite as paddle
    d = paddle.device
    paddle.set_device("gpu:0")
    default = d.current_stream()
    s = d.Stream()
    high = d.Stream(priority=1)
    assert s != default and s.device == paddle.CUDAPlace(0) and high.query()
    start, end = d.Event(enable_timing=True), d.Event(enable_timing=True)
    x = paddle.ones([256, 256])
    with d.stream_guard(s):
        assert d.current_stream() == s
        s.wait_stream(default)
        start.record()
        y = paddle.matmul(x, x)
        end.record()
    assert d.current_stream() == default
    end.synchronize()
    assert start.query() and end.query()
    assert start.elapsed_time(end) >= 0.0
    default.wait_event(s.record_event())
    np.testing.assert_allclose(y.numpy(), np.full([256, 256], 256.0))
    previous = d.set_stream(s)
    assert previous == default and d.current_stream() == s
    d.set_stream(previous)
    d.synchronize()
    d.synchronize("gpu:0")
    s.synchronize()
    external = d.get_stream_from_external(s.cuda_stream, "gpu:0")
    assert external == s and hash(external) == hash(s) and "paddle.device.Stream" in repr(s)


@pytest.mark.gpu
def test_gpu_rng_state_round_trips():
    import paddlelite as paddle
    paddle.set_device("gpu:0")
    state = paddle.device.get_rng_state()
    a = paddle.rand([8]).numpy()
    paddle.device.set_rng_state(state)
    np.testing.assert_array_equal(a, paddle.rand([8]).numpy())
    paddle.device.manual_seed(3)
    b = paddle.rand([8]).numpy()
    paddle.device.manual_seed(3)
    np.testing.assert_array_equal(b, paddle.rand([8]).numpy())


@pytest.mark.usefixtures("cpu_device")
@differential(expected={"index": 0, "set": None, "place": "Place(cpu)", "none": "Place(cpu)", "zero": "Place(cpu)",
                        "seeded": True, "returned": None})
def test_current_device_and_default_device_on_the_cpu(paddle):
    d = paddle.device
    d.manual_seed_all(5)
    a = paddle.rand([3]).numpy()
    returned = d.manual_seed_all(5)
    return {"index": d.current_device(), "set": d.set_default_device("cpu"), "place": repr(d.device_to_place("cpu")),
            "none": repr(d.device_to_place(None)), "zero": repr(d.device_to_place(0)),
            "seeded": bool(np.array_equal(a, paddle.rand([3]).numpy())), "returned": returned}


@differential()
def test_typed_tensor_factories_are_paddles(paddle):
    d = paddle.device
    names = ["BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor",
             "IntTensor", "LongTensor", "ShortTensor"]
    return {"same": [getattr(d, n) is getattr(paddle, n) for n in names],
            "made": [str(getattr(d, n)([1, 0, 2]).dtype) for n in names],
            "values": d.DoubleTensor([[1.5, 2.0]]), "shape": d.LongTensor(2, 3).shape}
