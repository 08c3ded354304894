"""Paddle's global flags (paddle.set_flags / get_flags) -- the ones paddlelite has.

FLAGS_enable_pir_api says which IR static programs use: paddlelite implements Paddle's legacy IR
only, so it reads False and cannot be switched on. FLAGS_paddle_num_threads is the number of BLAS
threads a large matrix product may use (device/threads.py; smaller work runs one). Other names raise
ValueError, as Paddle does for flags it does not know.
"""
from ..device import threads
from .mode import in_dynamic_mode, in_static_mode

_FLAGS = {"FLAGS_enable_pir_api": False}
_FIXED = {"FLAGS_enable_pir_api": "paddlelite implements Paddle's legacy IR only (no PIR)"}
_LIVE = {"FLAGS_paddle_num_threads": (threads.num_threads, threads.set_num_threads)}  # (get, set) elsewhere


def _known(name, api):
    if name not in _FLAGS and name not in _LIVE:
        raise ValueError(f"{api}: unknown flag {name!r}; paddlelite has {sorted([*_FLAGS, *_LIVE])}")
    return name


def _value(name):
    return _LIVE[name][0]() if name in _LIVE else _FLAGS[name]


def set_flags(flags):
    """Set global flags from a dict {name: value}."""
    if not isinstance(flags, dict):
        raise TypeError(f"set_flags: flags must be a dict, received {type(flags).__name__}")
    for name, value in flags.items():
        _known(name, "set_flags")
        if name in _LIVE:
            _LIVE[name][1](value)
        elif name in _FIXED and bool(value) != _FLAGS[name]:
            raise ValueError(f"set_flags: {name} cannot be {value!r}: {_FIXED[name]}")
        else:
            _FLAGS[name] = type(_FLAGS[name])(value)


def get_flags(flags):
    """{name: value} for a flag name or a list/tuple of names."""
    if isinstance(flags, str):
        flags = [flags]
    elif not isinstance(flags, (list, tuple)):
        raise TypeError(f"get_flags: flags must be a str, list or tuple, received {type(flags).__name__}")
    return {name: _value(_known(name, "get_flags")) for name in flags}


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
