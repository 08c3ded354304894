"""Math APIs: elementwise arithmetic, comparisons, matmul, scale, unary math.

Each function validates its Python-level arguments and calls the dispatcher; nothing else.
"""
import numbers

import numpy as np

from ..framework.mode import _static
from ..framework.tensor import Tensor, wrap_array
from ..ops import dispatch
from ..ops import creation as _creation_ops
from ..ops import elementwise as _ew
from ..ops import math as _m

apply = dispatch.apply


def is_tensor_like(x):
    """Tensor (eager) or Variable (static): anything the dispatcher accepts as an op input."""
    return isinstance(x, Tensor) or getattr(x, "_is_variable", False)


def operand(value, like, api, arg="y"):
    """A Python scalar as a 0-D constant of `like`'s dtype on its place; tensors pass through."""
    if is_tensor_like(value):
        return value
    if isinstance(value, (numbers.Number, np.number, np.bool_)):
        if _static[0]:
            return apply(_creation_ops.FILL_CONSTANT, shape=[], value=value, dtype=like.dtype.name)
        return wrap_array(like._place.xp.asarray(value, dtype=like._data.dtype), like._place, True)
    raise TypeError(f"{api}: {arg} must be a Tensor or a Python number, received {type(value).__name__}")


def _check_tensor(x, api, arg="x"):
    if not is_tensor_like(x):
        raise TypeError(f"{api}: {arg} must be a Tensor, received {type(x).__name__}")


def _binary(op, api):
    def fn(x, y, name=None):
        _check_tensor(x, api)
        return apply(op, x, operand(y, x, api))
    fn.__name__ = api
    fn.__doc__ = f"Elementwise {api} with broadcasting (op '{op.type}')."
    return fn


add = _binary(_ew.ADD, "add")
subtract = _binary(_ew.SUBTRACT, "subtract")
multiply = _binary(_ew.MULTIPLY, "multiply")
divide = _binary(_ew.DIVIDE, "divide")
maximum = _binary(_ew.MAXIMUM, "maximum")
minimum = _binary(_ew.MINIMUM, "minimum")
equal = _binary(_ew.EQUAL, "equal")
not_equal = _binary(_ew.NOT_EQUAL, "not_equal")
less_than = _binary(_ew.LESS_THAN, "less_than")
less_equal = _binary(_ew.LESS_EQUAL, "less_equal")
greater_than = _binary(_ew.GREATER_THAN, "greater_than")
greater_equal = _binary(_ew.GREATER_EQUAL, "greater_equal")
logical_and = _binary(_ew.LOGICAL_AND, "logical_and")
logical_or = _binary(_ew.LOGICAL_OR, "logical_or")
logical_xor = _binary(_ew.LOGICAL_XOR, "logical_xor")
elementwise_pow = _binary(_ew.ELEMENTWISE_POW, "elementwise_pow")


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    _check_tensor(x, "scale")
    if is_tensor_like(scale):
        scale = float(scale.item())
    out = apply(_m.SCALE, x, scale=float(scale), bias=float(bias), bias_after_scale=bool(bias_after_scale))
    if act is not None:
        from ..nn import functional as F
        out = getattr(F, act)(out)
    return out


def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    _check_tensor(x, "matmul", "x")
    _check_tensor(y, "matmul", "y")
    return apply(_m.MATMUL, x, y, transpose_x=bool(transpose_x), transpose_y=bool(transpose_y))


def mm(input, mat2, name=None):
    return matmul(input, mat2)


def exp(x, name=None):
    _check_tensor(x, "exp")
    return apply(_m.EXP, x)


def log(x, name=None):
    _check_tensor(x, "log")
    return apply(_m.LOG, x)


# Tensor methods contributed by this module (attached in tensor/methods.py).
TENSOR_METHODS = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "equal", "not_equal",
                  "less_than", "less_equal", "greater_than", "greater_equal", "logical_and", "logical_or",
                  "logical_xor", "scale", "matmul", "mm", "exp", "log", "elementwise_pow"]
