"""Paddle's global flags (paddle.set_flags / get_flags): every flag Paddle 3.3.1 defines, typed as Paddle's.

framework/paddle_flags.py is the table (name -> default). As in Paddle, a flag starts from `FLAGS_<name>` in
the environment when set there, and a value given to `set_flags` must fit the flag's type (an int for an int
flag, never a float; a str for a str flag), else `RuntimeError` as Paddle's pybind cast raises.

Most flags tune Paddle's C++ runtime (allocators, executors, CINN, distributed tables) and are accepted and
inert here. Those that mean something are read where they act, by the module that acts on them
(`flag(name)`, or `watch(name, fn)` to hear of changes):
- FLAGS_check_nan_inf / FLAGS_check_nan_inf_level: every op's outputs are checked (ops/check_numerics.py);
- FLAGS_cudnn_deterministic, FLAGS_cudnn_exhaustive_search, FLAGS_embedding_deterministic,
  FLAGS_conv_workspace_size_limit: the GPU bindings of conv, batch norm and embedding;
- FLAGS_sort_sum_gradient: always in effect (the backward engine sums a tensor's gradients in the
  reverse order of the forward ops that used it), so either value gives that order;
- FLAGS_enable_pir_api reads False and cannot be switched on: paddlelite implements the legacy IR only;
- FLAGS_paddle_num_threads: the most BLAS threads a large matrix product may use (device/threads.py, which sits
  below this floor, so it is watched from here). Without it in the environment it starts from the BLAS's own
  choice (a thread per core, or OMP_NUM_THREADS / OPENBLAS_NUM_THREADS), not Paddle's 1: small products run one
  thread anyway, and large ones get the cores;
- FLAGS_gemm_use_half_precision_compute_type: float16 GEMMs accumulate in float16 (ops/math.matmul_array);
- FLAGS_new_executor_use_cuda_graph: the Executor replays a repeated step from a CUDA graph (as a CompiledProgram
  whose BuildStrategy allows CUDA-graph capture does, static/executor.py).

Paddle's TF32 switches are no flags but `paddle.base.core.set_cublas_switch` / `set_cudnn_switch`: `TF32` holds
them (on by default in Paddle's CUDA build): whether float32 GEMMs of the matmul family ("cublas") and of
convolutions ("cudnn", which run in cuDNN in Paddle) may round their inputs to TF32 on tensor cores.
"""
import operator
import os

from ..device import threads
from . import user_warnings as _user_warnings
from .mode import in_dynamic_mode, in_static_mode
from .paddle_flags import CPU_BUILD, CUDA_BUILD_ONLY

_FLAGS = {**CPU_BUILD, **CUDA_BUILD_ONLY, "FLAGS_enable_pir_api": False}
TF32 = {"cublas": True, "cudnn": True}
_FIXED = {"FLAGS_enable_pir_api": "paddlelite implements Paddle's legacy IR only (no PIR)"}
_WATCHERS = {}  # name -> [fn(value)], called after the flag changes
_INT_RANGE = (-(2 ** 63), 2 ** 64 - 1)  # int32/int64/uint64 flags: the widest C++ type any of them has


def _known(name, api, verb):
    if name not in _FLAGS:
        raise ValueError(f"{api}: flag {name!r} cannot {verb} its value: Paddle 3.3.1 defines no such public flag")
    return name


def _typed(name, value):
    """`value` as flag `name`'s type, or RuntimeError (Paddle's class) when it does not fit."""
    kind = type(_FLAGS[name])
    try:
        if kind is str:
            if isinstance(value, str):
                return value
        elif kind is float:
            if not isinstance(value, str):
                return float(operator.index(value)) if not isinstance(value, float) else value
        else:  # bool and int flags take any integer (a bool too); never a float or a str
            number = operator.index(value)
            if kind is bool:
                return bool(number)
            if _INT_RANGE[0] <= number <= _INT_RANGE[1]:
                return number
    except TypeError:
        pass
    raise RuntimeError(f"set_flags: {name} is a {kind.__name__} flag; received {value!r} "
                       f"({type(value).__name__})")


def _parse_env(name, text):
    """A flag's value from the environment, as gflags reads `FLAGS_<name>=text`."""
    kind = type(_FLAGS[name])
    if kind is bool:
        lowered = text.strip().lower()
        if lowered in ("1", "true", "t", "yes", "y"):
            return True
        if lowered in ("0", "false", "f", "no", "n", ""):
            return False
        raise ValueError(text)
    return kind(text)


def _read_environment():
    for name in _FLAGS.keys() & os.environ.keys():
        if name in _FIXED:
            continue  # FLAGS_enable_pir_api=0 is how scripts ask real Paddle for the legacy IR: ours already
        try:
            _FLAGS[name] = _parse_env(name, os.environ[name])
        except ValueError:
            _user_warnings.warn(f"paddlelite: the environment's {name}={os.environ[name]!r} is not a "
                                f"{type(_FLAGS[name]).__name__}; the flag keeps its default {_FLAGS[name]!r}")


_read_environment()


def set_flags(flags):
    """Set global flags from a dict {name: value}."""
    if not isinstance(flags, dict):
        raise TypeError(f"set_flags: flags should be a dict, received {type(flags).__name__}")
    typed = {}
    for name, value in flags.items():
        _known(name, "set_flags", "set")
        value = _typed(name, value)
        if name in _FIXED and value != _FLAGS[name]:
            raise ValueError(f"set_flags: {name} cannot be {value!r}: {_FIXED[name]}")
        typed[name] = value
    for name, value in typed.items():
        _FLAGS[name] = value
        for fn in _WATCHERS.get(name, ()):
            fn(value)


def get_flags(flags):
    """{name: value} for a flag name or a list/tuple of names."""
    if isinstance(flags, str):
        flags = [flags]
    elif not isinstance(flags, (list, tuple)):
        raise TypeError(f"get_flags: flags should be a list, tuple or string, received {type(flags).__name__}")
    return {name: _FLAGS[_known(name, "get_flags", "get")] for name in flags}


def flag(name):
    """The current value of flag `name` (for the modules that act on it)."""
    return _FLAGS[name]


def watch(name, fn):
    """Call fn(value) now and whenever flag `name` changes (a module that caches what a flag decides)."""
    _WATCHERS.setdefault(_known(name, "watch", "watch"), []).append(fn)
    fn(_FLAGS[name])


if "FLAGS_paddle_num_threads" not in os.environ:
    _FLAGS["FLAGS_paddle_num_threads"] = threads.num_threads()
watch("FLAGS_paddle_num_threads", threads.set_num_threads)


class GlobalFlags:
    """Paddle's `core.globals()`: the flags as a mapping (`g['FLAGS_x']`, `g['FLAGS_x'] = v`, `in`, `keys()`)."""

    def __getitem__(self, name):
        return _FLAGS[_known(name, "core.globals()", "get")]

    def __setitem__(self, name, value):
        set_flags({name: value})

    def __contains__(self, name):
        return name in _FLAGS

    def get(self, name, default=None):
        return _FLAGS.get(name, default)

    def keys(self):
        return list(_FLAGS)

    def is_public(self, name):
        return name in _FLAGS


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
