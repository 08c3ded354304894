"""Lazy CuPy access: nothing here imports CuPy until a GPU is actually asked about."""
import importlib

import numpy as np

_state = {}


def cupy():
    """The cupy module, or None when it is not installed or cannot initialise."""
    if "cupy" not in _state:
        try:
            _state["cupy"] = importlib.import_module("cupy")
        except Exception:  # ImportError, or a broken CUDA install raising at import
            _state["cupy"] = None
        if _state["cupy"] is not None:
            from . import memory
            memory.track_peaks(_state["cupy"])
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


def as_module(xp, array):
    """`array` (NumPy or CuPy) as an array of module `xp`, copied across devices only when it lives on the other."""
    if xp is np:  # a device array (CuPy's, or device.launch_count's stand-in) has get()
        if not hasattr(array, "get"):
            return np.asarray(array)
        from . import deferred_checks  # the host reads device values: the checks kept until now are looked at
        deferred_checks.raise_pending()
        return array.get()
    return xp.asarray(array)


def cupyx_for(xp):
    """cupyx for array module `xp`: CuPy's, or the stand-in carried by a module that stands in for CuPy
    (device/launch_count.py's)."""
    stand_in = getattr(xp, "cupyx", None)
    return stand_in if stand_in is not None else importlib.import_module("cupyx")


def require_cuda(api):
    """CuPy, for an API that only exists with a CUDA backend (ValueError, as Paddle's CPU build raises)."""
    cp = cupy()
    if cp is None:
        raise ValueError(f"The API {api} is not supported in CPU-only paddlelite: CuPy is not installed. "
                         "Install paddlelite[cuda12] or paddlelite[cuda13] on a CUDA machine to call this API.")
    return cp


def gpu_index(device, api):
    """The CUDA device index `device` names: None (the current CUDA device), an int, 'gpu' / 'gpu:N' /
    'cuda:N', or a GPU Place."""
    cp = require_cuda(api)
    if device is None:
        index = cp.cuda.runtime.getDevice()
    elif isinstance(device, int) and not isinstance(device, bool):
        index = device
    elif isinstance(device, str) and device.strip().lower() in ("gpu", "cuda"):
        index = 0
    elif isinstance(device, str) and device.strip().lower().startswith(("gpu:", "cuda:")):
        index = device.strip().split(":", 1)[1]
        if not index.isdigit():
            raise ValueError(f"{api}: bad device index in '{device}'")
        index = int(index)
    elif getattr(device, "kind", None) == "gpu":
        index = device.index
    else:
        raise ValueError(f"{api}: device must be an int, 'gpu', 'gpu:N' or a CUDAPlace, received {device!r}")
    if not 0 <= index < device_count():
        raise ValueError(f"{api}: device id {index} is out of range; {device_count()} CUDA device(s) are visible")
    return index

