"""Mixture-of-experts routing: the ops of paddle.incubate.nn.functional's MoE names (Paddle ships them for GPU builds;
here the forwards are written once against xp and run on NumPy and CuPy alike).

- moe_gate_dispatch(x [S, H], gate_logits [S, E], corr_bias [E]?; k, capacity, use_pad): each token's top-k experts
  by gate_logits (+ corr_bias, which only steers the choice: combine_weights are gate_logits' own values). The S*k
  (token, choice) pairs are ordered by expert -- within an expert by token (use_pad=False) or by choice then token
  (use_pad=True, Paddle sorts the key expert << log2(k)+1 | choice) -- and the first `capacity` of each expert are
  kept. y holds the kept tokens' rows: at expert * capacity + rank (use_pad, [E * capacity, H]) or at the pair's
  position in that order ([S * k, H]); scatter_index [k, S] is the row each pair went to (0 where dropped, its
  combine weight then 0 too), expert_offset [E] the running count of pairs up to each expert (int64), expert_id
  [S, k] (int32). The gradient (Paddle's moe_gate_dispatch_grad) gathers dy back to x over the pairs whose combine
  weight is > 0 and puts dcombine_weights at each pair's expert of dgate_logits, masked alike.
- moe_gate_dispatch_permute: use_pad's routing with y laid out [E / world_size, world_size, capacity, H] (local
  expert, rank) for an all-to-all; scatter_index keeps use_pad's numbering.
- moe_gate_dispatch_partial_nosoftmaxtopk(x, combine_weights [S, k], expert_id [S, k]; ..., expert_start_index,
  expert_end_index, reverse_token_drop): one rank's share of a dispatch whose top-k was taken before: only the pairs
  of experts in [start, end) are routed, in the (expert, choice, token) order; without use_pad the first (or, with
  reverse_token_drop, the last) `capacity` pairs of each expert are kept and y holds them packed ([kept, H], within an
  expert by token), with use_pad y is [(end - start) * capacity, H] (each expert's first `capacity` pairs, by
  token). scatter_index_rev is the token of each row of y (num_rows for padding), expert_offset the global count of
  pairs per expert, expert_nums_local the routed count per local expert; combine weights of pairs not routed are 0.
  Its gradient (Paddle's ..._grad) gathers dy back over the pairs of weight > 0 and passes dcombine_weights there.
- moe_combine(x [R, H], combine_weights [S, k], scatter_index [S, k]): y[s] = sum_j w[s, j] * x[idx[s, j]].
- cal_aux_loss: the load-balancing loss sum_e(me_e * ce_e) * E (/ moe_k with use_group), me the mean gate
  probability and ce the dispatched fraction per expert over seqlen tokens, as Paddle's math_cal_aux_loss.
- expand_modality_expert_id, build_src_rank_and_local_expert_id: the integer bookkeeping of multi-modal and
  expert-parallel routing.
"""
import numpy as np

from .conv import scatter_add
from .registry import DATA_DEPENDENT_SHAPE, Meta, register_op
from .shape_rules import check_float

_INT32 = np.dtype("int32")
_INT64 = np.dtype("int64")


def _check_rank(op, meta, slot, rank):
    if meta is not None and len(meta.shape) != rank:
        raise ValueError(f"op '{op}': {slot} must be {rank}-D, received shape {list(meta.shape)}")


def _check_int(op, meta, slot, dtypes=(_INT32,)):
    if meta.dtype not in dtypes:
        raise TypeError(f"op '{op}': {slot} must be {' or '.join(str(d) for d in dtypes)}, received {meta.dtype}")


