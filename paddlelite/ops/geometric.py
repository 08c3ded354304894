"""Graph ops (paddle.geometric, paddle.incubate's graph_* and segment_*): message passing as scatter-reduce, segment
pooling, neighbour sampling and reindexing.

- segment_pool(X, SegmentIds; pooltype): rows of X with the same (sorted) id reduced; ids[-1] + 1 output rows.
- send_u_recv(X, Src_index, Dst_index, Out_size; reduce_op, out_size): out[d] = reduce over the edges e with
  dst[e] == d of X[src[e]] (Paddle's legacy graph_send_recv).
- send_ue_recv(X, Y, ...; message_op, reduce_op): the messages are X[src[e]] + Y[e] or X[src[e]] * Y[e], broadcast
  along the feature dims (the API writes sub/div as add/mul of -Y and 1 / Y, as Paddle's).
- send_uv(x, y, src_index, dst_index; message_op): per edge, x[src[e]] + / * y[dst[e]].
Reductions: SUM, MEAN (sum / the destination's count), MAX, MIN; a row nothing reaches is 0. Gradients are formulas
over gather / gather_grad (a scatter-add) / where: MAX and MIN send the whole gradient to every message equal to the
result, as Paddle's kernels do. On a GPU the same forwards run on CuPy (cupyx's scatter_add/max/min).
The sampling and reindexing ops (graph_sample_neighbors, weighted_sample_neighbors, graph_reindex) give integer
results and no gradient; they are vectorised over xp (a draw is a random key per edge, the largest keys of each node
kept), so a GPU runs the same code on CuPy.
"""
import numpy as np

from ..framework.random import rng_for
from .formula import cast, equal, gather, reshape, unsqueeze, where
from .indexing import _check_int_index
from .registry import DATA_DEPENDENT_SHAPE, Meta, VALUE_CHECK, register_op
from .search import _identity, _scatter_at
from .shape_rules import broadcast_shapes
from .tensor_args import scalar_value

REDUCES = ("SUM", "MEAN", "MAX", "MIN")
MESSAGES = ("ADD", "MUL")
_HOW = {"SUM": "add", "MEAN": "add", "MAX": "max", "MIN": "min"}


def _check_choice(op, name, value, choices):
    if value not in choices:
        raise ValueError(f"op '{op}': {name} must be one of {list(choices)}, received {value!r}")


def reduce_rows(xp, values, index, rows, reduce):
    """Rows of `values` reduced into `rows` rows at `index` (1-D): (out, count per row); a row no value reaches
    is 0."""
    start = _identity(values.dtype, {"MAX": "amax", "MIN": "amin"}.get(reduce, "add"))
    out = xp.full((rows,) + values.shape[1:], start, dtype=values.dtype)
    _scatter_at(xp, out, index, values, _HOW[reduce])
    count = xp.bincount(index, minlength=rows)[:rows].astype(np.int32) if index.size else \
        xp.zeros(rows, dtype=np.int32)
    if reduce == "SUM":
        return out, count
    per_row = count.reshape((rows,) + (1,) * (values.ndim - 1))
    if reduce == "MEAN":
        mean = out / xp.maximum(per_row, 1)
        return (mean if out.dtype.kind == "f" else xp.trunc(mean)).astype(out.dtype), count
    return xp.where(per_row > 0, out, out.dtype.type(0)), count


def _check_index(op, index, slot, n=None):
    _check_int_index(op, index, slot)
    if len(index.shape) != 1:
        raise ValueError(f"op '{op}': {slot} must be 1-D, received shape {list(index.shape)}")
    if n is not None and -1 not in (n, index.shape[0]) and index.shape[0] != n:
        raise ValueError(f"op '{op}': {slot} must have {n} entries, received {index.shape[0]}")


def _check_in_range(op, index, slot, n):
    if index.size and (int(index.min()) < 0 or int(index.max()) >= n):
        raise IndexError(f"op '{op}': the values of {slot} must lie in [0, {n}), received values in "
                         f"[{int(index.min())}, {int(index.max())}]")


