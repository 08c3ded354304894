"""Reductions over axes: sum, mean, max/min, amax/amin, prod, logsumexp, var, all/any, argmax/argmin, cumsum,
cumprod, logcumsumexp."""
import numpy as np

from ..framework.dtype import compute_dtype, convert_dtype
from .formula import (cast, cumsum, equal, exp, expand_as, full_like, log, mean, reduce_sum, reshape,
                      reshape_as, unsqueeze, where, zeros_like)
from .registry import Meta, register_op
from .shape_rules import check_float, normalize_axes, normalize_axis


def reduced_shape(op, shape, axis, keepdim):
    axes = normalize_axes(op, axis, len(shape))
    if keepdim:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _reduce_infer(name):
    def infer(x, axis, keepdim, **attrs):
        return Meta(reduced_shape(name, x.shape, axis, keepdim), x.dtype)
    return infer


def _axes(x, axis):
    if axis is None or x.ndim == 0:  # a 0-D tensor accepts axis 0 / -1, as in Paddle
        return None
    return tuple(normalize_axes("reduce", axis, x.ndim))


def _broadcast_back(g, dout):
    """dout of a reduction, with the reduced dims put back as 1s, broadcast to the input's shape.

    The rank is known in both modes (static shapes only hide sizes), so the kept shape is an unsqueeze;
    a full reduction's 0-D dout broadcasts as it is."""
    x = g.input("X")
    ndim = len(g.shape(x))
    axis = g.attrs["axis"]
    if not g.attrs["keepdim"] and axis is not None and ndim > 0:
        kept = unsqueeze(dout, axis=list(normalize_axes("reduce", axis, ndim)))
    else:
        kept = dout
    return expand_as(kept, x)


def _mean_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("mean_grad", g.input("X"), g.output_grad("Out"), axis=g.attrs["axis"],
                                   keepdim=g.attrs["keepdim"]))


# The dtype Paddle's sum returns unless one is requested: int64 for bool and int32 (SumInferMeta: a count of flags
# or a sum of int32 indices would wrap), else the input's own (int8/int16/uint8 too)
_SUM_WIDENS = {np.dtype(np.bool_): np.dtype(np.int64), np.dtype(np.int32): np.dtype(np.int64)}


def _sum_dtype(dtype, requested):
    return _SUM_WIDENS.get(dtype, dtype) if requested is None else convert_dtype(requested).np


def _sum_forward(xp, x, axis, keepdim, dtype):
    # integers accumulate in the output dtype (wrapping, as Paddle; NumPy would widen to int64),
    # float16/bfloat16 in float32
    out = _SUM_WIDENS.get(x.dtype, x.dtype) if dtype is None else convert_dtype(dtype).np
    acc = compute_dtype(out) if out.kind != "b" else out
    return xp.asarray(x.sum(axis=_axes(x, axis), keepdims=keepdim, dtype=acc)).astype(out, copy=False)


def _sum_infer(x, axis, keepdim, dtype):
    return Meta(reduced_shape("reduce_sum", x.shape, axis, keepdim), _sum_dtype(np.dtype(x.dtype), dtype))


def _sum_grad(g):
    if g.needs("X"):
        dx = _broadcast_back(g, g.output_grad("Out"))
        # a sum into another dtype (sum(x, dtype='float64')) sends the gradient back in x's
        g.set_input_grad("X", dx if g.attrs["dtype"] is None else cast(dx, dtype=g.input("X").dtype.name))


REDUCE_SUM = register_op(
    "reduce_sum", inputs=("X",), outputs=("Out",),
    forward=_sum_forward,
    infer=_sum_infer, grad=_sum_grad, attrs={"axis": None, "keepdim": False, "dtype": None}, double_grad=True)


def _mean_infer(x, axis, keepdim):
    check_float("mean", x)
    return Meta(reduced_shape("mean", x.shape, axis, keepdim), x.dtype)


def _mean_forward(xp, x, axis, keepdim):
    """x.mean() without NumPy's Python-level wrapper around it (~4 us per call, in every loss): the sum in the
    compute dtype over the count. A count below 2**24 is exact in float32, and then a float32 division rounds as
    NumPy's (float64 division, rounded) does; a larger one divides in float64 as NumPy does."""
    total = x.sum(axis=_axes(x, axis), keepdims=keepdim, dtype=compute_dtype(x.dtype))
    count = x.size // total.size if total.size else 1
    total = total / (count if count < 16777216 else np.float64(count))
    return xp.asarray(total).astype(x.dtype, copy=False)


