"""paddle.device.cuda's public API (Paddle's older spelling of the CUDA half of paddle.device): streams and events,
synchronize, memory statistics and a memory summary, device properties, vmm_compact -- over the same CuPy
objects as paddle.device (streams.py, memory.py, info.py). `device/__init__.py` files these names under
`paddle.device.cuda`, the lazy CuPy module (cuda.py) that also carries `graphs`.

Without CUDA (CuPy not installed) they answer as Paddle's CPU build: streams, events and synchronize raise
RuntimeError, the statistics and properties ValueError naming the API, empty_cache does nothing and
device_count is 0 (where Paddle's CPU build crashes -- current_stream, stream_guard -- or fails with an
AttributeError -- memory_summary -- paddlelite raises the RuntimeError/ValueError of its neighbours).
"""
import contextlib

from . import cuda, info, memory, streams
from .place import Place

_NOT_COMPILED = "(Unavailable) paddlelite is not compiled with CUDA (CuPy is not installed): {} needs a CUDA device"


def _require_runtime(api):
    """CuPy, or the RuntimeError Paddle's CPU build raises from its stream and event classes."""
    cp = cuda.cupy()
    if cp is None:
        raise RuntimeError(_NOT_COMPILED.format(api))
    return cp


def _gpu_place(device, api):
    """The CUDAPlace a paddle.device.cuda `device` argument names: None (the current CUDA device), an int,
    'gpu' / 'gpu:N' or a CUDAPlace."""
    return Place("gpu", cuda.gpu_index(device, api))


class Stream(streams.Stream):
    """paddle.device.cuda.Stream(device=None, priority=2): a CUDA stream of `device` (an int, 'gpu:N' or a
    CUDAPlace; default the current CUDA device); priority 1 is high, 2 normal."""

    def __init__(self, device=None, priority=2, stream_base=None):
        _require_runtime("paddle.device.cuda.Stream")
        if stream_base is None:
            device = _gpu_place(device, "paddle.device.cuda.Stream")
        super().__init__(device, priority, stream_base)

    def __repr__(self):
        return f"<paddle.device.cuda.Stream device={self.device} stream={self.stream_base.ptr:#x}>"


class Event(streams.Event):
    """paddle.device.cuda.Event(enable_timing=False, blocking=False, interprocess=False): a CUDA event of the
    current device."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        _require_runtime("paddle.device.cuda.Event")
        super().__init__(enable_timing, blocking, interprocess)

    def record(self, stream=None):
        if stream is None:
            stream = current_stream(self.device.index if self.device.kind == "gpu" else None)
        self.event_base.record(stream.stream_base)


def current_stream(device=None):
    """The stream ops on the CUDA device `device` (an int, 'gpu:N' or a CUDAPlace; default: the current CUDA
    device) are queued on."""
    cp = _require_runtime("paddle.device.cuda.current_stream")
    if device is not None and not isinstance(device, (int, str, Place)):
        raise ValueError(f"paddle.device.cuda.current_stream: device type must be int, str or paddle.CUDAPlace, "
                         f"received {type(device).__name__}")
    place = _gpu_place(device, "paddle.device.cuda.current_stream")
    with cp.cuda.Device(place.index):
        return Stream(stream_base=cp.cuda.get_current_stream())


def synchronize(device=None):
    """Wait for all work queued on the CUDA device `device` (default: the current one)."""
    _require_runtime("paddle.device.cuda.synchronize")
    if isinstance(device, str) and device.strip().lower() not in ("gpu",) and not device.startswith("gpu:"):
        raise ValueError(f"paddle.device.cuda.synchronize only takes a str like 'gpu:x' or 'gpu', received "
                         f"{device!r}")
    streams.synchronize(_gpu_place(device, "paddle.device.cuda.synchronize"))


@contextlib.contextmanager
def stream_guard(stream):
    """Context manager: `stream` (a paddle.device.cuda.Stream; None changes nothing) is its device's current
    stream inside."""
    if stream is not None and not isinstance(stream, streams.Stream):
        raise TypeError(f"paddle.device.cuda.stream_guard: stream type should be paddle.device.cuda.Stream, "
                        f"received {type(stream).__name__}")
    _require_runtime("paddle.device.cuda.stream_guard")
    with streams.stream_guard(stream):
        yield


def empty_cache():
    """Return the memory pools' cached, unused blocks to the driver (nothing to do without CUDA)."""
    memory.empty_cache()


def memory_allocated(device=None):
    """Bytes of GPU memory the live tensors of `device` (default: the current CUDA device) use."""
    return memory.stats(device, "paddle.device.cuda.memory_allocated")[0]


def memory_reserved(device=None):
    """Bytes of GPU memory the pool holds on `device` (used plus cached for reuse)."""
    return memory.stats(device, "paddle.device.cuda.memory_reserved")[1]


def max_memory_allocated(device=None):
    """The peak of memory_allocated(device) since start or the last reset_max_memory_allocated."""
    return memory.stats(device, "paddle.device.cuda.max_memory_allocated")[2][0]


def max_memory_reserved(device=None):
    """The peak of memory_reserved(device) since start or the last reset_max_memory_reserved."""
    return memory.stats(device, "paddle.device.cuda.max_memory_reserved")[2][1]


def reset_max_memory_allocated(device=None):
    used, _, peak = memory.stats(device, "paddle.device.cuda.reset_max_memory_allocated")
    peak[0] = used


def reset_max_memory_reserved(device=None):
    _, total, peak = memory.stats(device, "paddle.device.cuda.reset_max_memory_reserved")
    peak[1] = total


def vmm_compact(device=None):
    """Give the pool's cached, unused blocks of `device` back to the driver; returns the bytes released (Paddle
    compacts its virtual-memory allocator; CuPy's pool releases whole free blocks)."""
    return memory.release_cached(device, api="paddle.device.cuda.vmm_compact")


def memory_summary(device=None):
    """Print the memory snapshot of the CUDA device `device`: allocated and reserved bytes with their peaks, the
    share of the reserved pool the peak left unused, and the device's own used / total memory."""
    print(memory.summary(device, api="paddle.device.cuda.memory_summary"))


def get_device_properties(device=None):
    """The properties of a CUDA device (name, major, minor, total_memory, multi_processor_count)."""
    return info.properties(cuda.gpu_index(device, "paddle.device.cuda.get_device_properties"))


def get_device_name(device=None):
    return get_device_properties(device).name


def get_device_capability(device=None):
    """(major, minor) compute capability of a CUDA device."""
    props = get_device_properties(device)
    return props.major, props.minor


# with device_count (cuda.py's own), paddle.device.cuda's names
__all__ = ["Stream", "Event", "current_stream", "synchronize", "empty_cache", "max_memory_allocated",
           "max_memory_reserved", "memory_allocated", "memory_reserved", "stream_guard", "get_device_properties",
           "get_device_name", "get_device_capability", "reset_max_memory_allocated", "reset_max_memory_reserved",
           "memory_summary", "vmm_compact"]
