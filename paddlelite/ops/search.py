"""Sorting and searching: take_along_axis, top_k_v2, argsort (differentiable through the indices they pick),
where_index (nonzero), unique, accuracy and viterbi_decode (not differentiable)."""
import numpy as np

from ..framework.random import rng_for
from ..device.cuda import cupyx_for
from .conv import scatter_add
from .indexing import _check_bounds, _check_int_index
from .registry import DATA_DEPENDENT_SHAPE, Meta, VALUE_CHECK, register_op
from .tensor_args import scalar_value
from .shape_rules import check_float, normalize_axis


def _along_index(xp, index, axis):
    """The full fancy index that addresses x[..., index[...], ...] along `axis` (index has x's rank)."""
    idx = []
    for d in range(index.ndim):
        if d == axis:
            idx.append(index)
        else:
            shape = [1] * index.ndim
            shape[d] = index.shape[d]
            idx.append(xp.arange(index.shape[d]).reshape(shape))
    return tuple(idx)


# ---- take_along_axis ------------------------------------------------------------------------------
def _take_along_infer(x, index, axis):
    _check_int_index("take_along_axis", index)
    if len(index.shape) != len(x.shape):
        raise ValueError(f"op 'take_along_axis': Index must have the rank of X ({len(x.shape)}), "
                         f"received shape {list(index.shape)} for X of shape {list(x.shape)}")
    ax = normalize_axis("take_along_axis", axis, len(x.shape))
    for d, (a, b) in enumerate(zip(x.shape, index.shape)):
        if d != ax and a != b and -1 not in (a, b):
            raise ValueError(f"op 'take_along_axis': Index shape {list(index.shape)} must match X shape "
                             f"{list(x.shape)} except along axis {ax} (dim {d}: {b} vs {a})")
    return Meta(tuple(index.shape), x.dtype)


def _take_along_forward(xp, x, index, axis):
    ax = normalize_axis("take_along_axis", axis, x.ndim)
    _check_bounds("take_along_axis", index, x.shape[ax], axis)
    return xp.take_along_axis(x, index, axis=ax)


def _take_along_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("take_along_axis_grad", g.input("X"), g.input("Index"), g.output_grad("Out"),
                                   axis=g.attrs["axis"]))


TAKE_ALONG_AXIS = register_op("take_along_axis", inputs=("X", "Index"), outputs=("Out",), nondiff_inputs=("Index",),
                              forward=_take_along_forward, infer=_take_along_infer, grad=_take_along_grad,
                              attrs={"axis": 0}, double_grad=True,
                              host_sync=VALUE_CHECK)


def _take_along_grad_forward(xp, x, index, dout, axis):
    if x.ndim == 0:  # sort, topk or mode of a 0-D tensor picked its only element
        return dout.copy()
    ax = normalize_axis("take_along_axis_grad", axis, x.ndim)
    dx = xp.zeros(x.shape, dtype=dout.dtype)
    scatter_add(xp, dx, _along_index(xp, index % x.shape[ax] if x.shape[ax] else index, ax), dout)
    return dx


def _take_along_grad_grad(g):
    if g.needs("OutGrad"):
        g.set_input_grad("OutGrad", g.op("take_along_axis", g.output_grad("XGrad"), g.input("Index"),
                                         axis=g.attrs["axis"]))


# dOut added into zeros shaped like X at the picked positions (repeated indices accumulate).
TAKE_ALONG_AXIS_GRAD = register_op(
    "take_along_axis_grad", inputs=("X", "Index", "OutGrad"), meta_inputs=("X",), outputs=("XGrad",), nondiff_inputs=("X", "Index"),
    forward=_take_along_grad_forward, infer=lambda x, index, dout, axis: Meta(tuple(x.shape), dout.dtype),
    grad=_take_along_grad_grad, attrs={"axis": 0}, double_grad=True)


# ---- argsort / top_k_v2: values plus the int64 indices they came from -------------------------------
def _stable_argsort(xp, key, axis):
    if xp is np:
        return np.argsort(key, axis=axis, kind="stable")
    return xp.argsort(key, axis=axis)  # CuPy's sort is stable


def _sort_indices(xp, x, axis, descending):
    """Stable sort order along axis: equal elements keep their order in either direction, and NaN sorts as the
    largest value (last ascending, first descending), as in Paddle and PyTorch. Descending is the ascending
    order of x reversed along axis, read backwards: ties come out in their original order, NaNs first, and no
    key is negated (which would overflow at an int's minimum)."""
    if not descending:
        return _stable_argsort(xp, x, axis)
    ascending_of_reversed = _stable_argsort(xp, xp.flip(x, axis), axis)
    return (x.shape[axis] - 1) - xp.flip(ascending_of_reversed, axis)


