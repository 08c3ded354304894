"""Paddle's further elementwise APIs: copysign, heaviside, fmax/fmin, the bitwise family, gcd/lcm, signbit,
and the compositions of registered ops (logaddexp, hypot, lerp, deg2rad, frac, sinc, logit, add_n, ...).

Integer inputs of the transcendental ones compute in float32, as Paddle's autocast does.
"""
import math as _pymath

import numpy as np

from ..ops import dispatch
from ..ops.grad_support import ADD_N
from ..ops.shape_rules import known_shapes_differ
from ..ops import elementwise as _ew
from ..ops import math as _m
from ..static.appender import layer_helper
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from . import reduce as _reduce
from .aliases import _deliver
from .math import _binary, _check_tensor, check_float_tensor, check_tensor_type, is_tensor_like, true_division_operand

apply = dispatch.apply

_copysign = _binary(_ew.COPYSIGN, "copysign")
heaviside = _binary(_ew.HEAVISIDE, "heaviside")
_atan2 = _binary(_ew.ATAN2, "atan2")
fmax = _binary(_ew.FMAX, "fmax")
fmin = _binary(_ew.FMIN, "fmin")
gcd = _binary(_ew.GCD, "gcd")
lcm = _binary(_ew.LCM, "lcm")


def copysign(x, y, name=None):
    """Elementwise |x| with the sign of y (op 'copysign'); y a Tensor or a Python number, which Paddle makes a 0-D
    Tensor of x's dtype."""
    if isinstance(y, (int, float)):
        _check_tensor(x, "copysign")
        y = _creation.full([], y, x.dtype)
    return _copysign(x, y)


def _bitwise(op, api):
    binary = _binary(op, api)

    def fn(x, y, out=None, name=None):
        return _deliver(binary(x, y), out)
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = f"Elementwise {api} of integer (or bool) tensors (op '{op.type}'); `out` receives the result."
    return fn


bitwise_and = _bitwise(_ew.BITWISE_AND, "bitwise_and")
bitwise_or = _bitwise(_ew.BITWISE_OR, "bitwise_or")
bitwise_xor = _bitwise(_ew.BITWISE_XOR, "bitwise_xor")


def _shift(op, api):
    def fn(x, y, is_arithmetic=True, out=None, name=None):
        _check_tensor(x, api)
        _check_tensor(y, api, "y")
        return _deliver(apply(op, x, y, is_arithmetic=bool(is_arithmetic)), out)
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = (f"Elementwise {api} of integer tensors (op '{op.type}'); is_arithmetic=False shifts the "
                  "bits as unsigned.")
    return fn


bitwise_left_shift = _shift(_ew.BITWISE_LEFT_SHIFT, "bitwise_left_shift")
bitwise_right_shift = _shift(_ew.BITWISE_RIGHT_SHIFT, "bitwise_right_shift")


def bitwise_invert(x, out=None, name=None):
    """~x (Paddle's other name for bitwise_not)."""
    return _deliver(_math.bitwise_not(x), out)


def signbit(x, name=None):
    """Whether each element's sign bit is set (True for -0.0), as a bool tensor."""
    check_tensor_type(x, "signbit")
    if x.dtype.name == "bool" or x.dtype.np.kind == "c":
        raise TypeError(f"signbit: x must be a real numeric tensor, received {x.dtype.name}")
    return apply(_m.SIGNBIT, x)


def _floating(x, api, arg="x"):
    _check_tensor(x, api, arg)
    return true_division_operand(x)


acosh = _math._unary(_m.ACOSH, "acosh", "Elementwise inverse hyperbolic cosine", ints="float32")
asinh = _math._unary(_m.ASINH, "asinh", "Elementwise inverse hyperbolic sine", ints="float32")
atanh = _math._unary(_m.ATANH, "atanh", "Elementwise inverse hyperbolic tangent", ints="float32")


def atan2(x, y, name=None):
    """arctan(x / y) in the quadrant of the point (y, x) (integers compute as float64, as in Paddle)."""
    _check_tensor(x, "atan2")
    _check_tensor(y, "atan2", "y")
    if x.dtype.np.kind in "iu":
        x = x.astype("float64")
    if y.dtype.np.kind in "iu":
        y = y.astype("float64")
    return _atan2(x, y)


