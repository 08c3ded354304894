"""Manipulation APIs: cast, reshape, transpose, squeeze/unsqueeze, concat/split, indexing, ..."""
import builtins
import numbers

import numpy as np

from ..framework import user_warnings as _user_warnings
from ..framework import dtype as _dtype
from ..framework.mode import in_static_mode, grad_state as _grad_state
from ..framework.tensor import Tensor, new_version_counter, share_storage, wrap_array
from ..ops import dispatch
from ..ops import grad_support as _gs
from ..ops import indexing as _io
from ..ops import manipulation as _mo
from .math import _check_tensor, _int, is_tensor_like  # noqa: F401  (_int: imported from here too)
from ..static.appender import layer_name_guard, op_helper_name
from .tensor_args import holds_tensors, placeholders, plain_ints, tensor_argument, tensor_list

apply = dispatch.apply


def cast(x, dtype):
    """x converted to `dtype`: always a new tensor, even in x's own dtype (as Paddle's cast op; `x.astype` to the
    same dtype returns x itself)."""
    _check_tensor(x, "cast")
    return apply(_mo.CAST, x, dtype=_dtype.convert_dtype(dtype, "cast").name)


def reshape(x, shape, name=None):
    """x with `shape`: a list of ints (0 copies x's dim, -1 infers one), a 1-D int Tensor, or a list holding
    Tensors (one element each), whose values the op reads when it runs."""
    _check_tensor(x, "reshape")
    tensors, shape = _ints_or_tensors(shape, "reshape", "shape", tensor_attr=[])
    return apply(_mo.RESHAPE, x, *tensors, shape=shape)


def transpose(x=None, perm=None, name=None, *, input=None, dim0=None, dim1=None, axis0=None, axis1=None):
    """x with its dims in the order `perm`; also PyTorch's form, as Paddle 3.3 takes it: `transpose(x, dim0, dim1)`
    (or dim0=/dim1=, axis0=/axis1=, input=) swaps two dims."""
    x = input if x is None else x
    if not isinstance(perm, (list, tuple)):  # torch's dims: positional ones arrive as perm and name
        dim0 = next((d for d in (dim0, axis0, perm) if d is not None), None)
        dim1 = next((d for d in (dim1, axis1, name) if d is not None), None)
        if isinstance(dim0, int) and isinstance(dim1, int):
            perm = list(range(len(x.shape)))
            perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
    _check_tensor(x, "transpose")
    if not isinstance(perm, (list, tuple)) or len(perm) != len(x.shape):
        raise ValueError(f"transpose: perm must list each of the {len(x.shape)} dims once, received {perm!r}")
    return apply(_mo.TRANSPOSE, x, perm=_int_list(perm, "transpose", "perm", allow_int=False))


def unsqueeze(x, axis, name=None):
    _check_tensor(x, "unsqueeze")
    return apply(_mo.UNSQUEEZE, x, axis=_int_list(axis, "unsqueeze", "axis"))


# ---- argument helpers -----------------------------------------------------------------------------
def _int_list(value, api, arg, allow_int=True):
    if isinstance(value, Tensor) and value._data.dtype.kind in "iu" and value._data.ndim <= 1:
        return [int(v) for v in value.numpy().reshape(-1)]
    if isinstance(value, (list, tuple)):
        return [_int(v, api, f"{arg}[{k}]") for k, v in enumerate(value)]
    if allow_int:
        return [_int(value, api, arg)]
    raise TypeError(f"{api}: {arg} must be a list or tuple of ints, received {type(value).__name__}")


def _ints_or_tensors(value, api, arg, tensor_attr, placeholder=-1):
    """(tensor inputs, attr) of an int-list argument Paddle's op also takes as a 1-D int tensor or as a list holding
    tensors: ((), the ints) for plain ints (the op's tensor inputs left out); ((tensor,), `tensor_attr`) for a
    tensor; ((None, one tensor per entry), the ints with `placeholder` where a tensor gives the entry) for a list."""
    ints = plain_ints(value)
    if ints is not None:
        return (), ints
    if is_tensor_like(value):
        return (tensor_argument(value, api, arg),), tensor_attr
    if holds_tensors(value):
        return (None, tensor_list(value, api, arg)), placeholders(value, placeholder)
    return (), _int_list(value, api, arg, allow_int=False)


