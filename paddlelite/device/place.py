"""Places (where a tensor's memory lives) and the current default device."""
import os

import numpy as np

from . import cuda


class Place:
    """A device: 'cpu' or 'gpu' with an index. Places are interned, so `is` compares the places tensors carry;
    `==` compares the device, so Paddle's typed places (CPUPlace(), CUDAPlace(n)) equal a tensor's place."""

    __slots__ = ("kind", "index", "_xp")
    _interned = {}

    def __new__(cls, kind, index=0):
        key = (cls, kind, index if kind == "gpu" else 0)
        place = Place._interned.get(key)
        if place is None:
            place = object.__new__(cls)
            place.kind, place.index = key[1:]
            place._xp = None
            Place._interned[key] = place
        return place

    @property
    def xp(self):
        """The array module for this place: numpy for the CPU, cupy for a GPU."""
        if self._xp is None:
            if self.kind == "cpu":
                self._xp = np
            else:
                _require_gpu(self.index, "Place")
                self._xp = cuda.cupy()
        return self._xp

    def canonical(self):
        """The plain Place of this device (what tensors carry and `is` compares)."""
        return Place(self.kind, self.index)

    def __eq__(self, other):
        return isinstance(other, Place) and (self.kind, self.index) == (other.kind, other.index)

    def __hash__(self):
        return hash((self.kind, self.index))

    def _equals(self, other):
        return self == other

    def is_cpu_place(self):
        return self.kind == "cpu"

    def is_gpu_place(self):
        return self.kind == "gpu"

    def is_cuda_pinned_place(self):
        return False

    def is_xpu_place(self):
        return False

    def is_ipu_place(self):
        return False

    def is_custom_place(self):
        return False

    def gpu_device_id(self):
        return self.index

    def __repr__(self):
        return "Place(cpu)" if self.kind == "cpu" else f"Place(gpu:{self.index})"

    def __reduce__(self):
        return (Place, (self.kind, self.index))


class CPUPlace(Place):
    """Paddle's CPUPlace: a class (isinstance works, `type(p).__name__` is 'CPUPlace') equal to Place('cpu')."""

    __slots__ = ()

    def __new__(cls):
        return Place.__new__(cls, "cpu")

    def __reduce__(self):
        return (CPUPlace, ())


class CUDAPlace(Place):
    """Paddle's CUDAPlace(id): a class equal to Place('gpu', id)."""

    __slots__ = ()

    def __new__(cls, id=0):
        if isinstance(id, bool) or not isinstance(id, int) or id < 0:
            raise ValueError(f"CUDAPlace: device id must be a non-negative int, received {id!r}")
        return Place.__new__(cls, "gpu", id)

    def __reduce__(self):
        return (CUDAPlace, (self.index,))


def _require_gpu(index, api):
    n = cuda.device_count()
    if n == 0:
        why = "CuPy is not installed" if cuda.cupy() is None else "CuPy sees no CUDA device"
        raise ValueError(f"{api}: a GPU place was requested but {why}; "  # ValueError, as Paddle's CPU build
                           "install paddlelite[cuda12] or paddlelite[cuda13] on a CUDA machine, or use 'cpu'")
    if index >= n:
        raise ValueError(f"{api}: gpu:{index} requested but only {n} CUDA device(s) are visible")


def parse_place(spec, api="set_device"):
    """'cpu', 'gpu', 'gpu:N', 'cuda:N' or a Place -> Place (GPU places are checked to exist)."""
    if isinstance(spec, Place):
        if spec.kind == "gpu":
            _require_gpu(spec.index, api)
        return spec.canonical()
    if not isinstance(spec, str):
        raise TypeError(f"{api}: device must be a str like 'cpu' or 'gpu:0' or a Place, received {type(spec).__name__}")
    s = spec.strip().lower()
    if s == "cpu":
        return Place("cpu")
    kind, _, idx = s.partition(":")
    if kind in ("gpu", "cuda"):
        if idx and not idx.isdigit():
            raise ValueError(f"{api}: bad device index in '{spec}'")
        place = Place("gpu", int(idx) if idx else 0)
        _require_gpu(place.index, api)
        return place
    raise ValueError(f"{api}: device must be 'cpu', 'gpu' or 'gpu:N', received '{spec}'")


