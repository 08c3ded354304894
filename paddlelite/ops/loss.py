"""Loss ops: softmax_with_cross_entropy and its one-pass grad op, bce_loss, sigmoid_cross_entropy_with_logits,
nll_loss, kldiv_loss, huber_loss, ...

(mse / square_error / l1 losses are composed from elementwise and reduce ops in nn/functional/loss.py, so they
need no ops of their own.)
"""
import numpy as np

from .activation import shifted_logits
from .launch import softmax_ce as _launch
from ..device.deferred_checks import check
from .registry import Meta, VALUE_CHECK, register_op
from .shape_rules import check_float, known_shapes_differ, normalize_axis

# use_softmax=False: Logits already are probabilities (Softmax is a copy of them), the loss is -log of them
_SWCE_ATTRS = {"soft_label": False, "ignore_index": -100, "axis": -1, "numeric_stable_mode": True, "use_softmax": True}


def _check_label(op, logits, label, soft_label, axis):
    """Validate Label against Logits -> the normalised axis."""
    nd = len(logits.shape)
    axis = normalize_axis(op, axis, nd)
    if soft_label:
        if label.dtype.kind != "f":
            raise TypeError(f"op '{op}': with soft_label=True, Label must be a float tensor of probabilities, "
                            f"received dtype {label.dtype}")
        expected = tuple(logits.shape)
    else:
        if label.dtype.kind not in "iu":
            raise TypeError(f"op '{op}': with soft_label=False, Label must hold int64/int32 class indices, "
                            f"received dtype {label.dtype}")
        expected = tuple(1 if i == axis else d for i, d in enumerate(logits.shape))
    if known_shapes_differ(label.shape, expected):
        raise ValueError(f"op '{op}': Label must have shape {list(expected)} for Logits of shape "
                         f"{list(logits.shape)} (axis={axis}, soft_label={soft_label}), received "
                         f"{list(label.shape)}")
    return axis


def _swce_infer(logits, label, soft_label, ignore_index, axis, numeric_stable_mode, use_softmax):
    check_float("softmax_with_cross_entropy", logits, "Logits", real=True)
    if soft_label and label.dtype != logits.dtype:
        raise TypeError(f"op 'softmax_with_cross_entropy': soft Label has dtype {label.dtype} but Logits has "
                        f"{logits.dtype}; cast one explicitly")
    ax = _check_label("softmax_with_cross_entropy", logits, label, soft_label, axis)
    loss_shape = tuple(1 if i == ax else d for i, d in enumerate(logits.shape))
    return Meta(logits.shape, logits.dtype), Meta(loss_shape, logits.dtype)


def _hard_index(xp, label, num_classes, ignore_index, op, error=IndexError):
    """Labels -> (index array safe to gather with, mask of kept positions); `error` for a label out of range
    (Paddle's kernels: OutOfRange, an IndexError; nll_loss's InvalidArgument, a ValueError)."""
    keep = label != ignore_index
    bad = keep & ((label < 0) | (label >= num_classes))
    check(xp, bad, _label_error(label, num_classes, ignore_index, op, error))
    # on a device the error comes later: meanwhile a bad label gathers class 0, never memory outside the row
    return xp.where(keep & ~bad, label, 0).astype(np.int64), keep


def _label_error(label, num_classes, ignore_index, op, error):
    """The error of a label outside [0, num_classes) (made when raised: it reads the labels)."""
    def make():
        bad = (label != ignore_index) & ((label < 0) | (label >= num_classes))
        return error(f"op '{op}': Label values must lie in [0, {num_classes}) or equal ignore_index={ignore_index}, "
                     f"received {int(label[bad].reshape(-1)[0])}")
    return make


def _meta(a):
    return Meta(tuple(a.shape), a.dtype)


def _swce_forward(xp, logits, label, soft_label, ignore_index, axis, numeric_stable_mode, use_softmax):
    axis = _check_label("softmax_with_cross_entropy", _meta(logits), _meta(label), soft_label, axis)
    if use_softmax:
        shifted = shifted_logits(xp, logits, axis)
        log_sum = xp.log(xp.exp(shifted).sum(axis=axis, keepdims=True))
        log_softmax = shifted - log_sum
        softmax = xp.exp(log_softmax)
    else:
        softmax = logits.copy()
        with np.errstate(divide="ignore"):  # a zero probability of the label: an infinite loss, as Paddle's
            log_softmax = xp.log(logits)
    if soft_label:
        loss = -(label * log_softmax).sum(axis=axis, keepdims=True)
    else:
        idx, keep = _hard_index(xp, label, logits.shape[axis], ignore_index, "softmax_with_cross_entropy")
        loss = xp.where(keep, -xp.take_along_axis(log_softmax, idx, axis=axis), logits.dtype.type(0))
    return softmax, loss.astype(logits.dtype, copy=False)


