"""DLPack exchange (paddle.to_dlpack / paddle.from_dlpack, paddle.utils.dlpack): zero-copy sharing with NumPy,
CuPy, PyTorch, JAX, ... through the arrays' own __dlpack__ protocol.

NumPy and CuPy know no bfloat16, which DLPack does (type code kDLBfloat): a bfloat16 tensor travels as the uint16
array it is bit for bit, and the one byte naming the type code is rewritten in the capsule's DLTensor -- on the way
out so the consumer (torch, JAX) sees bfloat16, on the way in so NumPy/CuPy accept it as uint16, viewed back as
bfloat16. The struct layouts are DLPack's ABI (dlpack.h, v0.x and the versioned v1)."""
import ctypes

import numpy as np

from ..device import cuda
from ..device.place import parse_place, place_of_array
from ..framework.dtype import DTYPES
from ..framework.tensor import Tensor, wrap_array

_BFLOAT16 = DTYPES["bfloat16"].np
_KDL_UINT, _KDL_BFLOAT = 1, 4  # DLDataTypeCode
_KDL_CPU, _KDL_CUDA, _KDL_CUDA_HOST = 1, 2, 3  # DLDeviceType


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType), ("shape", ctypes.c_void_p),
                ("strides", ctypes.c_void_p), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensorVersioned(ctypes.Structure):  # DLPack >= 1.0: the tensor comes after a header
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor)]


_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype, _get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype, _get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]


def _dl_dtype(capsule):
    """The DLDataType inside an unconsumed capsule ('dltensor' or 'dltensor_versioned'), writable in place."""
    name = _get_name(capsule)
    if name == b"dltensor":  # DLManagedTensor starts with its DLTensor
        return _DLTensor.from_address(_get_pointer(capsule, name)).dtype
    if name == b"dltensor_versioned":
        return _DLManagedTensorVersioned.from_address(_get_pointer(capsule, name)).dl_tensor.dtype
    raise ValueError(f"from_dlpack: the capsule is named {name!r}; a capsule is consumed once (it was "
                     "already used to make a tensor), and only 'dltensor' capsules can be read")


def to_dlpack(x):
    """A DLPack capsule viewing x's memory (no copy)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"to_dlpack: the type of 'x' must be paddle.Tensor, but received {type(x)}")
    if x._data.dtype != _BFLOAT16:
        return x._data.__dlpack__()
    capsule = x._data.view(np.uint16).__dlpack__()
    _dl_dtype(capsule).code = _KDL_BFLOAT
    return capsule


class _Capsule:
    """A bare capsule given the protocol the array libraries' from_dlpack expects."""

    def __init__(self, capsule, device):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


class _WritableView:
    """Exposes a read-only array's memory as writable (`__array_interface__`), keeping the array alive."""

    def __init__(self, array):
        self._array = array
        self.__array_interface__ = dict(array.__array_interface__, data=(array.__array_interface__["data"][0], False))


def _writable(array):
    """NumPy marks an array read from a legacy (unversioned) capsule read-only, the capsule having no flag to say
    otherwise; Paddle's from_dlpack shares the memory both ways (a write through it reaches the exporter)."""
    return array if array.flags.writeable else np.asarray(_WritableView(array))


def _device_of(capsule):
    """(device type, id) of an unconsumed capsule."""
    name = _get_name(capsule)
    if name == b"dltensor":
        tensor = _DLTensor.from_address(_get_pointer(capsule, name))
    else:
        _dl_dtype(capsule)  # raises for a consumed capsule
        tensor = _DLManagedTensorVersioned.from_address(_get_pointer(capsule, name)).dl_tensor
    return tensor.device_type, tensor.device_id