def _per_edge(g, value, ndim):
    """A per-edge (or per-row) 1-D `value` shaped to broadcast against [E, ...] rows of rank `ndim`."""
    return unsqueeze(value, axis=list(range(1, ndim))) if ndim > 1 else value


# ---- segment_pool ----------------------------------------------------------------------------------------------
def _segment_forward(xp, x, ids, pooltype):
    _check_choice("segment_pool", "pooltype", pooltype, REDUCES)
    if ids.size != x.shape[0]:
        raise ValueError(f"op 'segment_pool': SegmentIds must have one id per row of X ({x.shape[0]}), received "
                         f"{ids.size}")
    if ids.size and int(ids[0]) < 0:
        raise ValueError(f"op 'segment_pool': segment ids must be >= 0, received {int(ids[0])}")
    if ids.size > 1 and bool((ids[1:] < ids[:-1]).any()):
        k = int(xp.argmax(ids[1:] < ids[:-1]))
        raise ValueError(f"op 'segment_pool': SegmentIds must be sorted, received ids[{k}] = {int(ids[k])} > "
                         f"ids[{k + 1}] = {int(ids[k + 1])}")
    rows = int(ids[-1]) + 1 if ids.size else 0
    out, count = reduce_rows(xp, x, ids.astype(np.int64), rows, pooltype)
    return out, count.astype(x.dtype).reshape(rows, 1)


def _segment_infer(x, ids, pooltype):
    _check_choice("segment_pool", "pooltype", pooltype, REDUCES)
    _check_index("segment_pool", ids, "SegmentIds", x.shape[0] if x.shape else None)
    if not x.shape:
        raise ValueError("op 'segment_pool': X must be at least 1-D, received a 0-D tensor")
    return Meta((-1, *x.shape[1:]), x.dtype), Meta((-1, 1), x.dtype)


def _segment_grad(g):
    if not g.needs("X") or g.output_grad("Out") is None:  # SummedIds (the counts) takes no gradient
        return
    x, ids, pooltype = g.input("X"), g.input("SegmentIds"), g.attrs["pooltype"]
    dx = gather(g.output_grad("Out"), ids)
    if pooltype == "MEAN":
        dx = dx / _per_edge(g, reshape(gather(g.output("SummedIds"), ids), shape=[-1]), dx.ndim)
    elif pooltype in ("MAX", "MIN"):
        dx = where(equal(gather(g.output("Out"), ids), x), dx, 0.0)
    g.set_input_grad("X", dx)


SEGMENT_POOL = register_op("segment_pool", inputs=("X", "SegmentIds"), outputs=("Out", "SummedIds"),
                           intermediate_outputs=("SummedIds",), nondiff_inputs=("SegmentIds",),
                           forward=_segment_forward, infer=_segment_infer, grad=_segment_grad,
                           attrs={"pooltype": "SUM"}, double_grad=True, host_sync=DATA_DEPENDENT_SHAPE)


# ---- send_u_recv / send_ue_recv / send_uv ----------------------------------------------------------------------
def _rows_out(out_size_t, out_size, n):
    size = scalar_value(out_size_t, out_size[0] if out_size else 0)
    return int(size) if int(size) > 0 else n


def _edges(op, x_rows, src, dst, rows, slots=("Src_index", "Dst_index")):
    if src.shape != dst.shape:
        raise ValueError(f"op '{op}': {slots[0]} and {slots[1]} must have the same shape, received "
                         f"{list(src.shape)} and {list(dst.shape)}")
    _check_in_range(op, src, slots[0], x_rows)
    _check_in_range(op, dst, slots[1], rows)
    return src.astype(np.int64, copy=False), dst.astype(np.int64, copy=False)


def _message(xp, x, y, src, message_op):
    xs = xp.take(x, src, axis=0)
    return xs + y if message_op == "ADD" else xs * y


def _send_u_recv_forward(xp, x, src, dst, out_size_t, reduce_op, out_size):
    _check_choice("send_u_recv", "reduce_op", reduce_op, REDUCES)
    rows = _rows_out(out_size_t, out_size, x.shape[0])
    src, dst = _edges("send_u_recv", x.shape[0], src, dst, rows)
    return reduce_rows(xp, xp.take(x, src, axis=0), dst, rows, reduce_op)


