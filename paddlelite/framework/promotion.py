"""Paddle 3.3's type promotion for binary ops (built by running Paddle over every dtype pair and scalar kind).

Tensor with tensor: equal dtypes stay; two floating types promote to the wider (float16 with bfloat16 to
float32); a complex operand makes the result complex (complex128 when float64 or complex128 is involved);
every other mix (int with float, int with a different int, bool with a number) is a TypeError. A promotion
warns as Paddle does. Tensor with a Python scalar (operators): the tensor's dtype stays unless the scalar
is of a higher kind: a float with an int/bool tensor gives float32 (whatever the default dtype), a complex gives
complex64 (complex128 for float64), an int with a bool tensor gives int64.
"""
import numbers

import numpy as np

from . import user_warnings as _user_warnings
from .dtype import kind as dtype_kind

_C64, _C128, _F32, _F64 = (np.dtype(n) for n in ("complex64", "complex128", "float32", "float64"))
WARNING = ("Got different data type, run type promotion automatically, this may cause data type been changed.")


def promote(a, b):
    """The dtype two tensors of NumPy dtypes a and b combine into, or None where Paddle refuses the mix."""
    if a == b:
        return a
    if a.kind == "c" or b.kind == "c":
        return _C128 if _F64 in (a, b) or _C128 in (a, b) else _C64
    if dtype_kind(a) == "f" and dtype_kind(b) == "f":
        return _F32 if a.itemsize == b.itemsize else max(a, b, key=lambda d: d.itemsize)
    return None


def promote_pair(x, y, api):
    """(x, y) cast to their common dtype, with Paddle's warning; TypeError for a mix Paddle rejects."""
    a, b = x.dtype.np, y.dtype.np
    if a == b:
        return x, y
    common = promote(a, b)
    if common is None:
        raise TypeError(f"{api}: x has dtype {x.dtype.name} and y has {y.dtype.name}; Paddle does not promote "
                        "between these types (only between floating types, or to complex), so cast one of them "
                        "explicitly, e.g. y.astype(x.dtype)")
    _user_warnings.warn(f"{api}: {WARNING} ({x.dtype.name} and {y.dtype.name} -> {common.name})")
    if a != common:
        x = x.astype(common.name)
    if b != common:
        y = y.astype(common.name)
    return x, y


def scalar_dtype(tensor_dtype, value):
    """The NumPy dtype a tensor of `tensor_dtype` and a Python scalar `value` combine into (operators)."""
    kind = dtype_kind(tensor_dtype)
    if isinstance(value, (bool, np.bool_)):
        return tensor_dtype
    if isinstance(value, (numbers.Integral, np.integer)):
        return np.dtype(np.int64) if kind == "b" else tensor_dtype
    if isinstance(value, (numbers.Real, np.floating)):
        return _F32 if kind in "biu" else tensor_dtype
    if kind == "c":
        return tensor_dtype
    return _C128 if tensor_dtype == _F64 else _C64


def with_scalar(x, value):
    """x cast to the dtype it takes when combined with the Python scalar `value`."""
    target = scalar_dtype(x.dtype.np, value)
    return x if target == x.dtype.np else x.astype(target.name)
