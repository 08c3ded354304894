"""NaN-ignoring and counting reductions (nansum, nanmean, count_nonzero) and the cumulative ones
(cumprod, cummax, cummin, logcumsumexp)."""
from ..framework.mode import in_static_mode
from ..ops import dispatch
from ..ops import reduce as _r
from ..ops import search as _s
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from . import reduce as _reduce
from .aliases import _deliver
from .manipulation import _int
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
    """The mean over `axis` of the non-NaN elements (NaN where all are NaN); integers in float32, as Paddle's."""
    _check_tensor(x, "nanmean")
    if in_static_mode() and not x.dtype.is_floating_point:  # Paddle checks the dtype in static mode only
        raise TypeError(f"nanmean: x must be a floating-point Variable in static mode, received {x.dtype.name}")
    x = _math.true_division_operand(x)
    check_float_tensor(x, "nanmean")
    count = _reduce.sum(_manip.cast(_math.logical_not(_math.isnan(x)), x.dtype), axis, None, keepdim)
    return _math.divide(nansum(x, axis, None, keepdim), count)


def count_nonzero(x, axis=None, keepdim=False, name=None):
    """The number of nonzero elements over `axis` (int64)."""
    _check_tensor(x, "count_nonzero")
    return _reduce.sum(_manip.cast(_math.not_equal(x, _creation.zeros_like(x)), "int64"), axis, None, keepdim)


def cumprod(x, dim=None, *, dtype=None, out=None, name=None):
    """Cumulative product along dim (of the flattened x when None)."""
    _check_tensor(x, "cumprod")
    if dtype is not None:
        x = x.astype(dtype)
    if dim is not None:
        dim = _int(dim, "cumprod", "dim")
        ndim = max(len(x.shape), 1)
        if not -ndim <= dim < ndim:
            raise ValueError(f"cumprod: dim must be in [{-ndim}, {ndim}), received {dim}")
    return _deliver(dispatch.apply(_r.CUMPROD, x, dim=dim), out)


def _running(op, api):
    def fn(x, axis=None, dtype="int64", name=None):
        _check_tensor(x, api)
        if str(dtype).replace("paddle.", "") not in ("int32", "int64"):
            raise ValueError(f"{api}: dtype must be int32 or int64, received {dtype}")
        if axis is None:
            x, axis = _manip.flatten(x), 0
        ndim = max(len(x.shape), 1)
        axis = _int(axis, api, "axis")
        if not -ndim <= axis < ndim:
            raise ValueError(f"{api}: axis must be in [{-ndim}, {ndim}), received {axis}")
        values, indices = dispatch.apply(op, x, axis=axis)
        return values, indices.astype(dtype)
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = (f"The running {api[3:]} along axis (of the flattened x when None) and the index it came from "
                  "(the latest of equal values).")
    return fn


cummax = _running(_s.CUMMAX, "cummax")
cummin = _running(_s.CUMMIN, "cummin")


def logcumsumexp(x, axis=None, dtype=None, name=None):
    """log(cumsum(exp(x))) along axis (of the flattened x when None), as a running logaddexp: exact for any
    spread of values, NaN propagating, and a zero gradient at -inf (masked) positions. Integers compute in
    float32, as Paddle's."""
    _check_tensor(x, "logcumsumexp")
    x = x.astype(dtype) if dtype is not None else _math.true_division_operand(x)
    check_float_tensor(x, "logcumsumexp")
    if axis is not None:
        axis = _reduce._check_axes(x, _int(axis, "logcumsumexp", "axis"), "logcumsumexp")
    return dispatch.apply(_r.LOGCUMSUMEXP, x, axis=-1 if axis is None else axis, flatten=axis is None, reverse=False)


__all__ = ["count_nonzero", "cummax", "cummin", "cumprod", "logcumsumexp", "nanmean", "nansum"]
TENSOR_METHODS = list(__all__)
