"""Trapezoidal integration along an axis: trapezoid and cumulative_trapezoid (slices, products and sums)."""
from . import manipulation as _manip
from . import math as _math
from . import reduce as _reduce
from .manipulation import _int
from .math import _check_tensor, check_float_tensor, check_tensor_type


def _areas(y, x, dx, axis, api):
    """The trapezoids' areas along axis: (y[i] + y[i + 1]) / 2 * (x[i + 1] - x[i]) (or * dx)."""
    check_tensor_type(y, api, "y")
    check_float_tensor(y, api, "y")
    if x is not None and dx is not None:
        raise ValueError(f"{api}: give x or dx, not both")
    ndim = len(y.shape)
    axis = _int(axis, api, "axis")
    if not -ndim <= axis < ndim:
        raise ValueError(f"{api}: axis must be in [{-ndim}, {ndim}), received {axis}")
    axis %= ndim
    n = y.shape[axis]
    pairs = _math.add(_manip.slice(y, [axis], [1], [n]), _manip.slice(y, [axis], [0], [max(n - 1, 0)]))
    if x is None:
        if dx is None or isinstance(dx, (int, float)):
            return _math.scale(pairs, 0.5 * (1.0 if dx is None else float(dx))), axis
        _check_tensor(dx, api)  # a 0-D Tensor (or static Variable): multiplied in, so programs can feed it
        return _math.scale(_math.multiply(pairs, _manip.cast(dx, y.dtype)), 0.5), axis
    _check_tensor(x, api)
    if len(x.shape) == 1:
        if x.shape[0] != n:
            raise ValueError(f"{api}: a 1-D x must have y's length {n} along axis {axis}, received {x.shape[0]}")
        x = _manip.reshape(x, [n if d == axis else 1 for d in range(ndim)])
    m = x.shape[axis]
    widths = _math.subtract(_manip.slice(x, [axis], [1], [m]), _manip.slice(x, [axis], [0], [max(m - 1, 0)]))
    return _math.scale(_math.multiply(pairs, widths), 0.5), axis


def trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The integral of y along axis by the trapezoidal rule, at sample points x (or spacing dx, default 1)."""
    areas, axis = _areas(y, x, dx, axis, "trapezoid")
    return _reduce.sum(areas, axis)


def cumulative_trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The running trapezoidal integral of y along axis (one element shorter than y there)."""
    areas, axis = _areas(y, x, dx, axis, "cumulative_trapezoid")
    return _reduce.cumsum(areas, axis)


__all__ = ["cumulative_trapezoid", "trapezoid"]
TENSOR_METHODS = list(__all__)