def _grad_through_indices(g):
    if g.needs("X"):  # zeros when only Indices was differentiated (as Paddle: an int output passes nothing back)
        g.set_input_grad("X", g.op("take_along_axis_grad", g.input("X"), g.output("Indices"),
                                   g.output_grad_or_zeros("Out"), axis=g.attrs["axis"]))


def _argsort_forward(xp, x, axis, descending):
    if x.ndim == 0:
        return x.copy(), xp.zeros((), dtype=np.int64)
    ax = normalize_axis("argsort", axis, x.ndim)
    idx = _sort_indices(xp, x, ax, descending).astype(np.int64)
    return xp.take_along_axis(x, idx, axis=ax), idx


def _argsort_infer(x, axis, descending):
    normalize_axis("argsort", axis, len(x.shape))
    return Meta(tuple(x.shape), x.dtype), Meta(tuple(x.shape), np.dtype(np.int64))


ARGSORT = register_op("argsort", inputs=("X",), outputs=("Out", "Indices"), forward=_argsort_forward,
                      infer=_argsort_infer, grad=_grad_through_indices, attrs={"axis": -1, "descending": False},
                      double_grad=True)


def _topk_forward(xp, x, k_t, k, axis, largest, sorted):
    k = int(scalar_value(k_t, k))
    if x.ndim == 0:
        if k != 1:
            raise ValueError(f"op 'top_k_v2': k must be 1 for a 0-D input, received {k}")
        return x.copy(), xp.zeros((), dtype=np.int64)
    ax = normalize_axis("top_k_v2", axis, x.ndim)
    if not 1 <= k <= x.shape[ax]:
        raise ValueError(f"op 'top_k_v2': k must lie in [1, {x.shape[ax]}] (the size of axis {axis}), received {k}")
    idx = _sort_indices(xp, x, ax, largest)
    idx = xp.take(idx, xp.arange(k), axis=ax).astype(np.int64)
    return xp.take_along_axis(x, idx, axis=ax), idx


def _topk_infer(x, k_t, k, axis, largest, sorted):
    if len(x.shape) == 0:
        return Meta((), x.dtype), Meta((), np.dtype(np.int64))
    ax = normalize_axis("top_k_v2", axis, len(x.shape))
    n = x.shape[ax]
    if k_t is not None:  # k known when the program runs
        k = -1
    elif k < 1 or (n != -1 and k > n):
        raise ValueError(f"op 'top_k_v2': k must lie in [1, {n}] (the size of axis {axis}), received {k}")
    shape = tuple(k if d == ax else s for d, s in enumerate(x.shape))
    return Meta(shape, x.dtype), Meta(shape, np.dtype(np.int64))


# k: the attr, or a 1-element int tensor (K)
TOP_K = register_op("top_k_v2", inputs=("X", "K"), outputs=("Out", "Indices"), host_inputs=("K",),
                    forward=_topk_forward, infer=_topk_infer, grad=_grad_through_indices,
                    attrs={"k": 1, "axis": -1, "largest": True, "sorted": True}, double_grad=True)


# ---- where_index (nonzero): [count, rank] int64 coordinates; count is data-dependent ----------------
WHERE_INDEX = register_op(
    "where_index", inputs=("Condition",), outputs=("Out",),
    forward=lambda xp, c: xp.stack(xp.nonzero(c), axis=1).astype(np.int64).reshape(-1, c.ndim),
    infer=lambda c: Meta((-1, len(c.shape)), np.dtype(np.int64)),
    host_sync=DATA_DEPENDENT_SHAPE)


# ---- sequence_mask: row i of the last axis is 1 below length x[i]; maxlen -1 means x's largest value -----
def _sequence_mask_forward(xp, x, maxlen, out_dtype):
    if maxlen < 0:
        maxlen = int(x.max()) if x.size else 0
    return (xp.arange(maxlen, dtype=x.dtype) < x[..., None]).astype(np.dtype(out_dtype))


def _sequence_mask_infer(x, maxlen, out_dtype):
    return Meta(tuple(x.shape) + (maxlen if maxlen >= 0 else -1,), np.dtype(out_dtype))


SEQUENCE_MASK = register_op("sequence_mask", inputs=("X",), outputs=("Y",), forward=_sequence_mask_forward,
                            infer=_sequence_mask_infer, attrs={"maxlen": -1, "out_dtype": "int64"},
                            host_sync="reads the largest length on the host when maxlen is not given")