MEAN = register_op("mean", inputs=("X",), outputs=("Out",), forward=_mean_forward,
                   infer=_mean_infer, grad=_mean_grad, attrs={"axis": None, "keepdim": False},
                   double_grad=True)


def _mean_grad_forward(xp, x, dout, axis, keepdim):
    if x.ndim == 0:  # the mean of one number is itself
        return dout.astype(x.dtype, copy=True).reshape(())
    axes = normalize_axes("mean", axis, x.ndim)
    count = 1
    for a in axes:
        count *= x.shape[a]
    if not keepdim:
        dout = dout.reshape(reduced_shape("mean", x.shape, axis, True))
    out = xp.empty(x.shape, x.dtype)  # filled by assignment: broadcast_to is NumPy's slow Python-level path
    out[...] = dout / x.dtype.type(max(count, 1))
    return out


def _mean_grad_grad(g):
    # mean_grad is linear in dOut: its own gradient w.r.t. dOut is the mean of the incoming grad.
    if g.needs("Dout"):
        g.set_input_grad("Dout", mean(g.output_grad("Out"), axis=g.attrs["axis"],
                                      keepdim=g.attrs["keepdim"]))


MEAN_GRAD = register_op("mean_grad", inputs=("X", "Dout"), meta_inputs=("X",), outputs=("Out",), forward=_mean_grad_forward,
                        infer=lambda x, dout, axis, keepdim: Meta(x.shape, x.dtype),
                        grad=_mean_grad_grad, attrs={"axis": None, "keepdim": False},
                        nondiff_inputs=("X",), double_grad=True)


# ---- max / min / amax / amin: the gradient is shared evenly among the tied extremes (Paddle's rule for all
# four); where the extreme is NaN no element equals it, and the gradient of that reduction is NaN throughout
# (0 * dout / 0), so a NaN shows in the gradient as in the output. An empty reduced axis has no extreme:
# ValueError, as Paddle's max (its amax/argmax return uninitialised memory); other empty dims reduce to empty.


def _check_reducible(name, x, axis):
    """ValueError when a reduced axis of x is empty (no extreme, no position of one)."""
    empty = [a for a in normalize_axes(name, axis, x.ndim) if x.shape[a] == 0]
    if empty:
        raise ValueError(f"op '{name}': cannot reduce axis {empty[0]} of size 0 (input shape {list(x.shape)}): "
                         "an empty axis has no extreme")


def _nonempty_reduce(name, fn):
    def forward(xp, x, axis, keepdim):
        if x.size == 0:
            _check_reducible(name, x, axis)
        return xp.asarray(fn(x, axis=_axes(x, axis), keepdims=keepdim))
    return forward


def _numeric_reduce_infer(name):
    def infer(x, axis, keepdim):
        if np.dtype(x.dtype).kind == "b":
            raise TypeError(f"op '{name}': input 'X' must be a numeric tensor, received bool")
        return Meta(reduced_shape(name, x.shape, axis, keepdim), x.dtype)
    return infer


def _extreme_grad(g):
    if not g.needs("X"):
        return
    x = g.input("X")
    maskf = cast(equal(x, _broadcast_back(g, g.output("Out"))), dtype=x.dtype.name)
    count = reduce_sum(maskf, axis=g.attrs["axis"], keepdim=True)
    dout = g.output_grad("Out")
    kept = dout if g.attrs["keepdim"] else reshape_as(dout, count)
    g.set_input_grad("X", maskf * (kept / count))


def _extreme(name, fn):
    return register_op(name, inputs=("X",), outputs=("Out",), forward=_nonempty_reduce(name, fn),
                       infer=_numeric_reduce_infer(name), grad=_extreme_grad,
                       attrs={"axis": None, "keepdim": False}, double_grad=True)


MAX = _extreme("max", lambda x, **k: x.max(**k))
MIN = _extreme("min", lambda x, **k: x.min(**k))
AMAX = _extreme("amax", lambda x, **k: x.max(**k))
AMIN = _extreme("amin", lambda x, **k: x.min(**k))