# ---- routing ---------------------------------------------------------------------------------------------------
def _route(xp, gate_logits, corr_bias, k, capacity, use_pad):
    """The routing both dispatch ops share: (combine_weights, expert_id, expert_offset, kept, dest, source), where
    for the S*k pairs in routing order `source` is the pair's flat index token * k + choice, `dest` its row in the
    use_pad numbering (expert * capacity + rank) or its position (without use_pad) and `kept` whether it fits in
    its expert's capacity."""
    rows, experts = gate_logits.shape
    scores = gate_logits if corr_bias is None else gate_logits + corr_bias
    expert_id = xp.argsort(-scores, axis=1, kind="stable")[:, :k].astype(_INT32)
    combine = xp.take_along_axis(gate_logits, expert_id.astype(_INT64), axis=1)
    flat = expert_id.reshape(-1).astype(_INT64)
    pairs = xp.arange(rows * k, dtype=_INT64)
    key = flat * k + pairs % k if use_pad else flat
    source = xp.argsort(key, kind="stable")
    sorted_expert = flat[source]
    counts = xp.bincount(flat, minlength=experts)
    expert_offset = xp.cumsum(counts).astype(_INT64)
    rank = pairs - (expert_offset - counts)[sorted_expert]
    kept = rank < capacity
    dest = sorted_expert * capacity + rank if use_pad else pairs
    return combine, expert_id, expert_offset, kept, dest, source


def _scatter_kept(xp, values, target, keep, length, fill):
    """[length, ...] filled with `fill`, values[i] written at target[i] where keep[i]: the others land on a spare
    last row that is cut off, so no boolean mask (a device-to-host sync on a GPU) sizes anything."""
    out = xp.full((length + 1,) + values.shape[1:], fill, dtype=values.dtype)
    out[xp.where(keep, target, length)] = values
    return out[:length]