# ---- unique: sorted distinct values (+ first indices, inverse, counts); sizes are data-dependent -----
def _unique_forward(xp, x, axis, dtype):
    if axis is None:
        out, index, inverse, counts = xp.unique(x.reshape(-1), return_index=True, return_inverse=True,
                                                return_counts=True)
    else:
        ax = normalize_axis("unique", axis, x.ndim)
        out, index, inverse, counts = xp.unique(x, return_index=True, return_inverse=True, return_counts=True,
                                                axis=ax)
    it = np.dtype(dtype)
    return out, index.astype(it), inverse.reshape(-1).astype(it), counts.astype(it)


def _unique_infer(x, axis, dtype):
    it = np.dtype(dtype)
    if it not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeError(f"op 'unique': dtype must be int32 or int64, received {dtype}")
    if axis is None:
        out_shape, n = (-1,), -1 if -1 in x.shape else int(np.prod(x.shape))
    else:
        ax = normalize_axis("unique", axis, len(x.shape))
        out_shape, n = tuple(-1 if d == ax else s for d, s in enumerate(x.shape)), x.shape[ax]
    return Meta(out_shape, x.dtype), Meta((-1,), it), Meta((n,), it), Meta((-1,), it)


UNIQUE = register_op("unique", inputs=("X",), outputs=("Out", "Indices", "Index", "Counts"),
                     forward=_unique_forward, infer=_unique_infer, attrs={"axis": None, "dtype": "int64"},
                     host_sync=DATA_DEPENDENT_SHAPE)


# ---- accuracy: fraction of rows whose label is among the top-k indices ------------------------------
def _accuracy_forward(xp, out, indices, label):
    hit = (indices == label.reshape(-1, 1)).any(axis=1)
    n = indices.shape[0]
    correct = xp.asarray(hit.sum(), dtype=np.int32)
    acc = xp.asarray(correct / n if n else 0.0, dtype=np.float32)
    return acc, correct, xp.asarray(n, dtype=np.int32)


def _accuracy_infer(out, indices, label):
    _check_int_index("accuracy", indices, "Indices")
    _check_int_index("accuracy", label, "Label")
    if len(indices.shape) != 2:
        raise ValueError(f"op 'accuracy': Indices must be 2-D [N, k], received shape {list(indices.shape)}")
    n = indices.shape[0]
    if len(label.shape) not in (1, 2) or (len(label.shape) == 2 and label.shape[1] != 1) or \
            (-1 not in (n, label.shape[0]) and label.shape[0] != n):
        raise ValueError(f"op 'accuracy': Label must have shape [{n}, 1] or [{n}], received {list(label.shape)}")
    # Paddle's shape rule gives all three Out's dtype; its kernel writes a float32 accuracy and int32 counts
    stat = Meta((), out.dtype)
    return stat, stat, stat


# Out (the top-k values) is in Paddle's signature; only the indices decide a hit
ACCURACY = register_op("accuracy", inputs=("Out", "Indices", "Label"), outputs=("Accuracy", "Correct", "Total"),
                       forward=_accuracy_forward, infer=_accuracy_infer)


# ---- auc: ROC area from bucketed positive/negative counts (Paddle's streaming auc op) -----------------
def _trapezoid_auc(xp, pos, neg):
    """The trapezoid sum over thresholds from high to low, divided by #pos * #neg (0 when either is 0)."""
    tot_pos = xp.cumsum(pos[::-1].astype(np.float64))
    tot_neg = xp.cumsum(neg[::-1].astype(np.float64))
    prev_pos = xp.concatenate([xp.zeros(1), tot_pos[:-1]])
    prev_neg = xp.concatenate([xp.zeros(1), tot_neg[:-1]])
    area = float(((tot_neg - prev_neg) * (tot_pos + prev_pos) / 2.0).sum())
    p, n = float(tot_pos[-1]), float(tot_neg[-1])
    return area / p / n if p > 0 and n > 0 else area


def _auc_forward(xp, predict, label, stat_pos, stat_neg, curve, num_thresholds, slide_steps):
    """Counts this batch's predictions (the last column: the positive probability) into num_thresholds + 1
    buckets. slide_steps = 0: added to the running [1, buckets] counts. slide_steps = k > 0: the counts hold k
    step rows, then their sum row, then a step counter; this batch replaces the oldest step row."""
    buckets = num_thresholds + 1
    prob = predict.reshape(predict.shape[0], -1)[:, -1]
    if prob.size and (float(prob.min()) < 0 or float(prob.max()) > 1):
        raise ValueError("op 'auc': the predict data must be in [0, 1]")
    index = (prob * num_thresholds).astype(np.int64)
    lab = label.reshape(-1)
    batch_pos = xp.bincount(index[lab > 0], minlength=buckets)
    batch_neg = xp.bincount(index[lab == 0], minlength=buckets)
    pos, neg = stat_pos.reshape(-1).copy(), stat_neg.reshape(-1).copy()
    if slide_steps == 0:
        pos[:buckets] += batch_pos
        neg[:buckets] += batch_neg
        total = slice(0, buckets)
    else:
        counter = (slide_steps + 1) * buckets
        cur = slice(int(pos[counter]) % slide_steps * buckets, (int(pos[counter]) % slide_steps + 1) * buckets)
        total = slice(slide_steps * buckets, (slide_steps + 1) * buckets)
        pos[total] += batch_pos - pos[cur]
        neg[total] += batch_neg - neg[cur]
        pos[cur], neg[cur] = batch_pos, batch_neg
    auc = _trapezoid_auc(xp, pos[total], neg[total])
    if slide_steps:
        pos[counter] += 1
        neg[counter] += 1
    return xp.asarray(auc, dtype=np.float64), pos.reshape(stat_pos.shape), neg.reshape(stat_neg.shape)


