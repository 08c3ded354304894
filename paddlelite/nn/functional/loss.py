"""Losses. softmax_with_cross_entropy / cross_entropy run the fused 'softmax_with_cross_entropy' op; the others
are composed from elementwise / reduce ops (so their gradients come from those ops' grad makers)."""
import math
import numbers

import numpy as np

from ... import tensor as T
from ...framework import dtype as _dtype
from ...framework.mode import in_static_mode, no_grad
from ...ops import creation as _creation
from ...ops import dispatch
from ...ops import elementwise as _ew
from ...ops import loss as _loss
from ...ops import manipulation as _mo
from ...ops import math as _math
from ...ops import reduce as _red
from ...ops.registry import get_op
from ...static.appender import layer_helper, reserve_output, reserved_output_guard
from ...tensor.math import _check_tensor, check_float_tensor
from .activation import log_softmax
from .common import linear

__all__ = ["softmax_with_cross_entropy", "cross_entropy", "nll_loss", "mse_loss", "square_error_cost", "l1_loss",
           "smooth_l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div", "margin_ranking_loss", "hinge_embedding_loss", "soft_margin_loss",
           "multi_label_soft_margin_loss", "log_loss", "poisson_nll_loss", "gaussian_nll_loss", "cosine_embedding_loss",
           "triplet_margin_loss", "triplet_margin_with_distance_loss", "sigmoid_focal_loss", "dice_loss", "label_smooth",
           "multi_margin_loss", "multi_label_margin_loss", "npair_loss", "margin_cross_entropy",
           "class_center_sample", "ctc_loss", "hsigmoid_loss",
           "adaptive_log_softmax_with_loss", "rnnt_loss"]

apply = dispatch.apply
_REDUCTIONS = ("mean", "sum", "none")


# ---- small builders over registered ops -----------------------------------------------------------
def _scale(x, s, b=0.0):
    return apply(_math.SCALE, x, scale=float(s), bias=float(b))


def _sum(x, axis=None, keepdim=False):
    return apply(_red.REDUCE_SUM, x, axis=axis, keepdim=keepdim)


def _per_sample(total, x):
    """total / x's batch size (shape[0]), read when the program runs if a static x leaves it open (-1)."""
    if x.shape[0] != -1:
        return _scale(total, 1.0 / x.shape[0])
    return apply(_ew.DIVIDE, total, T.cast(T.shape(x)[0], total.dtype))


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
    place = None if in_static_mode() else label.place
    classes = apply(_creation.RANGE, None, None, None, start=0, end=int(num_classes), step=1, dtype=label.dtype.name, place=place)
    nd = len(label.shape) + 1
    axis = axis % nd
    classes = apply(_mo.RESHAPE, classes, shape=[-1 if i == axis else 1 for i in range(nd)])
    hit = apply(_ew.EQUAL, apply(_mo.UNSQUEEZE, label, axis=[axis]), classes)
    return apply(_mo.CAST, hit, dtype=dtype.name)


def _not_ignored(label, ignore_index, dtype):
    """1.0 where label != ignore_index, else 0.0 (label's shape, float dtype)."""
    ign = apply(_creation.FILL_CONSTANT, shape=[], value=int(ignore_index), dtype=label.dtype.name,
                place=None if in_static_mode() else label.place)
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


