"""paddle.device: places and the current device, streams and events, memory statistics, what devices
exist, and (a paddlelite extension) count_launches: what code would enqueue on a GPU, counted on the CPU; underneath,
lazy CuPy (cuda.py) and fused-kernel loading (kernels.py)."""
import sys as _sys

from . import cuda
from . import cuda_api as _cuda_api
from . import cuda_graphs as _cuda_graphs
from .device_object import (Device, _convert_to_place, _device_to_paddle, extract_device_id,  # noqa: F401
                            get_default_device, get_device_module, nvtx)
from .device_object import DeviceModule as _DeviceModule
from .host_memory import keep_freed_memory as _keep_freed_memory
from .info import (IPUPlace, XPUPlace, device_count, get_all_custom_device_type, get_all_device_type,
                   get_available_custom_device, get_available_device, get_cudnn_version, get_device_capability,
                   get_device_name, get_device_properties, is_available, is_bf16_supported, is_compiled_with_cinn,
                   is_compiled_with_cuda, is_compiled_with_custom_device, is_compiled_with_distribute,
                   is_compiled_with_ipu, is_compiled_with_rocm, is_compiled_with_xpu)
from .launch_count import count_launches
from .memory import (empty_cache, ipc_collect, max_memory_allocated, max_memory_reserved, memory_allocated,
                     memory_reserved, reset_max_memory_allocated, reset_max_memory_reserved, reset_peak_memory_stats)
from .place import (CPUPlace, CUDAPlace, Place, current_device, current_place, device, device_guard, device_to_place,
                    get_device, parse_place, place_of_array, set_default_device, set_device)
from .streams import (Event, Stream, StreamContext, current_stream, get_stream_from_external,
                      is_current_stream_capturing, set_stream, stream_guard, synchronize)
from .threads import apply_default as _one_blas_thread_for_small_work

_keep_freed_memory()
_one_blas_thread_for_small_work()
# paddle.device.cuda is paddlelite's lazy CuPy module; Paddle's names of paddle.device.cuda (cuda_api.py) and its
# paddle.device.cuda.graphs are filed under it
for _name in _cuda_api.__all__:
    setattr(cuda, _name, getattr(_cuda_api, _name))
cuda.__all__ = [*_cuda_api.__all__, "device_count", "graphs"]
cuda.graphs = _sys.modules[cuda.__name__ + ".graphs"] = _cuda_graphs


def stream(stream):
    """`with paddle.device.stream(s):` makes `s` the current stream inside (torch.cuda.stream)."""
    return StreamContext(stream)


_sys.modules[__name__].__class__ = _DeviceModule  # paddle.device('cuda') is a Device, as in Paddle 3.3

__all__ = ["cuda", "CPUPlace", "CUDAPlace", "Place", "current_place", "get_device", "parse_place", "place_of_array",
           "set_device", "device", "device_guard", "current_device", "device_to_place", "set_default_device",
           "IPUPlace", "XPUPlace", "device_count", "get_all_custom_device_type", "get_all_device_type",
           "get_available_custom_device", "get_available_device", "get_cudnn_version", "get_device_capability",
           "get_device_name", "get_device_properties", "is_available", "is_bf16_supported", "is_compiled_with_cinn",
           "is_compiled_with_cuda", "is_compiled_with_custom_device", "is_compiled_with_distribute",
           "is_compiled_with_ipu", "is_compiled_with_rocm", "is_compiled_with_xpu",
           "empty_cache", "ipc_collect", "max_memory_allocated", "max_memory_reserved", "memory_allocated",
           "memory_reserved", "reset_max_memory_allocated", "reset_max_memory_reserved", "reset_peak_memory_stats",
           "Event", "Stream", "StreamContext", "current_stream", "get_stream_from_external",
           "is_current_stream_capturing", "set_stream", "stream_guard", "synchronize", "count_launches"]
# outside __all__, as in Paddle: Device, get_default_device, get_device_module, extract_device_id, nvtx, stream