def _auc_infer(predict, label, stat_pos, stat_neg, curve, num_thresholds, slide_steps):
    _check_int_index("auc", label, "Label")
    if len(predict.shape) != 2:
        raise ValueError(f"op 'auc': Predict must be 2-D [N, 1 or 2], received shape {list(predict.shape)}")
    if curve != "ROC":
        raise ValueError(f"op 'auc': only curve='ROC' is computed, received {curve!r}")
    if num_thresholds < 1 or slide_steps < 0:
        raise ValueError(f"op 'auc': num_thresholds must be >= 1 and slide_steps >= 0, received {num_thresholds}, "
                         f"{slide_steps}")
    return Meta((), np.dtype(np.float64)), Meta(stat_pos.shape, stat_pos.dtype), Meta(stat_neg.shape, stat_neg.dtype)


AUC = register_op("auc", inputs=("Predict", "Label", "StatPos", "StatNeg"), outputs=("AUC", "StatPosOut", "StatNegOut"),
                  forward=_auc_forward, infer=_auc_infer,
                  attrs={"curve": "ROC", "num_thresholds": 4095, "slide_steps": 1},
                  host_sync="reads its statistics on the host")


# ---- cummax / cummin: running extreme and the (latest) index it came from -------------------------
def _running_extreme(name, better):
    def forward(xp, x, axis):
        if x.ndim == 0:
            return x.copy(), xp.zeros((), dtype=np.int64)
        ax = normalize_axis(name, axis, x.ndim)
        xm = xp.moveaxis(x, ax, 0)
        values, indices = xp.empty_like(xm), xp.zeros(xm.shape, dtype=np.int64)
        if xm.shape[0]:
            values[0] = xm[0]
        for i in range(1, xm.shape[0]):
            take = better(xm[i], values[i - 1])
            if xm.dtype.kind in "fc":  # a NaN takes over and stays (comparisons with it are False)
                take |= xp.isnan(xm[i])
            values[i] = xp.where(take, xm[i], values[i - 1])
            indices[i] = xp.where(take, i, indices[i - 1])
        return xp.moveaxis(values, 0, ax), xp.moveaxis(indices, 0, ax)

    def infer(x, axis):
        normalize_axis(name, axis, max(len(x.shape), 1))
        return Meta(tuple(x.shape), x.dtype), Meta(tuple(x.shape), np.dtype(np.int64))
    return register_op(name, inputs=("X",), outputs=("Out", "Indices"), forward=forward, infer=infer,
                       grad=_grad_through_indices, attrs={"axis": -1}, double_grad=True)


CUMMAX = _running_extreme("cummax", lambda a, b: a >= b)
CUMMIN = _running_extreme("cummin", lambda a, b: a <= b)


# ---- put_along_axis: values reduced into arr at index along axis ----------------------------------
_PUT_REDUCES = ("assign", "add", "mul", "mean", "amin", "amax")


def _put_targets(xp, arr, index, axis):
    """The flat position in arr each index element writes to (negative indices count from the end)."""
    ax = normalize_axis("put_along_axis", axis, arr.ndim)
    _check_bounds("put_along_axis", index, arr.shape[ax], axis)
    n = arr.shape[ax]
    idx = xp.broadcast_arrays(*_along_index(xp, index % n if n else index, ax))
    return xp.ravel_multi_index(tuple(i.reshape(-1) for i in idx), arr.shape) if index.size else \
        xp.zeros(0, dtype=np.int64)


def _writer_passes(xp, targets):
    """Source positions grouped so that no group writes a target twice; group r holds each target's r-th
    writer in source order (plain fancy assignment per group is then exact on NumPy and CuPy alike)."""
    order = _sort_indices(xp, targets, 0, False)
    sorted_t = targets[order]
    rank = xp.arange(targets.size) - xp.searchsorted(sorted_t, sorted_t, side="left")
    return [order[rank == r] for r in range(int(rank.max()) + 1 if targets.size else 0)]


