"""Tensor constructors under the names Paddle 3.3.1 took from PyTorch: as_tensor, asarray, from_numpy and the
typed factories (FloatTensor, LongTensor, ...)."""
import numpy as np

from ..device import place as _place
from ..framework import dtype as _dtype
from ..framework.tensor import Tensor, wrap_array
from . import creation as _creation


def as_tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a copy of `data` (Paddle's paddle.tensor); requires_grad=True makes it a leaf that
    collects gradients."""
    return _creation.to_tensor(data, dtype, device, stop_gradient=not requires_grad)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """As as_tensor (Paddle always copies, whatever `copy` says)."""
    return as_tensor(obj, dtype, device, requires_grad)


def from_numpy(ndarray):
    """A CPU tensor that shares `ndarray`'s memory: writes through either one show in the other."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"from_numpy: expected a numpy.ndarray, received {type(ndarray).__name__}; use "
                        "paddle.to_tensor for other data")
    _dtype.convert_dtype(ndarray.dtype, "from_numpy")  # a dtype paddle has
    return wrap_array(ndarray, _place.Place("cpu"), True)


def check_shape(shape, op_name, expected_shape_type=None, expected_element_type=None,
                expected_tensor_dtype=("int32", "int64")):
    """Paddle's shape-argument check for static programs (dynamic mode checks nothing, as in Paddle): a list or
    tuple of ints / int Variables, or an int Variable."""
    from ..framework.mode import in_static_mode
    from ..static import Variable
    if not in_static_mode():
        return
    shape_types = expected_shape_type or (list, tuple, Variable)
    element_types = expected_element_type or (int, Variable)
    if not isinstance(shape, shape_types):
        raise TypeError(f"{op_name}: shape must be one of {[t.__name__ for t in shape_types]}, received "
                        f"{type(shape).__name__}")
    for item in ([shape] if isinstance(shape, Variable) else shape):
        if not isinstance(item, element_types) or isinstance(item, bool):
            raise TypeError(f"{op_name}: an element of shape must be one of "
                            f"{[t.__name__ for t in element_types]}, received {type(item).__name__}")
        if isinstance(item, Variable) and expected_tensor_dtype and item.dtype.name not in expected_tensor_dtype:
            raise TypeError(f"{op_name}: a Variable in shape must be {' or '.join(expected_tensor_dtype)}, received "
                            f"{item.dtype.name}")


def create_tensor(dtype, name=None, persistable=False):
    """A tensor of `dtype` to assign into later (paddle.assign(x, output=t)): a 0-D zero in dynamic mode (Paddle
    leaves its memory uninitialised), a variable of the main program's global block in static mode."""
    from ..framework.mode import in_static_mode
    from ..static import default_main_program
    from ..utils import unique_name
    dt = _dtype.convert_dtype(dtype, "create_tensor")
    name = unique_name.generate("create_tensor") if name is None else name
    if in_static_mode():
        return default_main_program().global_block().create_var(name=name, dtype=dt.name, persistable=persistable)
    t = _creation.zeros([], dt)
    t.name, t.persistable = name, bool(persistable)
    return t


class _TypedFactory(type):
    def __repr__(cls):
        return f"<class 'paddle.{cls.__name__}'>"


def _typed_factory(name, dtype):
    """Paddle's dtype_tensor_factory: Name() is an empty tensor, Name(list) the data in `dtype`, Name(2, 3) an
    uninitialised [2, 3] tensor, Name(array or Tensor) keeps the data's own dtype (as Paddle does)."""
    def __new__(cls, *args, **kwargs):
        if not args:
            return _creation.empty([0], dtype)
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            return _creation.to_tensor(args[0], dtype)
        if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return _creation.empty(list(args), dtype)
        if len(args) == 1 and isinstance(args[0], (np.ndarray, Tensor)):
            return _creation.to_tensor(args[0])
        raise TypeError(f"{name}: expected no argument, a list, sizes or an array/Tensor, received "
                        f"{', '.join(type(a).__name__ for a in args)}")
    return _TypedFactory(name, (), {"__new__": __new__, "__doc__": f"Tensors of dtype {dtype}."})


FloatTensor = _typed_factory("FloatTensor", "float32")
DoubleTensor = _typed_factory("DoubleTensor", "float64")
HalfTensor = _typed_factory("HalfTensor", "float16")
BFloat16Tensor = _typed_factory("BFloat16Tensor", "bfloat16")
ByteTensor = _typed_factory("ByteTensor", "uint8")
CharTensor = _typed_factory("CharTensor", "int8")
ShortTensor = _typed_factory("ShortTensor", "int16")
IntTensor = _typed_factory("IntTensor", "int32")
LongTensor = _typed_factory("LongTensor", "int64")
BoolTensor = _typed_factory("BoolTensor", "bool")

class MmapStorage:
    """A file mapped into memory (read-only), read as tensors: MmapStorage(filename, nbytes).get_slice(dtype,
    start, stop, step) is elements start:stop:step of the first `nbytes` bytes viewed as `dtype`."""

    def __init__(self, filename, nbytes):
        if not isinstance(filename, str):
            raise TypeError(f"MmapStorage: filename must be a str, received {type(filename).__name__}")
        if not isinstance(nbytes, int) or isinstance(nbytes, bool) or nbytes <= 0:
            raise ValueError(f"MmapStorage: nbytes must be a positive int, received {nbytes!r}")
        try:
            self._map = np.memmap(filename, dtype=np.uint8, mode="r", shape=(nbytes,))
        except (OSError, ValueError) as e:  # missing file, or shorter than nbytes
            raise RuntimeError(f"MmapStorage: unable to open file <{filename}> in read-only mode for {nbytes} "
                               f"bytes: {e}") from None

    def get_slice(self, dtype="uint8", start=0, stop=-1, step=1):
        np_dtype = _dtype.convert_dtype(dtype, "MmapStorage.get_slice").np
        n = self._map.size // np_dtype.itemsize
        stop = n if stop == -1 else stop
        if not 0 <= start <= stop <= n:
            raise ValueError(f"MmapStorage.get_slice: [start, stop) = [{start}, {stop}) is outside the "
                             f"{n} {np.dtype(np_dtype).name} elements the mapping holds")
        values = self._map[:n * np_dtype.itemsize].view(np_dtype)[start:stop:step]
        return _creation.to_tensor(np.array(values))  # a copy: the mapping is read-only


__all__ = ["MmapStorage", "BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor",
           "IntTensor", "LongTensor", "ShortTensor", "as_tensor", "asarray", "check_shape", "from_numpy"]
