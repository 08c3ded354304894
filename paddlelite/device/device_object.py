"""Paddle 3.3's torch-style device names: `Device` ('cpu', 'cuda:0': a str with .type and .index, a context
manager), the callable paddle.device module (`paddle.device('cuda')` is a Device), get_default_device,
get_device_module (paddle.cuda for a GPU), the device-spelling helpers Paddle's own code and scripts reach, and
nvtx ranges (CuPy's NVTX on a GPU; nothing to mark without one)."""
import importlib
import types

from . import cuda
from .place import Place, current_place, device_to_place, get_device, parse_place, set_device


class Device(str):
    """A device as PyTorch spells it: Device('cuda', 1) == 'cuda:1', Device('cpu'), Device(place), Device(0)."""
    _DEFAULT_DEVICE_STACK = []
    _SUPPORTED_TYPES = {"cpu", "gpu", "cuda", "xpu"}

    def __new__(cls, type=None, index=None):  # noqa: A002  (torch's name)
        if isinstance(type, Place):
            dev_type, dev_index = ("cpu", None) if type.kind == "cpu" else ("cuda", type.index)
        elif isinstance(type, str):
            t = type.lower()
            if t not in cls._SUPPORTED_TYPES and ":" not in t:
                raise ValueError(f"Unsupported device type: {t}")
            if index is not None:
                dev_type, dev_index = t, (index if t != "cpu" else None)
            elif ":" in t:
                dev_type, idx = t.split(":")
                if dev_type not in cls._SUPPORTED_TYPES:
                    raise ValueError(f"Unsupported device type: {dev_type}")
                dev_index = int(idx)
            else:
                dev_type, dev_index = t, (0 if t != "cpu" else None)
        elif isinstance(type, int):
            dev_type, dev_index = "cuda", type
        elif type is None and index is not None:
            raise ValueError("Device type must be specified if index is given")
        else:
            raise TypeError(f"Unsupported type for Device: {type}")
        obj = str.__new__(cls, f"{dev_type}:{dev_index}" if dev_type != "cpu" else "cpu")
        obj._dev_type, obj._index = dev_type, dev_index
        return obj

    @property
    def type(self):
        return self._dev_type

    @property
    def index(self):
        return self._index

    def _to_place(self):
        if self.type == "cpu":
            return Place("cpu")
        if self.type in ("gpu", "cuda"):
            return Place("gpu", self.index)
        raise ValueError(f"Unsupported device type: {self.type}")

    def __dlpack_device__(self):
        return (1, 0) if self.type == "cpu" else (2, self.index)  # DLPack's kDLCPU / kDLCUDA

    def __enter__(self):
        Device._DEFAULT_DEVICE_STACK.append(get_device())
        set_device(str(self))
        return self

    def __exit__(self, *exc):
        set_device(Device._DEFAULT_DEVICE_STACK.pop())


class DeviceModule(types.ModuleType):
    """paddle.device's module class: calling it makes a Device."""

    def __call__(self, *args, **kwargs):
        return Device(*args, **kwargs)


def get_default_device():
    """The current device as a Device ('cpu' or 'cuda:N')."""
    return Device(get_device().replace("gpu", "cuda"))


def _device_to_paddle(dev=None):
    """torch's device spellings as Paddle's: an index of the current kind, 'cuda:N' as 'gpu:N', None the current."""
    if isinstance(dev, int):
        if dev < 0:
            raise ValueError(f"Device index must be non-negative, got {dev}")
        current = get_device()
        if current == "cpu":
            if dev != 0:
                raise ValueError(f"CPU device only supports index 0, got {dev}")
            return "cpu"
        return f"{current.split(':')[0]}:{dev}"
    if isinstance(dev, str):
        cleaned = dev.strip()
        return cleaned.replace("cuda:", "gpu:") if "cuda:" in cleaned else cleaned
    return get_device() if dev is None else dev


def _convert_to_place(device):
    """A device string as a Place (anything else as it is)."""
    return parse_place(device, "paddle.device") if isinstance(device, str) else device


def get_device_module(device=None):
    """The module of `device`'s kind: paddle.cuda for a GPU, paddle.device for the CPU."""
    device = _device_to_paddle(device)
    if isinstance(device, str):
        kind = device.lower().split(":")[0]
        if kind in ("cuda", "gpu"):
            return importlib.import_module("paddlelite.cuda")
        if kind == "cpu":
            return importlib.import_module("paddlelite.device")
        raise RuntimeError(f"Unsupported device type: {kind}")
    place = current_place() if device is None else device
    return importlib.import_module("paddlelite.cuda" if place.kind == "gpu" else "paddlelite.device")


def extract_device_id(device, op_name):
    """The GPU index `device` names (None: the current GPU)."""
    if device is None:
        return cuda.cupy().cuda.Device().id if cuda.is_available() else 0
    if isinstance(device, str) and not device.startswith("gpu:") and ":" not in device:
        raise ValueError(f"The current string {device} is not expected. Because {op_name} only support string which "
                         "is like 'gpu:x' or '<custom_device>:x'. Please input appropriate string again!")
    if not isinstance(device, (int, str, Place)):
        raise ValueError(f"The device type {device} is not expected. Because {op_name} only support int, str (format "
                         "'gpu:x' or '<custom_device>:x'), paddle.CUDAPlace or paddle.CustomPlace. Please input "
                         "appropriate device again!")
    return device_to_place(device, op_name).index


class nvtx:
    """NVTX ranges around code, seen by Nsight: `nvtx.range_push('step')` ... `nvtx.range_pop()`."""

    @staticmethod
    def range_push(msg):
        if cuda.is_available():
            cuda.cupy().cuda.nvtx.RangePush(msg)

    @staticmethod
    def range_pop():
        if cuda.is_available():
            cuda.cupy().cuda.nvtx.RangePop()