def _cross_entropy_label(input, label, soft_label, label_smoothing, axis, op_axis, api):
    """cross_entropy's label as the op takes it: (label, hard, the class ids when given as ids, whether the loss drops
    the class axis again)."""
    nd, num_classes = len(input.shape), input.shape[axis]
    squeeze_out = False
    if label_smoothing > 0 and len(label.shape) == nd:  # Paddle reads it as a distribution, whatever soft_label says
        soft_label = True
    if not soft_label:
        if label.dtype.np.kind == "f":  # Paddle's kernel reads float class ids as ints (truncating)
            label = apply(_mo.CAST, label, dtype="int64")
        elif label.dtype.np.kind not in "iu":
            raise TypeError(f"{api}: with soft_label=False, label must hold class ids, received dtype "
                            f"{label.dtype.name} (pass soft_label=True for probabilities)")
        if len(label.shape) == nd - 1:
            squeeze_out = True
            label = apply(_mo.UNSQUEEZE, label, axis=[op_axis])
        elif len(label.shape) != nd:
            raise ValueError(f"{api}: label must have rank {nd - 1} or {nd} for input of shape {input.shape}, "
                             f"received shape {label.shape}")
    hard = not soft_label
    hard_label = label if hard else None
    if hard and label_smoothing > 0:  # Paddle one-hot encodes the labels: every one must be a class id
        hard_label = apply(_loss.CHECK_LABELS, label, input, axis=axis, ignore_index=None, api=api, error="ValueError")
        # float32 one-hot, as Paddle's one_hot, smoothed below; the loss keeps the class axis (size 1), as Paddle's
        label = _one_hot(apply(get_op("squeeze"), hard_label, axis=[axis]), num_classes,
                         _dtype.convert_dtype("float32"), axis)
        hard, squeeze_out = False, False
    if label_smoothing > 0:  # Paddle smooths given distributions too, in their dtype, then casts to input's
        label = _scale(label, *_smoothing(label_smoothing, num_classes))
        if label.dtype != input.dtype:
            label = apply(_mo.CAST, label, dtype=input.dtype)
    return label, hard, hard_label, squeeze_out


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean", soft_label=False, axis=-1,
                  use_softmax=True, label_smoothing=0.0, name=None):
    """Paddle's cross_entropy. Hard labels: class ids of shape input.shape without `axis` (or with 1 there);
    'mean' averages over the samples (over the non-ignored ones when ignore_index >= 0 or weight is given,
    as Paddle), weighted by weight[label] when weight is given.
    Soft labels (or label_smoothing > 0): distributions along `axis`; 'mean' averages over samples."""
    api = "cross_entropy"
    check_float_tensor(input, api, "input")
    _check_tensor(label, api, "label")
    _check_reduction(reduction, api)
    nd = len(input.shape)
    axis, op_axis = _norm_axis(axis, nd, api), int(axis)  # the ops get it as given (their descs show -1)
    num_classes = input.shape[axis]
    if isinstance(label_smoothing, bool) or not isinstance(label_smoothing, numbers.Real) or \
            not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"{api}: label_smoothing must be in [0, 1], received {label_smoothing!r}")
    if weight is not None:
        check_float_tensor(weight, api, "weight")
        if list(weight.shape) != [num_classes]:
            raise ValueError(f"{api}: weight must have shape [{num_classes}] (one value per class), received "
                             f"{weight.shape}")
    label, hard, hard_label, squeeze_out = _cross_entropy_label(input, label, soft_label, label_smoothing, axis,
                                                                op_axis, api)

    # use_softmax=False: input holds probabilities, the op takes -log of them (Paddle's op, with that attr)
    loss = apply(_loss.SOFTMAX_WITH_CROSS_ENTROPY, input, label, soft_label=not hard, ignore_index=int(ignore_index),
                 axis=op_axis, use_softmax=bool(use_softmax))[1]

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
    if ignoring and not hard:  # softmax_with_cross_entropy zeroes ignored rows of hard labels itself
        loss = apply(_ew.MULTIPLY, loss, _not_ignored(hard_label, ignore_index, input.dtype))

    if reduction == "sum":
        return _sum(loss)
    if reduction == "mean":
        # as Paddle: a negative ignore_index (the default -100) averages over all samples, ignored ones too
        if hard_label is not None and sample_w is None and ignore_index >= 0:
            count = apply(_loss.VALID_LABEL_COUNT, hard_label, ignore_index=int(ignore_index),
                          dtype=input.dtype.name)
            return apply(_ew.DIVIDE, _sum(loss), count)
        if sample_w is not None:  # the weighted mean: over the weights of the samples (not ignored ones)
            if hard_label is not None:
                sample_w = apply(_ew.MULTIPLY, sample_w, _not_ignored(hard_label, ignore_index, input.dtype))
            return _safe_div(loss, _sum(sample_w))
        return apply(_red.MEAN, loss)
    if squeeze_out:
        loss = apply(get_op("squeeze"), loss, axis=[op_axis])
    return loss


def _smoothing(epsilon, num_classes):
    """(scale, bias) of label smoothing, label * (1 - epsilon) + epsilon / num_classes, with the constants in
    float32 as Paddle's label_smooth kernel computes them."""
    eps = np.float32(epsilon)
    return float(np.float32(1) - eps), float(eps / np.float32(num_classes))


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
    if len(input.shape) >= 2 and len(label.shape) == len(input.shape) and label.shape[1] == 1:
        label = apply(get_op("squeeze"), label, axis=[1])  # [N, 1, ...] labels, as Paddle's kernel reads them
    if len(input.shape) < 2 or len(label.shape) != len(input.shape) - 1:
        raise ValueError(f"{api}: input must be [N, C, ...] and label [N, ...] or [N, 1, ...], received shapes "
                         f"{input.shape} and {label.shape}")
    if weight is not None:
        check_float_tensor(weight, api, "weight")
        if list(weight.shape) != [input.shape[1]]:
            raise ValueError(f"{api}: weight must have shape [{input.shape[1]}], received {weight.shape}")
    with layer_helper("nll_loss"):
        return apply(_loss.NLL_LOSS, input, label, weight, ignore_index=int(ignore_index), reduction=reduction)[0]


# ---- regression losses ----------------------------------------------------------------------------
def _squared_difference(input, label):
    return apply(_math.SQUARE, apply(_ew.SUBTRACT, input, label))


def square_error_cost(input, label):
    """(input - label) ** 2, elementwise."""
    check_float_tensor(input, "square_error_cost", "input")
    check_float_tensor(label, "square_error_cost", "label")
    with layer_helper("square_error_cost"):  # Paddle's static API names both ops so
        return _squared_difference(input, label)


def mse_loss(input, label, reduction="mean", name=None):
    _check_reduction(reduction, "mse_loss")
    check_float_tensor(input, "mse_loss", "input")
    check_float_tensor(label, "mse_loss", "label")
    _check_same_shape(input, label, "mse_loss")
    return _reduce(_squared_difference(input, label), reduction)


def l1_loss(input, label, reduction="mean", name=None):
    _check_reduction(reduction, "l1_loss")
    check_float_tensor(input, "l1_loss", "input")
    check_float_tensor(label, "l1_loss", "label")
    _check_same_shape(input, label, "l1_loss")
    return _reduce(_op("abs", apply(_ew.SUBTRACT, input, label)), reduction)


