"""Tensor methods and Python operators, attached to the eager Tensor and to the static Variable.

Operators with a Python scalar use the `scale` op (as Paddle does), so `x * 2` or `1 - x` add no
constant tensors to a static program.
"""
import numbers

import numpy as np

from ..framework import dtype as _dtype
from ..framework.promotion import promote_pair, with_scalar
from ..framework.tensor import Tensor, wrap_array
from ..static.appender import operator_temporaries
from . import (aliases, attribute, complex_math, counting, creation, diagonals, dlpack, elementwise, inplace, integrate,
               linalg, manipulation, math, matrix_functions, nanreduce, order_stats, products, reduce, sampling, scattering,
               search, series, sparse, special_math, stacking, tensor_attrs, tensor_extras, tensor_internals, windows)
from .math import operand
from .tensor_args import is_tensor_like

_SCALARS = (numbers.Number, np.number, np.bool_)


def _complex(s):
    return isinstance(s, (complex, np.complexfloating))


def _arith(fn, name, scale_args):
    """A binary operator; with a Python number (not bool or complex) it is one `scale` op."""
    def op(self, other):
        if isinstance(other, Tensor) or not isinstance(other, _SCALARS):  # Tensor first: Number is an ABC (slow)
            return fn(self, other)
        x = with_scalar(self, other)
        if isinstance(other, (bool, np.bool_)) or _complex(other):
            return fn(x, operand(other, x, name))
        return math.scale(x, *scale_args(float(other)))
    op.__name__ = name
    return op


__add__ = _arith(math.add, "__add__", lambda s: (1.0, s))
__sub__ = _arith(math.subtract, "__sub__", lambda s: (1.0, -s))
__mul__ = _arith(math.multiply, "__mul__", lambda s: (s,))


def __rsub__(self, other):
    if not isinstance(other, _SCALARS):
        return math.subtract(operand(other, self, "__rsub__"), self)
    x = with_scalar(self, other)
    if isinstance(other, (bool, np.bool_)) or _complex(other):
        return math.subtract(operand(other, x, "__rsub__"), x)
    return math.scale(x, -1.0, float(other))


def __truediv__(self, other):
    if isinstance(other, _SCALARS):
        x = math.true_division_operand(with_scalar(self, other))
        return math.divide(x, operand(other, x, "__truediv__"))
    return math.divide(self, other)


def __rtruediv__(self, other):
    x = math.true_division_operand(with_scalar(self, other) if isinstance(other, _SCALARS) else self)
    return math.divide(operand(other, x, "__rtruediv__"), x)


def __floordiv__(self, other):
    return math.floor_divide(with_scalar(self, other) if isinstance(other, _SCALARS) else self, other)


def __rfloordiv__(self, other):
    x = with_scalar(self, other) if isinstance(other, _SCALARS) else self
    return math.floor_divide(operand(other, x, "__rfloordiv__"), x)


def __mod__(self, other):
    return math.remainder(with_scalar(self, other) if isinstance(other, _SCALARS) else self, other)


def __rmod__(self, other):
    x = with_scalar(self, other) if isinstance(other, _SCALARS) else self
    return math.remainder(operand(other, x, "__rmod__"), x)


def __pow__(self, other):
    if isinstance(other, _SCALARS):
        x = with_scalar(self, other)
        if _complex(other) or not isinstance(x, Tensor):  # a Variable's ** is elementwise_pow, as in Paddle
            return math.elementwise_pow(x, operand(other, x, "__pow__"))
        return math.pow(x, int(other) if isinstance(other, (bool, np.bool_)) else other)
    return math.elementwise_pow(self, other)


def __rpow__(self, other):
    x = with_scalar(self, other) if isinstance(other, _SCALARS) else self
    return math.elementwise_pow(operand(other, x, "__rpow__"), x)


def __neg__(self):
    return math.scale(self, -1.0)


def __matmul__(self, other):
    return math.matmul(self, other)


def __rmatmul__(self, other):
    return math.matmul(operand(other, self, "__rmatmul__"), self)


def astype(self, dtype):
    """A cast; an eager tensor already of `dtype` is returned itself (Paddle's Tensor.astype, unlike paddle.cast)."""
    if isinstance(self, Tensor) and self.dtype == _dtype.convert_dtype(dtype, "astype"):
        return self
    return manipulation.cast(self, dtype)


def _T(self):
    return manipulation.transpose(self, list(range(self.ndim))[::-1])


def _mT(self):
    perm = list(range(self.ndim))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return manipulation.transpose(self, perm)


def _comparison(fn, name):
    """A comparison operator: a Python number of a higher kind first promotes the tensor, as in Paddle."""
    def compare(self, other):
        if isinstance(other, _SCALARS):
            x = with_scalar(self, other)
            return fn(x, operand(other, x, name))
        return fn(self, other)
    compare.__name__ = name
    return compare


COMPARISONS = {"__eq__": math.equal, "__ne__": math.not_equal, "__lt__": math.less_than,
               "__le__": math.less_equal, "__gt__": math.greater_than, "__ge__": math.greater_equal}


def _api(qualname):
    module, name = qualname.split(".")
    return getattr({"math": math, "manipulation": manipulation, "elementwise": elementwise}[module], name)


