"""Generated sequences and combinatorial layouts: range, logspace, vander, tril_indices/triu_indices,
combinations, cartesian_prod, block_diag (compositions of registered ops, so values carry gradients)."""
import itertools
import math as _pymath
import numbers

import numpy as np

from ..framework import dtype as _dtypes
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from .aliases import _deliver
from .manipulation import _int
from .nanreduce import cumprod
from .stacking import meshgrid
from .math import _check_tensor


def _scalar(value, api, arg):
    if _math.is_tensor_like(value):
        return value.item()
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{api}: {arg} must be a number or a Tensor, received {type(value).__name__}")
    return value


def range(start=0, end=None, step=1, dtype=None, *, out=None, device=None, requires_grad=False, name=None):
    """start, start + step, ... up to and including end (end alone: 0 ... end); float32 unless dtype says."""
    if end is None:
        start, end = 0, start
    dt = _dtypes.convert_dtype(dtype, "range") if dtype is not None else _dtypes.default_float()
    start, end, step = (np.asarray(_scalar(v, "range", a)).astype(dt.np)[()]
                        for v, a in ((start, "start"), (end, "end"), (step, "step")))
    if step == 0:
        raise ValueError("range: step must not be 0")
    count = max(int(_pymath.floor((end - start) / step)) + 1, 0)
    values = (start + step * np.arange(count)).astype(dt.np)
    result = _creation.to_tensor(values, dtype=dt, place=device, stop_gradient=not requires_grad)
    return _deliver(result, out)


def logspace(start, stop, num, base=10.0, dtype=None, name=None):
    """num values base ** t for t evenly spaced from start to stop."""
    dt = _dtypes.convert_dtype(dtype, "logspace") if dtype is not None else _dtypes.default_float()
    num = _int(_scalar(num, "logspace", "num"), "logspace", "num")
    if num <= 0:
        raise ValueError(f"logspace: num must be > 0, received {num}")
    exponents = _creation.linspace(_scalar(start, "logspace", "start"), _scalar(stop, "logspace", "stop"), num,
                                   "float64")
    base = _creation.full([], float(_scalar(base, "logspace", "base")), "float64")
    return _math.elementwise_pow(base, exponents).astype(dt)


def vander(x, n=None, increasing=False, name=None):
    """The Vandermonde matrix of the 1-D x: column j is x ** (n - 1 - j) (x ** j when increasing)."""
    _check_tensor(x, "vander")
    if len(x.shape) != 1:
        raise ValueError(f"vander: x must be 1-D, received shape {list(x.shape)}")
    n = x.shape[0] if n is None else _int(n, "vander", "n")
    if n < 0:
        raise ValueError(f"vander: n must be >= 0, received {n}")
    column = _manip.unsqueeze(x, [1])
    parts = [_creation.ones_like(column)][:n]
    if n > 1:  # x, x**2, ... as a running product keeps every power's gradient exact at x = 0
        parts.append(cumprod(_manip.tile(column, [1, n - 1]), 1))
    if not parts:
        return _creation.zeros([x.shape[0], 0], x.dtype)
    out = _manip.concat(parts, 1)
    return out if increasing else _manip.flip(out, [1])


def _triangle_indices(row, col, offset, dtype, lower, api):
    for arg, v in (("row", row), ("col", col), ("offset", offset)):
        if not isinstance(v, int) or isinstance(v, bool) or (arg != "offset" and v < 0):
            raise TypeError(f"{api}: {arg} must be a{' non-negative' if arg != 'offset' else 'n'} int, received {v!r}")
    rows, cols = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return _creation.to_tensor(np.stack([rows, cols]).reshape(2, -1), dtype=_dtypes.convert_dtype(dtype, api))


def tril_indices(row, col, offset=0, dtype="int64"):
    """[2, N] coordinates of the lower triangle (on and below diagonal `offset`) of a row x col matrix."""
    return _triangle_indices(row, col, offset, dtype, True, "tril_indices")


def triu_indices(row, col=None, offset=0, dtype="int64"):
    """[2, N] coordinates of the upper triangle (on and above diagonal `offset`) of a row x col matrix."""
    return _triangle_indices(row, row if col is None else col, offset, dtype, False, "triu_indices")


def combinations(x, r=2, with_replacement=False, name=None):
    """The r-length combinations of the 1-D x's elements, one per row, in lexicographic order of positions."""
    shape = getattr(x, "shape", None)  # Paddle checks the rank and r before it meets a NumPy x as a non-Tensor
    if shape is not None and len(shape) != 1:
        raise TypeError(f"combinations: x must be 1-D, received shape {list(shape)}")
    r = _int(r, "combinations", "r")
    if r < 0:
        raise ValueError(f"combinations: r must be >= 0, received {r}")
    _check_tensor(x, "combinations")
    if r == 0:
        return _creation.zeros([0], x.dtype)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    index = np.array(list(pick(np.arange(x.shape[0]), r)), dtype=np.int64).reshape(-1, r)
    return _manip.reshape(_manip.gather(x, _creation.assign(index.reshape(-1))), [-1, r])


def _same_dtype_list(tensors, api, arg):
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(f"{api}: {arg} must be a non-empty list of Tensors, received {type(tensors).__name__}")
    for k, t in enumerate(tensors):
        _check_tensor(t, api, f"{arg}[{k}]")
        if t.dtype != tensors[0].dtype:
            raise ValueError(f"{api}: the tensors must share one dtype, {arg}[0] is {tensors[0].dtype.name} and "
                             f"{arg}[{k}] is {t.dtype.name}")


def cartesian_prod(x, name=None):
    """Every combination of one element from each 1-D tensor of x, one per row ([N1 * N2 * ..., len(x)]);
    a single tensor is returned as it is."""
    _same_dtype_list(x, "cartesian_prod", "x")
    for k, t in enumerate(x):
        if len(t.shape) != 1:
            raise ValueError(f"cartesian_prod: x[{k}] must be 1-D, received shape {list(t.shape)}")
    if len(x) == 1:
        return x[0]
    grids = meshgrid(*x)
    return _manip.stack([_manip.flatten(g) for g in grids], 1)


def block_diag(inputs, name=None):
    """The block-diagonal matrix with the (0-, 1- or 2-D) inputs along its diagonal."""
    _same_dtype_list(inputs, "block_diag", "inputs")
    blocks = []
    for k, t in enumerate(inputs):
        if len(t.shape) > 2:
            raise ValueError(f"block_diag: inputs[{k}] must be 0-, 1- or 2-D, received shape {list(t.shape)}")
        blocks.append(t if len(t.shape) == 2 else _manip.reshape(t, [1, -1]))
    width = sum(b.shape[1] for b in blocks)
    rows, offset = [], 0
    for b in blocks:
        left, right = offset, width - offset - b.shape[1]
        parts = ([_creation.zeros([b.shape[0], left], b.dtype)] if left else []) + [b] + \
            ([_creation.zeros([b.shape[0], right], b.dtype)] if right else [])
        rows.append(_manip.concat(parts, 1) if len(parts) > 1 else b)
        offset += b.shape[1]
    return _manip.concat(rows, 0)


__all__ = ["block_diag", "cartesian_prod", "combinations", "logspace", "range", "tril_indices", "triu_indices",
           "vander"]
TENSOR_METHODS = ["block_diag", "combinations", "vander"]