def _tensor_list(x, api, arg="x"):
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"{api}: {arg} must be a list or tuple of Tensors, received {type(x).__name__}")
    if not x:
        raise ValueError(f"{api}: {arg} must hold at least one Tensor, received an empty {type(x).__name__}")
    for k, t in enumerate(x):
        _check_tensor(t, api, f"{arg}[{k}]")
    return list(x)


def _int_index(index, api, arg="index", ndims=(0, 1)):
    _check_tensor(index, api, arg)
    if index.dtype.np.kind not in "iu":
        raise TypeError(f"{api}: {arg} must be an int32 or int64 Tensor, received {index.dtype.name}")
    if ndims is not None and len(index.shape) not in ndims:
        raise ValueError(f"{api}: {arg} must be {' or '.join(f'{n}-D' for n in ndims)}, received shape "
                         f"{index.shape}")


# ---- shape ops ------------------------------------------------------------------------------------
def squeeze(x, axis=None, name=None):
    _check_tensor(x, "squeeze")
    axes = [] if axis is None else _int_list(axis, "squeeze", "axis")
    return apply(_mo.SQUEEZE, x, axis=axes)


def flatten(x, start_axis=0, stop_axis=-1, name=None):
    _check_tensor(x, "flatten")
    return apply(_mo.FLATTEN, x, start_axis=_int(start_axis, "flatten", "start_axis"),
                 stop_axis=_int(stop_axis, "flatten", "stop_axis"))


def concat(x, axis=0, name=None):
    xs = _tensor_list(x, "concat")
    return apply(_mo.CONCAT, xs, axis=_int(axis, "concat", "axis"))


def stack(x, axis=0, name=None):
    xs = _tensor_list(x, "stack")
    return apply(_mo.STACK, xs, axis=_int(axis, "stack", "axis"))


def unstack(x, axis=0, num=None):
    _check_tensor(x, "unstack")
    axis = _int(axis, "unstack", "axis")
    if num is None:  # Paddle's API records the dim's size (0: unknown, which the op then refuses)
        num = max(x.shape[axis], 0) if -len(x.shape) <= axis < len(x.shape) else 0
    return apply(_mo.UNSTACK, x, axis=axis, num=_int(num, "unstack", "num"))


def shape(input):
    """The dims of input as an int32 Tensor of shape [rank] (-1 dims resolve at run time in static mode)."""
    _check_tensor(input, "shape", "input")
    return apply(_mo.SHAPE, input)


def numel(x, name=None):
    """The number of elements of x as an int64 0-D Tensor."""
    _check_tensor(x, "numel")
    return apply(_mo.SIZE, x)


def unbind(input, axis=0):
    """The slices of input along axis, that dim removed: views of input (unstack's are copies)."""
    _check_tensor(input, "unbind", "input")
    return apply(_mo.UNBIND, input, axis=_int(axis, "unbind", "axis"))


# ---- explicit views ---------------------------------------------------------------------------------
def as_strided(x, shape, stride, offset=0, name=None):
    """A view of x's storage with the given shape and element strides, starting `offset` bytes from the
    storage's first element (Paddle's convention: Tensor.offset is in bytes too)."""
    _check_tensor(x, "as_strided")
    return apply(_mo.AS_STRIDED, x, dims=_int_list(shape, "as_strided", "shape"),
                 stride=_int_list(stride, "as_strided", "stride"), offset=_int(offset, "as_strided", "offset"))


def view(x, shape_or_dtype, name=None):
    """x's storage seen with another shape (x must be contiguous) or reinterpreted as another dtype."""
    _check_tensor(x, "view")
    if isinstance(shape_or_dtype, (list, tuple)):
        if isinstance(x, Tensor) and not x.is_contiguous():
            raise ValueError(f"view: the tensor (shape {x.shape}, strides {x.strides}) is not contiguous, so it "
                             "cannot be viewed with another shape; call reshape() (which copies) instead")
        return reshape(x, shape_or_dtype)
    return apply(_mo.VIEW_DTYPE, x, dtype=_dtype.convert_dtype(shape_or_dtype).name)


