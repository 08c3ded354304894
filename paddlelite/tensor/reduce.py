"""Reduction APIs: sum, mean, max, min, amax, amin, prod, logsumexp, all, any, argmax, argmin, std, var,
norm, cumsum (axis: None, an int or a list of ints; keepdim)."""
import builtins
import numbers

import numpy as np

from ..framework import dtype as _dtype
from ..ops import dispatch
from ..ops import elementwise as _ew
from ..ops import grad_support as _gs
from ..ops import manipulation as _mo
from ..ops import math as _m
from ..ops import reduce as _r
from .math import _check_tensor, check_float_tensor

apply = dispatch.apply


def _axis_attr(axis, api):
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)):
        for k, a in enumerate(axis):
            if not isinstance(a, (int, np.integer)) or isinstance(a, (bool, np.bool_)):
                raise TypeError(f"{api}: axis[{k}] must be an int, received {type(a).__name__}")
        return [int(a) for a in axis] if len(axis) else None
    if isinstance(axis, (int, np.integer)) and not isinstance(axis, (bool, np.bool_)):
        return int(axis)
    raise TypeError(f"{api}: axis must be None, an int or a list of ints, received {type(axis).__name__}")


def _check_axes(x, axis, api):
    """Range-check the axes against x's rank here, so the error names the API."""
    ndim = len(x.shape)
    bound = builtins.max(ndim, 1)
    for a in ([] if axis is None else axis if isinstance(axis, list) else [axis]):
        if not -bound <= a < bound:
            raise ValueError(f"{api}: axis {a} is out of range for a {ndim}-D tensor "
                             f"(expected -{bound} <= axis < {bound})")
    if isinstance(axis, list) and len({a % bound for a in axis}) != len(axis):
        raise ValueError(f"{api}: axis {axis} repeats an axis")
    return axis


def _reduce(op, api, x, axis, keepdim, **attrs):
    _check_tensor(x, api)
    axis = _check_axes(x, _axis_attr(axis, api), api)
    return apply(op, x, axis=axis, keepdim=bool(keepdim), **attrs)


