"""Losses. softmax_with_cross_entropy / cross_entropy run the fused 'softmax_with_cross_entropy' op; the others
are composed from elementwise / reduce ops (so their gradients come from those ops' grad makers)."""
import numbers

from ...framework.mode import _static
from ...ops import creation as _creation
from ...ops import dispatch
from ...ops import elementwise as _ew
from ...ops import loss as _loss
from ...ops import manipulation as _mo
from ...ops import math as _math
from ...ops import reduce as _red
from ...ops.registry import get_op
from ...tensor.math import _check_tensor, check_float_tensor

__all__ = ["softmax_with_cross_entropy", "cross_entropy", "nll_loss", "mse_loss", "square_error_cost", "l1_loss",
           "smooth_l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits"]

apply = dispatch.apply
_REDUCTIONS = ("mean", "sum", "none")


# ---- small builders over registered ops -----------------------------------------------------------
def _scale(x, s, b=0.0):
    return apply(_math.SCALE, x, scale=float(s), bias=float(b))


def _sum(x, axis=None, keepdim=False):
    return apply(_red.REDUCE_SUM, x, axis=axis, keepdim=keepdim)


def _op(type, *inputs, **attrs):
    return apply(get_op(type), *inputs, **attrs)


def _reduce(loss, reduction):
    if reduction == "mean":
        return apply(_red.MEAN, loss)
    if reduction == "sum":
        return _sum(loss)
    return loss


def _check_reduction(reduction, api):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{api}: reduction must be 'mean', 'sum' or 'none', received {reduction!r}")


def _check_same_shape(a, b, api, names=("input", "label")):
    if list(a.shape) != list(b.shape) and -1 not in list(a.shape) + list(b.shape):
        raise ValueError(f"{api}: {names[0]} and {names[1]} must have the same shape, received {a.shape} and {b.shape}")


def _one_hot(label, num_classes, dtype, axis):
    """Float one-hot of integer `label` along a new dim at `axis` (ids outside [0, C), e.g. ignored ones, give 0)."""
    place = None if _static[0] else label.place
    classes = apply(_creation.RANGE, start=0, end=int(num_classes), step=1, dtype=label.dtype.name, place=place)
    nd = len(label.shape) + 1
    axis = axis % nd
    classes = apply(_mo.RESHAPE, classes, shape=[-1 if i == axis else 1 for i in range(nd)])
    hit = apply(_ew.EQUAL, apply(_mo.UNSQUEEZE, label, axis=[axis]), classes)
    return apply(_mo.CAST, hit, dtype=dtype.name)


def _not_ignored(label, ignore_index, dtype):
    """1.0 where label != ignore_index, else 0.0 (label's shape, float dtype)."""
    ign = apply(_creation.FILL_CONSTANT, shape=[], value=int(ignore_index), dtype=label.dtype.name,
                place=None if _static[0] else label.place)
    return apply(_mo.CAST, apply(_ew.NOT_EQUAL, label, ign), dtype=dtype.name)


def _norm_axis(axis, nd, api):
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral) or not -nd <= axis < nd:
        raise ValueError(f"{api}: axis must be an int in [-{nd}, {nd}), received {axis!r}")
    return int(axis) % nd


