"""Device layer: places, the current device, lazy CuPy, fused-kernel loading."""
from . import cuda
from .place import (CPUPlace, CUDAPlace, Place, current_place, get_device, is_compiled_with_cuda,
                    parse_place, place_of_array, set_device)

__all__ = ["cuda", "CPUPlace", "CUDAPlace", "Place", "current_place", "get_device",
           "is_compiled_with_cuda", "parse_place", "place_of_array", "set_device"]
