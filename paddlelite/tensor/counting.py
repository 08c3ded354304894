"""Counting APIs: bincount, histogram, histogram_bin_edges, histogramdd (registered ops in ops/histogram.py;
bin edges composed of reductions and arange so both modes build them)."""
import numbers

from ..ops import dispatch
from ..ops import histogram as _h
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from . import reduce as _reduce
from .manipulation import _int
from .math import _check_tensor, check_tensor_type

apply = dispatch.apply


def bincount(x, weights=None, minlength=0, name=None):
    """How often each value of the non-negative int 1-D x occurs (summed weights when given), at least
    minlength long."""
    check_tensor_type(x, "bincount")
    if x.dtype.np.kind not in "iu":
        raise TypeError(f"bincount: x must hold integers, received {x.dtype.name}")
    if weights is not None:
        _check_tensor(weights, "bincount", "weights")
    return apply(_h.BINCOUNT, x, weights, minlength=_int(minlength, "bincount", "minlength"))


def _range(value, api, arg):
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{api}: {arg} must be a number, received {type(value).__name__}")
    return float(value)


def histogram(input, bins=100, min=0.0, max=0.0, weight=None, density=False, name=None):
    """Counts of input's elements over `bins` equal bins of [min, max] (the data's range when both are 0);
    int64 counts, weight's dtype with weights, float32 densities with density=True."""
    _check_tensor(input, "histogram", "input")
    if weight is not None:
        _check_tensor(weight, "histogram", "weight")
    return apply(_h.HISTOGRAM, input, weight, bins=_int(bins, "histogram", "bins"),
                 min=_range(min, "histogram", "min"), max=_range(max, "histogram", "max"), density=bool(density))


def _edges(lo, hi, bins, dtype):
    """bins + 1 equally spaced edges from lo to hi (0-D Tensors); a zero-width range is widened by 0.5."""
    flat = _math.equal(lo, hi)
    lo = _math.where(flat, _math.scale(lo, 1.0, -0.5), lo)
    hi = _math.where(flat, _math.scale(hi, 1.0, 0.5), hi)
    steps = _math.scale(_creation.arange(0, bins + 1, dtype=dtype), 1.0 / bins)
    return _math.add(lo, _math.multiply(_math.subtract(hi, lo), steps))


def histogram_bin_edges(input, bins=100, min=0.0, max=0.0, name=None):
    """The bins + 1 edges histogram() uses (float32)."""
    _check_tensor(input, "histogram_bin_edges", "input")
    bins = _int(bins, "histogram_bin_edges", "bins")
    min, max = _range(min, "histogram_bin_edges", "min"), _range(max, "histogram_bin_edges", "max")
    if min == 0 and max == 0:
        lo, hi = _reduce.min(input).astype("float32"), _reduce.max(input).astype("float32")
    elif max < min:
        raise ValueError(f"histogram_bin_edges: max must be >= min, received min {min} and max {max}")
    else:
        lo, hi = _creation.full([], min, "float32"), _creation.full([], max, "float32")
    return _edges(lo, hi, bins, "float32")


def histogramdd(x, bins=10, ranges=None, density=False, weights=None, name=None):
    """The D-dimensional histogram of the points x [..., D]: (counts, the D edge tensors). bins: an int, D ints,
    or D edge tensors; ranges: [lo0, hi0, lo1, hi1, ...] (the data's ranges when None)."""
    _check_tensor(x, "histogramdd")
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"histogramdd: x must be float32 or float64, received {x.dtype.name}")
    if len(x.shape) < 2:
        raise AssertionError(f"histogramdd: x must have at least 2 dimensions, received shape {list(x.shape)}")
    d = x.shape[-1]
    points = _manip.reshape(x, [-1, d])
    if weights is not None:
        _check_tensor(weights, "histogramdd", "weights")
        if list(weights.shape) != list(x.shape[:-1]) or weights.dtype != x.dtype:
            raise AssertionError(f"histogramdd: weights must have shape {list(x.shape[:-1])} and dtype "
                                 f"{x.dtype.name}, received {list(weights.shape)} {weights.dtype.name}")
        weights = _manip.reshape(weights, [-1])
    if ranges is not None and (not isinstance(ranges, (list, tuple)) or len(ranges) != 2 * d):
        raise AssertionError(f"histogramdd: ranges must be a list of {2 * d} numbers, received {ranges!r}")
    if isinstance(bins, (list, tuple)) and bins and all(_math.is_tensor_like(b) for b in bins):
        if len(bins) != d:
            raise AssertionError(f"histogramdd: bins must hold {d} edge tensors, received {len(bins)}")
        edges = list(bins)
    else:
        counts = [bins] * d if isinstance(bins, int) and not isinstance(bins, bool) else list(bins)
        if len(counts) != d:
            raise AssertionError(f"histogramdd: bins must be an int or {d} ints, received {bins!r}")
        edges = []
        for k, n in enumerate(counts):
            if not isinstance(n, int) or isinstance(n, bool):
                raise ValueError(f"histogramdd: bins[{k}] must be an int, received {type(n).__name__}")
            column = _manip.slice(points, [1], [k], [k + 1])
            if ranges is None:
                lo, hi = _reduce.min(column), _reduce.max(column)
            else:
                lo, hi = (_creation.full([], float(v), x.dtype) for v in ranges[2 * k:2 * k + 2])
            edges.append(_edges(lo, hi, n, x.dtype))
    return apply(_h.HISTOGRAMDD, points, edges, weights, density=bool(density)), edges


__all__ = ["bincount", "histogram", "histogram_bin_edges", "histogramdd"]
TENSOR_METHODS = ["bincount", "histogram", "histogram_bin_edges", "histogramdd"]
