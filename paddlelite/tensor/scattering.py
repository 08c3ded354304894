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
from .math import check_tensor_type
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
    if not isinstance(index, Tensor) or index.dtype.np.kind not in "iu":  # ValueError, as Paddle's
        raise ValueError(f"index_fill: index must be an int32 or int64 Tensor, received "
                         f"{index.dtype.name if isinstance(index, Tensor) else type(index).__name__}")
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
    check_tensor_type(x, "take")
    check_tensor_type(index, "take", "index")
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
        index = _math.where(_math.less_than(index, _creation.zeros_like(index)), index + n, index)
    flat = _manip.gather(_manip.flatten(x), _manip.flatten(index))
    return _manip.reshape(flat, list(index.shape))


def take_along_dim(arr, indices, axis, broadcast=True, *, out=None):
    """Paddle's other name for take_along_axis (`out` receives the result)."""
    return _deliver(take_along_axis(arr, indices, axis, broadcast), out)


_REDUCE_NAMES = {"assign": "assign", "add": "add", "mul": "mul", "multiply": "mul", "mean": "mean", "amin": "amin",
                 "amax": "amax"}


def _put_along(arr, indices, values, axis, reduce, include_self, broadcast, api):
    _check_tensor(arr, api, "arr")
    _check_tensor(indices, api, "indices")
    if len(arr.shape) != len(indices.shape):
        raise ValueError(f"{api}: indices must have the rank of arr ({len(arr.shape)}), received shape "
                         f"{list(indices.shape)}")
    if indices.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{api}: indices must be int32 or int64, received {indices.dtype.name}")
    if reduce not in _REDUCE_NAMES:
        raise ValueError(f"{api}: reduce must be one of {', '.join(_REDUCE_NAMES)}, received {reduce!r}")
    if not isinstance(include_self, bool):
        raise TypeError(f"{api}: include_self must be a bool, received {type(include_self).__name__}")
    axis = _int(axis, api, "axis")
    if not -len(arr.shape) <= axis < len(arr.shape):  # AssertionError, as Paddle raises
        raise AssertionError(f"{api}: axis must be in [{-len(arr.shape)}, {len(arr.shape)}), received {axis}")
    axis %= len(arr.shape)
    if not _math.is_tensor_like(values):  # a number: Paddle's default dtype (with broadcast), else arr's
        values = _creation.to_tensor(values, dtype=None if broadcast else arr.dtype)
    if broadcast:
        shape = list(arr.shape)
        shape[axis] = indices.shape[axis]
        if all(a >= i for a, i in zip(arr.shape, indices.shape)):  # Paddle broadcasts only a smaller index
            indices = _manip.broadcast_to(indices, shape) if list(indices.shape) != shape else indices
        if list(values.shape) != list(indices.shape):
            values = _manip.broadcast_to(values, list(indices.shape))
    else:
        if len(values.shape) != len(indices.shape) and int(np.prod(values.shape)) == 1:
            values = _manip.broadcast_to(values, list(indices.shape))
        if len(values.shape) != len(indices.shape):
            raise ValueError(f"{api}: indices and values must have the same rank, received shapes "
                             f"{list(indices.shape)} and {list(values.shape)}")
        for d, (a, i, v) in enumerate(zip(arr.shape, indices.shape, values.shape)):
            if (d != axis and a < i) or i > v:
                raise RuntimeError(f"{api}: indices {list(indices.shape)} must be no larger than arr "
                                   f"{list(arr.shape)} apart from axis {axis}, and no larger than values "
                                   f"{list(values.shape)} (dim {d})")
        if list(values.shape) != list(indices.shape):  # only the part the index covers is read
            values = _manip.slice(values, list(range(len(indices.shape))), [0] * len(indices.shape),
                                  list(indices.shape))
    if values.dtype != arr.dtype:
        raise ValueError(f"{api}: values must have arr's dtype {arr.dtype.name}, received {values.dtype.name}")
    return apply(_s.PUT_ALONG_AXIS, arr, indices, values, axis=axis, reduce=_REDUCE_NAMES[reduce],
                 include_self=include_self)