def _send_ue_recv_forward(xp, x, y, src, dst, out_size_t, message_op, reduce_op, out_size):
    _check_choice("send_ue_recv", "message_op", message_op, MESSAGES)
    _check_choice("send_ue_recv", "reduce_op", reduce_op, REDUCES)
    rows = _rows_out(out_size_t, out_size, x.shape[0])
    src, dst = _edges("send_ue_recv", x.shape[0], src, dst, rows)
    return reduce_rows(xp, _message(xp, x, y, src, message_op), dst, rows, reduce_op)


def _send_uv_forward(xp, x, y, src, dst, message_op):
    _check_choice("send_uv", "message_op", message_op, MESSAGES)
    src, dst = _edges("send_uv", x.shape[0], src, dst, y.shape[0], ("src_index", "dst_index"))
    return _message(xp, x, xp.take(y, dst, axis=0), src, message_op)


def _index_rule(op, x, src, dst, slots=("Src_index", "Dst_index")):
    if not x.shape:
        raise ValueError(f"op '{op}': X must be at least 1-D, received a 0-D tensor")
    _check_index(op, src, slots[0])
    _check_index(op, dst, slots[1], src.shape[0])


def _rows_rule(out_size_t, out_size, n):
    if out_size_t is not None:
        return -1
    return out_size[0] if out_size and out_size[0] > 0 else n


def _feature_shape(op, x, y):
    if len(x.shape) != len(y.shape):
        raise ValueError(f"op '{op}': X and Y must have the same rank (the API pads the smaller one), received "
                         f"shapes {list(x.shape)} and {list(y.shape)}")
    return broadcast_shapes(op, tuple(x.shape[1:]), tuple(y.shape[1:]))


def _send_u_recv_infer(x, src, dst, out_size_t, reduce_op, out_size):
    _check_choice("send_u_recv", "reduce_op", reduce_op, REDUCES)
    _index_rule("send_u_recv", x, src, dst)
    rows = _rows_rule(out_size_t, out_size, x.shape[0])
    return Meta((rows, *x.shape[1:]), x.dtype), Meta((rows,), np.dtype(np.int32))


def _send_ue_recv_infer(x, y, src, dst, out_size_t, message_op, reduce_op, out_size):
    _check_choice("send_ue_recv", "message_op", message_op, MESSAGES)
    _check_choice("send_ue_recv", "reduce_op", reduce_op, REDUCES)
    _index_rule("send_ue_recv", x, src, dst)
    if -1 not in (y.shape[0], src.shape[0]) and y.shape[0] != src.shape[0]:
        raise ValueError(f"op 'send_ue_recv': Y must have one row per edge ({src.shape[0]}), received shape "
                         f"{list(y.shape)}")
    rows = _rows_rule(out_size_t, out_size, x.shape[0])
    return Meta((rows, *_feature_shape("send_ue_recv", x, y)), x.dtype), Meta((rows,), np.dtype(np.int32))


def _send_uv_infer(x, y, src, dst, message_op):
    _check_choice("send_uv", "message_op", message_op, MESSAGES)
    _index_rule("send_uv", x, src, dst, ("src_index", "dst_index"))
    return Meta((src.shape[0], *_feature_shape("send_uv", x, y)), x.dtype)


def _edge_grad(g, message, reduce_op):
    """The gradient reaching each edge's message: dout gathered at the destinations (divided by their counts for
    MEAN, kept only where the message is the result for MAX/MIN)."""
    dst = g.input("Dst_index")
    d = gather(g.output_grad("Out"), dst)
    if reduce_op == "MEAN":
        d = d / _per_edge(g, cast(gather(g.output("Dst_count"), dst), dtype=d.dtype.name), d.ndim)
    elif reduce_op in ("MAX", "MIN"):
        d = where(equal(message(), gather(g.output("Out"), dst)), d, 0.0)
    return d