def view_as(x, other, name=None):
    _check_tensor(other, "view_as", "other")
    return view(x, other.shape)


def contiguous(x):
    """x itself viewed again when it is contiguous, else a contiguous copy."""
    _check_tensor(x, "contiguous")
    if x.is_contiguous():
        return reshape(x, x.shape)
    return apply(_gs.ASSIGN, x)


def _tril_triu(x, diagonal, lower, api):
    _check_tensor(x, api)
    if len(x.shape) < 2:
        raise ValueError(f"{api}: x must be at least 2-D, received shape {list(x.shape)}")
    return apply(_mo.TRIL_TRIU, x, diagonal=_int(diagonal, api, "diagonal"), lower=lower)


def tril(x, diagonal=0, name=None):
    """The lower triangle (on and below `diagonal`) of the last two dims; the rest is zero."""
    return _tril_triu(x, diagonal, True, "tril")


def triu(x, diagonal=0, name=None):
    """The upper triangle (on and above `diagonal`) of the last two dims; the rest is zero."""
    return _tril_triu(x, diagonal, False, "triu")


def split(x, num_or_sections, axis=0, name=None):
    _check_tensor(x, "split")
    axis = _int(axis, "split", "axis")
    if isinstance(num_or_sections, (list, tuple)):
        sections = _int_list(num_or_sections, "split", "num_or_sections")
        return apply(_mo.SPLIT, x, num=0, sections=sections, axis=axis)
    num = _int(num_or_sections, "split", "num_or_sections")
    if num <= 0:
        raise ValueError(f"split: num_or_sections must be > 0 when it is an int, received {num}")
    return apply(_mo.SPLIT, x, num=num, sections=[], axis=axis)


def chunk(x, chunks, axis=0, name=None):
    _check_tensor(x, "chunk")
    chunks = _int(chunks, "chunk", "chunks")
    if chunks <= 0:
        raise ValueError(f"chunk: chunks must be > 0, received {chunks}")
    return split(x, chunks, axis)


def slice(input, axes, starts, ends):
    """input[starts:ends] along `axes`; starts / ends: lists of ints, 1-D int Tensors, or lists holding Tensors."""
    _check_tensor(input, "slice", "input")
    axes = _int_list(axes, "slice", "axes")
    flags = [1] * len(axes)
    (st, sl, starts), (et, el, ends) = (_slice_bounds(v, "slice", arg, flags, True)
                                        for arg, v in (("starts", starts), ("ends", ends)))
    return apply(_mo.SLICE, input, sl, el, st, et, axes=axes, starts=starts, ends=ends, infer_flags=flags)


def strided_slice(x, axes, starts, ends, strides, name=None):
    """x[starts:ends:strides] along `axes`; each a list of ints, a 1-D int Tensor, or a list holding Tensors
    (whose int entries become int32 constants named by the op's helper, as Paddle's)."""
    _check_tensor(x, "strided_slice")
    axes = _int_list(axes, "strided_slice", "axes")
    flags = [1] * len(axes)
    mixed = any(holds_tensors(v) for v in (starts, ends, strides))
    helper = op_helper_name("strided_slice") if mixed else None
    with layer_name_guard(helper):
        (st, sl, starts), (et, el, ends), (tt, tl, strides) = (
            _slice_bounds(v, "strided_slice", arg, flags, False, into_helper=True)
            for arg, v in (("starts", starts), ("ends", ends), ("strides", strides)))
        return apply(_mo.STRIDED_SLICE, x, sl, el, st, et, tt, tl, axes=axes, starts=starts, ends=ends,
                     strides=strides, infer_flags=flags)


def _slice_bounds(value, api, arg, flags, whole_unknown, into_helper=False):
    """(1-D tensor, list of tensors, attr) of slice bounds, as Paddle's static slice APIs pass them: a tensor's
    attr is [] (and, `whole_unknown`, every infer flag -1); a list holding tensors has -1 there, flagged -1."""
    ints = plain_ints(value)
    if ints is not None:
        return None, None, ints
    if is_tensor_like(value):
        if whole_unknown:
            flags[:] = [-1] * len(flags)
        return tensor_argument(value, api, arg), None, []
    if holds_tensors(value):
        for i, v in enumerate(value):
            if is_tensor_like(v):
                flags[i] = -1
        return None, tensor_list(value, api, arg, into_helper=into_helper), placeholders(value)
    return None, None, _int_list(value, api, arg)