def sgn(x, name=None):
    """The sign of floating-point x; x / |x| (0 at 0) for complex x."""
    check_tensor_type(x, "sgn")
    check_float_tensor(x, "sgn", real=False)
    if x.dtype.np.kind != "c":
        return _math.sign(x)
    magnitude = _math.abs(x)
    zero = _math.equal(magnitude, _creation.zeros_like(magnitude))
    return _math.where(zero, _creation.zeros_like(x), _math.divide(x, _math.where(zero, _creation.ones_like(
        magnitude), magnitude).astype(x.dtype)))


def isposinf(x, name=None):
    """Whether each element is +inf."""
    check_tensor_type(x, "isposinf")
    return _math.logical_and(_math.isinf(x), _math.greater_than(x, _creation.zeros_like(x)))


def isneginf(x, name=None):
    """Whether each element is -inf."""
    check_tensor_type(x, "isneginf")
    return _math.logical_and(_math.isinf(x), _math.less_than(x, _creation.zeros_like(x)))


def isreal(x, name=None):
    """Whether each element is real (always for real dtypes; imaginary part 0 for complex)."""
    check_tensor_type(x, "isreal")
    if x.dtype.np.kind != "c":
        return _creation.ones_like(x, "bool")
    real_dtype = "float32" if x.dtype.name == "complex64" else "float64"
    return _math.equal(x, _manip.cast(_manip.cast(x, real_dtype), x.dtype))  # the cast drops the imaginary part


def isin(x, test_x, assume_unique=False, invert=False, name=None):
    """Whether each element of x occurs in test_x (negated with invert=True). With assume_unique, a test_x that is
    not small is searched as Paddle does, by sorting both together: the answer is then only right when both hold
    unique values, and Paddle's documented example shows what it answers otherwise."""
    check_tensor_type(x, "isin")
    check_tensor_type(test_x, "isin", "test_x")
    size_x, size_t = _pymath.prod(x.shape), _pymath.prod(test_x.shape)
    if assume_unique and x.shape and size_t >= size_x ** 0.145 * 10.0:  # Paddle's choice of method
        return _isin_by_sorting(x, test_x, invert)
    found = _reduce.any(_math.equal(_manip.unsqueeze(x, [-1]), _manip.flatten(test_x)), axis=-1) \
        if x.shape else _reduce.any(_math.equal(x, _manip.flatten(test_x)))
    return _math.logical_not(found) if invert else found


def _isin_by_sorting(x, test_x, invert):
    """x's elements that equal their successor in the stable sort of x and test_x together."""
    from .search import argsort

    everything = _manip.concat([_manip.flatten(x), _manip.flatten(test_x)])
    order = argsort(everything, stable=True)
    ordered = _manip.gather(everything, order)
    repeated = _manip.concat([_math.equal(ordered[1:], ordered[:-1]), _creation.zeros([1], "bool")])
    if invert:
        repeated = _math.logical_not(repeated)
    in_place = _manip.scatter(_creation.zeros_like(repeated), order, repeated)
    return _manip.reshape(in_place[:_pymath.prod(x.shape)], x.shape)


def logaddexp(x, y, name=None):
    """log(exp(x) + exp(y)), computed stably as max(x, y) + log1p(exp(-|x - y|))."""
    x, y = _floating(x, "logaddexp"), _floating(y, "logaddexp", "y")
    return _math.add(_math.log1p(_math.exp(_math.neg(_math.abs(_math.subtract(x, y))))), _math.maximum(x, y))


def hypot(x, y, name=None):
    """sqrt(x ** 2 + y ** 2)."""
    check_tensor_type(x, "hypot")
    check_tensor_type(y, "hypot", "y")
    x, y = _floating(x, "hypot"), _floating(y, "hypot", "y")
    return _math.sqrt(_math.add(_math.square(x), _math.square(y)))