def _scatter_rows(g, value, like, index):
    """value [E, ...] (reduced to like's feature shape) added into zeros shaped like `like` at the rows `index`."""
    return g.op("gather_grad", like, index, g.reduce_as(value, gather(like, index)), axis=0)


def _send_u_recv_grad(g):
    if g.needs("X") and g.output_grad("Out") is not None:
        x, src = g.input("X"), g.input("Src_index")
        d = _edge_grad(g, lambda: gather(x, src), g.attrs["reduce_op"])
        g.set_input_grad("X", g.op("gather_grad", x, src, d, axis=0))


def _message_grads(g, slots, src, dy_index, d):
    """Gradients of the inputs `slots` (x, y) of messages x[src] (+ or *) y', where y' = y, or y gathered at
    dy_index (send_uv), given the gradient d reaching each message."""
    x, y = g.input(slots[0]), g.input(slots[1])
    ye = y if dy_index is None else gather(y, dy_index)
    mul = g.attrs["message_op"] == "MUL"
    if g.needs(slots[0]):
        g.set_input_grad(slots[0], _scatter_rows(g, d * ye if mul else d, x, src))
    if g.needs(slots[1]):
        dye = d * gather(x, src) if mul else d
        g.set_input_grad(slots[1], g.reduce_as(dye, y) if dy_index is None else _scatter_rows(g, dye, y, dy_index))


def _send_ue_recv_grad(g):
    if g.needs_any("X", "Y") and g.output_grad("Out") is not None:
        x, y, src = g.input("X"), g.input("Y"), g.input("Src_index")
        mul = g.attrs["message_op"] == "MUL"
        d = _edge_grad(g, lambda: gather(x, src) * y if mul else gather(x, src) + y, g.attrs["reduce_op"])
        _message_grads(g, ("X", "Y"), src, None, d)


def _send_uv_grad(g):
    if g.needs_any("x", "y"):
        _message_grads(g, ("x", "y"), g.input("src_index"), g.input("dst_index"), g.output_grad("out"))


_OUT_SIZE = {"out_size": [0]}
SEND_U_RECV = register_op(
    "send_u_recv", inputs=("X", "Src_index", "Dst_index", "Out_size"), outputs=("Out", "Dst_count"),
    intermediate_outputs=("Dst_count",), nondiff_inputs=("Src_index", "Dst_index"), host_inputs=("Out_size",),
    forward=_send_u_recv_forward, infer=_send_u_recv_infer, grad=_send_u_recv_grad,
    attrs={"reduce_op": "SUM", **_OUT_SIZE}, double_grad=True, host_sync=VALUE_CHECK)
SEND_UE_RECV = register_op(
    "send_ue_recv", inputs=("X", "Y", "Src_index", "Dst_index", "Out_size"), outputs=("Out", "Dst_count"),
    intermediate_outputs=("Dst_count",), nondiff_inputs=("Src_index", "Dst_index"), host_inputs=("Out_size",),
    same_dtype=("X", "Y"), forward=_send_ue_recv_forward, infer=_send_ue_recv_infer, grad=_send_ue_recv_grad,
    attrs={"message_op": "ADD", "reduce_op": "SUM", **_OUT_SIZE}, double_grad=True, host_sync=VALUE_CHECK)
SEND_UV = register_op(
    "send_uv", inputs=("x", "y", "src_index", "dst_index"), outputs=("out",),
    nondiff_inputs=("src_index", "dst_index"), same_dtype=("x", "y"), forward=_send_uv_forward,
    infer=_send_uv_infer, grad=_send_uv_grad, attrs={"message_op": "ADD"}, double_grad=True, host_sync=VALUE_CHECK)


# ---- neighbour sampling ----------------------------------------------------------------------------------------
def _same_index_dtype(op, slots, arrays):
    """Paddle's sampling and reindexing kernels read every id tensor as one integer type."""
    for slot, a in zip(slots, arrays):
        _check_int_index(op, a, slot)
    if len({np.dtype(a.dtype) for a in arrays}) > 1:
        raise ValueError(f"op '{op}': {', '.join(slots)} must share one dtype, received "
                         f"{', '.join(str(a.dtype) for a in arrays)}")