def expand(x, shape, name=None):
    """x broadcast to `shape` (-1 keeps a dim): a list of ints, a 1-D int Tensor or a list holding Tensors."""
    _check_tensor(x, "expand")
    return _expand(x, shape, "expand")


def broadcast_to(x, shape, name=None):
    _check_tensor(x, "broadcast_to")
    return _expand(x, shape, "broadcast_to")


def _expand(x, shape, api):
    if in_static_mode() and holds_tensors(shape):  # Paddle's static API asserts each entry's numel() == 1: ops it keeps
        for v in shape:
            if is_tensor_like(v):
                numel(v) == 1  # noqa: B015
    tensors, shape = _ints_or_tensors(shape, api, "shape", tensor_attr=[], placeholder=-2)
    return apply(_mo.EXPAND, x, *tensors, shape=shape)


def expand_as(x, y, name=None):
    _check_tensor(x, "expand_as")
    _check_tensor(y, "expand_as", "y")
    return apply(_gs.EXPAND_AS, x, y)


def tile(x, repeat_times, name=None):
    _check_tensor(x, "tile")
    tensors, reps = _ints_or_tensors(repeat_times, "tile", "repeat_times", tensor_attr=[-1])
    return apply(_mo.TILE, x, *tensors, repeat_times=reps)


def flip(x, axis, name=None):
    _check_tensor(x, "flip")
    return apply(_mo.FLIP, x, axis=_int_list(axis, "flip", "axis"))


def roll(x, shifts, axis=None, name=None):
    _check_tensor(x, "roll")
    return apply(_mo.ROLL, x, shifts=_int_list(shifts, "roll", "shifts"),
                 axis=[] if axis is None else _int_list(axis, "roll", "axis"))


def repeat_interleave(x, repeats, axis=None, name=None, *, output_size=None):
    """Each element (along `axis`, or of the flattened x) `repeats` times: an int, or a 1-D int Tensor of a count
    per element. `output_size` (Paddle's hint of the result's length) is checked against the result."""
    api = "repeat_interleave"
    _check_tensor(x, api)
    axis = None if axis is None else _int(axis, api, "axis")
    if is_tensor_like(repeats):
        out = apply(_mo.REPEAT_INTERLEAVE, x, tensor_argument(repeats, api, "repeats"), axis=axis)
    else:
        repeats = _int(repeats, api, "repeats")
        if repeats < 0:
            raise ValueError(f"{api}: repeats must be >= 0, received {repeats}")
        out = apply(_mo.REPEAT_INTERLEAVE, x, repeats=repeats, axis=axis)
    if output_size is not None and isinstance(out, Tensor) and out.shape[0 if axis is None else axis] != output_size:
        raise ValueError(f"{api}: output_size {output_size} does not match the result's length "
                         f"{out.shape[0 if axis is None else axis]}")
    return out


def pad(x, pad, value=0.0, name=None):
    """Constant padding; `pad` lists (before, after) per dim, for every dim of x, first dim first."""
    _check_tensor(x, "pad")
    pads = _int_list(pad, "pad", "pad", allow_int=False)
    return apply(_mo.PAD, x, paddings=pads, pad_value=float(value))


def one_hot(x, num_classes, name=None):
    _check_tensor(x, "one_hot")
    if x.dtype.np.kind not in "iu":
        raise TypeError(f"one_hot: x must be an int32 or int64 Tensor, received {x.dtype.name}")
    return apply(_mo.ONE_HOT, x, depth=_int(num_classes, "one_hot", "num_classes"))


# ---- gather / scatter -----------------------------------------------------------------------------
def gather(x, index, axis=None, name=None):
    _check_tensor(x, "gather")
    _int_index(index, "gather")
    return apply(_io.GATHER, x, index, axis=0 if axis is None else _int(axis, "gather", "axis"))