def lerp(x, y, weight, name=None):
    """x + weight * (y - x); weight a number or a Tensor (broadcast; as in Paddle, it gets no gradient)."""
    check_float_tensor(x, "lerp")
    check_float_tensor(y, "lerp", "y")
    if is_tensor_like(weight):
        return _math.add(x, _math.multiply(weight.detach(), _math.subtract(y, x)))
    return _math.add(x, _math.scale(_math.subtract(y, x), float(weight)))


def deg2rad(x, name=None):
    """x * pi / 180 (integers as float32)."""
    return _math.scale(_floating(x, "deg2rad"), _pymath.pi / 180.0)


def rad2deg(x, name=None):
    """x * 180 / pi (integers as float32)."""
    return _math.scale(_floating(x, "rad2deg"), 180.0 / _pymath.pi)


def frac(x, name=None, *, out=None):
    """The fractional part x - trunc(x), with x's sign (0 for integer tensors)."""
    check_tensor_type(x, "frac")
    if x.dtype.name not in ("int32", "int64", "float16", "float32", "float64"):  # Paddle's list
        raise TypeError(f"frac: x must be int32, int64, float16, float32 or float64, received {x.dtype.name}")
    result = _math.subtract(x, _math.trunc(x)) if x.dtype.np.kind == "f" else _math.scale(x, 0.0)
    return _deliver(result, out)


def sinc(x, name=None):
    """sin(pi x) / (pi x), 1 at x = 0 (where the gradient is 0)."""
    check_tensor_type(x, "sinc")
    check_float_tensor(x, "sinc")
    at_zero = _math.equal(x, _math.scale(x, 0.0))
    safe = _math.where(at_zero, _math.scale(x, 0.0, bias=1.0), x)  # keeps 0/0 out of value and gradient
    pix = _math.scale(safe, _pymath.pi)
    return _math.where(at_zero, _math.scale(x, 0.0, bias=1.0), _math.divide(_math.sin(pix), pix))


def logit(x, eps=None, name=None):
    """log(x / (1 - x)), x first clipped to [eps, 1 - eps] when eps is given (integers as float32)."""
    x = _floating(x, "logit")
    if eps is not None:
        x = _math.clip(x, float(eps), 1.0 - float(eps))
    return _math.log(_math.divide(x, _math.scale(x, -1.0, bias=1.0)))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None, name=None):
    """NaN -> nan, +inf -> posinf, -inf -> neginf (None: the dtype's largest / lowest finite value)."""
    check_float_tensor(x, "nan_to_num")
    info = np.finfo(x.dtype.np)
    return apply(_m.NAN_TO_NUM, x, nan=float(nan), posinf=float(info.max if posinf is None else posinf),
                 neginf=float(info.min if neginf is None else neginf))


def add_n(inputs, name=None):
    """The elementwise sum of a Tensor or a list of same-shaped Tensors: Paddle's one `sum` op."""
    if is_tensor_like(inputs):
        inputs = [inputs]
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise TypeError(f"add_n: inputs must be a Tensor or a non-empty list of Tensors, received {inputs!r}")
    first = inputs[0]
    for i, t in enumerate(inputs):
        _check_tensor(t, "add_n", f"inputs[{i}]")
        if t.dtype != first.dtype or known_shapes_differ(t.shape, first.shape):  # ValueError, as Paddle
            raise ValueError(f"add_n: inputs must have one shape and dtype; inputs[{i}] is {list(t.shape)} "
                             f"{t.dtype.name}, inputs[0] {list(first.shape)} {first.dtype.name}")
    with layer_helper("add_n"):
        return dispatch.apply(ADD_N, list(inputs))


__all__ = ["acosh", "add_n", "asinh", "atan2", "atanh", "isin", "isneginf", "isposinf", "isreal", "sgn", "bitwise_and", "bitwise_invert", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift",
           "bitwise_xor", "copysign", "deg2rad", "fmax", "fmin", "frac", "gcd", "heaviside", "hypot", "lcm", "lerp",
           "logaddexp", "logit", "nan_to_num", "rad2deg", "signbit", "sinc"]
TENSOR_METHODS = list(__all__)