def _swce_grad_forward(xp, label, softmax, dloss, soft_label, ignore_index, axis, numeric_stable_mode,
                       use_softmax):
    axis = _check_label("softmax_with_cross_entropy_grad", _meta(softmax), _meta(label), soft_label, axis)
    if not use_softmax:  # d(-log p)/dp = -1/p at the label (weighted by the soft label)
        with np.errstate(divide="ignore"):
            inverse = -1.0 / softmax
    if soft_label:
        # with softmax: softmax - y, as Paddle's kernels (for labels that do not sum to 1, the exact derivative of
        # -sum_c y_c log softmax_c is softmax * sum_c y_c - y; Paddle's gradient is the specification)
        dlogits = softmax - label if use_softmax else label * inverse
    else:
        idx, keep = _hard_index(xp, label, softmax.shape[axis], ignore_index, "softmax_with_cross_entropy_grad")
        classes = xp.arange(softmax.shape[axis]).reshape([-1 if i == axis else 1 for i in range(softmax.ndim)])
        if use_softmax:
            dlogits = xp.where(keep, softmax - (classes == idx), softmax.dtype.type(0))
        else:
            dlogits = xp.where(keep & (classes == idx), inverse, softmax.dtype.type(0))
    return (dlogits * dloss).astype(softmax.dtype, copy=False)


def _swce_grad_infer(label, softmax, dloss, soft_label, ignore_index, axis, numeric_stable_mode, use_softmax):
    ax = _check_label("softmax_with_cross_entropy_grad", softmax, label, soft_label, axis)
    loss_shape = tuple(1 if i == ax else d for i, d in enumerate(softmax.shape))
    if known_shapes_differ(dloss.shape, loss_shape):
        raise ValueError(f"op 'softmax_with_cross_entropy_grad': DLoss must have shape {list(loss_shape)}, "
                         f"received {list(dloss.shape)}")
    return Meta(softmax.shape, softmax.dtype)


def _swce_kernel(xp, logits, label, soft_label, ignore_index, axis, numeric_stable_mode, use_softmax):
    """Hard labels over the last axis: softmax and loss in one kernel, the label check on the device."""
    if soft_label or not use_softmax:
        return None
    out = _launch.softmax_ce_hard(xp, logits, label, ignore_index, axis)
    if out is None:
        return None
    softmax, loss, bad = out
    check(xp, bad, _label_error(label, logits.shape[axis], ignore_index, "softmax_with_cross_entropy", IndexError))
    return softmax, loss


def _swce_grad_kernel(xp, label, softmax, dloss, soft_label, ignore_index, axis, numeric_stable_mode, use_softmax):
    if not use_softmax:
        return None  # the reference forward
    return _launch.softmax_ce_grad(xp, label, softmax, dloss, soft_label, ignore_index, axis)


def _swce_grad(g):
    dloss = g.output_grad("Loss")
    if g.needs("Logits") and dloss is not None:
        g.set_input_grad("Logits", g.op("softmax_with_cross_entropy_grad", g.input("Label"), g.output("Softmax"),
                                        dloss, **g.attrs))


SOFTMAX_WITH_CROSS_ENTROPY = register_op(
    "softmax_with_cross_entropy", inputs=("Logits", "Label"), outputs=("Softmax", "Loss"), forward=_swce_forward,
    infer=_swce_infer, grad=_swce_grad, attrs=_SWCE_ATTRS, nondiff_inputs=("Label",),
    intermediate_outputs=("Softmax",), gpu=_swce_kernel)

# No grad maker: double backward through softmax_with_cross_entropy is not supported.
SOFTMAX_WITH_CROSS_ENTROPY_GRAD = register_op(
    "softmax_with_cross_entropy_grad", inputs=("Label", "Softmax", "DLoss"), outputs=("DLogits",),
    forward=_swce_grad_forward, infer=_swce_grad_infer, attrs=_SWCE_ATTRS, gpu=_swce_grad_kernel)


# ---- bce_loss: binary cross entropy on probabilities, per element --------------------------------------
# Out = -(Label log(X) + (1 - Label) log(1 - X)), each log clamped at -100; the gradient divides by
# max(X (1 - X), 1e-12), as Paddle's kernel does, so a saturated input (X = 0 or 1) gets a large finite
# gradient instead of NaN. Only X has a gradient, as Paddle's. On the CPU an input outside [0, 1] is a
# ValueError, as in Paddle's CPU kernel (its GPU kernel asserts on the device; ours reads nothing back there).
_BCE_EPSILON = 1e-12


def _bce_infer(x, label):
    check_float("bce_loss", x, "X", real=True)
    if label.dtype != x.dtype or known_shapes_differ(label.shape, x.shape):
        raise ValueError(f"op 'bce_loss': Label must have X's shape {list(x.shape)} and dtype {x.dtype}, "
                         f"received {list(label.shape)} {label.dtype}")
    return Meta(x.shape, x.dtype)


def _bce_forward(xp, x, label):
    if xp is np and x.size and not (x.min() >= 0 and x.max() <= 1):  # Paddle's GPU kernel asserts on the device
        bad = x.min() if not x.min() >= 0 else x.max()
        raise ValueError(f"bce_loss: input must be within [0, 1] (probabilities), received {bad}")
    floor = x.dtype.type(-100)
    with np.errstate(divide="ignore"):  # log(0) = -inf is clamped at once, as Paddle's kernel does, silently
        log_p, log_1mp = xp.maximum(xp.log(x), floor), xp.maximum(xp.log(1 - x), floor)
    return (-(label * log_p + (1 - label) * log_1mp)).astype(x.dtype, copy=False)


def _bce_grad_forward(xp, x, label, dout):
    return (dout * (x - label) / xp.maximum((1 - x) * x, x.dtype.type(_BCE_EPSILON))).astype(x.dtype, copy=False)


