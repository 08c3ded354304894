"""Framework core shared by both modes: dtypes, the mode switches, flags, random state, the Tensor.

Its submodules are the implementation; as `paddle.framework` it also re-exports the names Paddle code
imports from there (in_dynamic_mode, in_pir_mode, use_pir_api, set_flags, seed, save, ...).
"""
from ..device import CPUPlace, CUDAPlace
from .dtype import get_default_dtype, set_default_dtype
from .flags import get_flags, in_dynamic_or_pir_mode, in_pir_mode, set_flags, use_pir_api
from .io import load, save
from .mode import disable_static, enable_static, in_dynamic_mode, no_grad
from .random import seed

__all__ = ["CPUPlace", "CUDAPlace", "disable_static", "enable_static", "get_default_dtype", "get_flags",
           "in_dynamic_mode", "in_dynamic_or_pir_mode", "in_pir_mode", "load", "no_grad", "save", "seed",
           "set_default_dtype", "set_flags", "use_pir_api"]
