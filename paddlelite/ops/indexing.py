"""Indexing ops: getitem / set_value (Python's x[...] and x[...] = v), gather, gather_nd, scatter.

`getitem` and `set_value` carry the index as a plain-data attr (so static programs can store and print
it), a list of entries:
    ["int", i]                      an integer index
    ["slice", start, stop, step]    a slice (None for omitted parts; negative steps allowed)
    ["none"]                        None / newaxis
    ["ellipsis"]                    ...
    ["list", [...]]                 a (nested) list of ints or bools: an advanced index held in the attr
    ["tensor", k]                   the k-th tensor of the variadic `Index` input (int or bool)
Advanced indices follow NumPy's rules (broadcast together; their dims go where the first advanced
index is when they are adjacent, else to the front).
"""
import numpy as np

from .conv import scatter_add
from .formula import gather
from .registry import DATA_DEPENDENT_SHAPE, Meta, VALUE_CHECK, register_op
from .shape_rules import broadcast_shapes, normalize_axis

_BASIC = ("int", "slice", "none", "ellipsis")


def _list_array(values, op=None):
    a = np.asarray(values)
    if a.size == 0:
        return a.astype(np.int64)
    if a.dtype.kind not in "iub":
        where = f"op '{op}': " if op else ""  # forwards pass none: dispatch re-raises the infer error
        raise IndexError(f"{where}index lists must hold ints or bools, received {values!r}")
    return a


def build_index(xp, entries, arrays, for_scatter=False):
    """The Python index tuple for `entries`; with for_scatter, bool masks become int arrays (ufunc.at)."""
    idx = []
    for e in entries:
        kind = e[0]
        if kind == "int":
            idx.append(e[1])
        elif kind == "slice":
            idx.append(slice(e[1], e[2], e[3]))
        elif kind == "none":
            idx.append(None)
        elif kind == "ellipsis":
            idx.append(Ellipsis)
        else:
            a = xp.asarray(_list_array(e[1])) if kind == "list" else arrays[e[1]]
            if for_scatter and a.dtype == np.bool_:
                idx.extend(a.nonzero())
            else:
                idx.append(a)
    return tuple(idx)


def is_basic(entries):
    return all(e[0] in _BASIC for e in entries)


def index_shape(op, shape, entries, metas):
    """The shape x[index] has, from shapes alone (-1 = unknown); IndexError for impossible indices."""
    nd = len(shape)
    used = 0
    n_ell = 0
    for e in entries:
        k = e[0]
        if k in ("int", "slice"):
            used += 1
        elif k == "ellipsis":
            n_ell += 1
        elif k in ("list", "tensor"):
            if k == "list":
                a = _list_array(e[1], op)
                ishape, kind = a.shape, a.dtype.kind
            else:
                m = metas[e[1]]
                ishape, kind = tuple(m.shape), np.dtype(m.dtype).kind
                if kind not in "iub":
                    raise IndexError(f"op '{op}': index tensors must be integer or bool, received {m.dtype}")
            used += len(ishape) if kind == "b" else 1
        elif k != "none":
            raise ValueError(f"op '{op}': unknown index entry {e!r}")
    if n_ell > 1:
        raise IndexError(f"op '{op}': an index can only have a single ellipsis ('...')")
    if used > nd:
        raise IndexError(f"op '{op}': too many indices for a tensor of shape {list(shape)}: {nd} dims, "
                         f"{used} indexed")
    if not n_ell:
        entries = list(entries) + [["ellipsis"]]
    has_adv = any(e[0] in ("list", "tensor") for e in entries)
    parts, adv_shapes, d = [], [], 0
    for e in entries:
        k = e[0]
        if k == "ellipsis":
            for _ in range(nd - used):
                parts.append(("b", [shape[d]]))
                d += 1
        elif k == "none":
            parts.append(("b", [1]))
        elif k == "slice":
            dim = shape[d]
            parts.append(("b", [-1 if dim == -1 else len(range(*slice(e[1], e[2], e[3]).indices(dim)))]))
            d += 1
        elif k == "int":
            dim, i = shape[d], e[1]
            if dim != -1 and not -dim <= i < dim:
                raise IndexError(f"op '{op}': index {i} is out of bounds for axis {d} with size {dim}")
            if has_adv:
                parts.append(("a", None))
                adv_shapes.append(())
            else:
                parts.append(("b", []))
            d += 1
        else:
            if k == "list":
                a = _list_array(e[1], op)
                ishape, kind = a.shape, a.dtype.kind
                count = int(a.sum()) if kind == "b" else None
            else:
                m = metas[e[1]]
                ishape, kind, count = tuple(m.shape), np.dtype(m.dtype).kind, -1
            if kind == "b":
                covered = shape[d:d + len(ishape)]
                if any(a != b and -1 not in (a, b) for a, b in zip(ishape, covered)):
                    raise IndexError(f"op '{op}': the boolean index of shape {list(ishape)} does not match the "
                                     f"indexed dims {list(covered)} (starting at axis {d})")
                adv_shapes.append((count,))
                d += len(ishape)
            else:
                adv_shapes.append(tuple(ishape))
                d += 1
            parts.append(("a", None))
    if not has_adv:
        return tuple(x for _, dims in parts for x in dims)
    bshape = adv_shapes[0]
    for s in adv_shapes[1:]:
        bshape = broadcast_shapes(op, bshape, s, names=("index", "index"))
    pos = [i for i, p in enumerate(parts) if p[0] == "a"]
    basic = [x for _, dims in parts if dims is not None for x in dims]
    if pos == list(range(pos[0], pos[-1] + 1)):
        before = [x for _, dims in parts[:pos[0]] for x in dims]
        after = [x for _, dims in parts[pos[-1] + 1:] for x in dims]
        return tuple(before) + tuple(bshape) + tuple(after)
    return tuple(bshape) + tuple(basic)