def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum in `dtype` (default: x's, but int64 for bool and int32 inputs, as Paddle)."""
    _check_tensor(x, "sum")
    dtype = None if dtype is None else _dtype.convert_dtype(dtype, "sum").name
    return _reduce(_r.REDUCE_SUM, "sum", x, axis, keepdim, dtype=dtype)


def _integer(x):
    return x.dtype.np.kind in "iu"


def mean(x, axis=None, keepdim=False, name=None, *, dtype=None):
    """Arithmetic mean; of an integer tensor, truncated toward zero to its dtype, as Paddle's. With `dtype`, x is
    cast to it first (as Paddle's)."""
    _check_tensor(x, "mean")
    if dtype is not None:
        dtype = _dtype.convert_dtype(dtype, "mean")
        if x.dtype != dtype:
            x = apply(_mo.CAST, x, dtype=dtype.name)
    if _integer(x):  # computed in float64, then truncated toward zero, as Paddle's integer division
        return _reduce(_r.MEAN, "mean", x.astype("float64"), axis, keepdim).astype(x.dtype)
    check_float_tensor(x, "mean", real=False)
    return _reduce(_r.MEAN, "mean", x, axis, keepdim)


def max(x, axis=None, keepdim=False, name=None):
    """Largest element; the gradient is shared evenly among the positions equal to it (Paddle's rule)."""
    return _reduce(_r.MAX, "max", x, axis, keepdim)


def min(x, axis=None, keepdim=False, name=None):
    """Smallest element; the gradient is shared evenly among the positions equal to it (Paddle's rule)."""
    return _reduce(_r.MIN, "min", x, axis, keepdim)


def amax(x, axis=None, keepdim=False, name=None):
    """Largest element (max's twin in Paddle 3: the same gradient, shared evenly among tied maxima)."""
    return _reduce(_r.AMAX, "amax", x, axis, keepdim)


def amin(x, axis=None, keepdim=False, name=None):
    """Smallest element (min's twin in Paddle 3: the same gradient, shared evenly among tied minima)."""
    return _reduce(_r.AMIN, "amin", x, axis, keepdim)


def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    _check_tensor(x, "prod")
    if dtype is not None:
        x = x.astype(dtype)
    return _reduce(_r.PROD, "prod", x, axis, keepdim)


def logsumexp(x, axis=None, keepdim=False, name=None):
    """log(sum(exp(x))) over axis; integers compute in float32, as Paddle's integer autocast."""
    _check_tensor(x, "logsumexp")
    return _reduce(_r.LOGSUMEXP, "logsumexp", x.astype("float32") if _integer(x) else x, axis, keepdim)


def all(x, axis=None, keepdim=False, name=None):
    return _reduce(_r.ALL, "all", x, axis, keepdim)


def any(x, axis=None, keepdim=False, name=None):
    return _reduce(_r.ANY, "any", x, axis, keepdim)


def _arg(op, api, x, axis, keepdim, dtype):
    _check_tensor(x, api)
    if axis is not None:
        if not isinstance(axis, (int, np.integer)) or isinstance(axis, (bool, np.bool_)):
            raise TypeError(f"{api}: axis must be None or an int, received {type(axis).__name__}")
        axis = _check_axes(x, int(axis), api)
    dtype = _dtype.convert_dtype(dtype).name
    if dtype not in ("int32", "int64"):
        raise TypeError(f"{api}: dtype must be int32 or int64, received {dtype}")
    return apply(op, x, axis=axis, keepdim=bool(keepdim), dtype=dtype)


def argmax(x, axis=None, keepdim=False, dtype="int64", name=None):
    """Index of the largest element (of the flattened tensor when axis is None)."""
    return _arg(_r.ARGMAX, "argmax", x, axis, keepdim, dtype)


def argmin(x, axis=None, keepdim=False, dtype="int64", name=None):
    """Index of the smallest element (of the flattened tensor when axis is None)."""
    return _arg(_r.ARGMIN, "argmin", x, axis, keepdim, dtype)


def var(x, axis=None, unbiased=True, keepdim=False, name=None):
    """Variance; unbiased divides by N - 1. Of an integer tensor in integer arithmetic, as Paddle's kernel: the
    truncated mean, then the sum of squared deviations divided (integer division) by N - 1 or N."""
    _check_tensor(x, "var")
    if not _integer(x):
        return _reduce(_r.VAR, "var", x, axis, keepdim, unbiased=bool(unbiased))
    deviation = apply(_ew.SUBTRACT, x, mean(x, axis, keepdim=True))
    squares = sum(apply(_ew.MULTIPLY, deviation, deviation), axis, x.dtype.name, keepdim)
    axes = _check_axes(x, _axis_attr(axis, "var"), "var")
    axes = range(len(x.shape)) if axes is None else axes if isinstance(axes, list) else [axes]
    count = int(np.prod([x.shape[a] for a in axes])) - bool(unbiased)
    return apply(_m.FLOOR_DIVIDE, squares, apply(_gs.FILL_ANY_LIKE, squares, value=float(count)))


def std(x, axis=None, unbiased=True, keepdim=False, name=None):
    """Standard deviation: sqrt(var(...)); an integer tensor's (truncated) variance is rooted in float32, as
    Paddle's composition of the two does."""
    v = var(x, axis, unbiased, keepdim)
    return apply(_m.SQRT, v.astype("float32") if _integer(v) else v)


def norm(x, p="fro", axis=None, keepdim=False, name=None):
    """Vector / Frobenius norms: p='fro' or 2 (sqrt of the sum of squares), 1, inf, -inf, 0, or any float."""
    _check_tensor(x, "norm")
    axis = _check_axes(x, _axis_attr(axis, "norm"), "norm")
    keepdim = bool(keepdim)
    if isinstance(p, str):
        if p != "fro":
            raise ValueError(f"norm: p must be 'fro' or a number, received '{p}'")
        p = 2.0
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, (numbers.Real, np.number)):
        raise TypeError(f"norm: p must be 'fro' or a number, received {type(p).__name__}")
    p = float(p)
    if p == 2.0:
        return _zero_safe_root(apply(_r.REDUCE_SUM, apply(_m.SQUARE, x), axis=axis, keepdim=keepdim), p)
    a = apply(_m.ABS, x)
    if p == 1.0:
        return apply(_r.REDUCE_SUM, a, axis=axis, keepdim=keepdim)
    if p == float("inf"):
        if _reduces_nothing(x, axis):  # the largest of no magnitudes is 0, as Paddle's
            return apply(_r.REDUCE_SUM, a, axis=axis, keepdim=keepdim)
        return apply(_r.AMAX, a, axis=axis, keepdim=keepdim)
    if p == float("-inf"):
        return apply(_r.AMIN, a, axis=axis, keepdim=keepdim)
    if p == 0.0:
        nonzero = apply(_m.LOGICAL_NOT, apply(_m.LOGICAL_NOT, x))
        return apply(_r.REDUCE_SUM, apply(_mo.CAST, nonzero, dtype=x.dtype.name), axis=axis, keepdim=keepdim)
    return _zero_safe_root(apply(_r.REDUCE_SUM, apply(_m.POW, a, factor=p), axis=axis, keepdim=keepdim), p)


