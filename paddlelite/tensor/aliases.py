"""Paddle's second names for existing APIs (paddle.gt, paddle.cat, paddle.div, paddle.permute, ...).

Each is the original API under Paddle's other signature: argument names, Paddle's keyword-only `out=`
(the result is written into `out`, which is returned), and the extra modes some aliases add
(`div`'s rounding_mode, `sub`'s alpha).
"""
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from .math import _check_tensor


def _deliver(result, out):
    """Paddle's `out=` convention: the result written into `out`, which is returned."""
    return result if out is None else _creation.assign(result, output=out)


def _alias(fn, api):
    def alias(x, y, name=None, *, out=None):
        return _deliver(fn(x, y), out)
    alias.__name__ = alias.__qualname__ = api
    alias.__doc__ = f"Paddle's name `{api}` for `{fn.__name__}`; `out=` receives the result."
    return alias


gt = greater = _alias(_math.greater_than, "gt")
ge = _alias(_math.greater_equal, "ge")
lt = less = _alias(_math.less_than, "lt")
le = _alias(_math.less_equal, "le")
eq = _alias(_math.equal, "eq")
ne = _alias(_math.not_equal, "ne")
mul = _alias(_math.multiply, "mul")


def cat(x, axis=0, name=None, *, out=None):
    """Paddle's name `cat` for `concat`."""
    return _deliver(_manip.concat(x, axis), out)


concatenate = cat


def div(x, y, name=None, *, rounding_mode=None, out=None):
    """x / y; rounding_mode 'trunc' rounds the quotient toward zero, 'floor' toward -inf (as floor_divide)."""
    if rounding_mode is None:
        result = _math.divide(x, y)
    elif rounding_mode == "floor":
        result = _math.floor_divide(x, y)
    elif rounding_mode == "trunc":
        _check_tensor(x, "div")
        result = _math.divide(x, y)
        result = _math.trunc(result)
        if x.dtype.np.kind in "iu":
            result = result.astype(x.dtype)
    else:
        raise ValueError(f"div: rounding_mode must be None, 'trunc' or 'floor', received {rounding_mode!r}")
    return _deliver(result, out)


def true_divide(input, other, *, out=None):
    """input / other (integers divide as float32)."""
    return _deliver(_math.divide(input, other), out)


def sub(x, y, name=None, *, alpha=1, out=None):
    """x - alpha * y."""
    return _deliver(_math.subtract(x, y if alpha == 1 else _math.scale(y, alpha)), out)


def negative(x, name=None):
    """-x (Paddle's name for neg)."""
    return _math.neg(x)


def positive(x, name=None):
    """+x: x itself; a bool tensor is refused as in Paddle."""
    _check_tensor(x, "positive")
    if x.dtype.name == "bool":
        raise TypeError("positive: the `+` operator on a bool tensor is not supported")
    return x


def clamp(x, min=None, max=None, name=None, *, out=None):
    """Paddle's name `clamp` for `clip`."""
    return _deliver(_math.clip(x, min, max), out)


swapaxes = swapdims = _manip.transpose  # Paddle 3.3's names (transpose by `perm`, or torch's two dims)


def permute(input, dims):
    """Transpose `input` by `dims`."""
    return _manip.transpose(input, list(dims))


def reverse(x, axis, name=None):
    """Paddle's name `reverse` for `flip`."""
    return _manip.flip(x, axis)


def ravel(input):
    """`input` flattened to 1-D."""
    return _manip.flatten(input)


# cat and concatenate are top-level only in Paddle (paddlelite/__init__.py exports them)
__all__ = ["clamp", "div", "eq", "ge", "greater", "gt", "le", "less", "lt", "mul", "ne",
           "negative", "permute", "positive", "ravel", "reverse", "sub", "swapaxes", "swapdims", "true_divide"]
TENSOR_METHODS = ["clamp", "div", "eq", "ge", "greater", "gt", "le", "less", "lt", "mul", "ne", "negative",
                  "positive", "ravel", "reverse", "sub", "swapaxes", "swapdims", "true_divide", "permute"]