def smooth_l1_loss(input, label, reduction="mean", delta=1.0, is_huber=True, name=None):
    """Paddle's huber_loss op: 0.5 d^2 where |d| <= delta, else delta * (|d| - 0.5 delta); divided by delta
    unless is_huber."""
    _check_reduction(reduction, "smooth_l1_loss")
    check_float_tensor(input, "smooth_l1_loss", "input")
    check_float_tensor(label, "smooth_l1_loss", "label")
    _check_same_shape(input, label, "smooth_l1_loss")
    if isinstance(delta, bool) or not isinstance(delta, numbers.Real) or delta <= 0:
        raise ValueError(f"smooth_l1_loss: delta must be a positive number, received {delta!r}")
    with layer_helper("huber_loss"):
        out = apply(_loss.HUBER_LOSS, input, label, delta=float(delta))[0]
    if not is_huber:
        out = out / float(delta)
    return _reduce(out, reduction)


# ---- binary cross entropy -------------------------------------------------------------------------
def _apply_weight(loss, weight, api):
    if weight is None:
        return loss
    check_float_tensor(weight, api, "weight")
    return apply(_ew.MULTIPLY, loss, weight)


def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):
    """-(label * log(input) + (1 - label) * log(1 - input)): Paddle's bce_loss op (logs clamped at -100, the
    gradient's denominator at 1e-12), then the weight and the reduction."""
    api = "binary_cross_entropy"
    _check_reduction(reduction, api)
    check_float_tensor(input, api, "input")
    check_float_tensor(label, api, "label")
    _check_same_shape(input, label, api)
    with layer_helper(api) as helper:
        out = reserve_output(helper, input.shape, input.dtype, input.stop_gradient)
    with reserved_output_guard(out):
        loss = apply(_loss.BCE_LOSS, input, label)
    return _reduce(_apply_weight(loss, weight, api), reduction)


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean", pos_weight=None, name=None):
    """Paddle's sigmoid_cross_entropy_with_logits op, its positive term weighted by 1 + (pos_weight - 1) label.
    Built as Paddle's static API builds it: the op's output variable first, then a constant 1 (which only
    pos_weight uses, but a program always holds), then the op."""
    api = "binary_cross_entropy_with_logits"
    _check_reduction(reduction, api)
    check_float_tensor(logit, api, "logit")
    check_float_tensor(label, api, "label")
    _check_same_shape(logit, label, api, ("logit", "label"))
    with layer_helper("sigmoid_cross_entropy_with_logits") as helper:
        out = reserve_output(helper, logit.shape, logit.dtype, logit.stop_gradient)
    if pos_weight is not None or helper is not None:
        one = T.full([1], 1.0, logit.dtype)
    if pos_weight is not None:
        check_float_tensor(pos_weight, api, "pos_weight")
        pos_weight = apply(_ew.ADD, apply(_ew.MULTIPLY, label, apply(_ew.SUBTRACT, pos_weight, one)), one)
    with reserved_output_guard(out):
        loss = apply(_loss.SIGMOID_CROSS_ENTROPY_WITH_LOGITS, logit, label, pos_weight, ignore_index=-100,
                     normalize=False)
    return _reduce(_apply_weight(loss, weight, api), reduction)


# ---- margin, embedding and likelihood losses (compositions, as Paddle composes them) ---------------
def _floats(api, **tensors):
    for arg, t in tensors.items():
        check_float_tensor(t, api, arg)


def _clip_min(x, low):
    return apply(_math.CLIP, x, min=float(low), max=float("inf"))


def _log_sigmoid(x):  # log(sigmoid(x)) = -softplus(-x), without overflow
    return -apply(get_op("softplus"), -x, beta=1.0, threshold=20.0)


def _without_grad(x):
    """x as a constant of the graph (Paddle's fused loss ops that these compositions stand for have no gradient
    for it)."""
    if in_static_mode():
        x = T.assign(x)
        x.stop_gradient = True
        return x
    return x.detach()


def kl_div(input, label, reduction="mean", log_target=False, name=None):
    """label * (log(label) - input) (0 where label <= 0), or exp(label) * (label - input) with log_target;
    reduction 'batchmean' divides the sum by the batch size. As Paddle's kldiv_loss op, no gradient for label."""
    api = "kl_div"
    _floats(api, input=input, label=label)
    if reduction not in ("mean", "sum", "none", "batchmean"):
        raise ValueError(f"{api}: reduction must be 'mean', 'sum', 'batchmean' or 'none', received {reduction!r}")
    if input.dtype != label.dtype:  # Paddle computes in float64 when either is float64
        input, label = T.cast(input, "float64"), T.cast(label, "float64")
    with layer_helper("kl_div"):
        loss = apply(_loss.KLDIV_LOSS, input, label, reduction="none", log_target=bool(log_target))
    if reduction == "batchmean":
        return _per_sample(_sum(loss), input) if len(input.shape) else _sum(loss)
    return _reduce(loss, reduction)


def margin_ranking_loss(input, other, label, margin=0.0, reduction="mean", name=None):
    """relu(-label * (input - other) + margin)."""
    api = "margin_ranking_loss"
    _check_reduction(reduction, api)
    _floats(api, input=input, other=other, label=label)
    return _reduce(_op("relu", _scale(label * (other - input), 1.0, float(margin))), reduction)


def hinge_embedding_loss(input, label, margin=1.0, reduction="mean", name=None):
    """input where label == 1, relu(margin - input) where label == -1, 0 elsewhere."""
    api = "hinge_embedding_loss"
    _check_reduction(reduction, api)
    _floats(api, input=input, label=label)
    zero = T.zeros_like(input)
    loss = T.where(label == 1.0, input, zero) + \
        T.where(label == -1.0, _op("relu", _scale(input, -1.0, float(margin))), zero)
    return _reduce(loss, reduction)