def _identity(dtype, reduce):
    if reduce in ("add", "mean", "assign"):
        return 0
    if reduce == "mul":
        return 1
    big = np.inf if dtype.kind == "f" else np.iinfo(dtype).max
    return big if reduce == "amin" else -big


_UFUNCS = {"add": "add", "min": "minimum", "max": "maximum", "mul": "multiply"}


def _scatter_at(xp, target, idx, values, how):
    """target[idx] combined with values by `how` ('add', 'min', 'max', 'mul'), every repeated index included."""
    if xp is np:
        getattr(np, _UFUNCS[how]).at(target, idx, values)
    elif how == "add" or (how != "mul" and target.dtype.kind in "iu"):
        getattr(cupyx_for(xp), f"scatter_{how}")(target, idx, values)
    else:  # CuPy has no scatter-multiply, and its float scatter_min/max go through fminf/fmaxf (float64 rounded
        # to float32, NaN dropped): one exact fancy update per repeat, NaN propagating as NumPy's ufunc.at
        combine = getattr(xp, _UFUNCS[how])
        for sel in _writer_passes(xp, idx):
            target[idx[sel]] = combine(target[idx[sel]], values[sel])


def _last_writer(xp, targets, size):
    """For each element of arr (flat), the position in targets of the last index element writing it (-1: none)."""
    last = xp.full(size, -1, dtype=np.int64)
    _scatter_at(xp, last, targets, xp.arange(targets.size, dtype=np.int64), "max")
    return last


def _put_along_forward(xp, arr, index, values, axis, reduce, include_self):
    targets = _put_targets(xp, arr, index, axis)
    vals = values.reshape(-1)
    out = arr.copy().reshape(-1)
    if reduce == "assign":
        winners = _last_writer(xp, targets, out.size)[targets] == xp.arange(targets.size)
        out[targets[winners]] = vals[winners]
        return out.reshape(arr.shape)
    if not include_self:
        out[targets] = _identity(arr.dtype, reduce)
    _scatter_at(xp, out, targets, vals, {"add": "add", "mean": "add", "mul": "mul", "amin": "min", "amax": "max"}[reduce])
    if reduce == "mean":
        count = xp.bincount(targets, minlength=out.size)[targets] + int(include_self)
        out[targets] = out[targets] / count if out.dtype.kind in "fc" else out[targets] // count
    return out.reshape(arr.shape)


def _put_along_infer(arr, index, values, axis, reduce, include_self):
    _check_int_index("put_along_axis", index)
    if reduce not in _PUT_REDUCES:
        raise ValueError(f"op 'put_along_axis': reduce must be one of {', '.join(_PUT_REDUCES)}, received {reduce!r}")
    if len(index.shape) != len(arr.shape):
        raise ValueError(f"op 'put_along_axis': Index must have the rank of Input ({len(arr.shape)}), received "
                         f"shape {list(index.shape)}")
    if tuple(values.shape) != tuple(index.shape):
        raise ValueError(f"op 'put_along_axis': Value must have Index's shape {list(index.shape)}, received "
                         f"{list(values.shape)}")
    if values.dtype != arr.dtype:
        raise TypeError(f"op 'put_along_axis': Value has dtype {values.dtype} but Input has {arr.dtype}")
    normalize_axis("put_along_axis", axis, len(arr.shape))
    return Meta(tuple(arr.shape), arr.dtype)


def _put_along_grad(g):
    if g.needs_any("Input", "Value"):
        g.set_input_grads(("Input", "Value"), g.op("put_along_axis_grad", g.input("Input"), g.input("Index"),
                                                   g.input("Value"), g.output("Out"), g.output_grad("Out"), **g.attrs))


_PUT_ATTRS = {"axis": 0, "reduce": "assign", "include_self": True}
PUT_ALONG_AXIS = register_op("put_along_axis", inputs=("Input", "Index", "Value"), outputs=("Out",),
                             nondiff_inputs=("Index",), same_dtype=("Input", "Value"), forward=_put_along_forward,
                             infer=_put_along_infer, grad=_put_along_grad, attrs=dict(_PUT_ATTRS),
                             host_sync=VALUE_CHECK)


