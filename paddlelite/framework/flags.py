"""Paddle's global flags (paddle.set_flags / get_flags) -- the ones paddlelite has.

FLAGS_enable_pir_api says which IR static programs use: paddlelite implements Paddle's legacy IR
only, so it reads False and cannot be switched on. The cuDNN flags are those of Paddle's GPU build, and as
there an environment variable of the same name sets the starting value: FLAGS_cudnn_deterministic (only
plans cuDNN marks deterministic, and the deterministic variant of every kernel that has one),
FLAGS_cudnn_exhaustive_search (time every cuDNN plan on the first call of a shape and keep the fastest),
FLAGS_conv_workspace_size_limit (MB: no cuDNN plan needing more workspace). Other names raise ValueError, as
Paddle does for flags it does not know.
"""
import os

from .mode import in_dynamic_mode, in_static_mode


def _from_env(name, default):
    """A flag's starting value: the environment variable `name` when set (Paddle reads FLAGS_* so), else `default`."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    if isinstance(default, bool):
        return raw.strip().lower() in ("1", "true", "yes", "on")
    return type(default)(raw)


_FLAGS = {"FLAGS_enable_pir_api": False,
          "FLAGS_cudnn_deterministic": _from_env("FLAGS_cudnn_deterministic", False),
          "FLAGS_cudnn_exhaustive_search": _from_env("FLAGS_cudnn_exhaustive_search", False),
          "FLAGS_conv_workspace_size_limit": _from_env("FLAGS_conv_workspace_size_limit", 512)}
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
    """A flag's value (the hot-path read of kernel bindings: no list, no copy)."""
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