def soft_margin_loss(input, label, reduction="mean", name=None):
    """log(1 + exp(-label * input))."""
    api = "soft_margin_loss"
    _check_reduction(reduction, api)
    check_float_tensor(input, api, "input")
    _check_tensor(label, api, "label")
    if list(input.shape) != list(label.shape):
        raise ValueError(f"{api}: input and label must have the same shape, received {input.shape} and "
                         f"{label.shape}")
    label = T.cast(label, input.dtype)
    return _reduce(T.log(_scale(T.exp(-label * input), 1.0, 1.0)), reduction)


def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean", name=None):
    """-(label log sigmoid(input) + (1 - label) log sigmoid(-input)), (weighted,) averaged over the last axis."""
    api = "multi_label_soft_margin_loss"
    _check_reduction(reduction, api)
    _floats(api, input=input, label=label)
    if list(input.shape) != list(label.shape):
        raise ValueError(f"{api}: input and label must have the same shape, received {input.shape} and "
                         f"{label.shape}")
    loss = -(label * _log_sigmoid(input) + _scale(label, -1.0, 1.0) * _log_sigmoid(-input))
    if weight is not None:
        check_float_tensor(weight, api, "weight")
        loss = loss * weight
    return _reduce(T.mean(loss, axis=-1), reduction)


def log_loss(input, label, epsilon=1e-4, name=None):
    """-label log(input + epsilon) - (1 - label) log(1 - input + epsilon), elementwise, on [N, 1] predictions."""
    _floats("log_loss", input=input, label=label)
    if len(input.shape) != 2 or input.shape[1] != 1:
        raise ValueError(f"log_loss: input must be [N, 1] (one predicted probability per row), received shape "
                         f"{input.shape}")
    eps = float(epsilon)
    return -label * T.log(_scale(input, 1.0, eps)) - _scale(label, -1.0, 1.0) * T.log(_scale(input, -1.0, 1.0 + eps))


def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-8, reduction="mean", name=None):
    """exp(input) - label * input (log_input) or input - label * log(input + epsilon); full adds Stirling's
    term label log(label) - label + log(2 pi label) / 2 where label > 1."""
    api = "poisson_nll_loss"
    if epsilon <= 0:
        raise ValueError(f"{api}: epsilon must be positive, received {epsilon}")
    _check_reduction(reduction, api)
    _floats(api, input=input, label=label)
    if list(input.shape) != list(label.shape):
        raise ValueError(f"{api}: input and label must have the same shape, received {input.shape} and "
                         f"{label.shape}")
    if log_input:
        loss = T.exp(input) - label * input
    else:
        loss = input - label * T.log(_scale(input, 1.0, float(epsilon)))
    if full:
        big = label > 1
        safe = T.where(big, label, T.full_like(label, 2.0))
        stirling = safe * T.log(safe) - safe + 0.5 * T.log(_scale(safe, 2 * math.pi))
        loss = loss + T.where(big, stirling, T.zeros_like(stirling))
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-6, reduction="mean", name=None):
    """(log(max(variance, epsilon)) + (input - label)^2 / max(variance, epsilon)) / 2 (+ log(2 pi) / 2 with
    full). As in Paddle, the clamped variance is computed without gradient."""
    api = "gaussian_nll_loss"
    if list(variance.shape) != list(input.shape):
        if list(input.shape[:-1]) == list(variance.shape):
            variance = T.unsqueeze(variance, -1)
        elif not (list(input.shape[:-1]) == list(variance.shape[:-1]) and variance.shape[-1] == 1):
            raise ValueError(f"{api}: variance must have input's shape, or it without (or with 1 in) the last "
                             f"dim; received {variance.shape} for input {input.shape}")
    _check_reduction(reduction, api)
    _floats(api, input=input, label=label, variance=variance)
    if not in_static_mode() and bool(T.any(variance < 0)):
        raise ValueError(f"{api}: variance has negative entries")
    with no_grad():
        variance = _clip_min(variance, epsilon)
    loss = 0.5 * (T.log(variance) + T.square(input - label) / variance)
    if full:
        loss = _scale(loss, 1.0, 0.5 * math.log(2 * math.pi))
    return _reduce(loss, reduction)


def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean", name=None):
    """1 - cos(input1, input2) where label == 1, max(cos - margin, 0) where label == -1 (cos along the last axis)."""
    api = "cosine_embedding_loss"
    if len(label.shape) != 1:
        raise ValueError(f"{api}: label must be 1-D, received shape {label.shape}")
    if list(input1.shape) != list(input2.shape):
        raise ValueError(f"{api}: input1 and input2 must have the same shape, received {input1.shape} and "
                         f"{input2.shape}")
    if len(input1.shape) > 2:
        raise ValueError(f"{api}: inputs must be 1-D or 2-D, received shape {input1.shape}")
    if input1.dtype.name not in ("float32", "float64"):
        raise ValueError(f"{api}: input1 must be float32 or float64, received {input1.dtype.name}")
    if label.dtype.name not in ("int32", "int64", "float32", "float64"):
        raise ValueError(f"{api}: label must be int32, int64, float32 or float64, received {label.dtype.name}")
    _check_reduction(reduction, api)
    dot = T.sum(input1 * input2, axis=-1)
    norms = _scale(T.sum(T.square(input1), axis=-1), 1.0, 1e-11) * _scale(T.sum(T.square(input2), axis=-1), 1.0, 1e-11)
    cos = dot / T.sqrt(norms)
    zero = T.zeros_like(cos)
    loss = T.where(label == 1, _scale(cos, -1.0, 1.0), zero) + \
        T.where(label == -1, _clip_min(_scale(cos, 1.0, -float(margin)), 0.0), zero)
    return _reduce(loss, reduction)