def _owners(xp, counts):
    """For counts [k], the group of each of their sum(counts) elements: numpy.repeat(arange(k), counts), written so
    CuPy (whose repeat takes no array of counts) runs it too."""
    ends = xp.cumsum(counts)
    total = int(ends[-1]) if counts.size else 0
    return xp.searchsorted(ends, xp.arange(total), side="right")


def _neighbour_edges(xp, colptr, nodes):
    """The CSC edge positions of each node's neighbours, node by node: (positions, node of each, its rank among
    the node's neighbours, degrees)."""
    start = colptr[nodes]
    degree = (colptr[nodes + 1] - start).astype(np.int64)
    owner = _owners(xp, degree)
    first = xp.cumsum(degree) - degree
    rank = xp.arange(owner.size) - first[owner]
    return start[owner].astype(np.int64) + rank, owner, rank, degree


def _sample(xp, op, row, colptr, nodes, eids, keys_of, sample_size, return_eids):
    """Each node's neighbours, all of them when it has at most sample_size (or sample_size is -1), else the
    sample_size with the largest keys (keys_of(edge positions)), kept in the graph's order."""
    if colptr.size == 0:
        raise ValueError(f"op '{op}': colptr must hold at least one offset, received an empty tensor")
    _check_in_range(op, nodes, "input nodes", colptr.size - 1)
    pos, owner, rank, degree = _neighbour_edges(xp, colptr, nodes.astype(np.int64))
    _check_in_range(op, pos, "neighbour positions (colptr)", row.size)
    if sample_size >= 0 and pos.size:
        keys = keys_of(pos)
        by_key = xp.argsort(-keys, kind="stable")
        order = by_key[xp.argsort(owner[by_key], kind="stable")]  # node by node, the largest keys first
        keep = xp.zeros(pos.size, dtype=bool)
        keep[order[rank < sample_size]] = True
        pos = pos[keep]
        degree = xp.minimum(degree, sample_size)
    out_eids = xp.take(eids, pos) if return_eids else xp.zeros(0, dtype=row.dtype)
    return xp.take(row, pos), degree.astype(np.int32), out_eids


def _sample_neighbors_forward(xp, row, colptr, x, eids, perm_buffer, sample_size, return_eids, flag_perm_buffer):
    _same_index_dtype("graph_sample_neighbors", ("Row", "Col_Ptr", "X"), (row, colptr, x))
    draws = rng_for(xp, 0)
    return _sample(xp, "graph_sample_neighbors", row, colptr, x, eids, lambda pos: draws.random(pos.size),
                   sample_size, return_eids)


def _weighted_sample_forward(xp, row, colptr, edge_weight, input_nodes, eids, sample_size, return_eids):
    op = "weighted_sample_neighbors"
    _same_index_dtype(op, ("row", "colptr", "input_nodes"), (row, colptr, input_nodes))
    if edge_weight.shape != row.shape:
        raise ValueError(f"op '{op}': edge_weight must have one weight per edge ({row.size}), received shape "
                         f"{list(edge_weight.shape)}")
    draws = rng_for(xp, 0)

    def keys(pos):  # Efraimidis-Spirakis A-Res: the largest u ** (1 / w) are a weighted draw without replacement
        weight = edge_weight[pos].astype(np.float64)
        drawable = weight > 0  # a zero weight is drawn last, after every positive one
        return xp.where(drawable, xp.log(draws.random(pos.size)) / xp.where(drawable, weight, 1.0), -np.inf)
    return _sample(xp, op, row, colptr, input_nodes, eids, keys, sample_size, return_eids)


def _sampled_infer(row, eids, return_eids):
    return (Meta((-1,), row.dtype), Meta((-1,), np.dtype(np.int32)),
            Meta((-1,), (eids.dtype if return_eids and eids is not None else row.dtype)))


def _check_eids(op, eids, return_eids):
    if return_eids and eids is None:
        raise ValueError(f"op '{op}': return_eids is True but no eids were given")


