"""Paddle's index-add and scatter APIs (index_add, index_fill, scatter_add, scatter_nd(_add), slice/select/
diagonal/masked_scatter, where_) and take / take_along_dim, built on registered ops: the gathers, set_value
and the gathers' scatter-add grad ops (whose own gradients are gathers, so every input gets its gradient)."""
import numpy as np

from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops import indexing as _io
from ..ops import search as _s
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from . import reduce as _reduce
from .aliases import _deliver
from .diagonals import _diagonal_positions, diagonal
from .creation import _shape_list
from .manipulation import _check_tensor, _int, _int_index, _int_list
from .search import take_along_axis

apply = dispatch.apply


def _axis(x, axis, api):
    axis = _int(axis, api, "axis")
    ndim = max(len(x.shape), 1)
    if not -ndim <= axis < ndim:
        raise ValueError(f"{api}: axis must be in [{-ndim}, {ndim}), received {axis}")
    return axis % ndim


def index_add(x, index, axis, value, alpha=1, name=None, *, out=None):
    """x with alpha * value added at `index` along `axis` (repeated indices accumulate)."""
    _check_tensor(x, "index_add")
    _check_tensor(value, "index_add", "value")
    _int_index(index, "index_add", ndims=(1,))
    axis = _axis(x, axis, "index_add")
    added = apply(_io.GATHER_GRAD, x, index, value, axis=axis)
    return _deliver(_math.add(x, added if alpha == 1 else _math.scale(added, float(alpha))), out)


def index_fill(x, index, axis, value, name=None):
    """x with the slices at `index` along `axis` set to `value`."""
    _check_tensor(x, "index_fill")
    _int_index(index, "index_fill", ndims=(1,))
    axis = _axis(x, axis, "index_fill")
    picked = apply(_io.GATHER_GRAD, x, index, _manip.gather(_creation.ones_like(x), index, axis), axis=axis)
    return _math.where(_math.greater_than(picked, _creation.zeros_like(picked)), _creation.full_like(x, value), x)


def scatter_add(input, dim, index, src):
    """input with src[i...] added at index[i...] along `dim` (src read over index's shape)."""
    _check_tensor(input, "scatter_add", "input")
    _check_tensor(src, "scatter_add", "src")
    _check_tensor(index, "scatter_add", "index")
    dim = _axis(input, dim, "scatter_add")
    if list(src.shape) != list(index.shape):
        src = _manip.slice(src, list(range(len(index.shape))), [0] * len(index.shape), list(index.shape))
    return _math.add(input, apply(_s.TAKE_ALONG_AXIS_GRAD, input, index, src, axis=dim))


def scatter_nd_add(x, index, updates, name=None):
    """x with updates added at the n-d positions index[..., :] (repeated positions accumulate)."""
    _check_tensor(x, "scatter_nd_add")
    _check_tensor(updates, "scatter_nd_add", "updates")
    _int_index(index, "scatter_nd_add", ndims=None)
    return _math.add(x, apply(_io.GATHER_ND_GRAD, x, index, updates))


def scatter_nd(index, updates, shape, name=None):
    """Zeros of `shape` with updates added at the n-d positions index[..., :]."""
    _check_tensor(updates, "scatter_nd", "updates")
    _int_index(index, "scatter_nd", ndims=None)
    zeros = _creation.zeros(_shape_list(shape, "scatter_nd"), updates.dtype)
    return apply(_io.GATHER_ND_GRAD, zeros, index, updates)


def take(x, index, mode="raise", name=None):
    """The elements of flattened x at `index` (shaped like index); mode: 'raise' (negative counts from the
    end, out of range raises), 'wrap' (modulo) or 'clip' (to the ends)."""
    _check_tensor(x, "take")
    _int_index(index, "take", ndims=None)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"take: mode must be 'raise', 'wrap' or 'clip', received {mode!r}")
    n = int(np.prod(x.shape))
    if mode == "raise" and isinstance(index, Tensor):
        values = index.numpy()
        if values.size and (values.min() < -n or values.max() >= n):
            raise ValueError(f"take: index values must be in [{-n}, {n}), received min {values.min()} and max "
                             f"{values.max()}")
    if mode == "wrap":
        index = _math.remainder(index, n)
    elif mode == "clip":
        index = _math.clip(index, 0, n - 1)
    else:
        index = _math.where(_math.less_than(index, _creation.zeros_like(index)), _math.add(index, n), index)
    flat = _manip.gather(_manip.flatten(x), _manip.flatten(index))
    return _manip.reshape(flat, list(index.shape))


def take_along_dim(arr, indices, axis, broadcast=True, *, out=None):
    """Paddle's other name for take_along_axis (`out` receives the result)."""
    return _deliver(take_along_axis(arr, indices, axis, broadcast), out)




def _set(x, index, value, api):
    """x with x[index] replaced by value, out of place (op 'set_value': value gets the indexed gradient)."""
    entries, tensors = _manip.parse_index(index, api)
    return apply(_io.SET_VALUE, x, value.astype(x.dtype) if value.dtype != x.dtype else value, tensors,
                 index=entries)