def _bce_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("bce_loss_grad", g.input("X"), g.input("Label"), g.output_grad("Out")))


BCE_LOSS = register_op("bce_loss", inputs=("X", "Label"), outputs=("Out",), nondiff_inputs=("Label",),
                       forward=_bce_forward, infer=_bce_infer, grad=_bce_grad)
BCE_LOSS_GRAD = register_op("bce_loss_grad", inputs=("X", "Label", "DOut"), outputs=("DX",),
                            forward=_bce_grad_forward, infer=lambda x, label, dout: Meta(x.shape, x.dtype))


# ---- sigmoid_cross_entropy_with_logits: BCE on logits, per element -------------------------------------
# Out = (1 - Label) X + pos_weight softplus(-X) (pos_weight: the per-element weight of the positive term,
# 1 + (w - 1) Label as binary_cross_entropy_with_logits builds it; 1 when absent); positions whose label is
# ignore_index give 0, and with normalize the rest is divided by their count. Only X has a gradient, as Paddle's.
def _sce_check(op, x, label, pos_weight):
    check_float(op, x, "X", real=True)
    for slot, m in (("Label", label), ("pos_weight", pos_weight)):
        if m is not None and (m.dtype != x.dtype or known_shapes_differ(m.shape, x.shape)):
            raise ValueError(f"op '{op}': {slot} must have X's shape {list(x.shape)} and dtype {x.dtype}, "
                             f"received {list(m.shape)} {m.dtype}")


def _sce_kept(xp, x, label, ignore_index, normalize):
    keep = label != ignore_index
    scale = xp.asarray(1.0, x.dtype)
    if normalize:
        scale = (1.0 / xp.maximum(keep.sum(), 1)).astype(x.dtype)
    return keep, scale


def _sce_forward(xp, x, label, pos_weight, ignore_index, normalize):
    softplus_neg = xp.logaddexp(x.dtype.type(0), -x)  # log(1 + exp(-x)), stable for every x
    out = (1 - label) * x + (softplus_neg if pos_weight is None else pos_weight * softplus_neg)
    keep, scale = _sce_kept(xp, x, label, ignore_index, normalize)
    return xp.where(keep, out * scale, x.dtype.type(0)).astype(x.dtype, copy=False)


def _sce_grad_forward(xp, x, label, pos_weight, dout, ignore_index, normalize):
    sigmoid_neg = 1 / (1 + xp.exp(x))  # sigmoid(-x), the derivative of -softplus(-x)
    dx = (1 - label) - (sigmoid_neg if pos_weight is None else pos_weight * sigmoid_neg)
    keep, scale = _sce_kept(xp, x, label, ignore_index, normalize)
    return xp.where(keep, dx * scale * dout, x.dtype.type(0)).astype(x.dtype, copy=False)


def _sce_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("sigmoid_cross_entropy_with_logits_grad", g.input("X"), g.input("Label"),
                                   g.input("pos_weight"), g.output_grad("Out"), **g.attrs))


_SCE_ATTRS = {"ignore_index": -100, "normalize": False}
SIGMOID_CROSS_ENTROPY_WITH_LOGITS = register_op(
    "sigmoid_cross_entropy_with_logits", inputs=("X", "Label", "pos_weight"), outputs=("Out",),
    optional_inputs=("pos_weight",), nondiff_inputs=("Label", "pos_weight"), forward=_sce_forward,
    infer=lambda x, label, pos_weight, **a: (_sce_check("sigmoid_cross_entropy_with_logits", x, label, pos_weight)
                                             or Meta(x.shape, x.dtype)),
    grad=_sce_grad, attrs=_SCE_ATTRS)
SIGMOID_CROSS_ENTROPY_WITH_LOGITS_GRAD = register_op(
    "sigmoid_cross_entropy_with_logits_grad", inputs=("X", "Label", "pos_weight", "DOut"), outputs=("DX",),
    optional_inputs=("pos_weight",),
    forward=_sce_grad_forward, infer=lambda x, label, pos_weight, dout, **a: Meta(x.shape, x.dtype),
    attrs=_SCE_ATTRS)


# ---- nll_loss: -Weight[label] X[label] over class axis 1 ([N, C, d1, ...], labels [N, d1, ...]) --------
# Total_weight is the sum of the kept labels' weights; 'mean' divides by it (0 when it is 0), 'sum' adds up,
# 'none' keeps the labels' shape. Ignored labels weigh 0.
def _nll_weights(xp, x, label, weight, ignore_index, op):
    idx, keep = _hard_index(xp, label, x.shape[1], ignore_index, op, ValueError)
    w = xp.ones(idx.shape, x.dtype) if weight is None else weight[idx]
    return idx, xp.where(keep, w, x.dtype.type(0))


def _over_total(xp, value, total):
    """'mean' reduction's value / Total_weight, 0 where the total weight is 0 (every label ignored)."""
    return xp.where(total != 0, value / xp.where(total != 0, total, 1), value.dtype.type(0))


def _nll_forward(xp, x, label, weight, ignore_index, reduction):
    idx, w = _nll_weights(xp, x, label, weight, ignore_index, "nll_loss")
    out = -xp.take_along_axis(x, xp.expand_dims(idx, 1), axis=1)[:, 0] * w
    total = w.sum().astype(x.dtype)
    if reduction != "none":
        out = out.sum()
        if reduction == "mean":
            out = _over_total(xp, out, total)
    return out.astype(x.dtype, copy=False), total