def _sample_neighbors_infer(row, colptr, x, eids, perm_buffer, sample_size, return_eids, flag_perm_buffer):
    _check_eids("graph_sample_neighbors", eids, return_eids)
    return _sampled_infer(row, eids, return_eids)


def _weighted_sample_infer(row, colptr, edge_weight, input_nodes, eids, sample_size, return_eids):
    _check_eids("weighted_sample_neighbors", eids, return_eids)
    return _sampled_infer(row, eids, return_eids)


_SAMPLING = {"sample_size": -1, "return_eids": False}
GRAPH_SAMPLE_NEIGHBORS = register_op(
    "graph_sample_neighbors", inputs=("Row", "Col_Ptr", "X", "Eids", "Perm_Buffer"),
    outputs=("Out", "Out_Count", "Out_Eids"), optional_inputs=("Eids", "Perm_Buffer"),
    forward=_sample_neighbors_forward, infer=_sample_neighbors_infer, attrs={**_SAMPLING, "flag_perm_buffer": False},
    host_sync=DATA_DEPENDENT_SHAPE, draws=True)
WEIGHTED_SAMPLE_NEIGHBORS = register_op(
    "weighted_sample_neighbors", inputs=("row", "colptr", "edge_weight", "input_nodes", "eids"),
    outputs=("out_neighbors", "out_count", "out_eids"), optional_inputs=("eids",),
    forward=_weighted_sample_forward, infer=_weighted_sample_infer, attrs=dict(_SAMPLING),
    host_sync=DATA_DEPENDENT_SHAPE, draws=True)


# ---- graph_khop_sampler ----------------------------------------------------------------------------------------
def _first_seen(xp, values):
    """(the distinct values in the order they first appear, the place of each of `values` among them)."""
    nodes, inverse = xp.unique(values, return_inverse=True)
    inverse = inverse.reshape(-1)
    first = xp.full(nodes.size, values.size, dtype=np.int64)
    _scatter_at(xp, first, inverse, xp.arange(values.size, dtype=np.int64), "min")
    order = xp.argsort(first, kind="stable")
    place = xp.empty(nodes.size, dtype=np.int64)
    place[order] = xp.arange(nodes.size)
    return nodes[order], place[inverse]


def _khop_forward(xp, row, colptr, x, eids, sample_sizes, return_eids):
    """Layer by layer: each frontier node's neighbours (sample_sizes[i] of them at random where it has more; all for
    -1), the next frontier the sampled nodes new to this one. Nodes are renumbered in the order they are met: the
    frontiers', then the sampled ones'."""
    op = "graph_khop_sampler"
    _same_index_dtype(op, ("Row", "Col_Ptr", "X"), (row, colptr, x))
    if not (row.size and colptr.size and x.size):
        raise ValueError(f"op '{op}': Row, Col_Ptr and X must not be empty, received sizes {row.size}, "
                         f"{colptr.size}, {x.size}")
    draws = rng_for(xp, 0)
    frontier, reindex_x = _first_seen(xp, x.reshape(-1))  # the first frontier is numbered first: its place is its id
    dsts, srcs, counts, edge_ids = [], [], [], []
    for layer, size in enumerate(sample_sizes):
        if frontier.size == 0:
            break
        src, count, out_eids = _sample(xp, op, row.reshape(-1), colptr.reshape(-1), frontier,
                                       None if eids is None else eids.reshape(-1), lambda pos: draws.random(pos.size),
                                       size, return_eids)
        if layer == 0 and src.size == 0:
            raise ValueError(f"op '{op}': the input nodes `X` should have at least one neighbour, but none of them "
                             "has any")
        dsts.append(frontier)
        srcs.append(src)
        counts.append(count)
        edge_ids.append(out_eids)
        frontier = xp.setdiff1d(xp.unique(src), frontier)
    dst_nodes, src_nodes = xp.concatenate(dsts), xp.concatenate(srcs)
    nodes, place = _first_seen(xp, xp.concatenate([dst_nodes, src_nodes]))
    edge_dst = place[_owners(xp, xp.concatenate(counts).astype(np.int64))]
    edge_src = place[dst_nodes.size:]
    out_eids = xp.concatenate(edge_ids) if return_eids else xp.zeros(0, dtype=row.dtype)
    return (edge_src.reshape(-1, 1).astype(row.dtype), edge_dst.reshape(-1, 1).astype(row.dtype),
            nodes.astype(row.dtype), reindex_x.astype(row.dtype), out_eids)