# ---- logsumexp ---------------------------------------------------------------------------------------
def _logsumexp_forward(xp, x, axis, keepdim):
    if x.dtype.kind != "f":
        _float_reduce_infer("logsumexp")(x, axis, keepdim)
    axes = _axes(x, axis)
    shape = reduced_shape("logsumexp", x.shape, axis, keepdim)
    if x.size == 0 and any(x.shape[a] == 0 for a in normalize_axes("logsumexp", axis, x.ndim)):
        return xp.full(shape, -np.inf, x.dtype)  # log of an empty sum of exponentials, as Paddle
    m = x.max(axis=axes, keepdims=True)
    m = xp.where(xp.isfinite(m), m, xp.zeros((), x.dtype))
    out = xp.log(xp.exp(x - m).sum(axis=axes, keepdims=True)) + m
    return xp.asarray(out.reshape(shape))


def _float_reduce_infer(name):
    def infer(x, axis, keepdim, **attrs):
        check_float(name, x, real=True)
        return Meta(reduced_shape(name, x.shape, axis, keepdim), x.dtype)
    return infer


def _logsumexp_grad(g):  # dx = dout * exp(x - out)
    if g.needs("X"):
        x = g.input("X")
        weights = exp(x - _broadcast_back(g, g.output("Out")))
        g.set_input_grad("X", _broadcast_back(g, g.output_grad("Out")) * weights)


LOGSUMEXP = register_op("logsumexp", inputs=("X",), outputs=("Out",), forward=_logsumexp_forward,
                        infer=_float_reduce_infer("logsumexp"), grad=_logsumexp_grad,
                        attrs={"axis": None, "keepdim": False}, double_grad=True)


# ---- prod: the gradient is the product of the *other* elements (exact with zeros) -------------------
def _group_last(xp, x, axis):
    """x with the reduced axes moved last and flattened: (kept..., n), plus the permutation used."""
    axes = normalize_axes("prod", axis, x.ndim)
    kept = [i for i in range(x.ndim) if i not in axes]
    perm = kept + list(axes)
    moved = xp.transpose(x, perm)
    return moved.reshape(moved.shape[:len(kept)] + (-1,)), perm, moved.shape


def _ungroup(xp, y, perm, moved_shape):
    return xp.transpose(y.reshape(moved_shape), list(np.argsort(perm)))


def _exclusive_left(xp, x):
    """L[..., i] = prod_{k < i} x[..., k]."""
    ones = xp.ones(x.shape[:-1] + (1,), x.dtype)
    return xp.concatenate([ones, xp.cumprod(x[..., :-1], axis=-1)], axis=-1)


def _exclusive_products(xp, x):
    """P[..., i] = prod_{k != i} x[..., k], from cumulative products at both ends (no division)."""
    return _exclusive_left(xp, x) * xp.flip(_exclusive_left(xp, xp.flip(x, -1)), -1)


def _expand_dout(xp, x, dout, axis, keepdim):
    if not keepdim:
        dout = dout.reshape(reduced_shape("prod", x.shape, axis, True))
    return xp.broadcast_to(dout, x.shape)


def _prod_grad_forward(xp, x, dout, axis, keepdim):
    if x.ndim == 0:
        return xp.broadcast_to(dout, x.shape).astype(x.dtype)
    if x.size == 0:  # an empty batch, or an empty product (1, whatever x): nothing to send back
        return xp.zeros(x.shape, x.dtype)
    grouped, perm, moved_shape = _group_last(xp, x, axis)
    others = _ungroup(xp, _exclusive_products(xp, grouped), perm, moved_shape)
    return (_expand_dout(xp, x, dout, axis, keepdim) * others).astype(x.dtype, copy=False)


def _prod_double_grad_forward(xp, x, ddx, dout, axis, keepdim):
    """d/dx_j of sum_i ddx_i dout prod_{k != i} x_k = dout * sum_{i != j} ddx_i prod_{k != i, j} x_k.

    That sum is the dual part of prod_{k != j} (x_k + eps ddx_k): exclusive products of dual numbers.
    """
    if x.ndim == 0 or x.size == 0:
        return xp.zeros_like(x)
    gx, perm, moved_shape = _group_last(xp, x, axis)
    gd = xp.reshape(xp.transpose(ddx, perm), gx.shape)
    n = gx.shape[-1]
    sides = []
    for order in (range(n), range(n - 1, -1, -1)):  # running dual products before / after position k
        real = xp.ones(gx.shape[:-1], x.dtype)
        dual = xp.zeros(gx.shape[:-1], x.dtype)
        side = [None] * n
        for k in order:
            side[k] = (real, dual)
            real, dual = real * gx[..., k], dual * gx[..., k] + real * gd[..., k]
        sides.append(side)
    left, right = sides
    out = xp.stack([left[k][1] * right[k][0] + left[k][0] * right[k][1] for k in range(n)], axis=-1)
    out = _ungroup(xp, out, perm, moved_shape)
    return (_expand_dout(xp, x, dout, axis, keepdim) * out).astype(x.dtype, copy=False)



