"""Math APIs: elementwise arithmetic, comparisons, matmul, scale, unary math.

Each function validates its Python-level arguments and calls the dispatcher; nothing else.
"""
import numbers

import numpy as np

from ..framework.arg_errors import not_a_tensor
from ..framework.mode import in_static_mode
from ..framework.promotion import promote_pair, real_to_complex
from ..framework.tensor import Tensor, wrap_array
from ..ops import dispatch
from ..ops import elementwise as _ew
from ..ops import activation as _act
from ..ops import linalg as _linalg_ops
from ..ops import manipulation as _manip_ops
from ..ops import math as _m
from ..ops.registry import get_op
from ..static.appender import scalar_constant
from .tensor_args import is_tensor_like, tensor_argument

apply = dispatch.apply


def operand(value, like, api, arg="y"):
    """A Python scalar as a 0-D constant of `like`'s dtype on its place; tensors pass through."""
    if is_tensor_like(value):
        return value
    if isinstance(value, (numbers.Number, np.number, np.bool_)):
        kind = like.dtype.np.kind
        if (kind in "iub" and not isinstance(value, (numbers.Integral, np.integer, np.bool_))) or \
                (kind == "b" and not isinstance(value, (bool, np.bool_))):
            raise TypeError(f"{api}: {arg}={value!r} cannot be represented in the {like.dtype.name} tensor it is "
                            f"combined with; cast the tensor first (e.g. x.astype('float32'))")
        if in_static_mode():
            return scalar_constant(value, like.dtype.name)
        return wrap_array(like._place.xp.asarray(value, dtype=like._data.dtype), like._place, True)
    raise TypeError(f"{api}: {arg} must be a Tensor or a Python number, received {type(value).__name__}")


def _int(value, api, arg):
    """A Python int from an int, a NumPy integer or (eager) a 1-element int Tensor."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{api}: {arg} must be an int, received bool")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, Tensor) and value._data.dtype.kind in "iu" and value._data.size == 1:
        return int(value.item())
    raise TypeError(f"{api}: {arg} must be an int, received {type(value).__name__}")


def _check_tensor(x, api, arg="x"):
    if not is_tensor_like(x):
        raise not_a_tensor(f"{api}: {arg} must be a Tensor, received {type(x).__name__}")


def check_tensor_type(x, api, arg="x"):
    """The isinstance check some of Paddle's APIs make in Python before any op (is_complex, signbit, median, the fft
    transforms, ...): a TypeError in both modes, where an op's own binding rejects a non-Tensor with ValueError."""
    if not is_tensor_like(x):
        raise TypeError(f"{api}: {arg} must be a Tensor, received {type(x).__name__}")


def check_variable(x, api, arg="x"):
    """Paddle's check_variable_and_dtype where an API calls it in both modes: it reads x.dtype first, so in dygraph
    an argument without one (None) is an AttributeError before the op's own not-a-Tensor error."""
    if not in_static_mode() and not hasattr(x, "dtype"):
        raise AttributeError(f"{api}: {arg} must be a Tensor, received {type(x).__name__}, which has no dtype")
    _check_tensor(x, api, arg)


def check_static_dtype(x, api, arg, dtypes):
    """The dtype check Paddle's API makes only while building a static program (check_variable_and_dtype): in
    dygraph its kernels take more dtypes."""
    if in_static_mode() and x.dtype.name not in dtypes:
        raise TypeError(f"{api}: {arg} must be a Tensor of dtype {list(dtypes)} in a static program, received "
                        f"{x.dtype.name}")


def check_float_tensor(x, api, arg="x", real=True):
    """THE dtype check of the functional APIs: `arg` must be a floating-point Tensor (complex too unless
    `real`); integers are never converted silently."""
    _check_tensor(x, api, arg)
    if not (x.dtype.is_floating_point or (not real and x.dtype.is_complex)):
        raise TypeError(f"{api}: {arg} must be a floating-point Tensor, received {x.dtype.name}; "
                        "cast it to a floating point dtype first, e.g. x.astype('float32')")


def _binary(op, api):
    def fn(x, y, name=None):
        if x.__class__ is Tensor and y.__class__ is Tensor:  # the common case, checked in one line
            if x._data.dtype is not y._data.dtype:
                x, y = promote_pair(x, y, api)
            return apply(op, x, y)
        _check_tensor(x, api)
        if not is_tensor_like(y):  # Paddle's functional form takes tensors only (x + 2 is the operator's job)
            raise ValueError(f"(InvalidArgument) {api}(): argument 'y' (position 1) must be Tensor, but got "
                             f"{type(y).__name__}")
        x, y = promote_pair(x, y, api)
        return apply(op, x, y)
    fn.__name__ = api
    fn.__doc__ = f"Elementwise {api} with broadcasting (op '{op.type}')."
    return fn


