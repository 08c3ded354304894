"""Paddle's special functions -- lgamma/gammaln, digamma, polygamma, multigammaln, the regularized incomplete
gammas, I0/I1 (and their scaled forms), erfinv -- and the float helpers ldexp, frexp, nextafter, stanh, polar.

Integer inputs of the unary functions compute in float32, as Paddle's autocast does.
"""
import math as _pymath
import numbers

from ..framework.dtype import default_float
from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops import special as _special
from . import complex_math as _complex
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from . import reduce as _reduce
from .math import _check_tensor, check_tensor_type, check_variable, is_tensor_like, true_division_operand

apply = dispatch.apply


def _float_input(x, api):
    _check_tensor(x, api)
    return true_division_operand(x)


def _unary(op, api, doc, ints="float32"):  # Paddle's special functions compute integers in float32
    return _math._unary(op, api, doc, ints)


lgamma = _unary(_special.LGAMMA, "lgamma", "Elementwise log |Gamma(x)|")
gammaln = _unary(_special.LGAMMA, "gammaln", "Elementwise log |Gamma(x)| (Paddle's other name for lgamma)",
                 ints=None)
digamma = _unary(_special.DIGAMMA, "digamma", "Elementwise digamma psi(x) = Gamma'(x) / Gamma(x)")
i0 = _unary(_special.I0, "i0", "Elementwise modified Bessel function of the first kind, order 0")
i0e = _unary(_special.I0E, "i0e", "Elementwise exponentially scaled I0: exp(-|x|) I0(x)")
i1 = _unary(_special.I1, "i1", "Elementwise modified Bessel function of the first kind, order 1")
i1e = _unary(_special.I1E, "i1e", "Elementwise exponentially scaled I1: exp(-|x|) I1(x)")
erfinv = _unary(_special.ERFINV, "erfinv", "Elementwise inverse error function (+-inf outside [-1, 1])")