# ---- getitem --------------------------------------------------------------------------------------
def _getitem_forward(xp, x, index_arrays, index):
    idx = build_index(xp, index, index_arrays)
    if is_basic(index) and Ellipsis not in idx:
        idx += (Ellipsis,)  # a trailing ... keeps x[i, j] a 0-D view where NumPy would copy out a scalar
    return xp.asarray(x[idx])


def _getitem_infer(x, index_metas, index):
    return Meta(index_shape("getitem", tuple(x.shape), index, index_metas), x.dtype)


def _getitem_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("getitem_grad", g.input("X"), g.output_grad("Out"), g.input("Index"),
                                   index=g.attrs["index"]))


def _mask_size(attrs):
    # a tensor index may be a boolean mask (its dtype is not in the attrs): its result size is data-dependent
    return None if is_basic(attrs["index"]) else DATA_DEPENDENT_SHAPE


GETITEM = register_op("getitem", inputs=("X", "Index"), outputs=("Out",), variadic_inputs=("Index",),
                      nondiff_inputs=("Index",), forward=_getitem_forward, infer=_getitem_infer,
                      grad=_getitem_grad, attrs={"index": []}, double_grad=True,
                      view=lambda index: is_basic(index),  # basic indexing views x, advanced copies
                      host_sync=_mask_size)


def _getitem_grad_forward(xp, x, dout, index_arrays, index):
    dx = xp.zeros(x.shape, dtype=dout.dtype)
    if is_basic(index):
        dx[build_index(xp, index, index_arrays)] = dout
    else:
        scatter_add(xp, dx, build_index(xp, index, index_arrays, for_scatter=True), dout)
    return dx


def _getitem_grad_grad(g):
    if g.needs("OutGrad"):
        g.set_input_grad("OutGrad", g.op("getitem", g.output_grad("XGrad"), g.input("Index"),
                                         index=g.attrs["index"]))


# dOut added into zeros shaped like X at the indexed positions (repeated advanced indices accumulate).
GETITEM_GRAD = register_op("getitem_grad", inputs=("X", "OutGrad", "Index"), meta_inputs=("X",), outputs=("XGrad",),
                           variadic_inputs=("Index",), nondiff_inputs=("X", "Index"),
                           forward=_getitem_grad_forward,
                           infer=lambda x, dout, idx, index: Meta(x.shape, dout.dtype),
                           grad=_getitem_grad_grad, attrs={"index": []}, double_grad=True,
                           host_sync=_mask_size)  # a boolean mask becomes its nonzero positions


# ---- set_value (out of place: Out = X with Out[index] = ValueTensor) -------------------------------
def _set_value_forward(xp, x, value, index_arrays, index):
    out = x.copy()
    out[build_index(xp, index, index_arrays)] = value
    return out


def _set_value_infer(x, value, index_metas, index):
    if value.dtype != x.dtype:
        raise TypeError(f"op 'set_value': ValueTensor has dtype {value.dtype} but Input has {x.dtype}; "
                        "cast the value explicitly")
    target = index_shape("set_value", tuple(x.shape), index, index_metas)
    vshape = tuple(value.shape)
    if len(vshape) > len(target) or broadcast_shapes("set_value", target, vshape,
                                                     names=("Input[index]", "ValueTensor")) != target:
        if not (-1 in target or -1 in vshape):
            raise ValueError(f"op 'set_value': a value of shape {list(vshape)} cannot be assigned to the "
                             f"indexed part of shape {list(target)}")
    return Meta(tuple(x.shape), x.dtype)