def put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True, broadcast=True):
    """arr with `values` put at `indices` along `axis`, combined by `reduce` ('assign' keeps the last writer;
    'add', 'mul'/'multiply', 'mean', 'amin', 'amax' reduce every writer, with arr's own element when
    include_self); with broadcast, indices and values broadcast over arr's other dims."""
    return _put_along(arr, indices, values, axis, reduce, include_self, broadcast, "put_along_axis")


def put_along_axis_(arr, indices, values, axis, reduce="assign", include_self=True, broadcast=True):
    """In-place put_along_axis: arr's storage receives the result."""
    return _manip.inplace_apply(arr, "put_along_axis_", lambda a: _put_along(
        a, indices, values, axis, reduce, include_self, broadcast, "put_along_axis_"))


_SCATTER_REDUCES = {"sum": "add", "prod": "mul", "mean": "mean", "amin": "amin", "amax": "amax"}


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """input with src[i...] reduced into index[i...] along `dim` ('sum', 'prod', 'mean', 'amin', 'amax');
    src is read over index's shape."""
    return _put_along(input, index, src, dim, _SCATTER_REDUCES.get(reduce, reduce), include_self, False,
                      "scatter_reduce")


def _index_put(x, indices, value, accumulate, api):
    _check_tensor(x, api)
    _check_tensor(value, api, "value")
    if not isinstance(indices, (list, tuple)) or not all(_math.is_tensor_like(i) for i in indices):
        raise ValueError(f"{api}: indices must be a list or tuple of Tensors, received {type(indices).__name__}")
    for k, i in enumerate(indices):
        if i.dtype.name not in ("int32", "int64", "bool"):
            raise ValueError(f"{api}: indices[{k}] must be an int32, int64 or bool Tensor, received {i.dtype.name}")
    if value.dtype != x.dtype:
        raise ValueError(f"{api}: value must have x's dtype {x.dtype.name}, received {value.dtype.name}")
    entries, tensors = _manip.parse_index(tuple(indices), api)
    if not accumulate:
        return apply(_io.SET_VALUE, x, value, tensors, index=entries)
    target = list(_io.index_shape(api, tuple(x.shape), entries, _manip._metas(tensors)))
    value = _manip.broadcast_to(value, target) if list(value.shape) != target else value
    return _math.add(x, apply(_io.GETITEM_GRAD, x, value, tensors, index=entries))


def index_put(x, indices, value, accumulate=False, name=None):
    """x with x[indices] (a tuple of int or bool Tensors, as in x[i, j]) set to value, or with value added
    when accumulate (repeated positions then add up)."""
    return _index_put(x, indices, value, accumulate, "index_put")


def index_put_(x, indices, value, accumulate=False, name=None):
    """In-place index_put."""
    return _manip.inplace_apply(x, "index_put_", lambda a: _index_put(a, indices, value, accumulate, "index_put_"))


def index_sample(x, index):
    """out[i, j] = x[i, index[i, j]] for 2-D x [N, M] and index [N, K]."""
    _check_tensor(x, "index_sample")
    _check_tensor(index, "index_sample", "index")
    for arg, t in (("x", x), ("index", index)):
        if len(t.shape) != 2:
            raise ValueError(f"index_sample: {arg} must be 2-D, received shape {list(t.shape)}")
    if index.dtype.name not in ("int32", "int64"):
        raise ValueError(f"index_sample: index must be int32 or int64, received {index.dtype.name}")
    if x.shape[0] != index.shape[0]:
        raise ValueError(f"index_sample: x and index must have as many rows, received shapes {list(x.shape)} and "
                         f"{list(index.shape)}")
    if isinstance(index, Tensor) and index.size:  # Paddle takes no negative index here
        low, high = int(index.numpy().min()), int(index.numpy().max())
        if low < 0 or high >= x.shape[1]:
            raise ValueError(f"index_sample: index values must be in [0, {x.shape[1]}), received min {low} and "
                             f"max {high}")
    return take_along_axis(x, index, 1, broadcast=False)