def _nll_infer(x, label, weight, ignore_index, reduction):
    check_float("nll_loss", x, "X", real=True)
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"op 'nll_loss': reduction must be 'mean', 'sum' or 'none', received {reduction!r}")
    if len(x.shape) < 2 or len(label.shape) != len(x.shape) - 1 or np.dtype(label.dtype).kind not in "iu":
        raise ValueError(f"op 'nll_loss': X must be [N, C, ...] and Label int [N, ...], received {list(x.shape)} "
                         f"and {list(label.shape)} {label.dtype}")
    if weight is not None and (tuple(weight.shape) != (x.shape[1],) or weight.dtype != x.dtype):
        raise ValueError(f"op 'nll_loss': Weight must be [{x.shape[1]}] of X's dtype, received "
                         f"{list(weight.shape)} {weight.dtype}")
    return Meta(tuple(label.shape) if reduction == "none" else (), x.dtype), Meta((), x.dtype)


def _nll_grad_forward(xp, x, label, weight, total, dout, ignore_index, reduction):
    idx, w = _nll_weights(xp, x, label, weight, ignore_index, "nll_loss_grad")
    g = -w * dout
    if reduction == "mean":
        g = _over_total(xp, g, total)
    classes = xp.arange(x.shape[1]).reshape([-1 if i == 1 else 1 for i in range(x.ndim)])
    return xp.where(classes == xp.expand_dims(idx, 1), xp.expand_dims(g, 1), x.dtype.type(0)).astype(x.dtype)


def _nll_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("nll_loss_grad", g.input("X"), g.input("Label"), g.input("Weight"),
                                   g.output("Total_weight"), g.output_grad("Out"), **g.attrs))


_NLL_ATTRS = {"ignore_index": -100, "reduction": "mean"}
NLL_LOSS = register_op("nll_loss", inputs=("X", "Label", "Weight"), outputs=("Out", "Total_weight"),
                       optional_inputs=("Weight",), nondiff_inputs=("Label", "Weight"),
                       intermediate_outputs=("Total_weight",), forward=_nll_forward, infer=_nll_infer,
                       grad=_nll_grad, attrs=_NLL_ATTRS)
NLL_LOSS_GRAD = register_op("nll_loss_grad", inputs=("X", "Label", "Weight", "Total_weight", "DOut"),
                            outputs=("DX",), optional_inputs=("Weight",), forward=_nll_grad_forward,
                            infer=lambda x, label, weight, total, dout, **a: Meta(x.shape, x.dtype),
                            attrs=_NLL_ATTRS)


# ---- kldiv_loss: Target (log(Target) - X) where Target > 0 (0 elsewhere), or exp(Target) (Target - X) with
# log_target; reduced by `reduction` ('none', 'mean', 'sum', 'batchmean': the sum over the batch size). Only X has
# a gradient, as Paddle's.
def _kldiv_scale(x, reduction):
    return {"mean": 1.0 / max(x.size, 1), "batchmean": 1.0 / max(x.shape[0], 1) if x.ndim else 1.0}.get(reduction, 1.0)


def _kldiv_forward(xp, x, target, reduction, log_target):
    if log_target:
        loss = xp.exp(target) * (target - x)
    else:
        positive = target > 0
        loss = xp.where(positive, target * (xp.log(xp.where(positive, target, 1)) - x), x.dtype.type(0))
    if reduction != "none":
        loss = loss.sum() * x.dtype.type(_kldiv_scale(x, reduction))
    return loss.astype(x.dtype, copy=False)


def _kldiv_infer(x, target, reduction, log_target):
    check_float("kldiv_loss", x, "X", real=True)
    if target.dtype != x.dtype or tuple(target.shape) != tuple(x.shape) and -1 not in (*x.shape, *target.shape):
        raise ValueError(f"op 'kldiv_loss': Target must have X's shape {list(x.shape)} and dtype {x.dtype}, "
                         f"received {list(target.shape)} {target.dtype}")
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"op 'kldiv_loss': reduction must be 'none', 'mean', 'sum' or 'batchmean', "
                         f"received {reduction!r}")
    return Meta(tuple(x.shape) if reduction == "none" else (), x.dtype)


def _kldiv_grad_forward(xp, x, target, dloss, reduction, log_target):
    dx = -xp.exp(target) if log_target else xp.where(target > 0, -target, x.dtype.type(0))
    return (dx * dloss * x.dtype.type(_kldiv_scale(x, reduction))).astype(x.dtype, copy=False)


def _kldiv_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("kldiv_loss_grad", g.input("X"), g.input("Target"), g.output_grad("Loss"),
                                   **g.attrs))


_KLDIV_ATTRS = {"reduction": "mean", "log_target": False}
KLDIV_LOSS = register_op("kldiv_loss", inputs=("X", "Target"), outputs=("Loss",), nondiff_inputs=("Target",),
                         forward=_kldiv_forward, infer=_kldiv_infer, grad=_kldiv_grad, attrs=_KLDIV_ATTRS)
KLDIV_LOSS_GRAD = register_op("kldiv_loss_grad", inputs=("X", "Target", "DLoss"), outputs=("DX",),
                              forward=_kldiv_grad_forward, infer=lambda x, target, dloss, **a: Meta(x.shape, x.dtype),
                              attrs=_KLDIV_ATTRS)