# ---- softmax cross entropy ------------------------------------------------------------------------
def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100, numeric_stable_mode=True,
                               return_softmax=False, axis=-1):
    """Per-sample cross entropy of softmax(logits) (shape of logits with 1 at `axis`); label holds class ids
    (same rank as logits, 1 at axis) or, with soft_label, a distribution shaped like logits."""
    api = "softmax_with_cross_entropy"
    check_float_tensor(logits, api, "logits")
    _check_tensor(label, api, "label")
    axis = _norm_axis(axis, len(logits.shape), api)
    if not soft_label and len(label.shape) == len(logits.shape) - 1:
        label = apply(_mo.UNSQUEEZE, label, axis=[axis])
    softmax, loss = apply(_loss.SOFTMAX_WITH_CROSS_ENTROPY, logits, label, soft_label=bool(soft_label),
                          ignore_index=int(ignore_index), axis=axis, numeric_stable_mode=bool(numeric_stable_mode))
    return (loss, softmax) if return_softmax else loss


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean", soft_label=False, axis=-1,
                  use_softmax=True, label_smoothing=0.0, name=None):
    """Paddle's cross_entropy. Hard labels: class ids of shape input.shape without `axis` (or with 1 there);
    'mean' averages over the non-ignored samples, weighted by weight[label] when weight is given.
    Soft labels (or label_smoothing > 0): distributions along `axis`; 'mean' averages over samples."""
    api = "cross_entropy"
    check_float_tensor(input, api, "input")
    _check_tensor(label, api, "label")
    _check_reduction(reduction, api)
    nd = len(input.shape)
    axis = _norm_axis(axis, nd, api)
    num_classes = input.shape[axis]
    if isinstance(label_smoothing, bool) or not isinstance(label_smoothing, numbers.Real) or \
            not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"{api}: label_smoothing must be in [0, 1], received {label_smoothing!r}")
    if weight is not None:
        check_float_tensor(weight, api, "weight")
        if list(weight.shape) != [num_classes]:
            raise ValueError(f"{api}: weight must have shape [{num_classes}] (one value per class), received "
                             f"{weight.shape}")
    squeeze_out = False
    if not soft_label:
        if label.dtype.np.kind not in "iu":
            raise TypeError(f"{api}: with soft_label=False, label must hold int64 class ids, received dtype "
                            f"{label.dtype.name} (pass soft_label=True for probabilities)")
        if len(label.shape) == nd - 1:
            squeeze_out = True
            label = apply(_mo.UNSQUEEZE, label, axis=[axis])
        elif len(label.shape) != nd:
            raise ValueError(f"{api}: label must have rank {nd - 1} or {nd} for input of shape {input.shape}, "
                             f"received shape {label.shape}")
    hard = not soft_label
    if hard and label_smoothing > 0:  # Paddle one-hot encodes the labels: every one must be a class id
        label = apply(_loss.CHECK_LABELS, label, input, axis=axis, ignore_index=None, api=api, error="ValueError")
        hard_label = label
        onehot = _one_hot(apply(get_op("squeeze"), label, axis=[axis]), num_classes, input.dtype, axis)
        label = _scale(onehot, 1.0 - label_smoothing, label_smoothing / num_classes)
        hard = False
    else:
        hard_label = label if hard else None

    if use_softmax:
        loss = apply(_loss.SOFTMAX_WITH_CROSS_ENTROPY, input, label, soft_label=not hard,
                     ignore_index=int(ignore_index), axis=axis)[1]
    else:
        logp = apply(_math.LOG, input)
        if hard:
            label = apply(_loss.CHECK_LABELS, label, input, axis=axis, ignore_index=int(ignore_index), api=api,
                          error="IndexError")
            hard_label = label
            onehot = _one_hot(apply(get_op("squeeze"), label, axis=[axis]), num_classes, input.dtype, axis)
            loss = _scale(_sum(apply(_ew.MULTIPLY, onehot, logp), axis=[axis], keepdim=True), -1.0)
        else:
            loss = _scale(_sum(apply(_ew.MULTIPLY, label, logp), axis=[axis], keepdim=True), -1.0)

    # per-sample weights (shape of loss): weight[label] for hard labels, sum_c label_c weight_c for soft ones
    sample_w = None
    if weight is not None:
        wshape = [-1 if i == axis else 1 for i in range(nd)]
        w_b = apply(_mo.RESHAPE, weight, shape=wshape)
        if hard:
            onehot = _one_hot(apply(get_op("squeeze"), label, axis=[axis]), num_classes, input.dtype, axis)
            sample_w = _sum(apply(_ew.MULTIPLY, onehot, w_b), axis=[axis], keepdim=True)
        else:
            sample_w = _sum(apply(_ew.MULTIPLY, label, w_b), axis=[axis], keepdim=True)
        loss = apply(_ew.MULTIPLY, loss, sample_w)
    ignoring = hard_label is not None and ignore_index is not None
    if ignoring and (not use_softmax or not hard):  # softmax_with_cross_entropy zeroes ignored rows itself
        loss = apply(_ew.MULTIPLY, loss, _not_ignored(hard_label, ignore_index, input.dtype))

    if reduction == "sum":
        return _sum(loss)
    if reduction == "mean":
        if hard_label is not None and sample_w is None:
            count = apply(_loss.VALID_LABEL_COUNT, hard_label, ignore_index=int(ignore_index),
                          dtype=input.dtype.name)
            return apply(_ew.DIVIDE, _sum(loss), count)
        if hard_label is not None:
            return _safe_div(loss, _sum(apply(_ew.MULTIPLY, sample_w, _not_ignored(hard_label, ignore_index,
                                                                                  input.dtype))))
        return apply(_red.MEAN, loss)
    if squeeze_out:
        loss = apply(get_op("squeeze"), loss, axis=[axis])
    return loss