def _prod_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("prod_grad", g.input("X"), g.output_grad("Out"), **g.attrs))


def _prod_grad_grad(g):
    # prod_grad(X, DOut) = expand(DOut) * P(X), linear in DOut
    x, dout, ddx = g.input("X"), g.input("DOut"), g.output_grad("Out")
    if g.needs("DOut"):
        per_elem = ddx * g.op("prod_grad", x, full_like(dout, 1.0), **g.attrs)
        g.set_input_grad("DOut", reduce_sum(per_elem, **g.attrs))
    if g.needs("X"):
        g.set_input_grad("X", g.op("prod_double_grad", x, ddx, dout, **g.attrs))


def _prod_forward(xp, x, axis, keepdim):
    if x.dtype.kind == "b":
        _numeric_reduce_infer("prod")(x, axis, keepdim)
    return xp.asarray(x.prod(axis=_axes(x, axis), keepdims=keepdim)).astype(x.dtype, copy=False)


_REDUCE_ATTRS = {"axis": None, "keepdim": False}
PROD = register_op("prod", inputs=("X",), outputs=("Out",), forward=_prod_forward, infer=_numeric_reduce_infer("prod"),
                   grad=_prod_grad, attrs=_REDUCE_ATTRS, double_grad=True)
PROD_GRAD = register_op("prod_grad", inputs=("X", "DOut"), outputs=("Out",), forward=_prod_grad_forward,
                        infer=lambda x, dout, **a: Meta(x.shape, x.dtype), grad=_prod_grad_grad,
                        attrs=_REDUCE_ATTRS, same_dtype=("X", "DOut"))
PROD_DOUBLE_GRAD = register_op("prod_double_grad", inputs=("X", "DDX", "DOut"), outputs=("Out",),
                               forward=_prod_double_grad_forward,
                               infer=lambda x, ddx, dout, **a: Meta(x.shape, x.dtype), attrs=_REDUCE_ATTRS,
                               same_dtype=("X", "DDX", "DOut"))


# ---- var (std = sqrt(var) in the API) ---------------------------------------------------------------
def _count(name, shape, axis):
    """How many elements each output of the reduction sums over (-1 when a reduced dim is unknown)."""
    dims = [shape[a] for a in normalize_axes(name, axis, len(shape))] if len(shape) else []  # 0-D: one element
    return -1 if -1 in dims else int(np.prod(dims, dtype=np.int64))


def _var_forward(xp, x, axis, keepdim, unbiased):
    if x.dtype.kind != "f":
        _float_reduce_infer("var")(x, axis, keepdim)
    axes = _axes(x, axis)
    n = _count("var", x.shape, axis)
    dev = x - x.mean(axis=axes, keepdims=True)
    out = (dev * dev).sum(axis=axes, keepdims=keepdim) / x.dtype.type(max(n - int(bool(unbiased)), 0))
    return xp.asarray(out).astype(x.dtype, copy=False)


def _var_grad(g):  # dx = dout * 2 (x - mean) / (N - ddof)
    if g.needs("X"):
        x = g.input("X")
        n = _count("var", g.shape(x), g.attrs["axis"])
        if n < 0:
            raise ValueError("grad of op 'var': the reduced dims must be known (received a -1 dim in "
                             f"{list(g.shape(x))})")
        dev = x - mean(x, axis=g.attrs["axis"], keepdim=True)
        factor = 2.0 / max(n - int(bool(g.attrs["unbiased"])), 1)
        g.set_input_grad("X", _broadcast_back(g, g.output_grad("Out")) * (dev * factor))


VAR = register_op("var", inputs=("X",), outputs=("Out",), forward=_var_forward, infer=_float_reduce_infer("var"),
                  grad=_var_grad, attrs={"axis": None, "keepdim": False, "unbiased": True}, double_grad=True)