def polygamma(x, n, name=None):
    """The n-th derivative of digamma (n = 0 is digamma itself); integers compute as float32."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"polygamma: n must be an int, received {type(n).__name__}")
    if n < 0:
        raise ValueError(f"polygamma: n must be >= 0, received {n}")
    if n == 0:
        return digamma(x)
    return apply(_special.POLYGAMMA, _float_input(x, "polygamma"), n=n)


def multigammaln(x, p, name=None):
    """log of the multivariate gamma function of dimension p: sum_j lgamma(x - j/2) + p(p-1)/4 log(pi)."""
    _check_tensor(x, "multigammaln")
    if not isinstance(p, numbers.Real) or isinstance(p, bool) or p < 1:
        raise AssertionError(f"multigammaln: p must be a number >= 1, received {p!r}")
    if not x.dtype.is_floating_point:
        raise TypeError(f"multigammaln: x must be a floating-point Tensor, received {x.dtype.name}")
    offsets = _math.scale(_creation.arange(1 - p, 1, 1, dtype=x.dtype), scale=0.5)
    terms = lgamma(_math.add(_manip.unsqueeze(x, [-1]), offsets))
    return _math.scale(_reduce.sum(terms, axis=-1), bias=0.25 * p * (p - 1) * _pymath.log(_pymath.pi))


def _nonnegative(t, api, arg):
    if isinstance(t, Tensor) and t.size and not bool((t._data >= 0).all()):  # (values known in eager mode only)
        raise ValueError(f"{api}: every element of {arg} must be >= 0")


def _gamma_pair(op, api, doc):
    def fn(x, y, name=None):
        _check_tensor(x, api)
        _check_tensor(y, api, "y")
        for t, arg in ((x, "x"), (y, "y")):
            if t.dtype.name not in ("float32", "float64"):
                raise TypeError(f"{api}: {arg} must be a float32 or float64 Tensor, received {t.dtype.name}")
        if x.dtype != y.dtype:
            raise TypeError(f"{api}: x and y must have the same dtype, received {x.dtype.name} and {y.dtype.name}")
        _nonnegative(x, api, "x")
        _nonnegative(y, api, "y")
        return apply(op, x, y)
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = f"{doc} (op '{op.type}'; differentiable in y)."
    return fn


gammainc = _gamma_pair(_special.GAMMAINC, "gammainc", "Regularized lower incomplete gamma P(x, y)")
gammaincc = _gamma_pair(_special.GAMMAINCC, "gammaincc", "Regularized upper incomplete gamma Q(x, y) = 1 - P(x, y)")


def _float_dtype_of(*tensors):
    return "float64" if any(t.dtype.name == "float64" for t in tensors) else None


def ldexp(x, y, name=None):
    """x * 2**y, computed in float64 when either input is float64, else in the default float dtype."""
    for t, arg in ((x, "x"), (y, "y")):
        if not is_tensor_like(t):
            raise TypeError(f"ldexp: {arg} must be tensor type, but got {type(t)}")  # Paddle's wording
    dtype = _float_dtype_of(x, y) or default_float().name
    x, y = x.astype(dtype), y.astype(dtype)
    return _math.multiply(x, _math.pow(_creation.full_like(y, 2.0), y))


def frexp(x, name=None):
    """(mantissa, exponent) with x = mantissa * 2**exponent, 0.5 <= |mantissa| < 1 (exponent as a float)."""
    check_tensor_type(x, "frexp")
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"frexp: x must be a float32 or float64 Tensor, received {x.dtype.name}")
    magnitude = _math.abs(x)
    exponent = _math.floor(_math.log2(magnitude))
    exponent = _math.where(_math.isinf(exponent), _creation.zeros_like(exponent), exponent)
    mantissa = _math.divide(magnitude, _math.pow(_creation.full_like(exponent, 2.0), exponent))
    carry = _math.greater_equal(mantissa, _creation.ones_like(mantissa))  # log2 rounded up to the next power
    exponent = _math.where(carry, _math.scale(exponent, bias=1.0), exponent)
    mantissa = _math.where(carry, _math.scale(mantissa, scale=0.5), mantissa)
    mantissa = _math.where(_math.less_than(x, _creation.zeros_like(x)), _math.neg(mantissa), mantissa)
    return mantissa, exponent


def nextafter(x, y, name=None):
    """The next float after x toward y, elementwise with broadcasting (float32/float64; not differentiable)."""
    _check_tensor(x, "nextafter")
    _check_tensor(y, "nextafter", "y")
    if x.dtype != y.dtype and x.dtype.is_floating_point and y.dtype.is_floating_point:
        dtype = _float_dtype_of(x, y)
        x, y = x.astype(dtype), y.astype(dtype)
    return apply(_special.NEXTAFTER, x, y)


def stanh(x, scale_a=0.67, scale_b=1.7159, name=None):
    """scale_b * tanh(scale_a * x); integers compute as float32."""
    x = _float_input(x, "stanh")
    return _math.scale(_math.tanh(_math.scale(x, scale=float(scale_a))), scale=float(scale_b))


def polar(abs, angle, name=None, *, out=None):
    """The complex numbers abs * (cos(angle) + i sin(angle))."""
    for t, arg in ((abs, "abs"), (angle, "angle")):
        check_variable(t, "polar", arg)
        if t.dtype.name not in ("float32", "float64"):
            raise TypeError(f"polar: {arg} must be a float32 or float64 Tensor, received {t.dtype.name}")
    result = _complex.complex(_math.multiply(abs, _math.cos(angle)), _math.multiply(abs, _math.sin(angle)))
    return result if out is None else _creation.assign(result, output=out)


TENSOR_METHODS = ["lgamma", "gammaln", "digamma", "i0", "i0e", "i1", "i1e", "erfinv", "polygamma", "multigammaln",
                  "gammainc", "gammaincc", "ldexp", "frexp", "nextafter", "stanh", "polar"]
__all__ = ["digamma", "erfinv", "frexp", "gammainc", "gammaincc", "gammaln", "i0", "i0e", "i1", "i1e", "ldexp",
           "lgamma", "multigammaln", "nextafter", "polar", "polygamma", "stanh"]