# ---- huber_loss: Residual = Y - X; Out = 0.5 r^2 where |r| <= delta, else delta (|r| - 0.5 delta) -----------
def _huber_forward(xp, x, y, delta):
    r = y - x
    a = xp.abs(r)
    out = xp.where(a <= delta, 0.5 * r * r, delta * (a - 0.5 * delta))
    return out.astype(x.dtype, copy=False), r


def _huber_infer(x, y, delta):
    check_float("huber_loss", x, "X", real=True)
    if y.dtype != x.dtype or known_shapes_differ(y.shape, x.shape):
        raise ValueError(f"op 'huber_loss': Y must have X's shape {list(x.shape)} and dtype {x.dtype}, received "
                         f"{list(y.shape)} {y.dtype}")
    if delta <= 0:
        raise ValueError(f"op 'huber_loss': delta must be positive, received {delta}")
    return Meta(x.shape, x.dtype), Meta(x.shape, x.dtype)


def _huber_grad_forward(xp, residual, dout, delta):  # d Out / d Residual, times dOut
    r = xp.clip(residual, -delta, delta)  # r inside the quadratic part, +-delta outside
    return (r * dout).astype(dout.dtype, copy=False)


def _huber_grad(g):
    dr = g.op("huber_loss_grad", g.output("Residual"), g.output_grad("Out"), delta=g.attrs["delta"])
    if g.needs("X"):
        g.set_input_grad("X", -dr)
    if g.needs("Y"):
        g.set_input_grad("Y", dr)


HUBER_LOSS = register_op("huber_loss", inputs=("X", "Y"), outputs=("Out", "Residual"), forward=_huber_forward,
                         infer=_huber_infer, grad=_huber_grad, intermediate_outputs=("Residual",),
                         attrs={"delta": 1.0})
HUBER_LOSS_GRAD = register_op("huber_loss_grad", inputs=("Residual", "DOut"), outputs=("DResidual",),
                              forward=_huber_grad_forward, infer=lambda r, dout, delta: Meta(r.shape, dout.dtype),
                              attrs={"delta": 1.0})


# ---- label_smooth: (1 - epsilon) X + epsilon PriorDist (uniform 1 / num_classes without PriorDist) -----------
def _label_smooth_forward(xp, x, prior, epsilon):
    extra = epsilon / x.shape[-1] if prior is None else epsilon * prior
    return ((1 - epsilon) * x + extra).astype(x.dtype, copy=False)


def _label_smooth_infer(x, prior, epsilon):
    check_float("label_smooth", x, "X", real=True)
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"op 'label_smooth': epsilon must be in [0, 1], received {epsilon}")
    return Meta(x.shape, x.dtype)


def _label_smooth_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.output_grad("Out") * (1.0 - g.attrs["epsilon"]))


LABEL_SMOOTH = register_op("label_smooth", inputs=("X", "PriorDist"), outputs=("Out",),
                           optional_inputs=("PriorDist",), nondiff_inputs=("PriorDist",),
                           forward=_label_smooth_forward, infer=_label_smooth_infer, grad=_label_smooth_grad,
                           attrs={"epsilon": 0.0})


# ---- class-id labels of the losses composed from one-hot products ----------------------------------
_LABEL_ERRORS = {"IndexError": IndexError, "ValueError": ValueError}


def _check_labels_forward(xp, label, input, axis, ignore_index, api, error):
    """The labels unchanged, after checking each is a class id in [0, C) (C = input.shape[axis]) or
    ignore_index (None: no exemption). A one-hot product would silently drop an out-of-range label;
    Paddle's kernels raise (`error`: the class the kernel behind `api` raises)."""
    num_classes = input.shape[axis]
    bad = (label < 0) | (label >= num_classes)
    if ignore_index is not None:
        bad &= label != ignore_index
    if bool(bad.any()):
        allowed = f"[0, {num_classes})" + ("" if ignore_index is None else f" or equal ignore_index={ignore_index}")
        raise _LABEL_ERRORS[error](f"{api}: label values must lie in {allowed}, received "
                                   f"{int(label[bad].reshape(-1)[0])}")
    return label


def _check_labels_infer(label, input, axis, ignore_index, api, error):
    if error not in _LABEL_ERRORS:
        raise ValueError(f"op 'check_labels': error must be one of {sorted(_LABEL_ERRORS)}, received {error!r}")
    return Meta(label.shape, label.dtype)


CHECK_LABELS = register_op(
    "check_labels", inputs=("Label", "Input"), outputs=("Out",), forward=_check_labels_forward,
    infer=_check_labels_infer, attrs={"axis": -1, "ignore_index": -100, "api": "", "error": "IndexError"},
    host_sync=VALUE_CHECK)


# ---- the denominator of a mean over non-ignored hard labels ---------------------------------------
def _valid_label_count_forward(xp, label, ignore_index, dtype):
    """count(label != ignore_index), or 1 when every label is ignored (the mean of nothing is 0, not nan)."""
    count = (label != ignore_index).sum()
    return xp.asarray(xp.maximum(count, 1), dtype=np.dtype(dtype))