def multiplex(inputs, index, name=None):
    """Row i of the result is row i of inputs[index[i, 0]] (inputs: at least two tensors of one shape)."""
    if not isinstance(inputs, (list, tuple)):
        raise ValueError(f"multiplex: inputs must be a list of Tensors, received {type(inputs).__name__}")
    if len(inputs) < 2:
        raise ValueError(f"multiplex: inputs must hold at least two candidate tensors, received {len(inputs)}")
    for k, t in enumerate(inputs):  # (shape errors: RuntimeError, as Paddle's kernel raises)
        _check_tensor(t, "multiplex", f"inputs[{k}]")
        if list(t.shape) != list(inputs[0].shape):
            raise RuntimeError(f"multiplex: the inputs must share one shape, inputs[0] is {list(inputs[0].shape)} "
                               f"and inputs[{k}] is {list(t.shape)}")
    _int_index(index, "multiplex", ndims=None)
    rows, rest = index.shape[0] if index.shape else 0, list(inputs[0].shape[1:])
    if len(index.shape) != 2 or index.shape[1] != 1 or rows > inputs[0].shape[0]:
        raise RuntimeError(f"multiplex: index must have shape [N, 1] with N <= {inputs[0].shape[0]}, received "
                           f"{list(index.shape)}")
    if isinstance(index, Tensor) and index.size:
        low, high = int(index.numpy().min()), int(index.numpy().max())
        if low < 0 or high >= len(inputs):
            raise RuntimeError(f"multiplex: index values must be in [0, {len(inputs)}) (the number of candidates), "
                               f"received min {low} and max {high}")
    stacked = _manip.stack(list(inputs), 0)
    if rows != inputs[0].shape[0]:
        stacked = _manip.slice(stacked, [1], [0], [rows])
    picks = _manip.broadcast_to(_manip.reshape(index, [1, rows] + [1] * len(rest)), [1, rows] + rest)
    return _manip.squeeze(take_along_axis(stacked, picks.astype("int64"), 0, broadcast=False), 0)


def shard_index(input, index_num, nshards, shard_id, ignore_value=-1):
    """Each index of [0, index_num) mapped into shard `shard_id` of `nshards` equal shards: its offset in the
    shard when it falls there, else ignore_value."""
    _check_tensor(input, "shard_index", "input")
    if input.dtype.name not in ("int32", "int64"):
        raise TypeError(f"shard_index: input must be int32 or int64, received {input.dtype.name}")
    if len(input.shape) < 2:
        raise ValueError(f"shard_index: input must have at least 2 dimensions, received shape {list(input.shape)}")
    index_num, nshards, shard_id = (_int(v, "shard_index", a) for v, a in
                                    ((index_num, "index_num"), (nshards, "nshards"), (shard_id, "shard_id")))
    if nshards <= 0 or not 0 <= shard_id < nshards:
        raise ValueError(f"shard_index: shard_id must be in [0, nshards) with nshards > 0, received shard_id "
                         f"{shard_id} and nshards {nshards}")
    if isinstance(input, Tensor) and input.size:
        values = input.numpy()
        if values.min() < 0 or values.max() >= index_num:
            raise ValueError(f"shard_index: input values must be in [0, index_num={index_num}), received min "
                             f"{values.min()} and max {values.max()}")
    size = (index_num + nshards - 1) // nshards
    in_shard = _math.equal(_math.floor_divide(input, _creation.full_like(input, size)),
                           _creation.full_like(input, shard_id))
    return _math.where(in_shard, _math.remainder(input, _creation.full_like(input, size)),
                       _creation.full_like(input, ignore_value))


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
    """In-place where: x becomes where(condition, x, y); both x and y are needed, and Tensors (ValueError, as Paddle's:
    the out-of-place where takes numbers, or neither)."""
    if x is None or y is None or np.isscalar(x) or np.isscalar(y):
        raise ValueError(f"where_: x and y must both be given, as Tensors, received {type(x).__name__} and "
                         f"{type(y).__name__}")
    return _manip.inplace_apply(x, "where_", lambda a: _math.where(condition, a, y))


__all__ = ["diagonal_scatter", "index_add", "index_fill", "index_put", "index_put_", "index_sample",
           "masked_scatter", "multiplex", "put_along_axis", "scatter_add", "scatter_nd", "scatter_nd_add",
           "scatter_reduce", "select_scatter", "shard_index", "slice_scatter", "take", "take_along_dim", "where_"]
TENSOR_METHODS = [*__all__, "put_along_axis_"]  # paddle.put_along_axis_ is a Tensor method only