def index_select(x, index, axis=0, name=None):
    _check_tensor(x, "index_select")
    _int_index(index, "index_select", ndims=(1,))
    return apply(_io.INDEX_SELECT, x, index, dim=_int(axis, "index_select", "axis"))


def gather_nd(x, index, name=None):
    _check_tensor(x, "gather_nd")
    _int_index(index, "gather_nd", ndims=None)
    return apply(_io.GATHER_ND, x, index)


def scatter(x, index, updates, overwrite=True, name=None):
    """x with its rows at `index` replaced by (or, without overwrite, summed from) `updates`; a 0-D index names one
    row, updates being that row (x.shape[1:]), as in Paddle."""
    _check_tensor(x, "scatter")
    _check_tensor(updates, "scatter", "updates")
    _int_index(index, "scatter", ndims=(0, 1))
    if len(index.shape) == 0:
        if len(updates.shape) != len(x.shape) - 1:
            raise ValueError(f"scatter: with a 0-D index, updates must be one row of x (shape {list(x.shape[1:])}), "
                             f"received shape {list(updates.shape)}")
        index, updates = unsqueeze(index, 0), unsqueeze(updates, 0)
    return apply(_io.SCATTER, x, index, updates, overwrite=bool(overwrite))


def masked_select(x, mask, name=None):
    _check_tensor(x, "masked_select")
    _check_tensor(mask, "masked_select", "mask")
    if mask.dtype.np != np.bool_:
        raise TypeError(f"masked_select: mask must be a bool Tensor, received {mask.dtype.name}")
    if mask.shape != x.shape:
        x = broadcast_to(x, _broadcast_shape(x.shape, mask.shape, "masked_select"))
        mask = broadcast_to(mask, x.shape)
    return apply(_io.MASKED_SELECT, x, mask)


def _broadcast_shape(a, b, api):
    from ..ops.shape_rules import broadcast_shapes
    return list(broadcast_shapes(api, tuple(a), tuple(b), names=("x", "mask")))


# ---- x[index] and x[index] = value ----------------------------------------------------------------
def _slice_part(v, api):
    return None if v is None else _int(v, api, "a slice bound")


def parse_index(index, api="Tensor.__getitem__"):
    """A Python index -> (plain-data entries for the getitem/set_value attr, the index tensors)."""
    items = index if isinstance(index, tuple) else (index,)
    entries, tensors = [], []
    for item in items:
        if item is None:
            entries.append(["none"])
        elif item is Ellipsis:
            entries.append(["ellipsis"])
        elif isinstance(item, (bool, np.bool_)):
            raise TypeError(f"{api}: a bare bool cannot be an index; use a bool Tensor mask")
        elif isinstance(item, (int, np.integer)):
            entries.append(["int", int(item)])
        elif isinstance(item, builtins.slice):
            step = _slice_part(item.step, api)
            if step == 0:
                raise ValueError(f"{api}: slice step cannot be zero")
            entries.append(["slice", _slice_part(item.start, api), _slice_part(item.stop, api), step])
        elif is_tensor_like(item):
            if item.dtype.np.kind not in "iub":
                raise TypeError(f"{api}: a Tensor index must be int or bool, received {item.dtype.name}")
            entries.append(["tensor", len(tensors)])
            tensors.append(item)
        elif isinstance(item, (list, tuple, np.ndarray)):
            if any(is_tensor_like(e) for e in (item if not isinstance(item, np.ndarray) else ())):
                item = [int(e) if is_tensor_like(e) else e for e in item]
            arr = np.asarray(item)
            if arr.size and arr.dtype.kind not in "iub":
                raise TypeError(f"{api}: a list index must hold ints or bools, received {item!r}")
            entries.append(["list", arr.tolist()])
        else:
            raise TypeError(f"{api}: unsupported index of type {type(item).__name__}; use ints, slices, None, "
                            "..., lists or int/bool Tensors")
    return entries, tensors


def getitem(x, index):
    if getattr(x, "_is_variable", False):
        from .static_index import getitem_static
        return getitem_static(x, index)
    entries, tensors = parse_index(index)
    return apply(_io.GETITEM, x, tensors, index=entries)


def _metas(tensors):
    from ..ops.registry import Meta
    return [Meta(tuple(t.shape), t.dtype.np) for t in tensors]