VALID_LABEL_COUNT = register_op(
    "valid_label_count", inputs=("Label",), outputs=("Out",), forward=_valid_label_count_forward,
    infer=lambda label, ignore_index, dtype: Meta((), np.dtype(dtype)),
    attrs={"ignore_index": -100, "dtype": "float32"})


# ---- CTC (Paddle's warpctc: softmax over the classes, then the CTC alignment sum) ------------------
_CTC_ATTRS = {"blank": 0, "norm_by_times": False}


def _ctc_infer(logits, label, logits_length, label_length, blank, norm_by_times):
    op = "warpctc"
    check_float(op, logits, "Logits", real=True)
    if len(logits.shape) != 3:
        raise ValueError(f"op '{op}': Logits must be 3-D [max_logit_length, batch_size, num_classes], "
                         f"received shape {list(logits.shape)}")
    if len(label.shape) != 2 or label.dtype.kind not in "iu":
        raise ValueError(f"op '{op}': Label must be a 2-D int32/int64 tensor [batch_size, max_label_length], "
                         f"received shape {list(label.shape)} and dtype {label.dtype}")
    batch, classes = logits.shape[1], logits.shape[2]
    for name, m in (("LogitsLength", logits_length), ("LabelLength", label_length)):
        if len(m.shape) != 1 or m.dtype.kind not in "iu":
            raise ValueError(f"op '{op}': {name} must be a 1-D int64 tensor [batch_size], received shape "
                             f"{list(m.shape)} and dtype {m.dtype}")
    if -1 not in (classes,) and not 0 <= blank < classes:
        raise ValueError(f"op '{op}': blank must lie in [0, {classes}) (num_classes of Logits), received {blank}")
    return Meta(logits.shape, logits.dtype), Meta((batch, 1), logits.dtype)


def _ctc_forward(xp, logits, label, logits_length, label_length, blank, norm_by_times):
    """Loss [B, 1] = -log sum over alignments, and its gradient w.r.t. the logits (zero past each length)."""
    T, B, C = logits.shape
    lengths, label_lengths = logits_length.astype(np.int64), label_length.astype(np.int64)
    if bool((lengths < 0).any()) or bool((lengths > T).any()):
        raise ValueError(f"op 'warpctc': LogitsLength values must lie in [0, {T}], received {lengths.tolist()}")
    if bool((label_lengths < 0).any()) or bool((label_lengths > label.shape[1]).any()):
        raise ValueError(f"op 'warpctc': LabelLength values must lie in [0, {label.shape[1]}], "
                         f"received {label_lengths.tolist()}")
    used = xp.arange(label.shape[1])[None, :] < label_lengths[:, None]
    if bool((used & ((label < 0) | (label >= C) | (label == blank))).any()):
        raise ValueError(f"op 'warpctc': Label values must lie in [0, {C}) and differ from blank={blank}")
    dtype = logits.dtype
    neg_inf = dtype.type(-np.inf)
    shifted = logits - logits.max(axis=2, keepdims=True)
    log_probs = shifted - xp.log(xp.exp(shifted).sum(axis=2, keepdims=True))
    # extended label: blank, l1, blank, l2, ..., blank; S_b = 2 L_b + 1 live states
    S = 2 * label.shape[1] + 1
    ext = xp.full((B, S), blank, dtype=np.int64)
    ext[:, 1::2] = xp.where(used, label, blank)
    states = 2 * label_lengths + 1
    s_idx = xp.arange(S)[None, :]
    live = s_idx < states[:, None]
    # a skip s-2 -> s is allowed onto a label that differs from the one two states back
    skip = xp.zeros((B, S), dtype=bool)
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    emit = xp.take_along_axis(log_probs, xp.broadcast_to(ext[None], (T, B, S)), axis=2)  # [T, B, S]
    emit = xp.where(live[None], emit, neg_inf)

    def lse(*terms):
        top = terms[0]
        for term in terms[1:]:
            top = xp.maximum(top, term)
        base = xp.where(xp.isfinite(top), top, dtype.type(0))
        with np.errstate(divide="ignore"):
            return base + xp.log(sum(xp.exp(term - base) for term in terms))

    def shift(a, k):  # state s takes the value of state s-k (k < 0: of s+|k|)
        out = xp.full_like(a, neg_inf)
        if k > 0:
            out[:, k:] = a[:, :-k]
        else:
            out[:, :k] = a[:, -k:]
        return out

    alpha = xp.full((T, B, S), neg_inf, dtype=dtype)
    alpha[0, :, :2] = emit[0, :, :2]
    for t in range(1, T):
        prev = alpha[t - 1]
        alpha[t] = lse(prev, shift(prev, 1), xp.where(skip, shift(prev, 2), neg_inf)) + emit[t]
    beta = xp.full((T, B, S), neg_inf, dtype=dtype)
    last = lengths - 1
    ends = live & (s_idx >= states[:, None] - 2)
    nxt = xp.full((B, S), neg_inf, dtype=dtype)
    skip_back = xp.zeros((B, S), dtype=bool)  # s -> s+2 allowed when s+2 may be skipped onto
    skip_back[:, :-2] = skip[:, 2:]
    for t in range(T - 1, -1, -1):
        back = lse(nxt, shift(nxt, -1), xp.where(skip_back, shift(nxt, -2), neg_inf))
        start = xp.where(ends, dtype.type(0), neg_inf)
        step = xp.where((t == last)[:, None], start, xp.where((t < last)[:, None], back, neg_inf))
        beta[t] = step + emit[t]
        nxt = beta[t]
    final = xp.where(ends, alpha[xp.clip(last, 0, None), xp.arange(B)], neg_inf)  # [B, S]
    top = final.max(axis=1)
    top = xp.where(xp.isfinite(top), top, dtype.type(0))
    with np.errstate(divide="ignore"):
        log_likelihood = top + xp.log(xp.exp(final - top[:, None]).sum(axis=1))
    log_likelihood = xp.where(lengths > 0, log_likelihood, neg_inf)
    loss = -log_likelihood
    # occupancy of each state: alpha beta / (p * emission); gradient = softmax - per-class occupancy
    finite = xp.isfinite(log_likelihood)[None, :, None]
    with np.errstate(invalid="ignore"):
        occupancy = xp.where(finite, xp.exp(alpha + beta - emit - xp.where(finite, log_likelihood[None, :, None], 0)),
                             dtype.type(0))
    occupancy = xp.where(xp.isnan(occupancy), dtype.type(0), occupancy)
    onehot = (ext[:, :, None] == xp.arange(C)[None, None, :]).astype(dtype)
    grad = xp.exp(log_probs) - xp.einsum("tbs,bsc->tbc", occupancy, onehot)
    in_time = xp.arange(T)[:, None, None] < lengths[None, :, None]
    grad = xp.where(in_time, grad, dtype.type(0))
    return grad.astype(dtype, copy=False), loss.reshape(B, 1).astype(dtype, copy=False)


