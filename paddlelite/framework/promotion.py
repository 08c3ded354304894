"""Paddle 3.3's type promotion for binary ops (phi/common/type_promotion.h, checked by running Paddle over every
dtype pair, rank and scalar kind).

Tensor with tensor: equal dtypes stay; two floating types promote to the wider (float16 with bfloat16 to
float32); a complex operand makes the result complex (complex128 when float64 or complex128 is involved);
every other mix (int with float, int with a different int, bool with a number) is a TypeError. A promotion
warns as Paddle does.

A 0-D tensor acts as a scalar in the arithmetic and comparison ops (`SCALAR_OPERAND_APIS`): next to a tensor
of its own kind (int, float or complex) it takes that tensor's dtype (float64 0-D + float32 tensor: float32),
else both promote by Paddle's full table (`promote_types`: int 0-D + float32 tensor: float32; float64 0-D +
int32 tensor: float64), as do two 0-D tensors. Eager mode applies this in the functional APIs and operators
alike; Paddle's legacy static mode in the operators only (its functional APIs keep the tensor rule).

Tensor with a Python scalar (operators): the tensor's dtype stays unless the scalar is of a higher kind: a
float with an int/bool tensor gives float32 (whatever the default dtype), a complex gives complex64
(complex128 for float64), an int with a bool tensor gives int64.
"""
import numbers

import numpy as np

from . import user_warnings as _user_warnings
from .dtype import kind as dtype_kind
from .mode import in_static_mode

_C64, _C128, _F32, _F64 = (np.dtype(n) for n in ("complex64", "complex128", "float32", "float64"))
WARNING = ("Got different data type, run type promotion automatically, this may cause data type been changed.")


# Paddle's support_promotion_ops under our API names: a 0-D operand of these acts as a scalar
SCALAR_OPERAND_APIS = frozenset(["add", "subtract", "multiply", "divide", "remainder", "floor_divide", "pow",
                                 "elementwise_pow", "equal", "not_equal", "less_than", "less_equal", "greater_than",
                                 "greater_equal", "copysign", "cross", "equal_all"])


def promote_types(a, b):
    """Paddle's promoteTypes table over NumPy dtypes: bool yields to anything, an int to any float (float16
    and bfloat16 included), two ints as NumPy (uint8 with int8: int16), two floats to the wider, complex as
    `promote`."""
    if a == b:
        return a
    ka, kb = dtype_kind(a), dtype_kind(b)
    if ka == "b" or kb == "b":
        return b if ka == "b" else a
    if ka in "fc" and kb in "fc":
        return promote(a, b)
    if ka in "fc" or kb in "fc":
        return a if ka in "fc" else b
    return np.promote_types(a, b)


def promote(a, b):
    """The dtype two tensors of NumPy dtypes a and b combine into, or None where Paddle refuses the mix."""
    if a == b:
        return a
    if a.kind == "c" or b.kind == "c":
        return _C128 if _F64 in (a, b) or _C128 in (a, b) else _C64
    if dtype_kind(a) == "f" and dtype_kind(b) == "f":
        return _F32 if a.itemsize == b.itemsize else max(a, b, key=lambda d: d.itemsize)
    return None


def _kind_class(dtype):
    kind = dtype_kind(dtype)
    return "i" if kind == "u" else kind


def _common_dtype(api, a, b, a_scalar, b_scalar, eager):
    """phi::GetPromoteDtype: the dtype of a binary op over dtypes a and b (a_scalar/b_scalar: that operand is a
    0-D tensor acting as a scalar), or None where Paddle refuses the mix."""
    if a_scalar or b_scalar:
        if api == "divide" and _kind_class(a) == "i" and _kind_class(b) == "i":
            return _F32
        # eager floor_divide lets the table decide whenever a 0-D operand is involved (Paddle 3.3.1 measured;
        # its static // operator keeps the tensor's dtype like the other ops)
        if _kind_class(a) != _kind_class(b) or (a_scalar and b_scalar) or (eager and api == "floor_divide"):
            return promote_types(a, b)
        return b if a_scalar else a
    return promote(a, b)


def promote_pair(x, y, api, zero_d_scalars=None):
    """(x, y) cast to their common dtype, with Paddle's warning; TypeError for a mix Paddle rejects.

    zero_d_scalars: whether a 0-D operand acts as a scalar (`SCALAR_OPERAND_APIS` only); by default in eager
    mode, as Paddle's functional APIs; the static operators pass True."""
    a, b = x.dtype.np, y.dtype.np
    if a == b:
        return x, y
    eager = not in_static_mode()
    scalars = (eager if zero_d_scalars is None else zero_d_scalars) and api in SCALAR_OPERAND_APIS
    common = _common_dtype(api, a, b, scalars and x.ndim == 0, scalars and y.ndim == 0, eager)
    if common is None:
        raise TypeError(f"{api}: x has dtype {x.dtype.name} and y has {y.dtype.name}; Paddle does not promote "
                        "between these types (only between floating types, or to complex; a 0-D tensor in an "
                        "arithmetic or comparison op acts as a scalar), so cast one of them explicitly, "
                        "e.g. y.astype(x.dtype)")
    _user_warnings.warn(f"{api}: {WARNING} ({x.dtype.name} and {y.dtype.name} -> {common.name})")
    if a != common:
        x = x.astype(common.name)
    if b != common:
        y = y.astype(common.name)
    return x, y


def real_to_complex(x, y):
    """(x, y) with a real floating operand cast to its complex partner's dtype, where that dtype holds both (float32
    with complex64, any float with complex128): the silent promotion of Paddle's matmul and kron. Other pairs stay."""
    a, b = x.dtype.np, y.dtype.np
    if (a.kind == "c") == (b.kind == "c") or dtype_kind(a if b.kind == "c" else b) != "f":
        return x, y
    common = promote(a, b)
    if common == b:
        return x.astype(common.name), y
    return (x, y.astype(common.name)) if common == a else (x, y)


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
