"""Order statistics and sorted-sequence search composed of registered ops (argsort, take_along_axis, ...):
kthvalue, median, quantile, searchsorted, bucketize."""
import math as _pymath

import numpy as np

from ..ops import dispatch
from ..ops import search as _s
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from . import reduce as _reduce
from .aliases import _deliver
from .elementwise import lerp
from .math import _check_tensor, check_tensor_type, check_variable
from .search import argsort, sort, take_along_axis


def _axis(x, axis, api):
    ndim = max(len(x.shape), 1)
    if not isinstance(axis, int) or isinstance(axis, bool) or not -ndim <= axis < ndim:
        raise ValueError(f"{api}: axis must be an int in [{-ndim}, {ndim}), received {axis!r}")
    return axis % ndim


def _along(x, axis, api):
    """(x, axis) with axis None meaning the flattened x."""
    if axis is None:
        return _manip.flatten(x), 0
    if not x.shape:
        return _manip.reshape(x, [1]), 0
    return x, _axis(x, axis, api)


def _pick(x, order, axis, k, keepdim):
    """x's elements at sorted position k along axis (and their indices)."""
    idx = _manip.slice(order, [axis], [k], [k + 1])
    values = take_along_axis(x, idx, axis)
    if not keepdim:
        values, idx = _manip.squeeze(values, [axis]), _manip.squeeze(idx, [axis])
    return values, idx


def kthvalue(x, k, axis=None, keepdim=False, name=None):
    """The k-th smallest element along axis (default the last) and its index."""
    _check_tensor(x, "kthvalue")
    x2, ax = _along(x, -1 if axis is None else axis, "kthvalue")
    n = x2.shape[ax]
    if not isinstance(k, int) or not 1 <= k <= n:
        raise ValueError(f"kthvalue: k must be an int in [1, {n}], received {k!r}")
    keep = keepdim and len(x.shape) > 0
    return _pick(x2, argsort(x2, ax, stable=True), ax, k - 1, keep)


def _nan_first_order(x, order, axis):
    """Paddle's median of a slice holding NaN is its first NaN (value, index and gradient): every sorted
    position of such a slice points at that NaN."""
    if x.dtype.np.kind not in "fc":
        return order
    nan = _math.isnan(x)
    first_nan = _reduce.argmax(_manip.cast(nan, "int32"), axis=axis, keepdim=True)
    return _math.where(_reduce.any(nan, axis=axis, keepdim=True), first_nan, order)


def median(x, axis=None, keepdim=False, mode="avg", name=None, *, out=None):
    """The median along axis (of all elements when None): mode 'avg' averages the two middle elements of an
    even count; 'min' takes the lower one and, along an axis, also returns its index."""
    check_tensor_type(x, "median")
    if mode not in ("avg", "min"):
        raise ValueError(f"median: mode must be 'avg' or 'min', received {mode!r}")
    x2, ax = _along(x, axis, "median")
    n = x2.shape[ax]
    keep = keepdim and axis is not None and len(x.shape) > 0
    if n == 0:
        if mode == "min":  # no element to point at
            raise ValueError("median: x must not be empty along the reduced axis with mode='min'")
        # the median of no numbers is NaN, like their mean (Paddle's answer too)
        return _deliver(_reduce.mean(x2 if x.dtype.is_floating_point else x2.astype("float32"), ax, keep), out)
    order = _nan_first_order(x2, argsort(x2, ax, stable=True), ax)
    low, low_idx = _pick(x2, order, ax, (n - 1) // 2, keep)
    if axis is None and keepdim:
        low, low_idx = (_manip.reshape(t, [1] * len(x.shape)) for t in (low, low_idx))
    if mode == "min":  # the index too, along an axis (of all elements: the value alone, as Paddle's)
        return (_deliver(low, out), low_idx) if axis is not None else _deliver(low, out)
    if x.dtype.np.kind in "biu":
        low = low.astype("float32")
    if n % 2:
        return _deliver(low, out)
    high, _ = _pick(x2, order, ax, n // 2, keep)
    if axis is None and keepdim:
        high = _manip.reshape(high, [1] * len(x.shape))
    return _deliver(_math.scale(_math.add(low, high.astype(low.dtype)), 0.5), out)


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def quantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None, *, out=None):
    """The q-th quantile(s) along axis (list of axes, or all when None); a list of q stacks them first."""
    check_tensor_type(x, "quantile")
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"quantile: interpolation must be one of {_INTERPOLATIONS}, received {interpolation!r}")
    qs = q.numpy().reshape(-1).tolist() if hasattr(q, "numpy") else (list(q) if isinstance(q, (list, tuple)) else [q])
    for v in qs:
        if not 0 <= v <= 1:
            raise ValueError(f"quantile: q must be in [0, 1], received {v}")
    ndim = len(x.shape)
    axes = list(range(ndim)) if axis is None else [axis] if isinstance(axis, int) else list(axis)
    axes = [_axis(x, a, "quantile") for a in axes] if ndim else []
    rest = [d for d in range(ndim) if d not in axes]
    flat = _merged(x, rest, axes)
    n = flat.shape[-1]
    ordered = take_along_axis(flat, argsort(flat, -1, stable=True), -1)
    results = []
    for v in qs:
        pos = v * (n - 1)
        lo, hi = int(_pymath.floor(pos)), int(_pymath.ceil(pos))
        if interpolation == "lower":
            hi = lo
        elif interpolation == "higher":
            lo = hi
        elif interpolation == "nearest":
            lo = hi = int(round(pos))
        a = _manip.slice(ordered, [len(rest)], [lo], [lo + 1])
        if hi == lo:
            value = a
        else:
            b = _manip.slice(ordered, [len(rest)], [hi], [hi + 1])
            w = 0.5 if interpolation == "midpoint" else pos - lo
            value = _math.add(a, _math.scale(_math.subtract(b, a), w))
        shape = [1 if d in axes else x.shape[d] for d in range(ndim)] if keepdim else [x.shape[d] for d in rest]
        results.append(_manip.reshape(value, shape))
    result = results[0] if not isinstance(q, (list, tuple)) and not hasattr(q, "numpy") else _manip.stack(results)
    return _deliver(result, out)


