"""Tensor methods and Python operators, attached to the eager Tensor and to the static Variable.

Operators with a Python scalar use the `scale` op (as Paddle does), so `x * 2` or `1 - x` add no
constant tensors to a static program.
"""
import numbers

import numpy as np

from . import creation, manipulation, math, reduction, search
from .math import operand

_SCALARS = (numbers.Number, np.number, np.bool_)


def _promoted(x, s):
    return x.astype("float32") if isinstance(s, float) and x.dtype.np.kind in "iub" else x


def __add__(self, other):
    if isinstance(other, _SCALARS) and not isinstance(other, (bool, np.bool_)):
        x = _promoted(self, other)
        return math.scale(x, 1.0, float(other))
    return math.add(self, other)


def __sub__(self, other):
    if isinstance(other, _SCALARS) and not isinstance(other, (bool, np.bool_)):
        return math.scale(_promoted(self, other), 1.0, -float(other))
    return math.subtract(self, other)


def __rsub__(self, other):
    if isinstance(other, _SCALARS):
        return math.scale(_promoted(self, other), -1.0, float(other))
    return math.subtract(operand(other, self, "__rsub__"), self)


def __mul__(self, other):
    if isinstance(other, _SCALARS) and not isinstance(other, (bool, np.bool_)):
        return math.scale(_promoted(self, other), float(other))
    return math.multiply(self, other)


def __truediv__(self, other):
    if isinstance(other, _SCALARS) and not isinstance(other, (bool, np.bool_)):
        x = self if self.dtype.np.kind == "f" else self.astype("float32")
        return math.divide(x, operand(other, x, "__truediv__"))
    x = self if self.dtype.np.kind == "f" else self.astype("float32")
    return math.divide(x, other if other.dtype.np.kind == "f" else other.astype("float32"))


def __rtruediv__(self, other):
    x = self if self.dtype.np.kind == "f" else self.astype("float32")
    return math.divide(operand(other, x, "__rtruediv__"), x)


def __pow__(self, other):
    if isinstance(other, _SCALARS):
        return math.pow(_promoted(self, other), other)
    return math.elementwise_pow(self, other)


def __rpow__(self, other):
    x = _promoted(self, other)
    return math.elementwise_pow(operand(other, x, "__rpow__"), x)


def __neg__(self):
    return math.scale(self, -1.0)


def __matmul__(self, other):
    return math.matmul(self, other)


def __rmatmul__(self, other):
    return math.matmul(operand(other, self, "__rmatmul__"), self)


def _reflected(fn):
    def r(self, other):
        return fn(operand(other, self, fn.__name__), self)
    return r


def astype(self, dtype):
    return manipulation.cast(self, dtype)


def _T(self):
    return manipulation.transpose(self, list(range(self.ndim))[::-1])


def _mT(self):
    perm = list(range(self.ndim))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return manipulation.transpose(self, perm)


def _api(qualname):
    module, name = qualname.split(".")
    return getattr({"math": math, "manipulation": manipulation}[module], name)


OPERATORS = {
    "__add__": __add__, "__radd__": __add__,
    "__sub__": __sub__, "__rsub__": __rsub__,
    "__mul__": __mul__, "__rmul__": __mul__,
    "__truediv__": __truediv__, "__rtruediv__": __rtruediv__,
    "__pow__": __pow__, "__rpow__": __rpow__,
    "__neg__": __neg__, "__pos__": lambda self: self,
    "__matmul__": __matmul__, "__rmatmul__": __rmatmul__,
    "astype": astype, "cast": astype,
    "T": property(_T), "mT": property(_mT),
}
# Operators that are plain functional APIs (looked up by name so each module owns its functions).
OPERATOR_APIS = {
    "__eq__": "math.equal", "__ne__": "math.not_equal",
    "__lt__": "math.less_than", "__le__": "math.less_equal",
    "__gt__": "math.greater_than", "__ge__": "math.greater_equal",
    "__floordiv__": "math.floor_divide", "__mod__": "math.remainder",
    "__abs__": "math.abs",
    "__and__": "math.logical_and", "__or__": "math.logical_or", "__xor__": "math.logical_xor",
    "__invert__": "math.bitwise_not",  # ~ is bitwise (logical for bool), as in Paddle
    "__getitem__": "manipulation.getitem", "__setitem__": "manipulation.setitem",
}
REFLECTED = {"__rfloordiv__": "math.floor_divide", "__rmod__": "math.remainder"}


def install(cls):
    """Attach every API listed in the functional modules' TENSOR_METHODS, plus the operators."""
    for module in (math, manipulation, reduction, creation, search):
        for name in getattr(module, "TENSOR_METHODS", ()):
            setattr(cls, name, getattr(module, name))
    for name, fn in OPERATORS.items():
        setattr(cls, name, fn)
    for name, qual in OPERATOR_APIS.items():
        setattr(cls, name, _api(qual))
    for name, qual in REFLECTED.items():
        setattr(cls, name, _reflected(_api(qual)))
    cls.__hash__ = object.__hash__  # identity, as the operators above make __eq__ elementwise
