"""x[index] of a static Variable as Paddle's legacy IR builds it (paddle/base/variable_index.py `_getitem_static`),
op for op, so a program prints as Paddle's and computes what Paddle's computes -- also where that is not NumPy's
result (a None before an advanced index is not counted when the advanced indices are placed, a bool mask mixed
with other advanced indices keeps only its first coordinate).

Basic entries (ints, slices, None, ...) become one slice op (strided_slice when a step is not 1), named
`<x>_slice_<n>`, and an unsqueeze for the None entries and Python bools; a 0-D int Variable index or Variable
slice bounds make the slice's bounds tensors (StartsTensorList / EndsTensorList). The advanced entries (lists, arrays,
bool or N-D int Variables) then index that result: their axes are moved to the front, a single bool mask is a
masked_select (or a gather_nd by its nonzero coordinates), other indices are broadcast together, stacked and
gathered by one gather_nd, and the gathered dims are moved back where the indices were when they were adjacent.
"""
import builtins

import numpy as np

from ..ops import manipulation as _mo
from ..ops.dispatch import apply
from ..static.appender import output_name_guard
from ..utils import unique_name
from .creation import assign, fill_constant, to_tensor
from .manipulation import _slice_part, gather_nd, masked_select, stack, transpose, unsqueeze
from .search import nonzero
from .stacking import broadcast_tensors

_INT_MAX, _INT_MIN = 2 ** 31 - 1, -2 ** 31  # Paddle's open slice bounds


def _is_variable(value):
    return getattr(value, "_is_variable", False)


def _replace_ellipsis(x, items):
    """The one Ellipsis replaced by the full slices it stands for, counted as Paddle counts them."""
    counted = [e for e in items if not _is_variable(e) and e is not None]
    if sum(e is Ellipsis for e in counted) > 1:
        raise IndexError("Tensor.__getitem__: an index can only have a single ellipsis ('...')")
    if not any(e is Ellipsis for e in counted):
        return items
    at = next(k for k, e in enumerate(items) if e is Ellipsis)
    if at == len(items) - 1:
        return items[:-1]
    nones = sum(e is None for e in items)
    return items[:at] + [builtins.slice(None)] * (len(x.shape) - len(items) + nones + 1) + items[at + 1:]


def _bool_length_check(length, x, dim):
    if length != x.shape[dim]:  # an unknown (-1) dim fails too, as in Paddle
        raise IndexError(f"Tensor.__getitem__: the shape of boolean index {length} did not match indexed "
                         f"tensor {x.shape[dim]} along axis {dim}")


def _bound(value):
    return value if _is_variable(value) else _slice_part(value, "Tensor.__getitem__")


def _parse(x, index):
    """Paddle's parse_index: the slice op's axes/starts/ends/steps/decrease axes, the None axes, and the
    advanced indices by the position they index in the sliced result."""
    items = list(index) if isinstance(index, tuple) else [index]
    items = [assign(e) if isinstance(e, np.ndarray) else list(e) if isinstance(e, range) else e for e in items]
    items = _replace_ellipsis(x, items)
    none_axes = [k for k, e in enumerate(items) if e is None]
    axes, starts, ends, steps, decrease, advanced = [], [], [], [], [], {}
    dim = estimated = 0
    for item in (e for e in items if e is not None):
        if type(item) is int:
            if x.shape[dim] >= 0 and item >= x.shape[dim]:  # `a, b = var` stops at this IndexError
                raise IndexError(f"Tensor.__getitem__: index {item} at dim {dim} should be >= 0 and < "
                                 f"x.shape[{dim}]: {x.shape[dim]}")
            decrease.append(dim)
            start, end, step = item, (item + 1 if item != -1 else _INT_MAX), 1
            dim += 1
        elif _is_variable(item) and len(item.shape) == 0 and item.dtype.np != np.bool_:
            decrease.append(dim)  # an int the program computes: the slice's bounds become tensors
            start, end, step = item, item + 1, 1
            dim += 1
        elif isinstance(item, bool):  # a single bool: a new axis of length 1 or 0
            none_axes.append(dim)
            advanced[estimated] = to_tensor([item])
            estimated += 1
            continue
        elif isinstance(item, builtins.slice):
            start, end = _bound(item.start), _bound(item.stop)  # Variable bounds: computed by the program
            step = _slice_part(item.step, "Tensor.__getitem__")
            estimated += 1
            dim += 1
            if start is None and end is None and step is None:
                continue
            if step == 0:
                raise ValueError("Tensor.__getitem__: slice step cannot be zero")
            step = 1 if step is None else step
            start = (0 if step > 0 else _INT_MAX) if start is None else start
            end = (_INT_MAX if step > 0 else _INT_MIN) if end is None else end
            if not _is_variable(end) and x.shape[dim - 1] != -1 and end >= x.shape[dim - 1]:
                end = _INT_MAX if step > 0 else x.shape[dim - 1]
        elif isinstance(item, (list, tuple)):
            index_var = to_tensor(item)
            if index_var.dtype.np == np.bool_:
                _bool_length_check(len(item), x, dim)
            advanced[estimated] = index_var
            estimated += 1
            dim += 1
            continue
        elif _is_variable(item):
            if item.dtype.np == np.bool_:
                if len(item.shape) == 0:  # a 0-D bool Variable is a single bool
                    none_axes.append(dim)
                else:
                    _bool_length_check(item.shape[0], x, dim)
            elif item.dtype.np.kind not in "iu":
                raise TypeError(f"Tensor.__getitem__: a Variable index must be int or bool, received "
                                f"{item.dtype.name}")
            advanced[estimated] = item
            estimated += 1
            dim += 1
            continue
        else:
            raise IndexError("Tensor.__getitem__: valid indices are int / bool / slice / ellipsis / None / list / "
                             f"tuple / ndarray / Variable, but received {item!r} of type {type(item).__name__}")
        if _is_variable(start) or _is_variable(end) or (start, end, step) != (0, _INT_MAX, 1):
            axes.append(dim - 1)
            starts.append(start)
            ends.append(end)
            steps.append(step)
    return axes, starts, ends, steps, decrease, none_axes, advanced


