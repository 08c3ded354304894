"""Paddle's global flags (paddle.set_flags / get_flags) -- the ones paddlelite has.

FLAGS_enable_pir_api says which IR static programs use: paddlelite implements Paddle's legacy IR
only, so it reads False and cannot be switched on. Other names raise ValueError, as Paddle does for
flags it does not know. The GPU flags are those of Paddle's CUDA build: FLAGS_gemm_use_half_precision_compute_type
(float16 GEMMs accumulate in float16), FLAGS_new_executor_use_cuda_graph (the Executor replays a repeated step
from a CUDA graph; a CompiledProgram whose BuildStrategy allows CUDA-graph capture sets it, as Paddle's does).

Paddle's TF32 switches are no flags but `paddle.base.core.set_cublas_switch` / `set_cudnn_switch`: `TF32` holds
them (on by default in Paddle's CUDA build): whether float32 GEMMs of the matmul family ("cublas") and of
convolutions ("cudnn", which run in cuDNN in Paddle) may round their inputs to TF32 on tensor cores.
"""
from .mode import in_dynamic_mode, in_static_mode

_FLAGS = {"FLAGS_enable_pir_api": False, "FLAGS_gemm_use_half_precision_compute_type": False,
          "FLAGS_new_executor_use_cuda_graph": False}
TF32 = {"cublas": True, "cudnn": True}
_FIXED = {"FLAGS_enable_pir_api": "paddlelite implements Paddle's legacy IR only (no PIR)"}


def _known(name, api):
    if name not in _FLAGS:
        raise ValueError(f"{api}: unknown flag {name!r}; paddlelite has {sorted(_FLAGS)}")
    return name


def set_flags(flags):
    """Set global flags from a dict {name: value}."""
    if not isinstance(flags, dict):
        raise TypeError(f"set_flags: flags must be a dict, received {type(flags).__name__}")
    for name, value in flags.items():
        _known(name, "set_flags")
        if name in _FIXED and bool(value) != _FLAGS[name]:
            raise ValueError(f"set_flags: {name} cannot be {value!r}: {_FIXED[name]}")
        _FLAGS[name] = type(_FLAGS[name])(value)


def get_flags(flags):
    """{name: value} for a flag name or a list/tuple of names."""
    if isinstance(flags, str):
        flags = [flags]
    elif not isinstance(flags, (list, tuple)):
        raise TypeError(f"get_flags: flags must be a str, list or tuple, received {type(flags).__name__}")
    return {name: _FLAGS[_known(name, "get_flags")] for name in flags}


def flag(name):
    """A flag's value, for the code that follows it."""
    return _FLAGS[name]


def use_pir_api():
    return _FLAGS["FLAGS_enable_pir_api"]


def in_pir_mode():
    """True when building a PIR static program: never in paddlelite (legacy IR only)."""
    return in_static_mode() and use_pir_api()


def in_dynamic_or_pir_mode():
    return in_dynamic_mode() or in_pir_mode()


__all__ = ["disable_signal_handler", "get_flags", "in_dynamic_or_pir_mode", "in_pir_mode", "set_flags", "use_pir_api"]


def disable_signal_handler():
    """Paddle resets the C++ fault-signal handlers it installs (they clash with TVM and others). paddlelite
    installs no signal handlers (Python's own, e.g. faulthandler, stay the user's), so nothing is reset."""