add = _binary(_ew.ADD, "add")
subtract = _binary(_ew.SUBTRACT, "subtract")
multiply = _binary(_ew.MULTIPLY, "multiply")
_divide = _binary(_ew.DIVIDE, "divide")


def _with_axis(op, api):
    """Paddle's legacy elementwise form (paddle.tensor.math._<op>_with_axis, which its tests call): y's dims line up
    with x's from `axis` on (-1: the trailing dims, plain broadcasting)."""
    def fn(x, y, axis=-1, name=None):
        _check_tensor(x, api)
        _check_tensor(y, api, "y")
        x, y = promote_pair(x, y, api)
        return dispatch.apply(op, x, y, axis=_int(axis, api, "axis"))
    fn.__name__ = api
    return fn


_add_with_axis = _with_axis(_ew.ADD, "_add_with_axis")
_subtract_with_axis = _with_axis(_ew.SUBTRACT, "_subtract_with_axis")
_multiply_with_axis = _with_axis(_ew.MULTIPLY, "_multiply_with_axis")
_divide_with_axis = _with_axis(_ew.DIVIDE, "_divide_with_axis")


def true_division_operand(x):
    """Paddle divides integer tensors as float32."""
    return x.astype("float32") if x.dtype.np.kind in "iu" else x


def divide(x, y, name=None):
    """Elementwise x / y with broadcasting (op 'divide'); integer tensors divide as float32."""
    if is_tensor_like(x) and is_tensor_like(y) and x.dtype == y.dtype:
        x, y = true_division_operand(x), true_division_operand(y)
    return _divide(x, y)
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
    if is_tensor_like(scale):  # the op reads it when it runs
        out = apply(_m.SCALE, x, tensor_argument(scale, "scale", "scale", kinds="iuf"), scale=1.0, bias=float(bias),
                    bias_after_scale=bool(bias_after_scale))
    else:
        out = apply(_m.SCALE, x, scale=float(scale), bias=float(bias), bias_after_scale=bool(bias_after_scale))
    if act is not None:  # as Paddle: the op named by `act` is applied to the result
        out = apply(get_op(act), out)
    return out


def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    _check_tensor(x, "matmul", "x")
    _check_tensor(y, "matmul", "y")
    if x.dtype.name == "float32" and y.dtype.name in ("int32", "int64"):  # Paddle's matmul takes this pair only
        y = apply(_manip_ops.CAST, y, dtype="float32")
    x, y = real_to_complex(x, y)
    return apply(_m.MATMUL, x, y, transpose_x=bool(transpose_x), transpose_y=bool(transpose_y))


def mm(input, mat2, name=None):
    return matmul(input, mat2)


def bmm(x, y, name=None):
    """Batched matrix product of [B, M, K] and [B, K, N]."""
    _check_tensor(x, "bmm")
    _check_tensor(y, "bmm", "y")
    if len(x.shape) != 3 or len(y.shape) != 3:
        raise ValueError(f"bmm: x and y must be 3-D, received shapes {list(x.shape)} and {list(y.shape)}")
    if x.shape[0] != y.shape[0] or x.shape[2] != y.shape[1]:
        raise ValueError(f"bmm: x [B, M, K] and y [B, K, N] must agree on B and K, received shapes "
                         f"{list(x.shape)} and {list(y.shape)}")
    return apply(_m.MATMUL, x, y, transpose_x=False, transpose_y=False)


def dot(x, y, name=None):
    """Inner product of 1-D tensors, or row-wise of 2-D [N, D] tensors (result [N])."""
    _check_tensor(x, "dot")
    _check_tensor(y, "dot", "y")
    if len(x.shape) not in (1, 2) or list(x.shape) != list(y.shape):
        raise ValueError(f"dot: x and y must be 1-D or 2-D with the same shape, received {list(x.shape)} and "
                         f"{list(y.shape)}")
    from ..ops import reduce as _r
    return apply(_r.REDUCE_SUM, apply(_ew.MULTIPLY, x, y), axis=-1, keepdim=False)


def t(input, name=None):
    """Transpose of a tensor of rank <= 2 (a 0-D or 1-D tensor is returned as it is)."""
    _check_tensor(input, "t", "input")
    if len(input.shape) > 2:
        raise ValueError(f"t: input must be at most 2-D (use transpose for more), received shape {list(input.shape)}")
    if len(input.shape) < 2:
        return input
    from ..ops import manipulation as _mo
    return apply(_mo.TRANSPOSE, input, perm=[1, 0])


