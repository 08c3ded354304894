"""Reduction APIs: sum, mean, max, min, prod, logsumexp, ... (axis, keepdim)."""
from ..ops import dispatch
from ..ops import reduce as _r
from .math import _check_tensor

apply = dispatch.apply


def _axis_attr(axis, api):
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)):
        return [int(a) for a in axis]
    if isinstance(axis, int) and not isinstance(axis, bool):
        return int(axis)
    raise TypeError(f"{api}: axis must be None, an int or a list of ints, received {type(axis).__name__}")


def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    _check_tensor(x, "sum")
    if dtype is not None:
        x = x.astype(dtype)
    return apply(_r.SUM, x, axis=_axis_attr(axis, "sum"), keepdim=bool(keepdim))


def mean(x, axis=None, keepdim=False, name=None):
    _check_tensor(x, "mean")
    return apply(_r.MEAN, x, axis=_axis_attr(axis, "mean"), keepdim=bool(keepdim))


TENSOR_METHODS = ["sum", "mean"]