def _put_along_grad_forward(xp, arr, index, values, out, dout, axis, reduce, include_self):
    """Paddle's gradients: assign -> the last writer; add/mean -> every writer (mean divides by the count);
    mul -> dout times the other factors; amin/amax -> split evenly among the values equal to the result (arr's own
    element counted when it equals the result)."""
    targets = _put_targets(xp, arr, index, axis)
    vals, flat_out, flat_dout = values.reshape(-1), out.reshape(-1), dout.reshape(-1)
    darr = flat_dout.copy()
    written = xp.zeros(arr.size, dtype=bool)
    written[targets] = True
    picked = flat_dout[targets]
    if reduce == "assign":
        dvals = xp.where(_last_writer(xp, targets, arr.size)[targets] == xp.arange(targets.size), picked, 0)
        darr[written] = 0
    elif reduce == "add":
        dvals = picked
        darr = darr if include_self else xp.where(written, 0, darr)
    elif reduce == "mean":
        count = xp.bincount(targets, minlength=arr.size) + int(include_self)
        dvals = picked / count[targets]
        darr = xp.where(written, flat_dout / count if include_self else 0, flat_dout)
    elif reduce == "mul":  # each factor's gradient: the product of the other factors (no division by it)
        passes = _writer_passes(xp, targets)
        others = xp.ones(targets.size, dtype=vals.dtype)
        running = arr.reshape(-1).copy() if include_self else xp.ones(arr.size, dtype=vals.dtype)
        for sel in passes:  # the factors written before
            others[sel] = running[targets[sel]]
            running[targets[sel]] *= vals[sel]
        running = xp.ones(arr.size, dtype=vals.dtype)
        for sel in reversed(passes):  # times the factors written after
            others[sel] *= running[targets[sel]]
            running[targets[sel]] *= vals[sel]
        dvals = picked * others
        darr = xp.where(written, flat_dout * running if include_self else 0, flat_dout)
    else:
        hits = vals == flat_out[targets]
        self_hit = arr.reshape(-1) == flat_out
        count = xp.bincount(targets, weights=hits, minlength=arr.size) + self_hit
        dvals = xp.where(hits, picked / count[targets], 0)
        darr = xp.where(written, xp.where(self_hit, flat_dout / count, 0) if include_self else 0, flat_dout)
    return darr.reshape(arr.shape).astype(dout.dtype), dvals.reshape(values.shape).astype(dout.dtype)


PUT_ALONG_AXIS_GRAD = register_op(
    "put_along_axis_grad", inputs=("Input", "Index", "Value", "Out", "OutGrad"), outputs=("InputGrad", "ValueGrad"),
    nondiff_inputs=("Input", "Index", "Value", "Out", "OutGrad"), forward=_put_along_grad_forward,
    infer=lambda arr, index, values, out, dout, axis, reduce, include_self: (
        Meta(tuple(arr.shape), dout.dtype), Meta(tuple(values.shape), dout.dtype)),
    attrs=dict(_PUT_ATTRS),
    host_sync="counts the writers of each target on the host")


# ---- mode: the most frequent value along axis (the smallest of equally frequent ones) ---------------
def _mode_forward(xp, x, axis):
    if x.ndim == 0:
        return x.copy(), xp.zeros((), dtype=np.int64)
    ax = normalize_axis("mode", axis, x.ndim)
    xm = xp.moveaxis(x, ax, -1)
    rows, n = int(np.prod(xm.shape[:-1])), xm.shape[-1]
    if n == 0:
        raise ValueError(f"op 'mode': X must not be empty along axis {axis}")
    flat = xm.reshape(rows, n)
    order = _sort_indices(xp, flat, 1, False)
    ordered = xp.take_along_axis(flat, order, axis=1)
    new_run = xp.ones((rows, n), dtype=bool)
    new_run[:, 1:] = ordered[:, 1:] != ordered[:, :-1]  # NaN != NaN: each NaN is a run of its own
    run = xp.cumsum(new_run, axis=1) - 1
    ids = run + xp.arange(rows).reshape(-1, 1) * n
    length = xp.bincount(ids.reshape(-1), minlength=rows * n).reshape(rows, n)
    count = xp.take_along_axis(length, run, axis=1)
    first = xp.argmax(count == count.max(axis=1, keepdims=True), axis=1).reshape(-1, 1)  # the smallest value
    last = first + xp.take_along_axis(count, first, axis=1) - 1  # its last occurrence (the sort is stable)
    values = xp.take_along_axis(ordered, first, axis=1)
    indices = xp.take_along_axis(order, last, axis=1).astype(np.int64)
    shape = xm.shape[:-1] + (1,)
    return (xp.moveaxis(values.reshape(shape), -1, ax), xp.moveaxis(indices.reshape(shape), -1, ax))


def _mode_infer(x, axis):
    if len(x.shape) == 0:
        return Meta((), x.dtype), Meta((), np.dtype(np.int64))
    ax = normalize_axis("mode", axis, len(x.shape))
    shape = tuple(1 if d == ax else s for d, s in enumerate(x.shape))
    return Meta(shape, x.dtype), Meta(shape, np.dtype(np.int64))


# Out and Indices keep the reduced axis (size 1), so the gradient goes through Indices like argsort's.
MODE = register_op("mode", inputs=("X",), outputs=("Out", "Indices"), forward=_mode_forward, infer=_mode_infer,
                   grad=_grad_through_indices, attrs={"axis": -1}, double_grad=True)