def _dispatch(xp, x, gate_logits, corr_bias, k, capacity, use_pad, y_rows, y_row_of):
    combine, expert_id, expert_offset, kept, dest, source = _route(xp, gate_logits, corr_bias, k, capacity, use_pad)
    rows = x.shape[0]
    scatter_index = xp.zeros(rows * k, dtype=_INT32)
    scatter_index[source] = xp.where(kept, dest, 0).astype(_INT32)  # source is a permutation of the pairs
    combine = combine.reshape(-1)
    combine[source] = xp.where(kept, combine[source], 0)
    y = _scatter_kept(xp, x[source // k], y_row_of(dest), kept, y_rows, 0)
    scatter_index = scatter_index.reshape(rows, k).T.copy()
    return y, combine.reshape(rows, k), scatter_index, expert_offset, expert_id


def _dispatch_forward(xp, x, gate_logits, corr_bias, k, capacity, use_pad):
    experts = gate_logits.shape[1]
    y_rows = experts * capacity if use_pad else x.shape[0] * k
    return _dispatch(xp, x, gate_logits, corr_bias, k, capacity, use_pad, y_rows, lambda dest: dest)


def _permuted_row(capacity, world_size, local_experts):
    """The row of y (as [local expert, rank, capacity] flattened) of use_pad's row expert * capacity + rank_in."""
    def row(dest):
        expert, within = dest // capacity, dest % capacity
        return ((expert % local_experts) * world_size + expert // local_experts) * capacity + within
    return row


def _permute_forward(xp, x, gate_logits, corr_bias, k, capacity, world_size):
    experts, hidden = gate_logits.shape[1], x.shape[1]
    local = experts // world_size
    y, *rest = _dispatch(xp, x, gate_logits, corr_bias, k, capacity, True, experts * capacity,
                         _permuted_row(capacity, world_size, local))
    return (y.reshape(local, world_size, capacity, hidden), *rest)


def _check_dispatch(op, x, gate_logits, corr_bias, k, capacity):
    _check_rank(op, x, "x", 2)
    _check_rank(op, gate_logits, "gate_logits", 2)
    _check_rank(op, corr_bias, "corr_bias", 1)
    check_float(op, x, "x")
    check_float(op, gate_logits, "gate_logits", real=True)
    if corr_bias is not None and corr_bias.dtype != gate_logits.dtype:
        raise TypeError(f"op '{op}': corr_bias must have gate_logits' dtype {gate_logits.dtype}, received "
                        f"{corr_bias.dtype}")
    if -1 not in (x.shape[0], gate_logits.shape[0]) and x.shape[0] != gate_logits.shape[0]:
        raise ValueError(f"op '{op}': gate_logits must have x's {x.shape[0]} rows, received shape "
                         f"{list(gate_logits.shape)}")
    experts = gate_logits.shape[1]
    if k < 1 or (experts != -1 and k > experts):
        raise ValueError(f"op '{op}': k must lie in [1, num_experts={experts}], received {k}")
    if capacity < 0:
        raise ValueError(f"op '{op}': capacity must be >= 0, received {capacity}")
    return x.shape[0], experts


def _routing_metas(rows, experts, k, gate_logits):
    return (Meta((rows, k), gate_logits.dtype), Meta((k, rows), _INT32), Meta((experts,), _INT64),
            Meta((rows, k), _INT32))


def _dispatch_infer(x, gate_logits, corr_bias, k, capacity, use_pad):
    rows, experts = _check_dispatch("moe_gate_dispatch", x, gate_logits, corr_bias, k, capacity)
    if use_pad:
        y_rows = -1 if experts == -1 else experts * capacity
    else:
        y_rows = -1 if rows == -1 else rows * k
    return (Meta((y_rows, x.shape[1]), x.dtype), *_routing_metas(rows, experts, k, gate_logits))


def _permute_infer(x, gate_logits, corr_bias, k, capacity, world_size):
    op = "moe_gate_dispatch_permute"
    rows, experts = _check_dispatch(op, x, gate_logits, corr_bias, k, capacity)
    if world_size < 1 or (experts != -1 and experts % world_size):
        raise ValueError(f"op '{op}': num_experts ({experts}) must be divisible by world_size, received "
                         f"world_size={world_size}")
    local = -1 if experts == -1 else experts // world_size
    return (Meta((local, world_size, capacity, x.shape[1]), x.dtype), *_routing_metas(rows, experts, k, gate_logits))


def _set_grads(g, grads):
    """Deliver each slot's gradient reference where the slot needs one."""
    for slot, ref in grads.items():
        if g.needs(slot):
            g.set_input_grad(slot, ref)


def _dispatch_grad_maker(grad_type):
    def grad(g):
        if not (g.needs("x") or g.needs("gate_logits")):
            return
        dx, dgate = g.op(grad_type, g.output("combine_weights"), g.output("scatter_index"), g.output("expert_id"),
                         g.output_grad_or_zeros("y"), g.output_grad_or_zeros("combine_weights"),
                         num_experts=g.shape(g.input("gate_logits"))[1], **g.attrs)
        _set_grads(g, {"x": dx, "gate_logits": dgate})
    return grad


def _dispatch_backward(xp, combine_weights, scatter_index, expert_id, y_grad, combine_weights_grad, num_experts,
                       y_row_of):
    """(x_grad, gate_logits_grad): the rows of y_grad each kept pair was dispatched to, summed per token, and the
    combine weights' gradient at each pair's expert -- both over the pairs whose combine weight is > 0, as Paddle's
    gather_with_mask / topk_grad_with_mask."""
    rows, k = combine_weights.shape
    live = combine_weights > 0
    flat_grad = y_grad.reshape(-1, y_grad.shape[-1])
    gathered = flat_grad[y_row_of(scatter_index.T.astype(_INT64))]  # [S, k, H]
    x_grad = (gathered * live[..., None].astype(y_grad.dtype)).sum(axis=1)
    gate_grad = xp.zeros((rows, num_experts), dtype=combine_weights_grad.dtype)
    gate_grad[xp.arange(rows)[:, None], expert_id.astype(_INT64)] = xp.where(live, combine_weights_grad, 0)
    return x_grad.astype(y_grad.dtype, copy=False), gate_grad


def _dispatch_grad_forward(xp, combine_weights, scatter_index, expert_id, y_grad, combine_weights_grad, k,
                           capacity, use_pad, num_experts):
    return _dispatch_backward(xp, combine_weights, scatter_index, expert_id, y_grad, combine_weights_grad,
                              num_experts, lambda dest: dest)


def _permute_grad_forward(xp, combine_weights, scatter_index, expert_id, y_grad, combine_weights_grad, k, capacity,
                          world_size, num_experts):
    row = _permuted_row(capacity, world_size, num_experts // world_size)
    return _dispatch_backward(xp, combine_weights, scatter_index, expert_id, y_grad, combine_weights_grad,
                              num_experts, row)


def _dispatch_grad_infer(combine_weights, scatter_index, expert_id, y_grad, combine_weights_grad, num_experts,
                         **attrs):
    rows = combine_weights.shape[0]
    return Meta((rows, y_grad.shape[-1]), y_grad.dtype), Meta((rows, num_experts), combine_weights_grad.dtype)


_DISPATCH_OUTPUTS = ("y", "combine_weights", "scatter_index", "expert_offset", "expert_id")
_DISPATCH_GRAD = dict(inputs=("combine_weights", "scatter_index", "expert_id", "y_grad", "combine_weights_grad"),
                      outputs=("x_grad", "gate_logits_grad"), infer=_dispatch_grad_infer)

MOE_GATE_DISPATCH = register_op(
    "moe_gate_dispatch", inputs=("x", "gate_logits", "corr_bias"), outputs=_DISPATCH_OUTPUTS,
    optional_inputs=("corr_bias",), nondiff_inputs=("corr_bias",), forward=_dispatch_forward, infer=_dispatch_infer,
    grad=_dispatch_grad_maker("moe_gate_dispatch_grad"),
    attrs={"k": 2, "capacity": 0, "use_pad": True})
MOE_GATE_DISPATCH_GRAD = register_op(
    "moe_gate_dispatch_grad", forward=_dispatch_grad_forward, **_DISPATCH_GRAD,
    attrs={"k": 2, "capacity": 0, "use_pad": True, "num_experts": 1})
MOE_GATE_DISPATCH_PERMUTE = register_op(
    "moe_gate_dispatch_permute", inputs=("x", "gate_logits", "corr_bias"), outputs=_DISPATCH_OUTPUTS,
    optional_inputs=("corr_bias",), nondiff_inputs=("corr_bias",), forward=_permute_forward, infer=_permute_infer,
    grad=_dispatch_grad_maker("moe_gate_dispatch_permute_grad"),
    attrs={"k": 2, "capacity": 0, "world_size": 1})
MOE_GATE_DISPATCH_PERMUTE_GRAD = register_op(
    "moe_gate_dispatch_permute_grad", forward=_permute_grad_forward, **_DISPATCH_GRAD,
    attrs={"k": 2, "capacity": 0, "world_size": 1, "num_experts": 1})


# ---- partial dispatch (top-k taken by the caller) -------------------------------------------------------------
def _partial_forward(xp, x, combine_weights, expert_id, k, capacity, num_experts, use_pad, expert_start_index,
                     expert_end_index, reverse_token_drop):
    rows = x.shape[0]
    flat = expert_id.reshape(-1).astype(_INT64)
    pairs = xp.arange(rows * k, dtype=_INT64)
    expert_offset = xp.bincount(flat, minlength=num_experts)[:num_experts].astype(_INT64)
    local = (flat >= expert_start_index) & (flat < expert_end_index)
    routed_expert = xp.where(local, flat, num_experts)  # the kernels' sort key: out-of-range pairs go last
    order = xp.argsort(routed_expert * k + pairs % k, kind="stable")  # (expert, choice, token)
    sorted_expert = routed_expert[order]
    counts = xp.bincount(sorted_expert, minlength=num_experts + 1)[:num_experts]
    start = xp.cumsum(counts) - counts
    position = xp.arange(order.size, dtype=_INT64)
    in_range = sorted_expert < num_experts
    clipped = xp.minimum(sorted_expert, num_experts - 1)
    rank = position - start[clipped]
    if reverse_token_drop:
        rank = counts[clipped] - 1 - rank
    kept = in_range & (rank < capacity)
    kept_counts = xp.bincount(xp.where(kept, sorted_expert, num_experts), minlength=num_experts + 1)[:num_experts]
    expert_nums_local = (counts if use_pad else kept_counts).astype(_INT64)
    token = order // k
    combine = combine_weights.reshape(-1).copy()
    combine[order] = xp.where(kept, combine[order], 0)
    # rows of y: per local expert its kept pairs by token; with use_pad each expert owns `capacity` rows
    by_token = xp.lexsort(xp.stack([token, sorted_expert])) if order.size else order
    keep = kept[by_token]
    position = xp.cumsum(keep) - 1  # among the kept pairs, in (expert, token) order
    if use_pad:
        first = (xp.cumsum(kept_counts) - kept_counts)[clipped[by_token]]
        y_row = (sorted_expert[by_token] - expert_start_index) * capacity + position - first
        length = (expert_end_index - expert_start_index) * capacity
    else:
        y_row = position
        length = int(kept_counts.sum())  # y's size depends on the values: read on the host
    tokens = token[by_token]
    scatter_index_rev = _scatter_kept(xp, tokens.astype(_INT32), y_row, keep, length, rows)
    y = _scatter_kept(xp, x[tokens], y_row, keep, length, 0)
    scatter_index = xp.zeros(rows * k, dtype=_INT32)
    scatter_index[order[by_token]] = xp.where(keep, y_row, 0).astype(_INT32)
    scatter_index = scatter_index.reshape(rows, k).T.copy()
    if not use_pad and length == 0:  # Paddle's kernel returns a 1-row y and a 0-D scatter_index_rev then
        y, scatter_index_rev = xp.zeros((1, x.shape[1]), dtype=x.dtype), xp.zeros((), dtype=_INT32)
    return (y, combine.reshape(combine_weights.shape), scatter_index, scatter_index_rev, expert_offset,
            expert_nums_local)


def _partial_infer(x, combine_weights, expert_id, k, capacity, num_experts, use_pad, expert_start_index,
                   expert_end_index, reverse_token_drop):
    op = "moe_gate_dispatch_partial_nosoftmaxtopk"
    _check_rank(op, x, "x", 2)
    _check_rank(op, combine_weights, "combine_weights", 2)
    _check_rank(op, expert_id, "expert_id", 2)
    check_float(op, x, "x")
    check_float(op, combine_weights, "combine_weights", real=True)
    _check_int(op, expert_id, "expert_id")
    rows = x.shape[0]
    if -1 not in (rows, combine_weights.shape[0]) and combine_weights.shape[0] != rows:
        raise ValueError(f"op '{op}': combine_weights must have x's {rows} rows, received "
                         f"{list(combine_weights.shape)}")
    if k < 1 or num_experts < k:
        raise ValueError(f"op '{op}': need 1 <= k <= num_experts, received k={k}, num_experts={num_experts}")
    if not 0 <= expert_start_index < expert_end_index <= num_experts:
        raise ValueError(f"op '{op}': need 0 <= expert_start_index < expert_end_index <= num_experts, received "
                         f"[{expert_start_index}, {expert_end_index}) of {num_experts}")
    if reverse_token_drop and use_pad:
        raise ValueError(f"op '{op}': use_pad must be False when reverse_token_drop is True")
    length = (expert_end_index - expert_start_index) * capacity if use_pad else -1
    return (Meta((length, x.shape[1]), x.dtype), Meta(tuple(combine_weights.shape), combine_weights.dtype),
            Meta((k, rows), _INT32), Meta((length,), _INT32), Meta((num_experts,), _INT64),
            Meta((num_experts,), _INT64))


def _partial_grad(g):
    if not (g.needs("x") or g.needs("combine_weights")):
        return
    dx, dw = g.op("moe_gate_dispatch_partial_nosoftmaxtopk_grad", g.output("combine_weights_out"),
                  g.output("scatter_index"), g.output_grad_or_zeros("y"),
                  g.output_grad_or_zeros("combine_weights_out"))
    _set_grads(g, {"x": dx, "combine_weights": dw})


def _partial_grad_forward(xp, combine_weights_out, scatter_index, y_grad, combine_weights_out_grad):
    """dx over the pairs routed (weight > 0, row of y inside y_grad), dcombine_weights passed where weight > 0."""
    live = (combine_weights_out > 0) & (scatter_index.T < y_grad.shape[0])
    gathered = y_grad[xp.where(live, scatter_index.T, 0).astype(_INT64)]
    x_grad = (gathered * live[..., None].astype(y_grad.dtype)).sum(axis=1).astype(y_grad.dtype, copy=False)
    return x_grad, xp.where(combine_weights_out > 0, combine_weights_out_grad, 0).astype(combine_weights_out.dtype)


_PARTIAL_ATTRS = {"k": 2, "capacity": 0, "num_experts": 1, "use_pad": True, "expert_start_index": 0,
                  "expert_end_index": 1, "reverse_token_drop": False}
MOE_GATE_DISPATCH_PARTIAL_NOSOFTMAXTOPK = register_op(
    "moe_gate_dispatch_partial_nosoftmaxtopk", inputs=("x", "combine_weights", "expert_id"),
    outputs=("y", "combine_weights_out", "scatter_index", "scatter_index_rev", "expert_offset", "expert_nums_local"),
    nondiff_inputs=("expert_id",), forward=_partial_forward, infer=_partial_infer, grad=_partial_grad,
    attrs=_PARTIAL_ATTRS, host_sync=lambda attrs: None if attrs["use_pad"] else DATA_DEPENDENT_SHAPE)
MOE_GATE_DISPATCH_PARTIAL_NOSOFTMAXTOPK_GRAD = register_op(
    "moe_gate_dispatch_partial_nosoftmaxtopk_grad",
    inputs=("combine_weights_out", "scatter_index", "y_grad", "combine_weights_out_grad"),
    outputs=("x_grad", "combine_weights_grad"), forward=_partial_grad_forward,
    infer=lambda w, index, y_grad, w_grad: (Meta((w.shape[0], y_grad.shape[-1]), y_grad.dtype),
                                            Meta(tuple(w.shape), w.dtype)))


# ---- combine ---------------------------------------------------------------------------------------------------
def _combine_forward(xp, x, combine_weights, scatter_index):
    picked = x[scatter_index.astype(_INT64)]  # [S, k, H]
    return (picked * combine_weights[..., None]).sum(axis=1).astype(x.dtype, copy=False)


def _combine_infer(x, combine_weights, scatter_index):
    op = "moe_combine"
    _check_rank(op, x, "x", 2)
    _check_rank(op, combine_weights, "combine_weights", 2)
    _check_rank(op, scatter_index, "scatter_index", 2)
    check_float(op, x, "x", real=True)
    if combine_weights.dtype != x.dtype:
        raise TypeError(f"op '{op}': combine_weights must have x's dtype {x.dtype}, received {combine_weights.dtype}")
    _check_int(op, scatter_index, "scatter_index")
    if -1 not in scatter_index.shape + combine_weights.shape and scatter_index.shape != combine_weights.shape:
        raise ValueError(f"op '{op}': scatter_index must be shaped as combine_weights {list(combine_weights.shape)}, "
                         f"received {list(scatter_index.shape)}")
    return Meta((combine_weights.shape[0], x.shape[1]), x.dtype)


def _combine_grad(g):
    dx, dw = g.op("moe_combine_grad", g.input("x"), g.input("combine_weights"), g.input("scatter_index"),
                  g.output_grad_or_zeros("y"))
    _set_grads(g, {"x": dx, "combine_weights": dw})


def _combine_grad_forward(xp, x, combine_weights, scatter_index, grad_y):
    index = scatter_index.astype(_INT64)
    grad_x = scatter_add(xp, xp.zeros_like(x), index.reshape(-1),
                         (combine_weights[..., None] * grad_y[:, None, :]).reshape(-1, x.shape[1]))
    grad_w = (x[index] * grad_y[:, None, :]).sum(axis=2)
    return grad_x, grad_w.astype(combine_weights.dtype, copy=False)


MOE_COMBINE = register_op("moe_combine", inputs=("x", "combine_weights", "scatter_index"), outputs=("y",),
                          nondiff_inputs=("scatter_index",), forward=_combine_forward, infer=_combine_infer,
                          grad=_combine_grad)
MOE_COMBINE_GRAD = register_op(
    "moe_combine_grad", inputs=("x", "combine_weights", "scatter_index", "grad_y"),
    outputs=("grad_x", "grad_combine_weights"), forward=_combine_grad_forward,
    infer=lambda x, w, index, grad_y: (Meta(tuple(x.shape), x.dtype), Meta(tuple(w.shape), w.dtype)))


# ---- cal_aux_loss ----------------------------------------------------------------------------------------------
def _aux_terms(xp, gate_prob, dispatch_mask, tokens_mask, dispatch_tokens_mask, num_experts, clip_min):
    """(seqlen, ce, scale): the token count the loss averages over (clipped below at clip_min), the dispatched
    fraction per expert, and the factor the forward value takes when the dispatch was counted over more tokens than
    gate_prob holds (1 otherwise)."""
    dtype = gate_prob.dtype
    scale = 1.0
    if dispatch_tokens_mask is not None:
        seqlen = dispatch_tokens_mask.astype(dtype).sum()
        if tokens_mask is not None and gate_prob.shape[0] != dispatch_tokens_mask.shape[0]:
            scale = seqlen / xp.maximum(tokens_mask.astype(dtype).sum(), dtype.type(clip_min))
    elif tokens_mask is not None:
        seqlen = tokens_mask.astype(dtype).sum()
    else:
        seqlen = xp.asarray(gate_prob.size / num_experts, dtype=dtype)
    seqlen = xp.maximum(seqlen, dtype.type(clip_min))
    counts = dispatch_mask.sum(axis=0) if dispatch_mask.ndim == 2 else dispatch_mask
    return seqlen, counts.astype(dtype) / seqlen, scale


def _aux_factor(num_experts, use_group, moe_k):
    return num_experts / moe_k if use_group else float(num_experts)


def _aux_loss_forward(xp, gate_prob, dispatch_mask, tokens_mask, dispatch_tokens_mask, num_experts, use_group, moe_k,
                      clip_min):
    seqlen, ce, scale = _aux_terms(xp, gate_prob, dispatch_mask, tokens_mask, dispatch_tokens_mask, num_experts,
                                   clip_min)
    me = gate_prob.sum(axis=0) / seqlen
    loss = (me * ce).sum() * gate_prob.dtype.type(_aux_factor(num_experts, use_group, moe_k)) * scale
    return xp.asarray(loss, dtype=gate_prob.dtype), xp.asarray(seqlen, dtype=gate_prob.dtype), ce


def _aux_loss_grad_forward(xp, gate_prob, seqlen_float, ce, l_aux_loss_grad, num_experts, use_group, moe_k):
    """d l_aux / d gate_prob[s, e] = dl * ce[e] * factor / seqlen: the local loss's gradient, unscaled (Paddle's
    'forward local me, backward global me')."""
    factor = gate_prob.dtype.type(_aux_factor(num_experts, use_group, moe_k))
    row = l_aux_loss_grad * ce * factor / seqlen_float
    return xp.broadcast_to(row, gate_prob.shape).astype(gate_prob.dtype)


def _aux_loss_infer(gate_prob, dispatch_mask, tokens_mask, dispatch_tokens_mask, num_experts, use_group, moe_k,
                    clip_min):
    op = "cal_aux_loss"
    _check_rank(op, gate_prob, "gate_prob", 2)
    check_float(op, gate_prob, "gate_prob", real=True)
    if len(dispatch_mask.shape) not in (1, 2):
        raise ValueError(f"op '{op}': dispatch_mask must be 1-D or 2-D, received shape {list(dispatch_mask.shape)}")
    experts = gate_prob.shape[1]
    if -1 not in (experts, dispatch_mask.shape[-1]) and dispatch_mask.shape[-1] != experts:
        raise ValueError(f"op '{op}': dispatch_mask's last dim must be num_experts={experts}, received shape "
                         f"{list(dispatch_mask.shape)}")
    if use_group and moe_k == 0:
        raise ValueError(f"op '{op}': moe_k must be non-zero with use_group=True")
    return Meta((), gate_prob.dtype), Meta((), gate_prob.dtype), Meta((experts,), gate_prob.dtype)


def _aux_loss_grad(g):
    g.set_input_grad("gate_prob", g.op("cal_aux_loss_grad", g.input("gate_prob"), g.output("seqlen_float"),
                                       g.output("ce"), g.output_grad_or_zeros("l_aux_loss"), **{
                                           name: g.attrs[name] for name in ("num_experts", "use_group", "moe_k")}))


_AUX_ATTRS = {"num_experts": 1, "use_group": False, "moe_k": 1}
CAL_AUX_LOSS = register_op(
    "cal_aux_loss", inputs=("gate_prob", "dispatch_mask", "tokens_mask", "dispatch_tokens_mask"),
    outputs=("l_aux_loss", "seqlen_float", "ce"), optional_inputs=("tokens_mask", "dispatch_tokens_mask"),
    nondiff_inputs=("dispatch_mask", "tokens_mask", "dispatch_tokens_mask"), intermediate_outputs=("seqlen_float",
                                                                                                    "ce"),
    forward=_aux_loss_forward, infer=_aux_loss_infer, grad=_aux_loss_grad, attrs={**_AUX_ATTRS, "clip_min": 0.0})
CAL_AUX_LOSS_GRAD = register_op(
    "cal_aux_loss_grad", inputs=("gate_prob", "seqlen_float", "ce", "l_aux_loss_grad"), outputs=("gate_prob_grad",),
    forward=_aux_loss_grad_forward, infer=lambda gate_prob, *rest, **attrs: Meta(tuple(gate_prob.shape),
                                                                                 gate_prob.dtype),
    attrs=_AUX_ATTRS)


# ---- expert-id bookkeeping -------------------------------------------------------------------------------------
def _expand_modality_forward(xp, expert_id, num_expert_per_modality, group_size, modality_offset, is_group_expert):
    """Each choice's expert id in the two-modality numbering: (+ choice * group_size with grouped experts), then
    rank * 2 * per_modality + id_in_rank + modality_offset * per_modality."""
    e = expert_id.astype(_INT64)
    if is_group_expert:
        e = e + (xp.arange(expert_id.size, dtype=_INT64).reshape(expert_id.shape) % expert_id.shape[1]) * group_size
    if num_expert_per_modality > 0:
        per = num_expert_per_modality
        e = (e // per) * (per * 2) + e % per + modality_offset * per
    return e.astype(expert_id.dtype)


def _expand_modality_infer(expert_id, **attrs):
    op = "expand_modality_expert_id"
    _check_rank(op, expert_id, "expert_id", 2)
    _check_int(op, expert_id, "expert_id", (_INT32, _INT64))
    return Meta(tuple(expert_id.shape), expert_id.dtype)


EXPAND_MODALITY_EXPERT_ID = register_op(
    "expand_modality_expert_id", inputs=("expert_id",), outputs=("expert_id_out",),
    forward=_expand_modality_forward, infer=_expand_modality_infer,
    attrs={"num_expert_per_modality": 0, "group_size": 0, "modality_offset": 0, "is_group_expert": False})


def _src_rank_forward(xp, expert_num_global_tensor, expert_num_global, num_local_experts):
    """For the tokens counted per global expert (expert_num_global, on the host), each token's source rank
    (expert // num_local_experts) and local expert id (expert % num_local_experts), in expert order."""
    counts = np.asarray(expert_num_global, dtype=np.int64)
    expert = xp.asarray(np.repeat(np.arange(counts.size, dtype=np.int64), counts))
    return (expert // num_local_experts).astype(_INT32), (expert % num_local_experts).astype(_INT32)


def _src_rank_infer(expert_num_global_tensor, expert_num_global, num_local_experts):
    op = "build_src_rank_and_local_expert_id"
    _check_int(op, expert_num_global_tensor, "expert_num_global_tensor", (_INT64,))
    if num_local_experts < 1:
        raise ValueError(f"op '{op}': num_local_experts must be >= 1, received {num_local_experts}")
    if any(int(n) < 0 for n in expert_num_global):
        raise ValueError(f"op '{op}': expert_num_global must hold counts >= 0, received {list(expert_num_global)}")
    tokens = int(sum(int(n) for n in expert_num_global))
    return Meta((tokens,), _INT32), Meta((tokens,), _INT32)


BUILD_SRC_RANK_AND_LOCAL_EXPERT_ID = register_op(
    "build_src_rank_and_local_expert_id", inputs=("expert_num_global_tensor",), outputs=("vector", "local_expert_id"),
    meta_inputs=("expert_num_global_tensor",), forward=_src_rank_forward, infer=_src_rank_infer,
    attrs={"expert_num_global": [], "num_local_experts": 1})