# ---- all / any / argmax / argmin: not differentiable ------------------------------------------------
def _bool_reduce(name, fn):
    def forward(xp, x, axis, keepdim):
        return xp.asarray(fn(x, axis=_axes(x, axis), keepdims=keepdim))
    return register_op(name, inputs=("X",), outputs=("Out",), forward=forward,
                       infer=lambda x, axis, keepdim: Meta(reduced_shape(name, x.shape, axis, keepdim),
                                                                      np.dtype(bool)),
                       attrs={"axis": None, "keepdim": False})


ALL = _bool_reduce("all", lambda x, **k: x.all(**k))
ANY = _bool_reduce("any", lambda x, **k: x.any(**k))


def _arg_shape(name, shape, axis, keepdim):
    if axis is None:
        return tuple(1 for _ in shape) if keepdim else ()
    a = normalize_axis(name, axis, len(shape))
    if keepdim:
        return tuple(1 if i == a else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i != a)


def _arg_reduce(name, fn):
    def forward(xp, x, axis, keepdim, dtype):
        if x.size == 0:
            _check_reducible(name, x, axis)
        shape = _arg_shape(name, x.shape, axis, keepdim)
        if axis is None:
            out = fn(x.reshape(-1), 0)
        else:
            out = fn(x, normalize_axis(name, axis, x.ndim) if x.ndim else None)
        return xp.asarray(out).astype(np.dtype(dtype)).reshape(shape)

    def infer(x, axis, keepdim, dtype):
        if np.dtype(dtype) not in (np.dtype("int32"), np.dtype("int64")):
            raise TypeError(f"op '{name}': dtype must be int32 or int64, received {dtype}")
        return Meta(_arg_shape(name, x.shape, axis, keepdim), np.dtype(dtype))
    return register_op(name, inputs=("X",), outputs=("Out",), forward=forward, infer=infer,
                       attrs={"axis": None, "keepdim": False, "dtype": "int64"})


ARGMAX = _arg_reduce("argmax", lambda x, axis: x.argmax(axis=axis))
ARGMIN = _arg_reduce("argmin", lambda x, axis: x.argmin(axis=axis))


# ---- cumsum: axis=None flattens; the gradient is the reversed cumulative sum ------------------------
def _cumsum_forward(xp, x, axis, reverse):
    if x.dtype.kind == "b":
        raise TypeError("op 'cumsum': input 'X' must be a numeric tensor, received bool")
    if axis is None:
        x, axis = x.reshape(-1), 0
    elif x.ndim == 0:
        return x.copy()
    if reverse:
        return xp.flip(xp.cumsum(xp.flip(x, axis), axis=axis), axis).astype(x.dtype, copy=False)
    return xp.cumsum(x, axis=axis).astype(x.dtype, copy=False)


def _cumsum_infer(x, axis, reverse):
    if np.dtype(x.dtype).kind == "b":
        raise TypeError("op 'cumsum': input 'X' must be a numeric tensor, received bool")
    if axis is None:
        n = -1 if -1 in x.shape else int(np.prod(x.shape))
        return Meta((n,), x.dtype)
    normalize_axis("cumsum", axis, len(x.shape))
    return Meta(x.shape, x.dtype)


def _cumsum_grad(g):
    if g.needs("X"):
        axis = g.attrs["axis"]
        rev = cumsum(g.output_grad("Out"), axis=0 if axis is None else axis, reverse=not g.attrs["reverse"])
        g.set_input_grad("X", reshape_as(rev, g.input("X")) if axis is None else rev)


CUMSUM = register_op("cumsum", inputs=("X",), outputs=("Out",), forward=_cumsum_forward, infer=_cumsum_infer,
                     grad=_cumsum_grad, attrs={"axis": None, "reverse": False}, double_grad=True)


# ---- cumprod: dim=None flattens; the gradient is exact where x has zeros ----------------------------
def _flat_or(x, dim):
    return (x.reshape(-1), 0) if dim is None else (x, dim)


def _cumprod_forward(xp, x, dim):
    if x.dtype.kind == "b":
        raise TypeError("op 'cumprod': input 'X' must be a numeric tensor, received bool")
    if x.ndim == 0 and dim is not None:
        return x.copy()
    x, dim = _flat_or(x, dim)
    return xp.cumprod(x, axis=dim).astype(x.dtype, copy=False)


def _cumprod_infer(x, dim):
    return _cumsum_infer(x, dim, False)