def _set_value_grad(g):
    dout, idx, index = g.output_grad("Out"), g.input("Index"), g.attrs["index"]
    if g.needs("ValueTensor"):
        value = g.input("ValueTensor")
        g.set_input_grad("ValueTensor", g.reduce_as(g.op("getitem", dout, idx, index=index), value))
    if g.needs("Input"):
        zeros = g.zeros_like(g.input("ValueTensor"))
        g.set_input_grad("Input", g.op("set_value", dout, zeros, idx, index=index))


SET_VALUE = register_op("set_value", inputs=("Input", "ValueTensor", "Index"), outputs=("Out",),
                        variadic_inputs=("Index",), nondiff_inputs=("Index",), same_dtype=("Input", "ValueTensor"),
                        forward=_set_value_forward, infer=_set_value_infer, grad=_set_value_grad,
                        attrs={"index": []}, double_grad=True)


# ---- gather / gather_nd ---------------------------------------------------------------------------
def _check_int_index(op, index, slot="Index"):
    if np.dtype(index.dtype).kind not in "iu":
        raise TypeError(f"op '{op}': {slot} must be an int32/int64 tensor, received {index.dtype}")


def _check_bounds(op, index, n, axis):
    """Index values must address an axis of size n (negative values count from the end)."""
    if index.size and (int(index.min()) < -n or int(index.max()) >= n):
        raise IndexError(f"op '{op}': Index values must lie in [-{n}, {n}) for axis {axis} of size {n}, "
                         f"received values in [{int(index.min())}, {int(index.max())}]")


def _gather_infer(x, index, axis):
    _check_int_index("gather", index)
    ax = normalize_axis("gather", axis, len(x.shape))
    return Meta(tuple(x.shape[:ax]) + tuple(index.shape) + tuple(x.shape[ax + 1:]), x.dtype)


def _gather_forward(xp, x, index, axis):
    ax = normalize_axis("gather", axis, x.ndim)
    _check_bounds("gather", index, x.shape[ax], axis)
    return xp.take(x, index, axis=ax)


def _gather_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("gather_grad", g.input("X"), g.input("Index"), g.output_grad("Out"),
                                   axis=g.attrs["axis"]))


GATHER = register_op("gather", inputs=("X", "Index"), outputs=("Out",), nondiff_inputs=("Index",),
                     forward=_gather_forward, infer=_gather_infer, grad=_gather_grad, attrs={"axis": 0},
                     double_grad=True,
                     host_sync=VALUE_CHECK)


def _gather_grad_forward(xp, x, index, dout, axis):
    ax = normalize_axis("gather", axis, x.ndim)
    dx = xp.zeros(x.shape, dtype=dout.dtype)
    scatter_add(xp, dx, (slice(None),) * ax + (index,), dout)
    return dx


def _gather_grad_grad(g):
    if g.needs("OutGrad"):
        g.set_input_grad("OutGrad", gather(g.output_grad("XGrad"), g.input("Index"), axis=g.attrs["axis"]))


# dOut added into zeros shaped like X at the gathered positions (repeated indices accumulate).
GATHER_GRAD = register_op("gather_grad", inputs=("X", "Index", "OutGrad"), meta_inputs=("X",), outputs=("XGrad",),
                          nondiff_inputs=("X", "Index"), forward=_gather_grad_forward,
                          infer=lambda x, index, dout, axis: Meta(x.shape, dout.dtype), grad=_gather_grad_grad,
                          attrs={"axis": 0}, double_grad=True)


def _nd_index(index):
    return tuple(index[..., i] for i in range(index.shape[-1]))


def _gather_nd_infer(x, index):
    _check_int_index("gather_nd", index)
    if len(index.shape) == 0:
        raise ValueError("op 'gather_nd': Index must be at least 1-D, received a 0-D tensor")
    k = index.shape[-1]
    if k != -1 and k > len(x.shape):
        raise ValueError(f"op 'gather_nd': Index's last dim ({k}) is larger than the input's rank "
                         f"({len(x.shape)}, shape {list(x.shape)})")
    return Meta(tuple(index.shape[:-1]) + tuple(x.shape[k:]), x.dtype)


def _gather_nd_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("gather_nd_grad", g.input("X"), g.input("Index"), g.output_grad("Out")))


GATHER_ND = register_op("gather_nd", inputs=("X", "Index"), outputs=("Out",), nondiff_inputs=("Index",),
                        forward=lambda xp, x, index: xp.asarray(x[_nd_index(index)]), infer=_gather_nd_infer,
                        grad=_gather_nd_grad, double_grad=True)


def _gather_nd_grad_forward(xp, x, index, dout):
    dx = xp.zeros(x.shape, dtype=dout.dtype)
    scatter_add(xp, dx, _nd_index(index), dout)
    return dx