# ---- unique_consecutive: runs of equal elements (or slices along axis) collapsed to one ------------
def _unique_consecutive_forward(xp, x, axis, dtype):
    it = np.dtype(dtype)
    if axis is None:
        moved, ax = x.reshape(-1, 1), None
    else:
        ax = normalize_axis("unique_consecutive", axis, x.ndim)
        moved = xp.moveaxis(x, ax, 0)
    n = moved.shape[0]
    rows = moved.reshape(n, -1)
    new_run = xp.ones(n, dtype=bool)
    if n > 1:
        new_run[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    inverse = xp.cumsum(new_run) - 1
    counts = xp.bincount(inverse, minlength=int(new_run.sum())) if n else xp.zeros(0, dtype=np.int64)
    out = moved[new_run]
    out = out.reshape(-1) if ax is None else xp.moveaxis(out, 0, ax)
    return out, inverse.astype(it), counts.astype(it)


def _unique_consecutive_infer(x, axis, dtype):
    it = np.dtype(dtype)
    if it not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeError(f"op 'unique_consecutive': dtype must be int32 or int64, received {dtype}")
    if axis is None:
        return Meta((-1,), x.dtype), Meta((-1 if -1 in x.shape else int(np.prod(x.shape)),), it), Meta((-1,), it)
    ax = normalize_axis("unique_consecutive", axis, len(x.shape))
    out_shape = tuple(-1 if d == ax else s for d, s in enumerate(x.shape))
    return Meta(out_shape, x.dtype), Meta((x.shape[ax],), it), Meta((-1,), it)


UNIQUE_CONSECUTIVE = register_op("unique_consecutive", inputs=("X",), outputs=("Out", "Index", "Counts"),
                                 forward=_unique_consecutive_forward, infer=_unique_consecutive_infer,
                                 attrs={"axis": None, "dtype": "int64"},
                                 host_sync=DATA_DEPENDENT_SHAPE)


# ---- top_p_sampling: one token per row from the smallest top-probability set reaching p -------------
def _top_p_forward(xp, x, ps, threshold, topp_seed, seed, k, mode, return_top):
    rows, vocab = x.shape
    order = _sort_indices(xp, x, 1, True)
    ordered = xp.take_along_axis(x, order, axis=1).astype(np.float64)
    before = xp.cumsum(ordered, axis=1) - ordered  # probability mass ahead of each token
    keep = xp.ones(ordered.shape, dtype=bool)
    if mode == "truncated":
        keep &= before < ps.reshape(-1, 1).astype(np.float64)
    if threshold is not None:
        keep &= ordered >= threshold.reshape(-1, 1).astype(np.float64)
    keep[:, 0] = True  # the most probable token is always a candidate
    weights = xp.where(keep, xp.maximum(ordered, 0), 0)
    total = weights.sum(axis=1, keepdims=True)
    weights = xp.where(total > 0, weights / xp.where(total > 0, total, 1), keep / keep.sum(axis=1, keepdims=True))
    if topp_seed is not None:
        draws = xp.stack([rng_for(xp, int(s)).random() for s in topp_seed.reshape(-1).tolist()])
    else:
        draws = rng_for(xp, max(seed, 0)).random(rows)  # seed -1: the global generator
    pick = (xp.cumsum(weights, axis=1) < draws.reshape(-1, 1)).sum(axis=1).clip(0, vocab - 1).reshape(-1, 1)
    ids = xp.take_along_axis(order, pick, axis=1).astype(np.int64)
    top = max(k, 0)
    return (xp.take_along_axis(x, ids, axis=1), ids, xp.take_along_axis(x, order[:, :top], axis=1),
            order[:, :top].astype(np.int64))


def _top_p_infer(x, ps, threshold, topp_seed, seed, k, mode, return_top):
    if len(x.shape) != 2:
        raise ValueError(f"op 'top_p_sampling': X must be 2-D [batch, vocab], received shape {list(x.shape)}")
    if mode not in ("truncated", "non-truncated"):
        raise ValueError(f"op 'top_p_sampling': mode must be 'truncated' or 'non-truncated', received {mode!r}")
    rows, top = x.shape[0], max(k, 0)
    return (Meta((rows, 1), x.dtype), Meta((rows, 1), np.dtype(np.int64)), Meta((rows, top), x.dtype),
            Meta((rows, top), np.dtype(np.int64)))


TOP_P_SAMPLING = register_op("top_p_sampling", inputs=("X", "PS", "Threshold", "TopPSeed"),
                             outputs=("Out", "Ids", "TopkScores", "TopkIds"),
                             optional_inputs=("Threshold", "TopPSeed"), forward=_top_p_forward, infer=_top_p_infer,
                             attrs={"seed": -1, "k": 0, "mode": "truncated", "return_top": False},
                             host_sync="reads TopPSeed on the host (when given)", draws=True)


# ---- viterbi_decode: the best tag path of a linear-chain CRF (Paddle's kernel, step for step) ----------------
def _viterbi_forward(xp, potentials, transition, length, include_bos_eos_tag):
    """Scores [batch] and paths [batch, max(length)]. As Paddle's kernel: a sequence stops taking steps once its
    length is used up (its alpha carried by a 0/1 mask, arithmetically), with include_bos_eos_tag the last row of
    `transition` scores the start and the second to last the stop; a path's tail past its length is 0."""
    _viterbi_check(potentials, transition, length)
    batch, seq_len, n = potentials.shape
    left = length
    max_len = int(left.max()) if batch else 0
    if max_len > seq_len:
        raise IndexError(f"op 'viterbi_decode': Length values must not exceed the sequence length {seq_len}, "
                         f"received {max_len}")
    if max_len < 1:  # Paddle's kernel crashes
        raise ValueError(f"op 'viterbi_decode': the longest Length must be at least 1, received {max_len}")
    one = potentials.dtype.type(1)
    logits = potentials.transpose(1, 0, 2)
    stop, start = transition[n - 2], transition[n - 1]
    alpha = logits[0]
    if include_bos_eos_tag:
        alpha = alpha + start + stop * (left == 1).astype(alpha.dtype)[:, None]
    left = left - 1
    history = []
    for i in range(1, max_len):
        total = alpha[:, :, None] + transition[None]
        history.append(total.argmax(axis=1))
        step = total.max(axis=1) + logits[i]
        mask = (left > 0).astype(alpha.dtype)[:, None]
        alpha = alpha * (one - mask) + step * mask
        if include_bos_eos_tag:
            alpha = alpha + stop * (left == 1).astype(alpha.dtype)[:, None]
        left = left - 1
    scores, last = alpha.max(axis=1), alpha.argmax(axis=1)
    path = xp.zeros((max_len, batch), np.int64)
    path[max_len - 1] = last * (left >= 0)
    rows = xp.arange(batch)
    for k, picked in enumerate(reversed(history), 2):
        left = left + 1
        update = picked[rows, last] * (left > 0)
        ended = (left == 0).astype(np.int64)
        update = update * (1 - ended) + last * ended
        path[max_len - k] = update
        last = update + last * (left < 0)
    return scores, path.T.copy()


def _viterbi_infer(potentials, transition, length, include_bos_eos_tag):
    _viterbi_check(potentials, transition, length)
    return Meta((potentials.shape[0],), potentials.dtype), Meta((potentials.shape[0], -1), np.dtype(np.int64))


def _viterbi_check(potentials, transition, length):
    """Shapes and dtypes (of arrays or Metas; -1 dims unknown) as Paddle's kernel checks them: ValueError."""
    op = "viterbi_decode"
    if len(potentials.shape) != 3:
        raise ValueError(f"op '{op}': Input must be 3-D [batch_size, sequence_length, num_tags], received shape "
                         f"{list(potentials.shape)}")
    square = len(transition.shape) == 2 and (-1 in transition.shape or transition.shape[0] == transition.shape[1])
    if not square:
        raise ValueError(f"op '{op}': Transition must be a square 2-D [num_tags, num_tags] tensor, received shape "
                         f"{list(transition.shape)}")
    if len(length.shape) != 1:
        raise ValueError(f"op '{op}': Length must be 1-D [batch_size], received shape {list(length.shape)}")
    for dim, other, what in ((potentials.shape[2], transition.shape[0], "the number of tags of Input and Transition"),
                             (potentials.shape[0], length.shape[0], "the batch size of Input and Length")):
        if dim != other and -1 not in (dim, other):
            raise ValueError(f"op '{op}': {what} should be equal, received {dim} and {other}")
    check_float(op, potentials, "Input", real=True)
    if np.dtype(transition.dtype) != np.dtype(potentials.dtype):
        raise ValueError(f"op '{op}': Transition's dtype must be Input's ({np.dtype(potentials.dtype)}), received "
                         f"{np.dtype(transition.dtype)}")
    if np.dtype(length.dtype) != np.int64:
        raise ValueError(f"op '{op}': Length must be int64, received {np.dtype(length.dtype)}")


VITERBI_DECODE = register_op("viterbi_decode", inputs=("Input", "Transition", "Length"), outputs=("Scores", "Path"),
                             forward=_viterbi_forward, infer=_viterbi_infer, attrs={"include_bos_eos_tag": True},
                             host_sync="reads the longest Length on the host (the path's width)")