def _merged(x, rest, axes):
    """x with the dims `axes` moved last and merged into one (its length given, so an empty batch reshapes)."""
    reduced = [x.shape[d] for d in axes]
    n = -1 if -1 in reduced else _pymath.prod(reduced)
    return _manip.reshape(_manip.transpose(x, rest + axes) if len(x.shape) else x, [x.shape[d] for d in rest] + [n])


def mode(x, axis=-1, keepdim=False, name=None):
    """The most frequent value along axis (the smallest of equally frequent ones) and the index of its last
    occurrence."""
    _check_tensor(x, "mode")
    if len(x.shape):
        axis = _axis(x, axis, "mode")
    values, indices = dispatch.apply(_s.MODE, x, axis=axis)
    if not keepdim and len(x.shape):
        values, indices = _manip.squeeze(values, [axis]), _manip.squeeze(indices, [axis])
    return values, indices


def _nan_last(x, axis, keepdim, api):
    """(x with the reduced axes moved last and merged, sorted with NaNs last; the sort order; the number of
    non-NaN elements per row, [..., 1]; the result's shape)."""
    ndim = len(x.shape)
    axes = list(range(ndim)) if axis is None else [axis] if isinstance(axis, int) else list(axis)
    if isinstance(axis, (list, tuple)) and not axes:
        raise ValueError(f"{api}: axis list must not be empty")
    axes = [_axis(x, a, api) for a in axes] if ndim else []
    rest = [d for d in range(ndim) if d not in axes]
    flat = _merged(x, rest, axes)
    order = argsort(flat, -1, stable=True)  # NaN sorts last
    valid = _reduce.sum(_manip.cast(_math.logical_not(_math.isnan(flat)), "int64"), -1, keepdim=True)
    shape = [1 if d in axes else x.shape[d] for d in range(ndim)] if keepdim else [x.shape[d] for d in rest]
    return take_along_axis(flat, order, -1), order, valid, shape


def nanmedian(x, axis=None, keepdim=False, mode="avg", name=None):
    """The median of the non-NaN elements along axis (an int, a list, or all when None); NaN where all are NaN.
    mode 'avg' averages the two middle elements of an even count; 'min' takes the lower one and, for an int
    axis, also returns its index."""
    check_tensor_type(x, "nanmedian")
    if mode not in ("avg", "min"):
        raise ValueError(f"nanmedian: mode must be 'avg' or 'min', received {mode!r}")
    ordered, order, valid, shape = _nan_last(x, axis, keepdim, "nanmedian")
    if ordered.shape[-1] == 0 and mode == "avg":  # nothing to take the median of: NaN (as Paddle), like mean
        return _manip.reshape(_reduce.mean(ordered, -1), shape)
    two = _creation.full_like(valid, 2)
    low = _math.clip(_math.floor_divide(_math.subtract(valid, _creation.ones_like(valid)), two), 0)
    value = take_along_axis(ordered, low, -1)
    if mode == "avg":
        high = _math.clip(_math.floor_divide(valid, two), 0, max(ordered.shape[-1] - 1, 0))
        both = _math.add(value.astype("float64"), take_along_axis(ordered, high, -1).astype("float64"))
        value = _math.scale(both, 0.5).astype(x.dtype)
    value = _manip.reshape(value, shape)
    if mode == "min" and isinstance(axis, int):  # index -1 where all are NaN, as Paddle
        index = _math.where(_math.equal(valid, _creation.zeros_like(valid)), _creation.full_like(valid, -1),
                            take_along_axis(order, low, -1))
        return value, _manip.reshape(index, shape)
    return value


