"""Counting ops: bincount, histogram, histogramdd (not differentiable: their outputs are counts)."""
import numpy as np

from .registry import DATA_DEPENDENT_SHAPE, Meta, register_op


# ---- bincount: occurrences (or summed weights) of each non-negative int -----------------------------
def _bincount_forward(xp, x, weights, minlength):
    if x.size and int(x.min()) < 0:
        raise ValueError(f"op 'bincount': the elements of X must be non-negative, received {int(x.min())}")
    if weights is None:
        return xp.bincount(x, minlength=minlength).astype(np.int64)
    dtype = weights.dtype if weights.dtype.kind == "f" else np.dtype(np.float64)
    return xp.bincount(x, weights=weights.astype(dtype), minlength=minlength).astype(dtype)


def _bincount_infer(x, weights, minlength):
    if np.dtype(x.dtype).kind not in "iu":
        raise TypeError(f"op 'bincount': X must hold integers, received {x.dtype}")
    if len(x.shape) != 1:
        raise ValueError(f"op 'bincount': X must be 1-D, received shape {list(x.shape)}")
    if weights is not None and tuple(weights.shape) != tuple(x.shape):
        raise ValueError(f"op 'bincount': Weights must have X's shape {list(x.shape)}, received {list(weights.shape)}")
    if minlength < 0:
        raise ValueError(f"op 'bincount': minlength must be >= 0, received {minlength}")
    if weights is None:
        return Meta((-1,), np.dtype(np.int64))
    kind = np.dtype(weights.dtype).kind
    return Meta((-1,), np.dtype(weights.dtype) if kind == "f" else np.dtype(np.float64))


BINCOUNT = register_op("bincount", inputs=("X", "Weights"), outputs=("Out",), optional_inputs=("Weights",),
                       forward=_bincount_forward, infer=_bincount_infer, attrs={"minlength": 0},
                       host_sync=DATA_DEPENDENT_SHAPE)


# ---- histogram: counts over `bins` equal bins of [min, max] (the data's range when both are 0) ------
def histogram_range(xp, x, min, max):
    """The (lo, hi) a histogram spans: [min, max], the data's range when both are 0, widened by 1 on each
    side when empty."""
    lo, hi = float(min), float(max)
    if lo == 0 and hi == 0 and x.size:
        lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    return lo, hi


def _histogram_forward(xp, x, weight, bins, min, max, density):
    lo, hi = histogram_range(xp, x, min, max)
    flat = x.reshape(-1).astype(np.float64)
    w = None if weight is None else weight.reshape(-1)
    counts, _ = xp.histogram(flat, bins=bins, range=(lo, hi), weights=w)
    if density:
        total = counts.sum()
        return (counts / (total * (hi - lo) / bins) if total else counts * 0.0).astype(np.float32)
    return counts.astype(np.int64 if weight is None else weight.dtype)


def _histogram_infer(x, weight, bins, min, max, density):
    if bins < 1:
        raise ValueError(f"op 'histogram': bins must be >= 1, received {bins}")
    if max < min:
        raise ValueError(f"op 'histogram': max must be >= min, received min {min} and max {max}")
    if weight is not None and tuple(weight.shape) != tuple(x.shape):
        raise ValueError(f"op 'histogram': Weight must have X's shape {list(x.shape)}, received "
                         f"{list(weight.shape)}")
    dtype = np.float32 if density else (np.int64 if weight is None else weight.dtype)
    return Meta((bins,), np.dtype(dtype))


def _reads_range(attrs):
    return "reads the data's range on the host" if attrs["min"] == attrs["max"] == 0 else None


HISTOGRAM = register_op("histogram", inputs=("X", "Weight"), outputs=("Out",), optional_inputs=("Weight",),
                        forward=_histogram_forward, infer=_histogram_infer,
                        attrs={"bins": 100, "min": 0.0, "max": 0.0, "density": False},
                        host_sync=_reads_range)


# ---- histogramdd: counts over the cells the per-dimension edges make ------------------------------
def _histogramdd_forward(xp, x, edges, weights, density):
    points = x.reshape(-1, x.shape[-1]).astype(np.float64)
    counts, _ = xp.histogramdd(points, bins=[e.astype(np.float64) for e in edges], density=density,
                               weights=None if weights is None else weights.reshape(-1).astype(np.float64))
    return counts.astype(x.dtype)


def _histogramdd_infer(x, edges, weights, density):
    if len(x.shape) < 2 or x.shape[-1] != len(edges):
        raise ValueError(f"op 'histogramdd': X must be [..., D] with D = {len(edges)} edge tensors, received "
                         f"shape {list(x.shape)}")
    return Meta(tuple(e.shape[0] - 1 for e in edges), x.dtype)


HISTOGRAMDD = register_op("histogramdd", inputs=("X", "Edges", "Weights"), outputs=("Out",), variadic_inputs=("Edges",),
                          optional_inputs=("Weights",), forward=_histogramdd_forward, infer=_histogramdd_infer,
                          attrs={"density": False})