def _distance(x, y, p, epsilon, keepdim=False):
    return T.norm(_scale(x - y, 1.0, float(epsilon)), p=p, axis=-1, keepdim=keepdim)


def _check_triplet(api, input, positive, negative, margin, reduction):
    """The triplet losses' arguments: Paddle's ValueErrors for the reduction, a negative margin and unequal shapes."""
    _check_reduction(reduction, api)
    if margin < 0:
        raise ValueError(f"{api}: margin must not be negative, received {margin}")
    _floats(api, input=input, positive=positive, negative=negative)
    if not list(input.shape) == list(positive.shape) == list(negative.shape):
        raise ValueError(f"{api}: input, positive and negative must have the same shape, received {input.shape}, "
                         f"{positive.shape} and {negative.shape}")


def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-6, swap=False, reduction="mean",
                        name=None):
    """max(d(input, positive) - d(input, negative) + margin, 0), d the p-norm distance (with swap, the negative
    distance is the smaller of d(input, negative) and d(positive, negative))."""
    api = "triplet_margin_loss"
    _check_triplet(api, input, positive, negative, margin, reduction)
    pos = _distance(input, positive, p, epsilon)
    neg = _distance(input, negative, p, epsilon)
    if swap:
        neg = T.minimum(neg, _distance(positive, negative, p, epsilon))
    return _reduce(_clip_min(_scale(pos - neg, 1.0, float(margin)), 0.0), reduction)