def _value_tensor(x, value, api):
    """The assigned value as a Tensor of x's dtype on x's place."""
    if is_tensor_like(value):
        return value if value.dtype == x.dtype else cast(value, x.dtype)
    if isinstance(value, (numbers.Number, np.number, np.bool_, list, tuple, np.ndarray)):
        arr = np.asarray(value)
        if arr.dtype.kind not in "biufc":
            raise TypeError(f"{api}: value must be a number, a list of numbers, an array or a Tensor, "
                            f"received {value!r}")
        return Tensor(arr.astype(x.dtype.np), place=x.place)
    raise TypeError(f"{api}: value must be a Tensor, a number or an array, received {type(value).__name__}")


def setitem(x, index, value):
    """x[index] = value: Paddle's set_value op, its result written into x's storage."""
    api = "Tensor.__setitem__"
    if not isinstance(x, Tensor):  # Paddle's static Variables refuse it too, with a RuntimeError
        raise RuntimeError(f"{api}: in static mode, x[indices] = values should not be used (a program cannot "
                           "rebind a variable in place); build the new value out of place, e.g. with "
                           "paddle.concat/paddle.scatter or a where-style mask")
    entries, tensors = parse_index(index, api)
    value = _value_tensor(x, value, api)
    target = _io.index_shape("set_value", tuple(x.shape), entries, _metas(tensors))
    extra = len(value.shape) - len(target)
    if extra > 0:  # leading 1-dims beyond the indexed part (NumPy allows them): drop them
        if any(d != 1 for d in value.shape[:extra]):
            raise ValueError(f"{api}: a value of shape {value.shape} cannot be assigned to the indexed part of "
                             f"shape {list(target)}")
        value = reshape(value, value.shape[extra:])
    inplace_apply(x, api, lambda a: apply(_io.SET_VALUE, a, value, tensors, index=entries))


# ---- in-place methods: compute out of place, then write into the tensor's storage ----------------------
def _inplace_alias(x, api):
    """A stand-in for x's current value and graph position (not its version counter: a grad node that saves
    it must not see the in-place write), after the checks every in-place op makes."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: in-place operations need an eager Tensor, received {type(x).__name__} "
                        "(in static mode use the out-of-place API)")
    if x._node is None and not x.stop_gradient and _grad_state.enabled:  # ValueError, as Paddle raises
        raise ValueError(f"{api}: Leaf Tensor ({x.name or 'unnamed'}) that doesn't stop gradient can't use "
                         "inplace strategy; wrap the update in paddle.no_grad() or use the out-of-place op")
    alias = wrap_array(x._data, x._place, x.stop_gradient)
    alias._node, alias._out_index = x._node, x._out_index
    return alias


def _take_graph_position(x, out):
    if out._node is not None or _grad_state.enabled:
        x._node, x._out_index, x.stop_gradient = out._node, out._out_index, out.stop_gradient


def _static_out_of_place(x, api):
    """A static Variable has no storage to write: like Paddle (`inplace_apis_in_dygraph_only`), the in-place
    API is then its out-of-place version, with Paddle's warning."""
    if not getattr(x, "_is_variable", False):
        return False
    _user_warnings.warn(f"In static graph mode, {api}() is the same as {api.rstrip('_')}() and does not perform "
                        "inplace operation.")
    return True


def inplace_apply(x, api, compute, steps=1):
    """Run `compute(alias)` on x's values, write the result into x's storage (every view of it sees the
    values) and make x the result in the graph; the shared version counter is bumped, so a backward that
    saved x or any alias of it detects the change. `steps`: the in-place ops Paddle's API is made of, each of
    which bumps the counter there (its hypot_ is pow_, add_ and sqrt_), so the count reads as Paddle's."""
    if _static_out_of_place(x, api):
        return compute(x)
    alias = _inplace_alias(x, api)
    out = compute(alias)
    if out._data.shape != x._data.shape or out._data.dtype != x._data.dtype:
        raise ValueError(f"{api}: the in-place result has shape {out.shape} and dtype {out.dtype.name}, but the "
                         f"tensor has shape {x.shape} and dtype {x.dtype.name}; in-place ops cannot change them")
    if out._node is None and not x.stop_gradient:  # new values from no input (a fill, a draw): x still needs grads
        out = apply(_gs.OVERWRITE, alias, out)
    if out._node is not None:  # the new grad node may have saved x's old values: keep them for it
        alias._data = alias._data.copy()
    x._write(out._data)
    _bump_more(x, steps)
    _take_graph_position(x, out)
    return x