def _reduces_nothing(x, axis):
    """Whether a reduced dim of x is known to be empty."""
    shape = list(x.shape)
    if not shape:  # a 0-D tensor holds one element
        return False
    axes = range(len(shape)) if axis is None else [axis] if isinstance(axis, int) else axis
    return builtins.any(shape[a] == 0 for a in axes)


def _zero_safe_root(total, p):
    """total ** (1/p), whose gradient is 0 (not NaN) where total is 0, as Paddle's p_norm grad: the root is
    taken of 1 there and its result not selected."""
    zeros = apply(_gs.FILL_ANY_LIKE, total, value=0.0)
    # "not 0" rather than "> 0": a NaN total takes the root too, so its gradient is NaN as Paddle's
    positive = apply(_ew.NOT_EQUAL, total, zeros)
    safe = apply(_m.WHERE, positive, total, apply(_gs.FILL_ANY_LIKE, total, value=1.0))
    root = apply(_m.SQRT, safe) if p == 2.0 else apply(_m.POW, safe, factor=1.0 / p)
    return apply(_m.WHERE, positive, root, apply(_m.SCALE, total, scale=1.0))  # (total: 0)


def cumsum(x, axis=None, dtype=None, name=None):
    """Cumulative sum along axis (of the flattened tensor when axis is None); integers narrower than int64 are
    summed as int64 unless `dtype` says otherwise (Paddle casts them first)."""
    _check_tensor(x, "cumsum")
    if dtype is None and x.dtype.name in ("uint8", "int8", "int16", "int32"):
        dtype = "int64"
    if dtype is not None:
        x = x.astype(dtype)
    if axis is not None:
        if not isinstance(axis, (int, np.integer)) or isinstance(axis, (bool, np.bool_)):
            raise TypeError(f"cumsum: axis must be None or an int, received {type(axis).__name__}")
        axis = _check_axes(x, int(axis), "cumsum")
    return apply(_r.CUMSUM, x, axis=axis, reverse=False)


TENSOR_METHODS = ["sum", "mean", "max", "min", "amax", "amin", "prod", "logsumexp", "all", "any", "argmax",
                  "argmin", "var", "std", "norm", "cumsum"]


__all__ = ["all", "amax", "amin", "any", "argmax", "argmin", "cumsum", "logsumexp", "max", "mean", "min",
           "norm", "prod", "std", "sum", "var"]