def triplet_margin_with_distance_loss(input, positive, negative, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean", name=None):
    """triplet_margin_loss with any distance (default: pairwise_distance with p=2); distances must not be negative."""
    api = "triplet_margin_with_distance_loss"
    _check_triplet(api, input, positive, negative, margin, reduction)
    dist = distance_function or (lambda a, b: _distance(a, b, 2.0, 1e-6))
    pos, neg = dist(input, positive), dist(input, negative)
    if swap:
        neg = T.minimum(neg, dist(positive, negative))
    if not in_static_mode() and not (bool(T.all(pos >= 0)) and bool(T.all(neg >= 0))):
        raise ValueError(f"{api}: the distances must not be negative (check the distance function)")
    return _reduce(_clip_min(_scale(pos - neg, 1.0, float(margin)), 0.0), reduction)


def sigmoid_focal_loss(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum", name=None):
    """alpha_t (1 - p_t)^gamma bce_with_logits(logit, label) (/ normalizer), p_t = p if label else 1 - p."""
    api = "sigmoid_focal_loss"
    _check_reduction(reduction, api)
    _floats(api, logit=logit, label=label)
    if normalizer is not None:
        check_float_tensor(normalizer, api, "normalizer")
        if len(normalizer.shape) > 1:
            raise ValueError(f"{api}: normalizer must be 0-D or 1-D, received shape {normalizer.shape}")
    loss = binary_cross_entropy_with_logits(logit, label, reduction="none")
    pred = _op("sigmoid", logit)
    p_t = pred * label + _scale(pred, -1.0, 1.0) * _scale(label, -1.0, 1.0)
    alpha_t = _scale(label, float(alpha)) + _scale(_scale(label, -1.0, 1.0), 1.0 - float(alpha))
    loss = alpha_t * loss * T.pow(_scale(p_t, -1.0, 1.0), float(gamma))
    if normalizer is not None:
        loss = loss / normalizer
    return _reduce(loss, reduction)


def dice_loss(input, label, epsilon=1e-5, name=None):
    """mean over the batch of 1 - 2 |input * onehot(label)| / (|input| + |onehot(label)| + epsilon); input holds
    probabilities [N, ..., C], label class ids [N, ..., 1]."""
    api = "dice_loss"
    check_float_tensor(input, api, "input")
    _check_tensor(label, api, "label")
    if label.dtype.np.kind not in "iu":
        raise TypeError(f"{api}: label must hold int32/int64 class ids, received dtype {label.dtype.name}")
    if len(input.shape) < 2 or len(input.shape) != len(label.shape) or label.shape[-1] != 1 or \
            list(input.shape[:-1]) != list(label.shape[:-1]):
        raise ValueError(f"{api}: input must be [N, ..., C] and label [N, ..., 1], received shapes {input.shape} "
                         f"and {label.shape}")
    onehot = _one_hot(T.squeeze(label, [-1]), input.shape[-1], input.dtype, -1)
    dims = list(range(1, len(input.shape)))
    inter = _sum(input * onehot, axis=dims)
    denom = _scale(_sum(input, axis=dims) + _sum(onehot, axis=dims), 1.0, float(epsilon))
    return apply(_red.MEAN, _scale(_scale(inter, 2.0) / denom, -1.0, 1.0))


def label_smooth(label, prior_dist=None, epsilon=0.1, name=None):
    """(1 - epsilon) label + epsilon prior_dist (uniform 1 / num_classes without prior_dist)."""
    api = "label_smooth"
    check_float_tensor(label, api, "label")
    if not 0.0 <= float(epsilon) <= 1.0:
        raise ValueError(f"{api}: epsilon must be in [0, 1], received {epsilon}")
    if prior_dist is not None:
        check_float_tensor(prior_dist, api, "prior_dist")
    if in_static_mode():  # Paddle's static API stops the gradient at the label itself (eager backpropagates to it)
        label.stop_gradient = True
    with layer_helper("label_smooth"):
        return apply(_loss.LABEL_SMOOTH, label, prior_dist, epsilon=float(epsilon))


def _class_ids(label, input, api):
    _check_tensor(label, api, "label")
    if label.dtype.np.kind not in "iu":
        raise TypeError(f"{api}: label must hold int32/int64 class ids, received dtype {label.dtype.name}")


def multi_margin_loss(input, label, p=1, margin=1.0, weight=None, reduction="mean", name=None):
    """mean over classes i of (weight[y] *) max(0, margin - x[y] + x[i]) ** p, less the i = y term
    (margin ** p / C)."""
    api = "multi_margin_loss"
    _check_reduction(reduction, api)
    check_float_tensor(input, api, "input")
    _class_ids(label, input, api)
    if input.shape[0] != label.shape[0]:
        raise ValueError(f"{api}: label's shape[0] ({label.shape[0]}) must equal input's shape[0] "
                         f"({input.shape[0]})")
    classes = input.shape[1]
    onehot = _one_hot(T.reshape(label, [-1]), classes, input.dtype, -1)
    target = _sum(input * onehot, axis=[1], keepdim=True)
    terms = T.pow(_clip_min(_scale(input - target, 1.0, float(margin)), 0.0), float(p))
    offset = float(margin) ** p / classes
    if weight is not None:
        check_float_tensor(weight, api, "weight")
        if weight.shape[0] != classes:
            raise ValueError(f"{api}: weight's shape[0] ({weight.shape[0]}) must equal input's shape[1] ({classes})")
        w = _sum(onehot * weight, axis=[1], keepdim=True)
        loss = T.mean(w * terms, axis=1) - _scale(T.reshape(w, [-1]), offset)
    else:
        loss = _scale(T.mean(terms, axis=1), 1.0, -offset)
    return _reduce(loss, reduction)


def multi_label_margin_loss(input, label, reduction="mean", name=None):
    """sum over the targets j of each row (label entries before the first -1) and the non-target classes i of
    max(0, 1 - (x[j] - x[i])), divided by the number of classes."""
    api = "multi_label_margin_loss"
    _check_reduction(reduction, api)
    check_float_tensor(input, api, "input")
    _class_ids(label, input, api)
    if len(input.shape) != 2 or len(label.shape) != 2:
        raise ValueError(f"{api}: input and label must be 2-D, received shapes {input.shape} and {label.shape}")
    classes = input.shape[1]
    if not in_static_mode() and label.size:
        if int(T.min(label)) < -1 or int(T.max(label)) >= classes:
            raise ValueError(f"{api}: label values must be in [-1, {classes}), received values outside")
    ended = T.cumsum(T.cast(label == -1, "int64"), axis=1)
    valid = T.cast(ended == 0, input.dtype)                                          # [N, J]
    onehot = _one_hot(T.clip(label, min=0), classes, input.dtype, -1) * T.unsqueeze(valid, -1)   # [N, J, C]
    is_target = T.max(onehot, axis=1)                                                # [N, C]
    x = T.unsqueeze(input, 1)                                                        # [N, 1, C]
    target = _sum(onehot * x, axis=[2], keepdim=True)                                # [N, J, 1]
    hinge = _op("relu", _scale(x - target, 1.0, 1.0)) * T.unsqueeze(_scale(is_target, -1.0, 1.0), 1)
    loss = _scale(_sum(hinge * T.unsqueeze(valid, -1), axis=[1, 2]), 1.0 / classes)
    return _reduce(loss, reduction)


def npair_loss(anchor, positive, labels, l2_reg=0.002):
    """Soft-label cross entropy of anchor @ positive^T against same-label targets, plus an L2 term."""
    api = "npair_loss"
    check_float_tensor(anchor, api, "anchor")
    check_float_tensor(positive, api, "positive")
    _check_tensor(labels, api, "labels")
    if not in_static_mode() and (anchor.size == 0 or positive.size == 0):
        raise ValueError(f"{api}: anchor and positive must not be empty")
    column = T.reshape(labels, [-1, 1])
    same = T.cast(column == T.reshape(labels, [1, -1]), anchor.dtype)
    targets = same / _sum(same, axis=[1], keepdim=True)
    l2 = _scale(T.mean(_sum(T.square(anchor), axis=[1])) + T.mean(_sum(T.square(positive), axis=[1])),
                0.25 * float(l2_reg))
    similarity = T.matmul(anchor, positive, transpose_y=True)
    ce = softmax_with_cross_entropy(similarity, targets, soft_label=True)
    return l2 + T.mean(_sum(targets * ce, axis=[0]))


def margin_cross_entropy(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0, group=None,
                         return_softmax=False, reduction="mean"):
    """ArcFace/CosFace loss on cosine logits [N, C]: the target class's cos(t) becomes cos(margin1 t + margin2)
    - margin3, all logits are multiplied by scale, then softmax cross entropy. One process (the class
    dimension is not split across ranks); reduction None gives [N, 1]. Paddle's CPU build has no kernel."""
    api = "margin_cross_entropy"
    check_float_tensor(logits, api, "logits")
    _check_tensor(label, api, "label")
    if len(logits.shape) != 2:
        raise ValueError(f"{api}: logits must be 2-D [N, C], received shape {list(logits.shape)}")
    if reduction not in ("mean", "sum", None):
        raise ValueError(f"{api}: reduction must be 'mean', 'sum' or None, received {reduction!r}")
    if group is not None and getattr(group, "nranks", 1) > 1:
        raise NotImplementedError(f"{api}: class-parallel groups (nranks > 1) are not supported")
    n, c = logits.shape
    label = T.reshape(label, [n])
    target = _one_hot(label, c, logits.dtype, 1)
    cos_t = T.sum(logits * target, axis=1, keepdim=True)
    margined = T.cos(T.acos(T.clip(cos_t, -1.0, 1.0)) * float(margin1) + float(margin2)) - float(margin3)
    z = (logits + target * (margined - cos_t)) * float(scale)
    # Paddle's margin_cross_entropy kernel does not clip z - max(z) at -64 as its softmax kernels do
    log_norm = T.logsumexp(z, axis=1, keepdim=True)
    loss = log_norm - T.sum(z * target, axis=1, keepdim=True)
    softmax = T.exp(z - log_norm)
    if reduction == "mean":
        loss = T.mean(loss)
    elif reduction == "sum":
        loss = T.sum(loss)
    return (loss, softmax) if return_softmax else loss


def class_center_sample(label, num_classes, num_samples, group=None):
    """(label remapped to its index among the sampled class centres, the sampled centres): every class in
    label (sorted), then randomly drawn other classes up to num_samples. One process."""
    api = "class_center_sample"
    _check_tensor(label, api, "label")
    if not 0 < num_samples <= num_classes:
        raise ValueError(f"Expected num_samples less than or equal to {num_classes}, got num_samples {num_samples}")
    if group is not None and getattr(group, "nranks", 1) > 1:
        raise NotImplementedError(f"{api}: class-parallel groups (nranks > 1) are not supported")
    positives, remapped = T.unique(label, return_inverse=True)
    positives, remapped = T.cast(positives, label.dtype), T.cast(remapped, label.dtype)
    if positives.shape[0] >= num_samples:  # known (eager) and enough: no negatives drawn
        return remapped, positives
    perm = T.randperm(num_classes, dtype=label.dtype)
    negatives = T.masked_select(perm, T.logical_not(T.isin(perm, positives)))
    # every class once, the label's first; keep max(#positives, num_samples) of them (a count a static
    # program only knows when it runs)
    count = T.maximum(T.numel(positives), T.full([], num_samples, "int64"))
    keep = T.arange(num_classes, dtype="int64") < count
    return remapped, T.masked_select(T.concat([positives, negatives]), keep)


# ---- CTC ------------------------------------------------------------------------------------------
def ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean", norm_by_times=False,
             zero_infinity=False):
    """CTC loss of [max_logit_length, batch, num_classes] scores (softmax-normalised inside, as Paddle's warpctc
    does) against [batch, max_label_length] labels; 'mean' divides each loss by its label length first."""
    api = "ctc_loss"
    check_float_tensor(log_probs, api, "log_probs")
    for name, t in (("labels", labels), ("input_lengths", input_lengths), ("label_lengths", label_lengths)):
        _check_tensor(t, api, name)
    _check_reduction(reduction, api)
    if isinstance(blank, bool) or not isinstance(blank, numbers.Integral):
        raise TypeError(f"{api}: blank must be an int, received {type(blank).__name__}")
    _, loss = apply(_loss.WARPCTC, log_probs, labels, input_lengths, label_lengths, blank=int(blank),
                    norm_by_times=bool(norm_by_times))
    loss = apply(_mo.SQUEEZE, loss, axis=[-1])
    if zero_infinity:
        loss = T.where(T.isinf(loss), T.zeros_like(loss), loss)
    if reduction == "mean":
        loss = apply(_ew.DIVIDE, loss, apply(_mo.CAST, label_lengths, dtype=loss.dtype.name))
    return _reduce(loss, reduction)


# ---- hierarchical sigmoid -------------------------------------------------------------------------
def _default_tree_path(label, num_classes):
    """Paddle's default (complete binary) tree: class c is leaf c + num_classes; bit j of that code says which
    child is taken below classifier (code >> (j + 1)) - 1. Paths are (num_classes - 1).bit_length() long,
    padded with classifier -1."""
    depth = (int(num_classes) - 1).bit_length()
    code = T.reshape(label, [-1, 1]) + int(num_classes)
    shifts = T.arange(1, depth + 1, dtype=code.dtype)
    parents = T.bitwise_right_shift(code, shifts) - 1
    bits = T.bitwise_and(T.bitwise_right_shift(code, shifts - 1), T.ones_like(shifts))
    return parents, bits


def hsigmoid_loss(input, label, num_classes, weight, bias=None, path_table=None, path_code=None, is_sparse=False,
                  name=None):
    """[N, 1] costs: the sum of binary logistic losses of the classifiers on each label's tree path (default tree,
    or the custom path_table/path_code with -1 padding)."""
    api = "hsigmoid_loss"
    if num_classes < 2:
        raise ValueError(f"{api}: num_classes must be >= 2, received {num_classes}")
    check_float_tensor(input, api, "input")
    check_float_tensor(weight, api, "weight")
    _check_tensor(label, api, "label")
    if (path_table is None) != (path_code is None):
        raise ValueError(f"{api}: path_table and path_code must be given together (custom tree) or both be None")
    if len(input.shape) != 2 or len(weight.shape) != 2:
        raise ValueError(f"{api}: input must be [N, D] and weight [num_classes - 1, D], received shapes "
                         f"{list(input.shape)} and {list(weight.shape)}")
    if path_table is None:
        # Paddle's kernel reads past weight's last row for a label outside [0, num_classes); a clear error instead
        if not in_static_mode() and label.size and (int(T.min(label)) < 0 or int(T.max(label)) >= num_classes):
            raise ValueError(f"{api}: label values must lie in [0, num_classes={num_classes}), received values in "
                             f"[{int(T.min(label))}, {int(T.max(label))}]")
        parents, bits = _default_tree_path(label, num_classes)
    else:
        parents, bits = path_table, path_code
    depth, features = parents.shape[1], weight.shape[1]
    on_path = parents >= 0
    flat = T.reshape(T.where(on_path, parents, T.zeros_like(parents)), [-1])
    pre = T.sum(T.reshape(T.gather(weight, flat), [-1, depth, features]) * T.unsqueeze(input, 1), axis=-1)
    if bias is not None:
        pre = pre + T.reshape(T.gather(bias, flat), [-1, depth])
    # off-path slots score 0 yet, as in Paddle's kernel, still add their log 2 to the cost
    pre = pre * T.cast(on_path, pre.dtype)
    # Paddle's kernel clips scores to [-40, 40] and differentiates at the clipped value without zeroing the
    # gradient outside: a straight-through clip
    pre = pre + _without_grad(apply(_math.CLIP, pre, min=-40.0, max=40.0) - pre)
    sign = _scale(T.cast(bits, pre.dtype), 2.0, -1.0)
    return -_sum(_log_sigmoid(pre * sign), axis=1, keepdim=True)


# ---- adaptive log softmax -------------------------------------------------------------------------
def adaptive_log_softmax_tail(input, projection):
    """log_softmax of one tail cluster: input -> [in, hsz] -> [hsz, osz] (no biases, as in Paddle)."""
    return log_softmax(linear(linear(input, projection[0]), projection[1]), axis=1)


def adaptive_log_softmax_with_loss(input, label, head_weight, tail_weights, cutoffs, head_bias=None, name=None):
    """(log-probability of each label [N] (or [] for a single 1-D input), mean negative log-likelihood).
    Labels below cutoffs[0] are scored by the head; a label in cluster i (cutoffs[i] <= label < cutoffs[i+1])
    by the head's entry cutoffs[0] + i plus its place in tail i's log_softmax. Every tail runs on every row and
    a 0/1 mask keeps the rows of its cluster, so the graph is the same in eager and static mode."""
    api = "adaptive_log_softmax_with_loss"
    check_float_tensor(input, api, "input")
    _check_tensor(label, api, "label")
    if len(label.shape) == 1:
        if input.shape[0] != label.shape[0] and label.shape[0] != 0:
            raise ValueError(f"{api}: input and label should have the same size in the batch dimension, received "
                             f"{list(input.shape)} and {list(label.shape)}")
        if len(input.shape) != 2:
            raise ValueError(f"{api}: a 1-D label expects a 2-D input, received input of shape {list(input.shape)}")
    elif len(label.shape) == 0:
        if len(input.shape) != 1:
            raise ValueError(f"{api}: a 0-D label expects a 1-D input, received input of shape {list(input.shape)}")
    else:
        raise ValueError(f"{api}: label must be 0-D or 1-D (multi-label is not supported), received shape "
                         f"{list(label.shape)}")
    batched = len(label.shape) == 1
    if not batched:
        input, label = T.unsqueeze(input, 0), T.unsqueeze(label, 0)
    cutoffs = [int(c) for c in cutoffs]
    head_logprob = log_softmax(linear(input, head_weight, head_bias), axis=1)
    shortlist = cutoffs[0]
    head_index, output = label, None
    for i, (low, high) in enumerate(zip(cutoffs, cutoffs[1:])):
        in_cluster = (label >= low) & (label < high)
        head_index = T.where(in_cluster, T.full_like(label, shortlist + i), head_index)
        local = T.clip(label - low, 0, high - low - 1)
        tail = T.take_along_axis(adaptive_log_softmax_tail(input, tail_weights[i]), T.unsqueeze(local, 1), axis=1)
        tail = T.squeeze(tail, 1) * T.cast(in_cluster, input.dtype)
        output = tail if output is None else output + tail
    head = T.squeeze(T.take_along_axis(head_logprob, T.unsqueeze(head_index, 1), axis=1), 1)
    output = head if output is None else head + output
    loss = apply(_red.MEAN, -output)
    return (output if batched else T.squeeze(output, 0)), loss


# ---- RNN-T ----------------------------------------------------------------------------------------
def rnnt_loss(input, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.001, reduction="mean",
              name=None):
    """RNN-T loss of [batch, max_logit_length, max_label_length + 1, num_classes] log-probabilities (used as given,
    as Paddle's CPU kernel does); 'mean' is the sum over the batch divided by the batch size."""
    api = "rnnt_loss"
    check_float_tensor(input, api, "input")
    for arg, t in (("label", label), ("input_lengths", input_lengths), ("label_lengths", label_lengths)):
        _check_tensor(t, api, arg)
    _check_reduction(reduction, api)
    _, loss = apply(_loss.WARPRNNT, input, label, input_lengths, label_lengths, blank=int(blank),
                    fastemit_lambda=float(fastemit_lambda))
    if reduction == "mean":
        return _per_sample(_sum(loss), input)
    return _reduce(loss, reduction)