def _from_capsule(capsule):
    """The NumPy/CuPy array viewing an unconsumed capsule's memory (bfloat16 through uint16)."""
    device = _device_of(capsule)
    dtype = _dl_dtype(capsule)
    bfloat16 = dtype.code == _KDL_BFLOAT and dtype.bits == 16 and dtype.lanes == 1
    if bfloat16:
        dtype.code = _KDL_UINT
    if device[0] in (_KDL_CPU, _KDL_CUDA_HOST):
        array = _writable(np.from_dlpack(_Capsule(capsule, (_KDL_CPU, 0))))
    elif device[0] == _KDL_CUDA:
        cp = cuda.require_cuda("paddle.utils.dlpack.from_dlpack")
        with cp.cuda.Device(device[1]):
            array = cp.from_dlpack(_Capsule(capsule, device))
    else:
        raise ValueError(f"from_dlpack: the capsule's memory is on DLPack device type {device[0]}; paddlelite reads "
                         f"CPU ({_KDL_CPU}) and CUDA ({_KDL_CUDA}) memory")
    return array.view(_BFLOAT16) if bfloat16 else array


def _export(dlpack, device, copy):
    """(capsule, whether `device`/`copy` are left to us): what an object with __dlpack__ exports, on the current
    stream of its CUDA device (DLPack's stream argument; 1 names the legacy default stream), moved to `device` or
    copied when asked -- by the exporter when it takes DLPack 1.0's keywords."""
    kwargs = {}
    if copy is not None:
        kwargs["copy"] = copy
    if device is not None:
        kwargs["dl_device"] = (_KDL_CPU, 0) if device.kind == "cpu" else (_KDL_CUDA, device.index)
    kind, index = dlpack.__dlpack_device__() if hasattr(dlpack, "__dlpack_device__") else (_KDL_CPU, 0)
    if kind == _KDL_CUDA:
        cp = cuda.require_cuda("paddle.utils.dlpack.from_dlpack")
        with cp.cuda.Device(index):
            kwargs["stream"] = cp.cuda.get_current_stream().ptr or 1
    try:
        return dlpack.__dlpack__(**kwargs), False
    except (TypeError, BufferError):  # an exporter without copy/dl_device, or one that cannot move its memory
        if "copy" not in kwargs and "dl_device" not in kwargs:
            raise
        kwargs.pop("copy", None)
        kwargs.pop("dl_device", None)
        return dlpack.__dlpack__(**kwargs), True


def from_dlpack(dlpack, *, device=None, copy=None):
    """A Tensor sharing the memory of `dlpack` -- an object with __dlpack__ (a NumPy/CuPy array, a torch tensor,
    a paddle Tensor, ...) or a capsule from to_dlpack -- on `device` (default: where the memory is), copied when
    `copy` is True (None: only when it must move)."""
    place = None if device is None else parse_place(device, "paddle.utils.dlpack.from_dlpack")
    ours = False
    if hasattr(dlpack, "__dlpack__"):
        capsule, ours = _export(dlpack, place, copy)
    elif type(dlpack).__name__ == "PyCapsule":
        capsule = dlpack
    else:
        raise TypeError(f"from_dlpack: expected a DLPack capsule or an object with __dlpack__, received "
                        f"{type(dlpack).__name__}")
    data = _from_capsule(capsule)
    tensor = wrap_array(data, place_of_array(data), True)
    if ours and place is not None and tensor.place != place:
        if copy is False:
            raise BufferError(f"from_dlpack: copy=False, but the memory is on {tensor.place}, not on {place}")
        return tensor._copy_to(place)
    if ours and copy:
        return wrap_array(data.copy(), tensor.place, True)
    return tensor


def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """Tensor.__dlpack__ (the array API's protocol): the capsule to_dlpack gives. A consumer's keywords are taken
    and left to it: the capsule is always the legacy one, of the memory where it is, uncopied."""
    return to_dlpack(self)


def __dlpack_device__(self):
    """Tensor.__dlpack_device__: (DLPack device type, device id)."""
    return (_KDL_CPU, 0) if self._place.kind == "cpu" else (_KDL_CUDA, self._place.index)


__all__ = ["from_dlpack", "to_dlpack"]
EAGER_METHODS = ["__dlpack__", "__dlpack_device__"]