def _ctc_grad_forward(xp, ctc_grad, logits_length, dloss, norm_by_times):
    """DLogits = WarpCTCGrad * DLoss[b] (divided by the sequence's length with norm_by_times)."""
    scale = dloss.reshape(1, -1, 1)
    if norm_by_times:
        scale = scale / xp.maximum(logits_length, 1).astype(ctc_grad.dtype).reshape(1, -1, 1)
    return (ctc_grad * scale).astype(ctc_grad.dtype, copy=False)


def _ctc_grad_infer(ctc_grad, logits_length, dloss, norm_by_times):
    if tuple(dloss.shape) not in ((ctc_grad.shape[1], 1), (-1, 1)):
        raise ValueError(f"op 'warpctc_grad': DLoss must have shape [{ctc_grad.shape[1]}, 1], "
                         f"received {list(dloss.shape)}")
    return Meta(ctc_grad.shape, ctc_grad.dtype)


def _ctc_grad(g):
    dloss = g.output_grad("Loss")
    if g.needs("Logits") and dloss is not None:
        g.set_input_grad("Logits", g.op("warpctc_grad", g.output("WarpCTCGrad"), g.input("LogitsLength"), dloss,
                                        norm_by_times=g.attrs["norm_by_times"]))


WARPCTC = register_op(
    "warpctc", inputs=("Logits", "Label", "LogitsLength", "LabelLength"), outputs=("WarpCTCGrad", "Loss"),
    forward=_ctc_forward, infer=_ctc_infer, grad=_ctc_grad, attrs=_CTC_ATTRS,
    nondiff_inputs=("Label", "LogitsLength", "LabelLength"), intermediate_outputs=("WarpCTCGrad",),
    host_sync=VALUE_CHECK)

# No grad maker: double backward through CTC is not supported (nor is it in Paddle).
WARPCTC_GRAD = register_op(
    "warpctc_grad", inputs=("WarpCTCGrad", "LogitsLength", "DLoss"), outputs=("DLogits",),
    forward=_ctc_grad_forward, infer=_ctc_grad_infer, attrs={"norm_by_times": False})


# ---- RNN-T (Paddle's CPU warprnnt: Input holds log-probabilities as given, no softmax) ------------
def _rnnt_infer(input, label, input_lengths, label_lengths, blank, fastemit_lambda):
    op = "warprnnt"
    check_float(op, input, "input", real=True)
    if len(input.shape) != 4:
        raise ValueError(f"op '{op}': input must be 4-D [batch_size, max_logit_length, max_label_length + 1, "
                         f"num_classes], received shape {list(input.shape)}")
    if len(label.shape) != 2 or label.dtype.kind not in "iu":
        raise ValueError(f"op '{op}': label must be a 2-D int32 tensor [batch_size, max_label_length], received "
                         f"shape {list(label.shape)} and dtype {label.dtype}")
    for name, m in (("input_lengths", input_lengths), ("label_lengths", label_lengths)):
        if len(m.shape) != 1 or m.dtype.kind not in "iu":
            raise ValueError(f"op '{op}': {name} must be a 1-D int32 tensor [batch_size], received shape "
                             f"{list(m.shape)} and dtype {m.dtype}")
    if -1 not in (input.shape[3],) and not 0 <= blank < input.shape[3]:
        raise ValueError(f"op '{op}': blank must lie in [0, {input.shape[3]}), received {blank}")
    return Meta(input.shape, input.dtype), Meta((input.shape[0],), input.dtype)