def _bump_more(x, steps):
    for _ in range(steps - 1):
        x._bump_version()


def inplace_layout(x, api, compute, steps=1):
    """x becomes `compute(alias)`'s result, whose shape or dtype may differ (reshape_, cast_, ...): for a
    view op it views the same storage; the version counter is bumped (`steps` times: see inplace_apply)."""
    if _static_out_of_place(x, api):
        return compute(x)
    alias = _inplace_alias(x, api)
    share_storage(x, (alias,))  # a view op's result then shares x's version counter with x's other views
    version = x.inplace_version
    out = compute(alias)
    x._data = out._data
    x._vbox = out._vbox
    _take_graph_position(x, out)
    if x._vbox is not alias._vbox:  # a new storage (cumsum_, cast_): the tensor's count of in-place ops goes on
        new_version_counter(x)[0] = version
    x._bump_version()
    _bump_more(x, steps)
    return x


def zero_(x):
    return inplace_apply(x, "Tensor.zero_", lambda a: apply(_gs.FILL_ANY_LIKE, a, value=0.0))


def fill_(x, value):
    if not isinstance(value, (numbers.Number, np.number, np.bool_)):
        raise TypeError(f"Tensor.fill_: value must be a number, received {type(value).__name__}")
    return inplace_apply(x, "Tensor.fill_", lambda a: apply(_gs.FILL_ANY_LIKE, a, value=value))


def copy_(x, value, blocking=True):
    """Copy `value` (a Tensor broadcastable to x) into x; gradients flow to value."""
    _check_tensor(value, "Tensor.copy_", "value")
    value = _value_tensor(x, value, "Tensor.copy_")
    return inplace_apply(x, "Tensor.copy_", lambda a: apply(_io.SET_VALUE, a, value, [], index=[["ellipsis"]]))


def set_value(x, value):
    """Replace x's values (a NumPy array or Tensor of the same shape and dtype); not recorded for autograd."""
    if not isinstance(x, Tensor):
        raise TypeError(f"Tensor.set_value: needs an eager Tensor, received {type(x).__name__}")
    if isinstance(value, Tensor):
        value = value._host()
    if not isinstance(value, np.ndarray):
        raise TypeError(f"Tensor.set_value: value must be a numpy.ndarray or Tensor, received "
                        f"{type(value).__name__}")
    if tuple(value.shape) != tuple(x._data.shape):  # AssertionError as Paddle; explicit so -O keeps it
        raise AssertionError(f"Tensor.set_value: shape mismatch, the tensor has shape {x.shape} but the value "
                             f"has {list(value.shape)}")
    if value.dtype != x._data.dtype:
        raise AssertionError(f"Tensor.set_value: dtype mismatch, the tensor has dtype {x.dtype.name} but the value "
                             f"has {value.dtype}")
    x._write(x._place.xp.asarray(value))
    return x


__all__ = ["cast", "reshape", "transpose", "unsqueeze", "squeeze", "flatten", "concat", "stack", "unstack",
           "split", "chunk", "slice", "strided_slice", "expand", "broadcast_to", "expand_as", "tile", "flip",
           "roll", "repeat_interleave", "gather", "index_select", "gather_nd", "scatter", "masked_select",
           "unbind", "tril", "triu", "shape", "numel", "as_strided", "view", "view_as"]

TENSOR_METHODS = ["cast", "reshape", "transpose", "unsqueeze", "squeeze", "flatten", "unstack", "split", "chunk",
                  "strided_slice", "expand", "broadcast_to", "expand_as", "tile", "flip", "roll",
                  "repeat_interleave", "gather", "index_select", "gather_nd", "scatter", "masked_select",
                  "unbind", "tril", "triu", "zero_", "fill_", "copy_", "set_value", "as_strided", "view", "view_as",
                  "contiguous"]