def inverse(x, name=None):
    """The inverse of a (batch of) square matrices (paddle.linalg.inv)."""
    check_float_tensor(x, "inverse", real=False)
    if len(x.shape) < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"inverse: x must be a (batch of) square matrices [..., n, n], received shape "
                         f"{list(x.shape)}")
    return apply(_linalg_ops.INVERSE, x)


def is_tensor(x):
    """Whether x is a paddle Tensor (in static mode: a Variable, as Paddle's answers there)."""
    return is_tensor_like(x)


def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """Elementwise |x - y| <= atol + rtol * |y| (NaNs equal when equal_nan)."""
    check_float_tensor(x, "isclose", real=False)
    _check_tensor(y, "isclose", "y")
    diff = apply(_m.ABS, apply(_ew.SUBTRACT, x, y))
    tol = apply(_m.SCALE, apply(_m.ABS, y), scale=float(rtol), bias=float(atol), bias_after_scale=True)
    out = apply(_ew.LOGICAL_OR, apply(_ew.LESS_EQUAL, diff, tol), apply(_ew.EQUAL, x, y))  # equal infinities
    if equal_nan:
        out = apply(_ew.LOGICAL_OR, out, apply(_ew.LOGICAL_AND, apply(_m.ISNAN, x), apply(_m.ISNAN, y)))
    return out


def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """Whether every element of x is close to y's (a 0-D bool Tensor); see isclose. Integer and bool tensors
    (of one dtype) compare in float64, as Paddle's kernel does."""
    from ..ops import reduce as _r
    _check_tensor(x, "allclose")
    _check_tensor(y, "allclose", "y")
    if x.dtype.np.kind in "biu" and y.dtype == x.dtype:
        x, y = x.astype("float64"), y.astype("float64")
    return apply(_r.ALL, isclose(x, y, rtol, atol, equal_nan), axis=None, keepdim=False)


def equal_all(x, y, name=None):
    """Whether x and y have the same shape and elements (a 0-D bool Tensor)."""
    from ..ops import reduce as _r
    _check_tensor(x, "equal_all")
    _check_tensor(y, "equal_all", "y")
    if list(x.shape) != list(y.shape):
        from .creation import full
        return full([], False, "bool")
    return apply(_r.ALL, apply(_ew.EQUAL, x, y), axis=None, keepdim=False)


