"""paddle.cuda: Paddle 3.3's torch.cuda-shaped namespace over paddle.device (device counts and properties,
synchronize, streams and events, memory statistics, generators, the typed tensor factories), with torch's
device spellings (`cuda:N`, a bare index). cudart() is the CUDA runtime's profiler / memory / error calls
through CuPy, returning CUDA's error codes as Paddle's binding does."""
import types as _types

from ..device import (Event, Stream, StreamContext, _device_to_paddle, current_device, device, device_count,
                      empty_cache, get_device_capability, get_device_name, get_device_properties, ipc_collect,
                      is_available, is_bf16_supported, is_current_stream_capturing, max_memory_allocated,
                      max_memory_reserved, memory_allocated, memory_reserved, nvtx, reset_max_memory_allocated,
                      reset_max_memory_reserved, reset_peak_memory_stats, set_stream, stream)
from .. import device as _device
from ..device import cuda as _cupy_module
from ..device.place import Place as _Place
from ..framework import random as _random
from ..tensor.constructors import (BFloat16Tensor, BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor,
                                   HalfTensor, IntTensor, LongTensor, ShortTensor)

manual_seed, manual_seed_all = _random.device_manual_seed, _random.device_manual_seed_all
get_rng_state, set_rng_state = _random.device_get_rng_state, _random.device_set_rng_state

__all__ = ["cudart", "check_error", "is_available", "is_initialized", "mem_get_info", "synchronize", "current_stream",
           "get_device_properties", "get_device_name", "get_device_capability", "stream", "Stream",
           "get_stream_from_external", "current_device", "device_count", "empty_cache", "memory_allocated",
           "memory_reserved", "set_device", "set_stream", "manual_seed_all", "get_rng_state", "set_rng_state",
           "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "ByteTensor", "CharTensor", "ShortTensor",
           "IntTensor", "LongTensor", "BoolTensor", "device", "is_bf16_supported", "manual_seed",
           "max_memory_allocated", "reset_peak_memory_stats", "Event", "ipc_collect", "StreamContext"]


def is_initialized():
    """Whether a CUDA device can be used (Paddle: compiled with CUDA)."""
    return _device.is_compiled_with_cuda()


def synchronize(device=None):
    _device.synchronize(_device_to_paddle(device))


def current_stream(device=None):
    return _device.current_stream(_device_to_paddle(device))


def get_stream_from_external(data_ptr, device=None):
    return _device.get_stream_from_external(data_ptr, _device_to_paddle(device))


def set_device(device):
    """Make `device` (an index, 'gpu:N' / 'cuda:N', or a CUDAPlace) the current device."""
    if isinstance(device, int):
        if _device.current_place().kind != "gpu":
            raise ValueError("Paddle-CPU is not supported. Please use PaddlePaddle with CUDA, XPU or Custom Device")
        device = f"gpu:{device}"
    elif isinstance(device, _Place):
        device = str(device.canonical()) if device.kind == "cpu" else f"gpu:{device.index}"
    elif not isinstance(device, str):
        raise ValueError(f"Unsupported device type: {type(device)}. Expected int, str, CUDAPlace, XPUPlace, or "
                         "CustomPlace.")
    _device.set_device(_device_to_paddle(device))


class CudaError(RuntimeError):
    """A CUDA runtime error code, with CUDA's text for it."""

    def __init__(self, code):
        super().__init__(f"{cudart().cudaGetErrorString(code)} ({code})")


def _returns_error_code(call):
    """A CuPy runtime call as the C API's: CUDA's error code (0 on success), the values of a query alongside."""
    def run(*args):
        runtime = _cupy_module.cupy().cuda.runtime
        try:
            result = call(runtime, *args)
        except runtime.CUDARuntimeError as e:
            return e.status
        return 0 if result is None else result
    return run


def cudart():
    """The CUDA runtime's calls Paddle's `_cudart` binding offers (profiler start/stop, memory info, error text),
    through CuPy; AttributeError without CUDA, as Paddle's CPU build."""
    if _cupy_module.cupy() is None:
        raise AttributeError("paddle.cuda.cudart: paddlelite sees no CUDA runtime (CuPy is not installed)")
    return _types.SimpleNamespace(
        cudaProfilerStart=_returns_error_code(lambda rt: rt.profilerStart()),
        cudaProfilerStop=_returns_error_code(lambda rt: rt.profilerStop()),
        cudaMemGetInfo=lambda device: _device_mem_get_info(device),
        cudaGetErrorString=_error_string,
        cudaError=_types.SimpleNamespace(success=0))


def _error_string(code):
    text = _cupy_module.cupy().cuda.runtime.getErrorString(int(code))
    return text.decode() if isinstance(text, bytes) else text


def check_error(res):
    """CudaError unless `res` is CUDA's success code."""
    if res != cudart().cudaError.success:
        raise CudaError(res)


def _device_mem_get_info(index):
    cp = _cupy_module.cupy()
    with cp.cuda.Device(index):
        return cp.cuda.runtime.memGetInfo()


def mem_get_info(device=None):
    """(free, total) bytes of a GPU's memory."""
    if device is None:
        device = _device.get_device()
    if isinstance(device, str):
        device = _device._convert_to_place(device)
    if not isinstance(device, int):
        if not isinstance(device, _Place) or device.kind != "gpu":
            raise ValueError(f"Expected a cuda device, but got: {device}")
        device = device.index
    return cudart().cudaMemGetInfo(device)
