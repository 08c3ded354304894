"""Lazy CuPy access: nothing here imports CuPy until a GPU is actually asked about."""
import importlib

_state = {}


def cupy():
    """The cupy module, or None when it is not installed or cannot initialise."""
    if "cupy" not in _state:
        try:
            _state["cupy"] = importlib.import_module("cupy")
        except Exception:  # ImportError, or a broken CUDA install raising at import
            _state["cupy"] = None
    return _state["cupy"]


def device_count():
    """Number of visible CUDA devices (0 without CuPy or without a driver)."""
    if "count" not in _state:
        cp = cupy()
        try:
            _state["count"] = cp.cuda.runtime.getDeviceCount() if cp is not None else 0
        except Exception:
            _state["count"] = 0
    return _state["count"]


def is_available():
    return device_count() > 0


def is_cupy_array(a):
    cp = _state.get("cupy")
    return cp is not None and isinstance(a, cp.ndarray)


def synchronize(device=None):
    if is_available():
        cupy().cuda.Device(0 if device is None else int(device)).synchronize()