def _number(value, api, arg):
    """A Python float from an int/float (or, in eager mode, a 1-element Tensor)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{api}: {arg} must be a number, received bool")
    if isinstance(value, (numbers.Real, np.number)):
        return float(value)
    if isinstance(value, Tensor) and value._data.size == 1:
        return float(value.item())
    raise TypeError(f"{api}: {arg} must be a number, received {type(value).__name__}")


def _unary(op, api, doc, ints=None):
    """An API applying `op` to x. `ints`: what Paddle's eager API does with an integer tensor -- "float32"
    computes in float32 (its math ops' integer autocast), "same" returns it as it is (rounding ops)."""
    def fn(x, name=None):
        _check_tensor(x, api)
        if ints is not None and x.dtype.np.kind in "iu":
            return apply(op, x.astype("float32")) if ints == "float32" else apply(_ASSIGN, x)
        return apply(op, x)
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = f"{doc} (op '{op.type}'{'; integers as float32' if ints == 'float32' else ''})."
    return fn


_ASSIGN = get_op("assign")


exp = _unary(_m.EXP, "exp", "Elementwise e ** x", ints="float32")
log = _unary(_m.LOG, "log", "Elementwise natural logarithm", ints="float32")
sqrt = _unary(_m.SQRT, "sqrt", "Elementwise square root", ints="float32")
rsqrt = _unary(_m.RSQRT, "rsqrt", "Elementwise 1 / sqrt(x)", ints="float32")
abs = _unary(_m.ABS, "abs", "Elementwise absolute value")
square = _unary(_m.SQUARE, "square", "Elementwise x * x")
sin = _unary(_m.SIN, "sin", "Elementwise sine", ints="float32")
cos = _unary(_m.COS, "cos", "Elementwise cosine", ints="float32")
tan = _unary(_m.TAN, "tan", "Elementwise tangent", ints="float32")
asin = _unary(_m.ASIN, "asin", "Elementwise arcsine", ints="float32")
acos = _unary(_m.ACOS, "acos", "Elementwise arccosine", ints="float32")
atan = _unary(_m.ATAN, "atan", "Elementwise arctangent", ints="float32")
sinh = _unary(_m.SINH, "sinh", "Elementwise hyperbolic sine", ints="float32")
cosh = _unary(_m.COSH, "cosh", "Elementwise hyperbolic cosine", ints="float32")
tanh = _unary(_act.TANH, "tanh", "Elementwise hyperbolic tangent", ints="float32")
sigmoid = _unary(_act.SIGMOID, "sigmoid", "Elementwise 1 / (1 + exp(-x))", ints="float32")
reciprocal = _unary(_m.RECIPROCAL, "reciprocal", "Elementwise 1 / x", ints="float32")
log1p = _unary(_m.LOG1P, "log1p", "Elementwise log(1 + x)", ints="float32")
log2 = _unary(_m.LOG2, "log2", "Elementwise base-2 logarithm", ints="float32")
log10 = _unary(_m.LOG10, "log10", "Elementwise base-10 logarithm", ints="float32")
expm1 = _unary(_m.EXPM1, "expm1", "Elementwise exp(x) - 1", ints="float32")
floor = _unary(_m.FLOOR, "floor", "Elementwise floor (zero gradient)", ints="same")
ceil = _unary(_m.CEIL, "ceil", "Elementwise ceiling (zero gradient)", ints="same")
trunc = _unary(_m.TRUNC, "trunc", "Elementwise rounding toward zero (zero gradient)", ints="same")
erf = _unary(_m.ERF, "erf", "Elementwise error function", ints="float32")
sign = _unary(_m.SIGN, "sign", "Elementwise sign: -1, 0 or 1 (zero gradient)")
isnan = _unary(_m.ISNAN, "isnan", "Elementwise NaN test")
isinf = _unary(_m.ISINF, "isinf", "Elementwise infinity test")
isfinite = _unary(_m.ISFINITE, "isfinite", "Elementwise finiteness test")
logical_not = _unary(_m.LOGICAL_NOT, "logical_not", "Elementwise logical not (any dtype -> bool)")
bitwise_not = _unary(_m.BITWISE_NOT, "bitwise_not", "Elementwise bitwise not (~x) of an integer or bool tensor")


def round(x, decimals=0, name=None):
    """Round half to even (zero gradient); `decimals` rounds to that many decimal places."""
    _check_tensor(x, "round")
    if not isinstance(decimals, int) or isinstance(decimals, bool):
        raise TypeError(f"round: decimals must be an int, received {type(decimals).__name__}")
    if x.dtype.np.kind in "iu":  # Paddle returns integers as they are
        return apply(_ASSIGN, x)
    if decimals == 0:
        return apply(_m.ROUND, x)
    factor = 10.0 ** decimals
    return apply(_m.SCALE, apply(_m.ROUND, apply(_m.SCALE, x, scale=factor)), scale=1.0 / factor)


def neg(x, name=None):
    _check_tensor(x, "neg")
    return apply(_m.SCALE, x, scale=-1.0)


def pow(x, y, name=None):
    """x ** y: a Python number uses op 'pow' (attr factor); a Tensor uses 'elementwise_pow'."""
    _check_tensor(x, "pow")
    if is_tensor_like(y):
        return apply(_ew.ELEMENTWISE_POW, *promote_pair(x, y, "pow"))
    if isinstance(y, (bool, np.bool_)) or not isinstance(y, (numbers.Real, np.number)):
        raise TypeError(f"pow: y must be a number or a Tensor, received {type(y).__name__}")
    if x.dtype.np.kind in "iu" and float(y) != int(y):
        raise TypeError(f"pow: an integer tensor ({x.dtype.name}) needs an integer exponent, received {y}; "
                        "cast x to float first")
    return apply(_m.POW, x, factor=float(y))


def clip(x, min=None, max=None, name=None):
    """Clamp to [min, max] (either may be None); the gradient passes where min <= x <= max."""
    _check_tensor(x, "clip")
    # as Paddle: a missing bound of a float x is its dtype's finite extreme (float32's unless float16/64),
    # so clip(x, min=0) maps +inf to the largest float
    # (a Tensor bound is the op's Min / Max input, read when it runs; the attr then holds the extreme)
    kind = np.dtype(x.dtype.np)
    extreme = np.finfo(kind if kind in (np.float16, np.float64) else np.float32) if kind.kind == "f" else None
    tensors = [tensor_argument(b, "clip", arg, kinds="iuf") if is_tensor_like(b) else None
               for arg, b in (("min", min), ("max", max))]
    lo = (float(extreme.min) if extreme else float("-inf")) if min is None or tensors[0] is not None else \
        _number(min, "clip", "min")
    hi = (float(extreme.max) if extreme else float("inf")) if max is None or tensors[1] is not None else \
        _number(max, "clip", "max")
    if lo > hi:
        raise ValueError(f"clip: min ({lo}) must not exceed max ({hi})")
    if isinstance(x, Tensor) and x.dtype.np.kind in "iu" and any(isinstance(b, (float, np.floating))
                                                                  for b in (min, max)):
        x = x.astype("float32")  # eager Paddle: an int tensor clipped to float bounds becomes float32
    if tensors[0] is None and tensors[1] is None:
        return apply(_m.CLIP, x, min=lo, max=hi)
    return apply(_m.CLIP, x, *tensors, min=lo, max=hi)


def where(condition, x=None, y=None, name=None):
    """Elements of x where condition holds, else of y (all three broadcast together)."""
    _check_tensor(condition, "where", "condition")
    if x is None and y is None:
        from .search import nonzero
        return nonzero(condition, as_tuple=True)
    if x is None or y is None:
        raise TypeError("where: pass both x and y, or neither (where(condition) is nonzero(condition, as_tuple=True))")
    if condition.dtype.np.kind != "b":
        raise TypeError(f"where: condition must be a bool Tensor, received {condition.dtype.name}")
    if not is_tensor_like(x) and not is_tensor_like(y):
        raise TypeError(f"where: x or y must be a Tensor, received {type(x).__name__} and {type(y).__name__}")
    if not is_tensor_like(x):
        x = operand(x, y, "where", "x")
    if not is_tensor_like(y):
        y = operand(y, x, "where", "y")
    if isinstance(x, Tensor) and isinstance(y, Tensor):  # Paddle's static where does not promote
        x, y = promote_pair(x, y, "where")
    return apply(_m.WHERE, condition, x, y)


def _divmod_api(op, api):
    def fn(x, y, name=None):
        _check_tensor(x, api)
        if isinstance(y, float) and x.dtype.np.kind in "iu":  # Paddle promotes an int tensor with a float
            x = x.astype("float32")
        if is_tensor_like(y) and is_tensor_like(x) and x.dtype.np.kind == "b":
            raise TypeError(f"{api}: x must be a numeric Tensor, received bool")
        if is_tensor_like(y):
            return apply(op, *promote_pair(x, y, api))
        return apply(op, x, operand(y, x, api))
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = f"Elementwise {api} with broadcasting (op '{op.type}'; not differentiable)."
    return fn


floor_divide = _divmod_api(_m.FLOOR_DIVIDE, "floor_divide")
remainder = _divmod_api(_m.REMAINDER, "remainder")
mod = floor_mod = remainder


# Tensor methods contributed by this module (attached in tensor/methods.py).
TENSOR_METHODS = ["inverse", "add", "subtract", "multiply", "divide", "maximum", "minimum", "equal", "not_equal",
                  "less_than", "less_equal", "greater_than", "greater_equal", "logical_and", "logical_or",
                  "logical_xor", "scale", "matmul", "mm", "exp", "log", "elementwise_pow",
                  "sqrt", "rsqrt", "abs", "square", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
                  "tanh", "sigmoid", "reciprocal", "log1p", "log2", "log10", "expm1", "floor", "ceil", "trunc",
                  "round", "erf", "sign", "neg", "isnan", "isinf", "isfinite", "logical_not", "bitwise_not", "pow", "clip",
                  "where", "floor_divide", "remainder", "mod", "floor_mod", "bmm", "dot", "t", "isclose", "allclose",
                  "equal_all"]


__all__ = ["abs", "acos", "add", "allclose", "asin", "atan", "bitwise_not", "bmm", "ceil", "clip", "cos",
           "cosh", "divide", "dot", "equal", "equal_all", "erf", "exp", "expm1", "floor", "floor_divide",
           "floor_mod", "greater_equal", "greater_than", "inverse", "is_tensor", "isclose", "isfinite", "isinf", "isnan",
           "less_equal", "less_than", "log", "log10", "log1p", "log2", "logical_and", "logical_not",
           "logical_or", "logical_xor", "matmul", "maximum", "minimum", "mm", "mod", "multiply", "neg",
           "not_equal", "pow", "reciprocal", "remainder", "round", "rsqrt", "scale", "sigmoid", "sign", "sin",
           "sinh", "sqrt", "square", "subtract", "t", "tan", "tanh", "trunc", "where"]


def __getattr__(name):
    """Paddle's paddle.tensor.math module holds the whole math API (increment, cumsum, trapezoid, isin, ...), which
    this package implements in several modules: a public name not defined here is the package's."""
    if not name.startswith("_"):
        from .. import tensor
        if name in tensor.__all__:
            return getattr(tensor, name)
    raise AttributeError(f"module 'paddle.tensor.math' has no attribute '{name}'")
