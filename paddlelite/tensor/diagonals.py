"""Paddle's diagonal APIs -- diagonal (a view, op 'diagonal'), diag, diag_embed, diagflat (gathers into the
flattened matrix dims) -- registered ops only, so gradients and static mode come with them."""
import numpy as np

from ..ops import manipulation as _mo
from ..ops.dispatch import apply
from . import creation as _creation
from . import manipulation as _manip
from .manipulation import _check_tensor, _int
from .stacking import moveaxis


def _dim(value, ndim, api, arg):
    value = _int(value, api, arg)
    if not -ndim <= value < ndim:
        raise ValueError(f"{api}: {arg} must be in [{-ndim}, {ndim}), received {value}")
    return value % ndim


def _diagonal_positions(rows, cols, offset):
    """Flat positions (row * cols + col) of the `offset` diagonal of a rows x cols matrix."""
    i = np.arange(_mo.diagonal_length(rows, cols, offset), dtype=np.int64)
    return (i + max(-offset, 0)) * cols + i + max(offset, 0)


def diagonal(x, offset=0, axis1=0, axis2=1, name=None):
    """The `offset` diagonal of the matrices in dims (axis1, axis2), as x's last dim: a view of x (Paddle 3), so
    writes through it reach x."""
    _check_tensor(x, "diagonal")
    ndim = len(x.shape)
    if ndim < 2:
        raise ValueError(f"diagonal: x must be at least 2-D, received shape {list(x.shape)}")
    a1, a2 = _dim(axis1, ndim, "diagonal", "axis1"), _dim(axis2, ndim, "diagonal", "axis2")
    if a1 == a2:
        raise ValueError(f"diagonal: axis1 and axis2 must differ, received {axis1} and {axis2}")
    return apply(_mo.DIAGONAL, x, offset=_int(offset, "diagonal", "offset"), axis1=a1, axis2=a2)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Matrices in dims (dim1, dim2) with input's last dim on their `offset` diagonal, zeros elsewhere."""
    _check_tensor(input, "diag_embed", "input")
    ndim = len(input.shape) + 1
    d1, d2 = _dim(dim1, ndim, "diag_embed", "dim1"), _dim(dim2, ndim, "diag_embed", "dim2")
    if d1 == d2:
        raise ValueError(f"diag_embed: dim1 and dim2 must differ, received {dim1} and {dim2}")
    offset = _int(offset, "diag_embed", "offset")
    length = input.shape[-1] if input.shape else 1
    n = length + abs(offset)
    x = input if input.shape else _manip.reshape(input, [1])
    # a gather from x with a zero appended, not a one-hot matmul: inf and NaN stay on the diagonal
    padded = _manip.concat([x, _creation.zeros(list(x.shape[:-1]) + [1], x.dtype)], axis=-1)
    index = np.full(n * n, length, dtype=np.int64)
    index[_diagonal_positions(n, n, offset)] = np.arange(length)
    flat = _manip.gather(padded, _creation.assign(index), axis=len(x.shape) - 1)
    out = _manip.reshape(flat, list(x.shape[:-1]) + [n, n])
    return moveaxis(out, [-2, -1], [d1, d2])


def diag(x, offset=0, padding_value=0, name=None):
    """1-D x: the square matrix with x on its `offset` diagonal (padding_value elsewhere); 2-D x: that diagonal
    (a copy, unlike diagonal). Op 'diag' (Paddle's diag_v2); a 0-D x counts as 1-D."""
    _check_tensor(x, "diag")
    offset = _int(offset, "diag", "offset")
    if len(x.shape) > 2:
        raise ValueError(f"diag: x must be 0-D, 1-D or 2-D, received shape {list(x.shape)}")
    if not x.shape:
        x = _manip.reshape(x, [1])
    return apply(_mo.DIAG, x, offset=offset, padding_value=float(padding_value))


def diagflat(x, offset=0, name=None):
    """The square matrix with flattened x on its `offset` diagonal."""
    _check_tensor(x, "diagflat")
    return diag_embed(_manip.flatten(x), offset)


__all__ = ["diag", "diag_embed", "diagflat", "diagonal"]
TENSOR_METHODS = list(__all__)
