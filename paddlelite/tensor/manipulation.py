"""Manipulation APIs: cast, reshape, transpose, squeeze/unsqueeze, concat/split, indexing, ..."""
from ..framework import dtype as _dtype
from ..ops import dispatch
from ..ops import manipulation as _mo
from .math import _check_tensor

apply = dispatch.apply


def cast(x, dtype):
    _check_tensor(x, "cast")
    return apply(_mo.CAST, x, dtype=_dtype.convert_dtype(dtype).name)


def reshape(x, shape, name=None):
    _check_tensor(x, "reshape")
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"reshape: shape must be a list or tuple of ints, received {type(shape).__name__}")
    return apply(_mo.RESHAPE, x, shape=[int(d) for d in shape])


def transpose(x, perm, name=None):
    _check_tensor(x, "transpose")
    if not isinstance(perm, (list, tuple)) or len(perm) != len(x.shape):
        raise ValueError(f"transpose: perm must list each of the {len(x.shape)} dims once, received {perm!r}")
    return apply(_mo.TRANSPOSE, x, perm=[int(p) for p in perm])


def unsqueeze(x, axis, name=None):
    _check_tensor(x, "unsqueeze")
    return apply(_mo.UNSQUEEZE, x, axis=[int(a) for a in (axis if isinstance(axis, (list, tuple)) else [axis])])


TENSOR_METHODS = ["cast", "reshape", "transpose", "unsqueeze"]