def _gs_ones():
    return get_op("fill_any_like")


def _safe_div(loss, count):
    """sum(loss) / count, with an all-ignored batch (count 0, loss 0) giving 0 rather than nan. Divides before
    summing, so the result comes from the sum op (a 0-D array, not a NumPy scalar)."""
    return _sum(apply(_ew.DIVIDE, loss, apply(_ew.MAXIMUM, count, apply(_gs_ones(), count, value=1e-30))))


# ---- negative log likelihood ----------------------------------------------------------------------
def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean", name=None):
    """input: log-probabilities [N, C] or [N, C, d1, ...]; label: class ids [N] or [N, d1, ...]."""
    api = "nll_loss"
    check_float_tensor(input, api, "input")
    _check_tensor(label, api, "label")
    _check_reduction(reduction, api)
    if label.dtype.np.kind not in "iu":
        raise TypeError(f"{api}: label must hold int64 class ids, received dtype {label.dtype.name}")
    if len(input.shape) < 2 or len(label.shape) != len(input.shape) - 1:
        raise ValueError(f"{api}: input must be [N, C, ...] and label [N, ...] (one rank less), received shapes "
                         f"{input.shape} and {label.shape}")
    c = input.shape[1]
    label = apply(_loss.CHECK_LABELS, label, input, axis=1, ignore_index=int(ignore_index), api=api,
                  error="ValueError")
    onehot = _one_hot(label, c, input.dtype, 1)
    if weight is not None:
        check_float_tensor(weight, api, "weight")
        if list(weight.shape) != [c]:
            raise ValueError(f"{api}: weight must have shape [{c}], received {weight.shape}")
        onehot = apply(_ew.MULTIPLY, onehot, apply(_mo.RESHAPE, weight,
                                                   shape=[-1 if i == 1 else 1 for i in range(len(input.shape))]))
    onehot = apply(_ew.MULTIPLY, onehot, apply(_mo.UNSQUEEZE, _not_ignored(label, ignore_index, input.dtype),
                                               axis=[1]))
    loss = _scale(_sum(apply(_ew.MULTIPLY, onehot, input), axis=[1]), -1.0)
    if reduction == "mean":
        return _safe_div(loss, _sum(onehot))
    return _reduce(loss, reduction)


# ---- regression losses ----------------------------------------------------------------------------
def square_error_cost(input, label):
    """(input - label) ** 2, elementwise."""
    check_float_tensor(input, "square_error_cost", "input")
    check_float_tensor(label, "square_error_cost", "label")
    d = apply(_ew.SUBTRACT, input, label)
    return apply(_ew.MULTIPLY, d, d)


def mse_loss(input, label, reduction="mean", name=None):
    _check_reduction(reduction, "mse_loss")
    check_float_tensor(input, "mse_loss", "input")
    check_float_tensor(label, "mse_loss", "label")
    _check_same_shape(input, label, "mse_loss")
    return _reduce(square_error_cost(input, label), reduction)