def _rnnt_forward(xp, input, label, input_lengths, label_lengths, blank, fastemit_lambda):
    """Loss [B] = -log sum over lattice paths of the given log-probabilities, and its gradient (FastEmit
    scales the label emissions' part by 1 + fastemit_lambda, leaving the loss as is)."""
    B, T, U1, D = input.shape
    U = U1 - 1
    lengths, label_lengths = input_lengths.astype(np.int64), label_lengths.astype(np.int64)
    if bool((lengths < 1).any()) or bool((lengths > T).any()):
        raise ValueError(f"op 'warprnnt': input_lengths values must lie in [1, {T}], received {lengths.tolist()}")
    if label.shape[1] < U or bool((label_lengths < 0).any()) or bool((label_lengths > U).any()):
        raise ValueError(f"op 'warprnnt': label_lengths values must lie in [0, {U}] (input's dim 2 minus 1) "
                         f"within label's {label.shape[1]} columns, received {label_lengths.tolist()}")
    used = xp.arange(U)[None, :] < label_lengths[:, None]
    labels = label[:, :U].astype(np.int64)
    if bool((used & ((labels < 0) | (labels >= D) | (labels == blank))).any()):
        raise ValueError(f"op 'warprnnt': label values must lie in [0, {D}) and differ from blank={blank}")
    dtype = input.dtype
    neg_inf = dtype.type(-np.inf)
    labels = xp.where(used, labels, 0)
    blank_lp = input[..., blank]                                                                    # [B, T, U+1]
    emit_lp = xp.take_along_axis(input[:, :, :U, :], xp.broadcast_to(labels[:, None, :, None], (B, T, U, 1)),
                                 axis=3)[..., 0]                                                    # [B, T, U]

    def lse(a, b):
        top = xp.maximum(a, b)
        base = xp.where(xp.isfinite(top), top, dtype.type(0))
        with np.errstate(divide="ignore"):
            return base + xp.log(xp.exp(a - base) + xp.exp(b - base))

    none = xp.full((B,), neg_inf, dtype=dtype)
    alpha = xp.full((B, T, U1), neg_inf, dtype=dtype)
    alpha[:, 0, 0] = 0
    for t in range(T):
        for u in range(U1):
            if t or u:
                alpha[:, t, u] = lse(alpha[:, t - 1, u] + blank_lp[:, t - 1, u] if t else none,
                                     alpha[:, t, u - 1] + emit_lp[:, t, u - 1] if u else none)
    rows = xp.arange(B)
    last_t = lengths - 1
    log_likelihood = alpha[rows, last_t, label_lengths] + blank_lp[rows, last_t, label_lengths]
    beta = xp.full((B, T, U1), neg_inf, dtype=dtype)
    for t in range(T - 1, -1, -1):
        for u in range(U, -1, -1):
            step = lse(beta[:, t + 1, u] + blank_lp[:, t, u] if t + 1 < T else none,
                       beta[:, t, u + 1] + emit_lp[:, t, u] if u < U else none)
            end = (t == last_t) & (u == label_lengths)
            valid = (t < lengths) & (u <= label_lengths)
            beta[:, t, u] = xp.where(end, blank_lp[:, t, u], xp.where(valid, step, neg_inf))
    # after a blank at (t, u) the path goes on from (t+1, u), or ends at the last cell
    after_blank = xp.full((B, T, U1), neg_inf, dtype=dtype)
    after_blank[:, :-1] = beta[:, 1:]
    after_blank[rows, last_t, label_lengths] = 0
    finite = xp.isfinite(log_likelihood)
    norm = xp.where(finite, log_likelihood, dtype.type(0))[:, None, None]
    with np.errstate(invalid="ignore"):
        g_blank = -xp.exp(alpha + blank_lp + after_blank - norm)
        g_emit = -(1 + fastemit_lambda) * xp.exp(alpha[:, :, :U] + emit_lp + beta[:, :, 1:] - norm)
    grad = xp.zeros_like(input)
    grad[..., blank] = g_blank
    onehot = (labels[:, None, :, None] == xp.arange(D)).astype(dtype)                               # [B, 1, U, D]
    grad[:, :, :U, :] += g_emit[..., None] * onehot
    grad = xp.where(finite[:, None, None, None], grad, dtype.type(0))
    return grad.astype(dtype, copy=False), (-log_likelihood).astype(dtype, copy=False)


def _rnnt_grad_forward(xp, rnnt_grad, dloss):
    return (rnnt_grad * dloss.reshape(-1, 1, 1, 1)).astype(rnnt_grad.dtype, copy=False)


def _rnnt_grad(g):
    dloss = g.output_grad("loss")
    if g.needs("input") and dloss is not None:
        g.set_input_grad("input", g.op("warprnnt_grad", g.output("warprnntgrad"), dloss))


WARPRNNT = register_op(
    "warprnnt", inputs=("input", "label", "input_lengths", "label_lengths"), outputs=("warprnntgrad", "loss"),
    forward=_rnnt_forward, infer=_rnnt_infer, grad=_rnnt_grad, attrs={"blank": 0, "fastemit_lambda": 0.001},
    nondiff_inputs=("label", "input_lengths", "label_lengths"), intermediate_outputs=("warprnntgrad",),
    host_sync=VALUE_CHECK)

# No grad maker: double backward through RNN-T is not supported (nor is it in Paddle).
WARPRNNT_GRAD = register_op(
    "warprnnt_grad", inputs=("warprnntgrad", "dloss"), outputs=("dinput",), forward=_rnnt_grad_forward,
    infer=lambda rnnt_grad, dloss: Meta(rnnt_grad.shape, rnnt_grad.dtype))
