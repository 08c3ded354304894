"""CUDA streams and events (paddle.device.Stream, Event, current_stream, set_stream, stream_guard, ...)
over CuPy's: a Stream wraps a cupy.cuda.Stream (`stream_base`), and set_stream makes it CuPy's current
stream, so every op dispatched afterwards on that device runs on it. Streams exist on GPUs only: on a
CPU place current_stream/synchronize raise TypeError, as Paddle does.
"""
import ctypes

from . import cuda, deferred_checks
from .place import Place, current_place, device_to_place, parse_place, set_device

_HIGHEST_PRIORITY = -(1 << 20)


def _place_of(device, api):
    """The Place for a Paddle `device` argument of the stream APIs: None (current), str or Place."""
    if device is None:
        return current_place()
    if isinstance(device, str):
        return parse_place(device, api)
    return device


def _gpu_place(place, api):
    if not isinstance(place, Place) or place.kind != "gpu":
        raise TypeError(f"{api}: device should be gpu, received {place!r}")
    return place


class Stream:
    """A CUDA stream of `device` (default: the current GPU). priority 1 (or -1) is high, 2 (or 0) normal."""

    _priority_map = {-1: 1, 0: 2, 1: 1, 2: 2}

    def __init__(self, device=None, priority=2, stream_base=None):
        cp = cuda.require_cuda("paddle.device.Stream")
        if stream_base is not None:
            if not isinstance(stream_base, (cp.cuda.Stream, cp.cuda.ExternalStream)):
                raise TypeError(f"paddle.device.Stream: stream_base should be a cupy.cuda.Stream or ExternalStream, "
                                f"received {type(stream_base).__name__}")
            self.stream_base = stream_base
            index = stream_base.device_id if stream_base.device_id >= 0 else cp.cuda.runtime.getDevice()
            self.device = Place("gpu", index)
            return
        place = device_to_place(device, "paddle.device.Stream")
        index = place.index if place.kind == "gpu" else cp.cuda.runtime.getDevice()
        self.device = Place("gpu", cuda.gpu_index(index, "paddle.device.Stream"))
        with cp.cuda.Device(self.device.index):
            if self._priority_map.get(priority, 2) == 1:
                # CUDA runs lower numbers first and clamps a priority beyond the device's range to its
                # greatest (CuPy >= 13.1 takes priority=)
                self.stream_base = cp.cuda.Stream(non_blocking=True, priority=_HIGHEST_PRIORITY)
            else:
                self.stream_base = cp.cuda.Stream(non_blocking=True)

    def wait_event(self, event):
        """Work queued on this stream after this call waits until `event` completes."""
        self.stream_base.wait_event(event.event_base)

    def wait_stream(self, stream):
        """Work queued on this stream after this call waits for all work queued on `stream` so far."""
        self.stream_base.wait_event(stream.stream_base.record())

    def record_event(self, event=None):
        if event is None:
            event = Event()
        event.record(self)
        return event

    def query(self):
        """Whether all work queued on this stream has completed."""
        return self.stream_base.done

    def synchronize(self):
        self.stream_base.synchronize()

    @property
    def cuda_stream(self):
        return self.stream_base.ptr

    @property
    def _as_parameter_(self):
        return ctypes.c_void_p(self.stream_base.ptr)

    def __cuda_stream__(self):
        return (0, self.stream_base.ptr)

    def __eq__(self, other):
        return isinstance(other, Stream) and (self.stream_base.ptr, self.device) == (other.stream_base.ptr,
                                                                                      other.device)

    def __hash__(self):
        return hash((self.stream_base.ptr, self.device))

    def __repr__(self):
        return f"<paddle.device.Stream device={self.device} stream={self.stream_base.ptr:#x}>"


class Event:
    """A CUDA event on the current device: record it on a stream, wait for it, time between two."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        cp = cuda.require_cuda("paddle.device.Event")
        self.device = current_place()
        self.enable_timing = enable_timing
        index = self.device.index if self.device.kind == "gpu" else cp.cuda.runtime.getDevice()
        with cp.cuda.Device(index):
            self.event_base = cp.cuda.Event(block=blocking, disable_timing=not enable_timing,
                                            interprocess=interprocess)

    def record(self, stream=None):
        """Mark the point reached by `stream` (default: the current stream of the event's device)."""
        if stream is None:
            stream = current_stream(self.device)
        self.event_base.record(stream.stream_base)

    def query(self):
        """Whether the work before the recorded point has completed."""
        return self.event_base.done

    def elapsed_time(self, end_event):
        """Milliseconds between this event and `end_event` (both recorded, created with enable_timing)."""
        return cuda.cupy().cuda.get_elapsed_time(self.event_base, end_event.event_base)

    def synchronize(self):
        self.event_base.synchronize()

    def __repr__(self):
        return f"Event(device={self.device}, event_base={self.event_base})"


def current_stream(device=None):
    """The stream ops on `device` (default: the current device, which must be a GPU) are queued on."""
    place = _gpu_place(_place_of(device, "current_stream"), "current_stream")
    cp = cuda.cupy()
    with cp.cuda.Device(place.index):
        return Stream(stream_base=cp.cuda.get_current_stream())


def set_stream(stream):
    """Make `stream` the current stream of its device; returns the previous one."""
    if not isinstance(stream, Stream):
        raise TypeError(f"set_stream: stream must be a paddle.device.Stream, received {type(stream).__name__}")
    previous = current_stream(stream.device)
    with cuda.cupy().cuda.Device(stream.device.index):
        stream.stream_base.use()
    return previous


class stream_guard:
    """Context manager: `stream` is the current stream inside (and its device the current device); None
    changes nothing."""

    def __init__(self, stream=None):
        self.stream = stream

    def __enter__(self):
        stream = self.stream
        if stream is None:
            return
        self.src_prev_stream = current_stream(stream.device)
        self.tmp_place = current_place()
        if self.tmp_place is not stream.device:
            set_device(stream.device)
        set_stream(stream)

    def __exit__(self, *exc):
        if self.stream is None:
            return
        set_stream(self.src_prev_stream)
        if self.tmp_place is not self.stream.device:
            set_device(self.tmp_place)


StreamContext = stream_guard


def synchronize(device=None):
    """Wait until all work queued on every stream of `device` (default: the current device, a GPU) is done."""
    place = _gpu_place(_place_of(device, "synchronize"), "synchronize")
    cuda.cupy().cuda.Device(place.index).synchronize()
    deferred_checks.raise_pending()


def get_stream_from_external(data_ptr, device=None):
    """A Stream for a cudaStream_t created elsewhere (its owner keeps it alive)."""
    place = _place_of(device, "get_stream_from_external")
    cp = cuda.require_cuda("paddle.device.get_stream_from_external")
    index = cuda.gpu_index(place.index if place.kind == "gpu" else None, "paddle.device.get_stream_from_external")
    return Stream(stream_base=cp.cuda.ExternalStream(int(data_ptr), index))


def is_current_stream_capturing():
    """Whether the current stream is capturing a CUDA graph (never without CUDA)."""
    cp = cuda.cupy()
    if cp is None or not cuda.is_available():
        return False
    return cp.cuda.get_current_stream().is_capturing()
