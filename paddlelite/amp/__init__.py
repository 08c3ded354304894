"""paddle.amp: automatic mixed precision (auto_cast, decorate, GradScaler). The casting itself happens in
the dispatcher (ops/autocast.py), for eager ops and static programs alike."""
from . import amp_lists, grad_scaler  # noqa: F401
from .auto_cast import (auto_cast, decorate, get_autocast_dtype, is_autocast_enabled, is_bfloat16_supported,
                        is_float16_supported)
from .grad_scaler import GradScaler
# Paddle's names shown here outside __all__
from .amp_lists import black_list, white_list  # noqa: F401
from .auto_cast import amp_guard, autocast  # noqa: F401
from .auto_cast import decorate as amp_decorate  # noqa: F401
from .grad_scaler import AmpScaler, OptimizerState  # noqa: F401

get_autocast_cpu_dtype = get_autocast_dtype
get_autocast_gpu_dtype = get_autocast_dtype

__all__ = ["auto_cast", "GradScaler", "decorate", "is_float16_supported", "is_bfloat16_supported",
           "is_autocast_enabled", "get_autocast_dtype", "get_autocast_cpu_dtype", "get_autocast_gpu_dtype"]