def _gather_nd_grad_grad(g):
    if g.needs("OutGrad"):
        g.set_input_grad("OutGrad", g.op("gather_nd", g.output_grad("XGrad"), g.input("Index")))


GATHER_ND_GRAD = register_op("gather_nd_grad", inputs=("X", "Index", "OutGrad"), meta_inputs=("X",), outputs=("XGrad",),
                             nondiff_inputs=("X", "Index"), forward=_gather_nd_grad_forward,
                             infer=lambda x, index, dout: Meta(x.shape, dout.dtype), grad=_gather_nd_grad_grad,
                             double_grad=True)


# ---- masked_select: the elements of x where mask (x's shape) is true, 1-D; its count is data-dependent ------
def _masked_select_infer(x, mask):
    if mask.dtype != np.bool_:
        raise TypeError(f"op 'masked_select': Mask must be bool, received {mask.dtype}")
    return Meta((-1,), x.dtype)


def _masked_select_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("masked_select_grad", g.input("X"), g.input("Mask"), g.output_grad("Y")))


MASKED_SELECT = register_op("masked_select", inputs=("X", "Mask"), outputs=("Y",), nondiff_inputs=("Mask",),
                            forward=lambda xp, x, mask: x[mask], infer=_masked_select_infer,
                            grad=_masked_select_grad, double_grad=True, host_sync=DATA_DEPENDENT_SHAPE)


def _masked_select_grad_forward(xp, x, mask, dy):
    dx = xp.zeros(x.shape, dtype=dy.dtype)
    dx[mask] = dy
    return dx


def _masked_select_grad_grad(g):
    if g.needs("YGrad"):
        g.set_input_grad("YGrad", g.op("masked_select", g.output_grad("XGrad"), g.input("Mask")))


MASKED_SELECT_GRAD = register_op("masked_select_grad", inputs=("X", "Mask", "YGrad"), meta_inputs=("X",),
                                 outputs=("XGrad",), nondiff_inputs=("X", "Mask"),
                                 forward=_masked_select_grad_forward,
                                 infer=lambda x, mask, dy: Meta(x.shape, dy.dtype), grad=_masked_select_grad_grad,
                                 double_grad=True)

# index_select: gather along `dim` under Paddle's own op type and attr name (its gradient is gather's)
def _index_select_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("gather_grad", g.input("X"), g.input("Index"), g.output_grad("Out"),
                                   axis=g.attrs["dim"]))


INDEX_SELECT = register_op("index_select", inputs=("X", "Index"), outputs=("Out",), nondiff_inputs=("Index",),
                           forward=lambda xp, x, index, dim: _gather_forward(xp, x, index, dim),
                           infer=lambda x, index, dim: _gather_infer(x, index, dim), grad=_index_select_grad,
                           attrs={"dim": 0}, double_grad=True, host_sync=VALUE_CHECK)


# ---- scatter --------------------------------------------------------------------------------------
def _scatter_forward(xp, x, ids, updates, overwrite):
    out = x.copy()
    if overwrite:
        out[ids] = updates
    else:
        out[ids] = 0
        scatter_add(xp, out, ids, updates)
    return out


def _scatter_infer(x, ids, updates, overwrite):
    _check_int_index("scatter", ids, "Ids")
    if len(ids.shape) != 1:
        raise ValueError(f"op 'scatter': Ids must be 1-D, received shape {list(ids.shape)}")
    if updates.dtype != x.dtype:
        raise TypeError(f"op 'scatter': Updates has dtype {updates.dtype} but X has {x.dtype}")
    want = tuple(ids.shape) + tuple(x.shape[1:])
    if len(updates.shape) != len(want) or not all(a == b or -1 in (a, b) for a, b in zip(updates.shape, want)):
        raise ValueError(f"op 'scatter': Updates must have shape {list(want)} (len(Ids) + X.shape[1:]), "
                         f"received {list(updates.shape)}")
    return Meta(tuple(x.shape), x.dtype)


def _scatter_grad(g):
    dout, ids = g.output_grad("Out"), g.input("Ids")
    if g.needs("X"):
        zeros = g.zeros_like(g.input("Updates"))
        g.set_input_grad("X", g.op("scatter", dout, ids, zeros, overwrite=True))
    if g.needs("Updates"):
        g.set_input_grad("Updates", gather(dout, ids, axis=0))


SCATTER = register_op("scatter", inputs=("X", "Ids", "Updates"), outputs=("Out",), nondiff_inputs=("Ids",),
                      same_dtype=("X", "Updates"), forward=_scatter_forward, infer=_scatter_infer,
                      grad=_scatter_grad, attrs={"overwrite": True}, double_grad=True)