OPERATORS = {
    "__add__": __add__, "__radd__": __add__,
    "__sub__": __sub__, "__rsub__": __rsub__,
    "__mul__": __mul__, "__rmul__": __mul__,
    "__truediv__": __truediv__, "__rtruediv__": __rtruediv__,
    "__floordiv__": __floordiv__, "__rfloordiv__": __rfloordiv__, "__mod__": __mod__, "__rmod__": __rmod__,
    "__pow__": __pow__, "__rpow__": __rpow__,
    "__neg__": __neg__, "__pos__": lambda self: self,
    "__matmul__": __matmul__, "__rmatmul__": __rmatmul__,
    "astype": astype, "cast": manipulation.cast,
    "T": property(_T), "mT": property(_mT),
}
# Operators that are plain functional APIs (looked up by name so each module owns its functions).
OPERATOR_APIS = {
    "__abs__": "math.abs",
    "__and__": "elementwise.bitwise_and", "__or__": "elementwise.bitwise_or", "__xor__": "elementwise.bitwise_xor",
    "__invert__": "math.bitwise_not",  # ~ is bitwise (logical for bool), as in Paddle
    "__getitem__": "manipulation.getitem", "__setitem__": "manipulation.setitem",
}


# the operators whose 0-D operand acts as a scalar in type promotion, by Paddle's API name
_SCALAR_OPERAND_OPERATORS = {"__add__": "add", "__sub__": "subtract", "__mul__": "multiply", "__truediv__": "divide",
                             "__floordiv__": "floor_divide", "__mod__": "remainder", "__pow__": "elementwise_pow",
                             "__eq__": "equal", "__ne__": "not_equal", "__lt__": "less_than", "__le__": "less_equal",
                             "__gt__": "greater_than", "__ge__": "greater_equal"}


_NUMPY_OPERAND_OPERATORS = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
                            "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__",
                            "__matmul__", "__rmatmul__")


def _zero_d_as_scalar(fn, api):
    """A static Variable's operator promotes a 0-D operand as a scalar, as Paddle's legacy math_op_patch does
    (its functional APIs do not; eager Tensors get the rule from the functional APIs themselves)."""
    def op(self, other):
        if is_tensor_like(other) and other.dtype != self.dtype:
            self, other = promote_pair(self, other, api, zero_d_scalars=True)
        return fn(self, other)
    op.__name__ = fn.__name__
    return op


def _numpy_operand(fn):
    """An eager Tensor's operator takes a NumPy array as a tensor of the array's dtype, then promotes as with any
    tensor (Paddle's eager operators; its Tensor sets `__array_ufunc__ = None`, so `array + x` reaches `x.__radd__`)."""
    def op(self, other):
        if other.__class__ is np.ndarray:
            other = wrap_array(self._place.xp.asarray(other), self._place, True)
        return fn(self, other)
    op.__name__ = fn.__name__
    return op


def _identity_comparison(fn, equal):
    """`x == None` / `x == [..]` is False (and != True) as in Paddle: no elementwise comparison with them."""
    def compare(self, other):
        if other is None or isinstance(other, (list, tuple)):
            return not equal
        return fn(self, other)
    compare.__name__ = fn.__name__
    return compare


def install(cls):
    """Attach every API listed in the functional modules' TENSOR_METHODS, plus the operators."""
    for module in (math, manipulation, reduce, creation, search, inplace, complex_math, aliases, elementwise, attribute,
                   diagonals, nanreduce, order_stats, products, stacking, scattering, tensor_extras, sampling, linalg,
                   counting, integrate, series, special_math, matrix_functions, tensor_attrs, windows):
        for name in getattr(module, "TENSOR_METHODS", ()):
            if name not in getattr(cls, "_OWN_METHODS", ()):
                setattr(cls, name, getattr(module, name))
    if issubclass(cls, Tensor):
        for module in (tensor_attrs, tensor_internals, dlpack, sparse):
            for name in module.EAGER_METHODS:
                setattr(cls, name, getattr(module, name))
        for name, fn in sparse.EAGER_ALIASES.items():
            setattr(cls, name, fn)
    static_variable = not issubclass(cls, Tensor)
    for name, fn in OPERATORS.items():
        if static_variable and not isinstance(fn, property) and name != "__pos__":
            if name in _SCALAR_OPERAND_OPERATORS:
                fn = _zero_d_as_scalar(fn, _SCALAR_OPERAND_OPERATORS[name])
            fn = operator_temporaries(fn)  # Paddle names what a Variable's operator makes `tmp_<n>`
        setattr(cls, name, fn)
    for name, qual in OPERATOR_APIS.items():
        setattr(cls, name, _api(qual))
    for name, fn in COMPARISONS.items():
        compare = _comparison(fn, name)
        if static_variable:
            compare = operator_temporaries(_zero_d_as_scalar(compare, _SCALAR_OPERAND_OPERATORS[name]))
        else:
            compare = _numpy_operand(compare)
        if name in ("__eq__", "__ne__"):
            compare = _identity_comparison(compare, name == "__eq__")
        setattr(cls, name, compare)
    if not static_variable:
        for name in _NUMPY_OPERAND_OPERATORS:
            setattr(cls, name, _numpy_operand(getattr(cls, name)))
        cls.__array_ufunc__ = None
    cls.__hash__ = object.__hash__  # identity, as the operators above make __eq__ elementwise