def nanquantile(x, q, axis=None, keepdim=False, interpolation="linear"):
    """The q-th quantile(s) of the non-NaN elements along axis (NaN where all are NaN); a list of q stacks them
    first."""
    check_tensor_type(x, "nanquantile")
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"nanquantile: interpolation must be one of {_INTERPOLATIONS}, received {interpolation!r}")
    if isinstance(q, (list, tuple)) and not q:
        raise ValueError("nanquantile: q must not be empty")
    qs = q.numpy().reshape(-1).tolist() if hasattr(q, "numpy") else (list(q) if isinstance(q, (list, tuple)) else [q])
    for v in qs:
        if not 0 <= v <= 1:
            raise ValueError(f"nanquantile: q must be in [0, 1], received {v}")
    ordered, _, valid, shape = _nan_last(x, axis, keepdim, "nanquantile")
    last = _math.subtract(valid, _creation.ones_like(valid)).astype(x.dtype)
    results = []
    for v in qs:
        pos = _math.scale(last, float(v))
        lo, hi = _math.floor(pos), _math.ceil(pos)
        if interpolation == "nearest":
            lo = hi = _math.round(pos)
        elif interpolation == "lower":
            hi = lo
        elif interpolation == "higher":
            lo = hi
        below = take_along_axis(ordered, _math.clip(lo, 0).astype("int64"), -1)
        above = take_along_axis(ordered, _math.clip(hi, 0).astype("int64"), -1)
        if interpolation == "midpoint":
            value = _math.scale(_math.add(below, above), 0.5)
        elif interpolation == "linear":
            value = lerp(below, above, _math.subtract(pos, lo))
        else:
            value = below
        results.append(_manip.reshape(value, shape))
    return results[0] if not isinstance(q, (list, tuple)) and not hasattr(q, "numpy") else _manip.stack(results)


def msort(input, *, out=None):
    """input sorted along its first axis."""
    _check_tensor(input, "msort", "input")
    return _deliver(sort(input, axis=0), out)


def searchsorted(sorted_sequence, values, out_int32=False, right=False, name=None, *, side=None, out=None,
                 sorter=None):
    """For each value, the index in the (last-dim) sorted sequence where it would be inserted keeping order:
    before equal elements, or after them with right=True / side='right'."""
    _check_tensor(sorted_sequence, "searchsorted", "sorted_sequence")
    _check_tensor(values, "searchsorted", "values")
    if side is not None:
        if side not in ("left", "right"):
            raise ValueError(f"searchsorted: side must be 'left' or 'right', received {side!r}")
        right = side == "right"
    if sorter is not None:
        sorted_sequence = take_along_axis(sorted_sequence, sorter, -1)
    if sorted_sequence.dtype != values.dtype:  # Paddle compares the two types' values as they are
        common = np.result_type(sorted_sequence.dtype.name, values.dtype.name).name
        sorted_sequence, values = _manip.cast(sorted_sequence, common), _manip.cast(values, common)
    seq = _manip.unsqueeze(sorted_sequence, [-2])   # [..., 1, N]
    vals = _manip.unsqueeze(values, [-1])            # [..., M, 1]
    before = _math.less_equal(seq, vals) if right else _math.less_than(seq, vals)
    counts = _reduce.sum(_manip.cast(before, "int64"), axis=-1)
    return _deliver(counts.astype("int32") if out_int32 else counts, out)


def bucketize(x, sorted_sequence, out_int32=False, right=False, name=None, *, out=None):
    """searchsorted of x's elements in the 1-D sorted_sequence."""
    check_variable(sorted_sequence, "bucketize", "sorted_sequence")
    if len(sorted_sequence.shape) != 1:
        raise ValueError(f"bucketize: sorted_sequence must be 1-D, received shape {list(sorted_sequence.shape)}")
    return searchsorted(sorted_sequence, x, out_int32, right, out=out)


__all__ = ["bucketize", "kthvalue", "median", "mode", "msort", "nanmedian", "nanquantile", "quantile", "searchsorted"]
TENSOR_METHODS = ["bucketize", "kthvalue", "median", "mode", "msort", "nanmedian", "nanquantile", "quantile"]