def l1_loss(input, label, reduction="mean", name=None):
    _check_reduction(reduction, "l1_loss")
    check_float_tensor(input, "l1_loss", "input")
    check_float_tensor(label, "l1_loss", "label")
    _check_same_shape(input, label, "l1_loss")
    return _reduce(_op("abs", apply(_ew.SUBTRACT, input, label)), reduction)


def smooth_l1_loss(input, label, reduction="mean", delta=1.0, name=None):
    """Paddle's smooth_l1_loss: 0.5 d^2 where |d| < delta, else delta * (|d| - 0.5 delta)."""
    _check_reduction(reduction, "smooth_l1_loss")
    check_float_tensor(input, "smooth_l1_loss", "input")
    check_float_tensor(label, "smooth_l1_loss", "label")
    _check_same_shape(input, label, "smooth_l1_loss")
    if isinstance(delta, bool) or not isinstance(delta, numbers.Real) or delta <= 0:
        raise ValueError(f"smooth_l1_loss: delta must be a positive number, received {delta!r}")
    d = apply(_ew.SUBTRACT, input, label)
    ad = _op("abs", d)
    quad = _scale(apply(_ew.MULTIPLY, d, d), 0.5)
    lin = _scale(ad, float(delta), -0.5 * float(delta) ** 2)
    small = apply(_ew.LESS_THAN, ad, _scale(apply(_gs_ones(), ad, value=1.0), float(delta)))
    return _reduce(_op("where", small, quad, lin), reduction)


# ---- binary cross entropy -------------------------------------------------------------------------
def _apply_weight(loss, weight, api):
    if weight is None:
        return loss
    check_float_tensor(weight, api, "weight")
    return apply(_ew.MULTIPLY, loss, weight)


def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):
    """-(label * log(input) + (1 - label) * log(1 - input)), logs clamped at -100 as Paddle's."""
    api = "binary_cross_entropy"
    _check_reduction(reduction, api)
    check_float_tensor(input, api, "input")
    check_float_tensor(label, api, "label")
    _check_same_shape(input, label, api)
    floor = _scale(apply(_gs_ones(), input, value=1.0), -100.0)
    log_p = apply(_ew.MAXIMUM, apply(_math.LOG, input), floor)
    log_1mp = apply(_ew.MAXIMUM, apply(_math.LOG, _scale(input, -1.0, 1.0)), floor)
    pos = apply(_ew.MULTIPLY, label, log_p)
    neg = apply(_ew.MULTIPLY, _scale(label, -1.0, 1.0), log_1mp)
    loss = _scale(apply(_ew.ADD, pos, neg), -1.0)
    return _reduce(_apply_weight(loss, weight, api), reduction)


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean", pos_weight=None, name=None):
    """Stable sigmoid + BCE: (1 - y) x + (1 + (pw - 1) y) (log(1 + exp(-|x|)) + max(-x, 0))."""
    api = "binary_cross_entropy_with_logits"
    _check_reduction(reduction, api)
    check_float_tensor(logit, api, "logit")
    check_float_tensor(label, api, "label")
    _check_same_shape(logit, label, api, ("logit", "label"))
    neg_x = _scale(logit, -1.0)
    softplus_neg = apply(_ew.ADD, _op("log1p", apply(_math.EXP, _scale(_op("abs", logit), -1.0))),
                         apply(_ew.MAXIMUM, neg_x, apply(_gs_ones(), logit, value=0.0)))
    coef = None
    if pos_weight is not None:
        check_float_tensor(pos_weight, api, "pos_weight")
        coef = _scale(apply(_ew.MULTIPLY, _scale(pos_weight, 1.0, -1.0), label), 1.0, 1.0)
    term = softplus_neg if coef is None else apply(_ew.MULTIPLY, coef, softplus_neg)
    loss = apply(_ew.ADD, apply(_ew.MULTIPLY, _scale(label, -1.0, 1.0), logit), term)
    return _reduce(_apply_weight(loss, weight, api), reduction)