def _cumprod_grad_forward(xp, x, dout, dim):
    # dx_i = P_{i-1} * S_i with P the exclusive prefix product and S_i = dout_i + x_{i+1} * S_{i+1}:
    # no division by x, so zeros in x get their exact gradient
    if x.ndim == 0 and dim is not None:
        return dout.copy()
    shape = x.shape
    x, dim = _flat_or(x, dim)
    xm, dm = xp.moveaxis(x, dim, 0), xp.moveaxis(dout.reshape(x.shape), dim, 0)
    n = xm.shape[0]
    s = xp.empty_like(dm)
    if n:
        s[n - 1] = dm[n - 1]
    for i in range(n - 2, -1, -1):
        s[i] = dm[i] + xm[i + 1] * s[i + 1]
    p = xp.ones_like(xm)
    if n > 1:
        p[1:] = xp.cumprod(xm[:-1], axis=0)
    return xp.moveaxis(p * s, 0, dim).reshape(shape)


def _cumprod_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("cumprod_grad", g.input("X"), g.output_grad("Out"), **g.attrs))


CUMPROD = register_op("cumprod", inputs=("X",), outputs=("Out",), forward=_cumprod_forward, infer=_cumprod_infer,
                      grad=_cumprod_grad, attrs={"dim": None})
CUMPROD_GRAD = register_op("cumprod_grad", inputs=("X", "DOut"), outputs=("XGrad",), forward=_cumprod_grad_forward,
                           infer=lambda x, dout, dim: Meta(x.shape, dout.dtype), same_dtype=("X", "DOut"),
                           attrs={"dim": None})


# ---- logcumsumexp: log(cumsum(exp(x))) as a running logaddexp, exact where exp would under- or overflow -----
def _logcumsumexp_forward(xp, x, axis, flatten, reverse):
    check_float("logcumsumexp", x, real=True)
    if flatten:
        x, axis = x.reshape(-1), 0
    elif x.ndim == 0:
        return x.copy()
    y = xp.moveaxis(x, axis, -1).astype(compute_dtype(x.dtype))  # a copy, scanned in place
    if reverse:
        y = y[..., ::-1]
    step = 1
    while step < y.shape[-1]:  # Hillis-Steele scan: log2(n) elementwise passes, the same on NumPy and CuPy
        y[..., step:] = xp.logaddexp(y[..., step:], y[..., :-step])
        step *= 2
    if reverse:
        y = y[..., ::-1]
    return xp.ascontiguousarray(xp.moveaxis(y, -1, axis)).astype(x.dtype, copy=False)


def _logcumsumexp_infer(x, axis, flatten, reverse):
    check_float("logcumsumexp", x, real=True)
    if flatten:
        return Meta((-1 if -1 in x.shape else int(np.prod(x.shape, dtype=np.int64)),), x.dtype)
    if len(x.shape):
        normalize_axis("logcumsumexp", axis, len(x.shape))
    return Meta(x.shape, x.dtype)


def _logcumsumexp_grad(g):
    """dx_j = sum over the outputs k that include x_j of dout_k exp(x_j - out_k), each term at most |dout_k|:
    summed in log space, positive and negative douts apart (Paddle's and TensorFlow's rule). An x_j of -inf (a
    masked position) gets 0, not exp(-inf + inf)."""
    if not g.needs("X"):
        return
    x, out, dout = g.input("X"), g.output("Out"), g.output_grad("Out")
    a = g.attrs
    flat = reshape(x, shape=[-1]) if a["flatten"] else x
    lowest, ones = full_like(dout, -np.inf), full_like(dout, 1.0)
    back = {"axis": 0 if a["flatten"] else a["axis"], "flatten": False, "reverse": not a["reverse"]}

    def part(mask):
        log_abs = where(mask, log(where(mask, g.op("abs", dout), ones)), lowest)
        return exp(g.op("logcumsumexp", log_abs - out, **back) + flat)

    dx = part(dout > 0) - part(dout < 0)
    dx = where(equal(flat, full_like(flat, -np.inf)), zeros_like(dx), dx)
    g.set_input_grad("X", reshape_as(dx, x) if a["flatten"] else dx)


LOGCUMSUMEXP = register_op("logcumsumexp", inputs=("X",), outputs=("Out",), forward=_logcumsumexp_forward,
                           infer=_logcumsumexp_infer, grad=_logcumsumexp_grad,
                           attrs={"axis": -1, "flatten": False, "reverse": False}, double_grad=True)
