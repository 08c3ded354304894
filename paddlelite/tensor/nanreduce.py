"""NaN-ignoring and counting reductions (nansum, nanmean, count_nonzero) and logcumsumexp, composed of
registered ops."""
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from . import reduce as _reduce
from .math import _check_tensor, check_float_tensor


def _without_nan(x):
    """x with its NaNs as zeros (gradient 0 there); integer tensors unchanged."""
    if x.dtype.np.kind not in "fc":
        return x
    return _math.where(_math.isnan(x), _creation.zeros_like(x), x)


def nansum(x, axis=None, dtype=None, keepdim=False, name=None):
    """The sum over `axis` treating NaN as zero."""
    _check_tensor(x, "nansum")
    return _reduce.sum(_without_nan(x), axis, dtype, keepdim)


def nanmean(x, axis=None, keepdim=False, name=None):
    """The mean over `axis` of the non-NaN elements (NaN where all are NaN)."""
    check_float_tensor(x, "nanmean")
    count = _reduce.sum(_manip.cast(_math.logical_not(_math.isnan(x)), x.dtype), axis, None, keepdim)
    return _math.divide(nansum(x, axis, None, keepdim), count)


def count_nonzero(x, axis=None, keepdim=False, name=None):
    """The number of nonzero elements over `axis` (int64)."""
    _check_tensor(x, "count_nonzero")
    return _reduce.sum(_manip.cast(_math.not_equal(x, _creation.zeros_like(x)), "int64"), axis, None, keepdim)


def logcumsumexp(x, axis=None, dtype=None, name=None):
    """log(cumsum(exp(x))) along axis (of the flattened x when None), shifted by the max for stability."""
    check_float_tensor(x, "logcumsumexp")
    if dtype is not None:
        x = x.astype(dtype)
    if axis is None:
        x, axis = _manip.flatten(x), 0
    # the shift cancels out of the value and of the gradient
    shift = _reduce.max(x, axis, keepdim=True) if 0 not in x.shape else _creation.zeros_like(x)
    shift = _math.where(_math.isfinite(shift), shift, _creation.zeros_like(shift))
    return _math.add(_math.log(_reduce.cumsum(_math.exp(_math.subtract(x, shift)), axis)), shift)


__all__ = ["count_nonzero", "logcumsumexp", "nanmean", "nansum"]
TENSOR_METHODS = list(__all__)