def _khop_infer(row, colptr, x, eids, sample_sizes, return_eids):
    _check_eids("graph_khop_sampler", eids, return_eids)
    edges = Meta((-1, 1), row.dtype)
    return (edges, edges, Meta((-1,), row.dtype), Meta((x.shape[0],), row.dtype),
            Meta((-1,), eids.dtype if return_eids else row.dtype))


GRAPH_KHOP_SAMPLER = register_op(
    "graph_khop_sampler", inputs=("Row", "Col_Ptr", "X", "Eids"),
    outputs=("Out_Src", "Out_Dst", "Sample_Index", "Reindex_X", "Out_Eids"), optional_inputs=("Eids",),
    forward=_khop_forward, infer=_khop_infer, attrs={"sample_sizes": [], "return_eids": False},
    host_sync=DATA_DEPENDENT_SHAPE, draws=True)


# ---- reindex_graph ---------------------------------------------------------------------------------------------
def _reindex_forward(xp, x, neighbors, count, value_buffer, index_buffer):
    """Out_Nodes: x, then the neighbours not in x in the order they first appear; Reindex_Src: each neighbour's
    place there; Reindex_Dst: the place in x of the node each neighbour belongs to (count[i] neighbours belong to
    x[i % len(x)]: reindex_heter_graph concatenates one count per edge type)."""
    op = "graph_reindex"
    _same_index_dtype(op, ("X", "Neighbors"), (x, neighbors))
    if count.dtype != np.int32:
        raise ValueError(f"op '{op}': Count must be an int32 tensor, received {count.dtype}")
    if int(count.sum()) != neighbors.size or (count.size and int(count.min()) < 0):
        raise ValueError(f"op '{op}': Count must split the {neighbors.size} neighbors, received counts summing "
                         f"to {int(count.sum())}")
    if count.size and not x.size:
        raise ValueError(f"op '{op}': X is empty but Count gives neighbours to {count.size} nodes")
    n = x.size
    nodes, inverse = xp.unique(xp.concatenate([x.reshape(-1), neighbors.reshape(-1)]), return_inverse=True)
    inverse = inverse.reshape(-1)
    at = xp.arange(inverse.size, dtype=np.int64)
    first = xp.full(nodes.size, inverse.size, dtype=np.int64)
    _scatter_at(xp, first, inverse, at, "min")
    in_x = xp.full(nodes.size, -1, dtype=np.int64)  # a node repeated in x keeps its last place, as Paddle's map
    _scatter_at(xp, in_x, inverse[:n], at[:n], "max")
    new = xp.nonzero(in_x < 0)[0]
    new = new[xp.argsort(first[new], kind="stable")]
    place = in_x.copy()
    place[new] = n + xp.arange(new.size)
    out_nodes = xp.concatenate([x.reshape(-1), nodes[new]])
    dst = _owners(xp, count.astype(np.int64)) % max(n, 1)
    return place[inverse[n:]].astype(x.dtype), dst.astype(x.dtype), out_nodes.astype(x.dtype)


def _reindex_infer(x, neighbors, count, value_buffer, index_buffer):
    return Meta((neighbors.shape[0],), x.dtype), Meta((neighbors.shape[0],), x.dtype), Meta((-1,), x.dtype)


GRAPH_REINDEX = register_op(
    "graph_reindex", inputs=("X", "Neighbors", "Count", "HashTable_Value", "HashTable_Index"),
    outputs=("Reindex_Src", "Reindex_Dst", "Out_Nodes"), optional_inputs=("HashTable_Value", "HashTable_Index"),
    forward=_reindex_forward, infer=_reindex_infer, host_sync=DATA_DEPENDENT_SHAPE)