def slice_scatter(x, value, axes, starts, ends, strides, name=None):
    """x with the strided slice (axes, starts, ends, strides) replaced by value."""
    _check_tensor(x, "slice_scatter")
    _check_tensor(value, "slice_scatter", "value")
    axes, starts, ends, strides = (_int_list(v, "slice_scatter", arg) for v, arg in
                                   ((axes, "axes"), (starts, "starts"), (ends, "ends"), (strides, "strides")))
    if not len(axes) == len(starts) == len(ends) == len(strides):
        raise ValueError(f"slice_scatter: axes, starts, ends and strides must be as long, received {axes}, "
                         f"{starts}, {ends}, {strides}")
    index = [slice(None)] * len(x.shape)
    for a, s, e, st in zip(axes, starts, ends, strides):
        index[_axis(x, a, "slice_scatter")] = slice(s, e, st)
    return _set(x, tuple(index), value, "slice_scatter")


def select_scatter(x, values, axis, index, name=None):
    """x with the slice at `index` along `axis` replaced by values (x's shape without that dim)."""
    _check_tensor(x, "select_scatter")
    _check_tensor(values, "select_scatter", "values")
    axis = _axis(x, axis, "select_scatter")
    index = _int(index, "select_scatter", "index")
    if not -x.shape[axis] <= index < x.shape[axis]:
        raise IndexError(f"select_scatter: index {index} is out of range for axis {axis} of size {x.shape[axis]}")
    where = [slice(None)] * len(x.shape)
    where[axis] = index
    return _set(x, tuple(where), values, "select_scatter")


def diagonal_scatter(x, y, offset=0, axis1=0, axis2=1, name=None):
    """x with its `offset` diagonal in dims (axis1, axis2) replaced by y (shaped like paddle.diagonal's result)."""
    _check_tensor(x, "diagonal_scatter")
    _check_tensor(y, "diagonal_scatter", "y")
    target = diagonal(x, offset, axis1, axis2)
    if list(target.shape) != list(y.shape):
        raise ValueError(f"diagonal_scatter: y must have the diagonal's shape {list(target.shape)}, received "
                         f"{list(y.shape)}")
    ndim = len(x.shape)
    a1, a2 = _axis(x, axis1, "diagonal_scatter"), _axis(x, axis2, "diagonal_scatter")
    others = [d for d in range(ndim) if d not in (a1, a2)]
    rows, cols = x.shape[a1], x.shape[a2]
    perm = others + [a1, a2]
    flat = _manip.reshape(_manip.transpose(x, perm), [x.shape[d] for d in others] + [rows * cols])
    positions = _creation.assign(_diagonal_positions(rows, cols, _int(offset, "diagonal_scatter", "offset")))
    placed = apply(_io.GATHER_GRAD, flat, positions, y.astype(x.dtype), axis=len(others))
    on_diagonal = apply(_io.GATHER_GRAD, flat, positions, _creation.ones_like(y.astype(x.dtype)), axis=len(others))
    merged = _math.where(_manip.cast(on_diagonal, "bool"), placed, flat)
    inverse = [perm.index(d) for d in range(ndim)]
    return _manip.transpose(_manip.reshape(merged, [x.shape[d] for d in perm]), inverse)


def masked_scatter(x, mask, value, name=None):
    """x with the positions where mask (broadcast to x) is True filled, in order, from value's elements."""
    _check_tensor(x, "masked_scatter")
    _check_tensor(mask, "masked_scatter", "mask")
    _check_tensor(value, "masked_scatter", "value")
    if mask.dtype.name != "bool":
        raise TypeError(f"masked_scatter: mask must be a bool Tensor, received {mask.dtype.name}")
    mask = _manip.broadcast_to(mask, list(x.shape)) if list(mask.shape) != list(x.shape) else mask
    if isinstance(mask, Tensor):
        needed = int(mask.numpy().sum())
        if needed > int(np.prod(value.shape)):
            raise ValueError(f"masked_scatter: mask selects {needed} elements but value has only "
                             f"{int(np.prod(value.shape))}")
    order = _math.subtract(_manip.reshape(_reduce.cumsum(_manip.cast(mask, "int64")), list(x.shape)),
                           _creation.ones_like(_manip.cast(mask, "int64")))
    order = _math.clip(order, 0, max(int(np.prod(value.shape)) - 1, 0))
    picked = _manip.reshape(_manip.gather(_manip.flatten(value), _manip.flatten(order)), list(x.shape))
    return _math.where(mask, picked.astype(x.dtype), x)


def where_(condition, x=None, y=None, name=None):
    """In-place where: x becomes where(condition, x, y)."""
    return _manip.inplace_apply(x, "where_", lambda a: _math.where(condition, a, y))


__all__ = ["diagonal_scatter", "index_add", "index_fill", "masked_scatter", "scatter_add", "scatter_nd",
           "scatter_nd_add", "select_scatter", "slice_scatter", "take", "take_along_dim", "where_"]
TENSOR_METHODS = list(__all__)