ENV_VAR = "PADDLELITE_DEVICE"
_current = []


def _default_place():
    spec = os.environ.get(ENV_VAR)
    if spec:
        return parse_place(spec, f"environment variable {ENV_VAR}")
    return Place("gpu", 0) if cuda.is_available() else Place("cpu")


def current_place():
    """The place new tensors go to. Decided lazily so `import paddlelite` never touches CuPy."""
    if not _current:
        _current.append(_default_place())
    return _current[0]


def set_device(device):
    place = parse_place(device)
    if place.kind == "gpu":
        cuda.cupy().cuda.Device(place.index).use()
    _current[:] = [place]
    return place


def get_device(input=None):
    """The current device as 'cpu' or 'gpu:N'; for a Tensor `input`, its GPU index (-1 on the CPU)."""
    if input is not None:
        place = input.place
        return -1 if place.kind == "cpu" else place.index
    place = current_place()
    return "cpu" if place.kind == "cpu" else f"gpu:{place.index}"


def current_device():
    """The index of the current device (0 on the CPU)."""
    return current_place().index


def set_default_device(device):
    """set_device, returning nothing."""
    set_device(device)


def device_to_place(device=None, api="paddle.device.device"):
    """Paddle's device spellings -> Place: None (the current device), an int (an index of the current
    device's kind), 'cpu' / 'gpu' / 'gpu:N' / 'cuda:N', or a Place."""
    if device is None:
        return current_place()
    if isinstance(device, int) and not isinstance(device, bool):
        if device < 0:
            raise ValueError(f"{api}: device index must be non-negative, got {device}")
        if current_place().kind == "cpu":
            if device != 0:
                raise ValueError(f"{api}: CPU device only supports index 0, got {device}")
            return Place("cpu")
        return parse_place(f"gpu:{device}", api)
    return parse_place(device.strip() if isinstance(device, str) else device, api)


class device:
    """Context manager: `with paddle.device.device('gpu:0'):` makes that the current device inside."""

    def __init__(self, device=None):
        self.place = device_to_place(device)
        self.prev_place_str = "-1"

    def __enter__(self):
        self.prev_place_str = get_device()
        set_device(self.place)

    def __exit__(self, *exc):
        set_device(self.prev_place_str)
        return False


class device_guard:
    """Context manager: new tensors go to `device` (a str like 'cpu' / 'gpu:0', or a Place) inside."""

    def __init__(self, device):
        if isinstance(device, str):
            self._target_place = parse_place(device, "device_guard")
        elif isinstance(device, Place):
            self._target_place = device.canonical()
        else:
            raise ValueError("device_guard: 'device' must be a string or a Place, "
                             f"but got {type(device)}")

    def __enter__(self):
        self._original_place = current_place()
        if self._original_place is not self._target_place:
            set_device(self._target_place)

    def __exit__(self, *exc):
        if self._original_place is not self._target_place:
            set_device(self._original_place)


def place_of_array(a):
    """The place an array lives on."""
    if isinstance(a, np.ndarray) or np.isscalar(a):
        return Place("cpu")
    if cuda.is_cupy_array(a):
        return Place("gpu", a.device.id)
    raise TypeError(f"expected a numpy or cupy array, received {type(a).__name__}")


class CUDAPinnedPlace(Place):
    """Page-locked host memory: not modelled (host arrays are copied to the GPU directly); a class for isinstance
    checks, RuntimeError on construction without CUDA, as Paddle's CPU build raises."""

    __slots__ = ()

    def __new__(cls):
        if not cuda.is_available():
            raise RuntimeError("CUDAPinnedPlace: pinned host memory needs CUDA, and no CUDA device is available")
        raise NotImplementedError("CUDAPinnedPlace: paddlelite keeps host tensors in ordinary memory and copies them "
                                  "to the GPU directly; use CPUPlace or CUDAPlace")


def XPUPinnedPlace():
    """Kunlun XPU memory: paddlelite runs on CPUs and NVIDIA GPUs only."""
    raise RuntimeError("XPUPinnedPlace: paddlelite supports no XPU (it runs on CPUs and NVIDIA GPUs)")