def _basic(x, axes, starts, ends, steps, decrease, none_axes):
    out = x
    if axes:
        op, extra = (_mo.STRIDED_SLICE, {"strides": steps}) if any(s != 1 for s in steps) else (_mo.SLICE, {})
        flags = [-1 if _is_variable(s) or _is_variable(e) else 1 for s, e in zip(starts, ends)]
        starts, starts_list = _bound_tensors(starts)
        ends, ends_list = _bound_tensors(ends)
        with output_name_guard(unique_name.generate(f"{x.name}_{op.type}")):
            out = apply(op, x, starts_list, ends_list, axes=axes, starts=starts, ends=ends, infer_flags=flags,
                        decrease_axis=decrease, **extra)
    if none_axes:
        out = unsqueeze(out, [a - sum(d < a for d in decrease) for a in none_axes])
    return out


def _bound_tensors(bounds):
    """Paddle's deal_attrs: bounds holding a Variable are all given as tensors (the ints as int64 constants on the
    CPU), with -1 in the attr where a Variable is; else the attr alone."""
    if not any(_is_variable(b) for b in bounds):
        return bounds, None
    tensors = []
    for b in bounds:
        if _is_variable(b):
            b.stop_gradient = True
            tensors.append(b)
        else:
            tensors.append(fill_constant([1], "int64", b, force_cpu=True))
    return [-1 if _is_variable(b) else b for b in bounds], tensors


def _bool_indexed(x, mask):
    """Paddle's get_value_for_bool_tensor: a mask of x's rank is a masked_select, a lower one a gather_nd by
    its nonzero coordinates."""
    if len(mask.shape) > len(x.shape):
        raise IndexError(f"Tensor.__getitem__: the dims of a bool index must be at most the indexed tensor's "
                         f"{len(x.shape)}, received {len(mask.shape)}")
    for i, (m, d) in enumerate(zip(mask.shape, x.shape)):
        if m != -1 and d != -1 and m != d:
            raise IndexError(f"Tensor.__getitem__: the dimension of bool index doesn't match indexed array along "
                             f"dimension {i}, the target dimension is {d}, but received {m}")
    return masked_select(x, mask) if len(mask.shape) == len(x.shape) else gather_nd(x, nonzero(mask))


def _advanced(out, advanced):
    """Paddle's deal_advanced_index and the gather that follows it."""
    positions = sorted(advanced)
    new_dim_at, rank = _INT_MAX, 1
    for k, p in enumerate(positions):
        # the gathered dims go first when an index is at dim 0 or the indices are not adjacent
        new_dim_at = 0 if p == 0 or (k and positions[k - 1] != p - 1) else min(new_dim_at, p)
        rank = max(rank, len(advanced[p].shape))
    perm = positions + [d for d in range(len(out.shape)) if d not in advanced]
    if perm != list(range(len(out.shape))):
        out = transpose(out, perm)
    indices = [advanced[p] for p in positions]
    if len(indices) == 1 and indices[0].dtype.np == np.bool_:
        out = _bool_indexed(out, indices[0])
    else:
        indices = [getitem_static(nonzero(i), (builtins.slice(None), 0)) if i.dtype.np == np.bool_ else i
                   for i in indices]
        if len(indices) > 1:
            out = gather_nd(out, stack(broadcast_tensors(indices), axis=-1))
        else:
            out = gather_nd(out, unsqueeze(indices[0], -1))
    if new_dim_at != 0:
        out = transpose(out, [*range(rank, new_dim_at + rank), *range(rank), *range(new_dim_at + rank, len(out.shape))])
    return out


def getitem_static(x, index):
    axes, starts, ends, steps, decrease, none_axes, advanced = _parse(x, index)
    out = _basic(x, axes, starts, ends, steps, decrease, none_axes)
    return _advanced(out, advanced) if advanced else out
