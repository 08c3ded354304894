"""Noise-contrastive estimation (Paddle's `nce` op): a binary classifier of each row's true classes against
`num_neg_samples` classes drawn from a noise distribution P.

For row i, its sampled classes s_ij (the Label columns first, then the negatives) get
    o_ij = sigmoid(Input_i . Weight[s_ij] + Bias[s_ij])        (SampleLogits: the sigmoid, as Paddle's)
and with b_ij = num_neg_samples * P(s_ij) the cost
    Cost_i = SampleWeight_i * (sum_true -log(o / (o + b)) + sum_negatives -log(b / (o + b))).
P is the sampler's: 0 uniform (1 / num_total_classes), 1 log-uniform (log((c + 2) / (c + 1)) / log(C)), 2 a
custom distribution (CustomDistProbs, drawn with Walker's alias tables CustomDistAlias/AliasProbs).
A nonzero `seed` draws the same negatives on every run (a generator of its own, as Paddle's op makes one per
run); `custom_neg_classes` (Paddle's attr for tests) fixes them. b is computed in float32, as Paddle's kernel.
"""
import math

import numpy as np

from ..framework.random import rng_for
from .formula import cast, concat, log, reduce_sum, reshape, reshape_as, unsqueeze
from .registry import Meta, VALUE_CHECK, register_op
from .shape_rules import check_float, known_shapes_differ

_INPUTS = ("Input", "Label", "Weight", "Bias", "SampleWeight", "CustomDistProbs", "CustomDistAlias",
           "CustomDistAliasProbs")
_ATTRS = {"num_total_classes": None, "num_neg_samples": 10, "sampler": 0, "seed": 0, "is_sparse": False,
          "remote_prefetch": False, "custom_neg_classes": []}
UNIFORM, LOG_UNIFORM, CUSTOM_DIST = 0, 1, 2


def _check_attrs(num_total_classes, num_neg_samples, sampler, custom_neg_classes):
    if not isinstance(num_total_classes, (int, np.integer)) or isinstance(num_total_classes, bool) \
            or num_total_classes < 1:
        raise ValueError(f"op 'nce': num_total_classes must be a positive int, received {num_total_classes!r}")
    if not isinstance(num_neg_samples, (int, np.integer)) or num_neg_samples < 0:
        raise ValueError(f"op 'nce': num_neg_samples must be a non-negative int, received {num_neg_samples!r}")
    if sampler not in (UNIFORM, LOG_UNIFORM, CUSTOM_DIST):
        raise ValueError(f"op 'nce': sampler must be 0 (uniform), 1 (log_uniform) or 2 (custom_dist), "
                         f"received {sampler!r}")
    if custom_neg_classes and len(custom_neg_classes) != num_neg_samples:
        raise ValueError(f"op 'nce': custom_neg_classes must list num_neg_samples ({num_neg_samples}) classes, "
                         f"received {list(custom_neg_classes)}")


def _num_true(label_shape):
    return label_shape[1] if len(label_shape) == 2 else 1


def _infer(x, label, w, bias, sample_weight, probs, alias, alias_probs, num_total_classes, num_neg_samples,
           sampler, seed, is_sparse, remote_prefetch, custom_neg_classes):
    _check_attrs(num_total_classes, num_neg_samples, sampler, custom_neg_classes)
    check_float("nce", x, "Input", real=True)
    if np.dtype(label.dtype) != np.int64:
        raise TypeError(f"op 'nce': Label must be int64, received {np.dtype(label.dtype)}")
    if len(x.shape) != 2 or len(label.shape) not in (1, 2):
        raise ValueError(f"op 'nce': Input must be 2-D [batch_size, dim] and Label 1-D or 2-D [batch_size, "
                         f"num_true_class], received shapes {list(x.shape)} and {list(label.shape)}")
    n, dim = x.shape
    if -1 not in (n, label.shape[0]) and n != label.shape[0]:
        raise ValueError(f"op 'nce': Input and Label must have the same batch size, received shapes "
                         f"{list(x.shape)} and {list(label.shape)}")
    expected = {"Weight": (w, (num_total_classes, dim)), "Bias": (bias, (num_total_classes, 1)),
                "SampleWeight": (sample_weight, (n, 1))}
    for slot, (meta, shape) in expected.items():
        if meta is None:
            continue
        if np.dtype(meta.dtype) != np.dtype(x.dtype):
            raise TypeError(f"op 'nce': {slot} must have Input's dtype {np.dtype(x.dtype)}, received "
                            f"{np.dtype(meta.dtype)}")
        got = tuple(meta.shape) + ((1,) if slot == "SampleWeight" and len(meta.shape) == 1 else ())
        if known_shapes_differ(got, shape):
            raise ValueError(f"op 'nce': {slot} must have shape {list(shape)}, received {list(meta.shape)}")
    if sampler == CUSTOM_DIST and any(t is None for t in (probs, alias, alias_probs)):
        raise ValueError("op 'nce': sampler 2 (custom_dist) needs CustomDistProbs, CustomDistAlias and "
                         "CustomDistAliasProbs")
    sampled = (n, _num_true(label.shape) + num_neg_samples)
    return Meta((n, 1), x.dtype), Meta(sampled, x.dtype), Meta(sampled, np.dtype(np.int64))


def _draw(xp, size, num_total_classes, sampler, seed, alias, alias_probs):
    """`size` classes drawn from the sampler's noise distribution."""
    rng = rng_for(xp, seed)
    if sampler == UNIFORM:
        return rng.integers(0, num_total_classes, size=size, dtype=np.int64)
    if sampler == LOG_UNIFORM:  # Paddle's: floor(C ** u) - 1, then mod (C - 1)
        value = xp.exp(rng.random(size) * math.log(num_total_classes)).astype(np.int64) - 1
        return value % max(num_total_classes - 1, 1)
    index = rng.integers(0, num_total_classes, size=size, dtype=np.int64)
    other = alias[index].astype(np.int64)
    use_alias = (rng.random(size) > alias_probs[index]) & (other >= 0)
    return xp.where(use_alias, other, index)


def _noise_probability(xp, labels, num_total_classes, sampler, probs):
    """P(class) under the sampler, float32 as Paddle's kernel computes it."""
    if sampler == UNIFORM:
        return xp.full(labels.shape, 1.0 / num_total_classes, dtype=np.float32)
    if sampler == LOG_UNIFORM:
        c = labels.astype(np.float32)
        return (xp.log((c + 2) / (c + 1)) / np.float32(math.log(num_total_classes))).astype(np.float32)
    return probs.astype(np.float32)[labels]


def _forward(xp, x, label, w, bias, sample_weight, probs, alias, alias_probs, num_total_classes, num_neg_samples,
             sampler, seed, is_sparse, remote_prefetch, custom_neg_classes):
    _check_attrs(num_total_classes, num_neg_samples, sampler, custom_neg_classes)
    n = x.shape[0]
    label = label.reshape(n, -1)
    if custom_neg_classes:
        negatives = xp.broadcast_to(xp.asarray(custom_neg_classes, dtype=np.int64), (n, num_neg_samples))
    else:
        negatives = _draw(xp, (n, num_neg_samples), num_total_classes, sampler, seed, alias, alias_probs)
    labels = xp.ascontiguousarray(xp.concatenate([label.astype(np.int64), negatives], axis=1))
    if labels.size and (int(labels.min()) < 0 or int(labels.max()) >= num_total_classes):
        raise ValueError(f"op 'nce': the labels and negative classes must lie in [0, {num_total_classes}) "
                         f"(num_total_classes), received values in [{int(labels.min())}, {int(labels.max())}]")
    logits = xp.einsum("nd,nsd->ns", x, w[labels])
    if bias is not None:
        logits = logits + bias[labels, 0]
    o = 1 / (1 + xp.exp(-logits))
    b = (_noise_probability(xp, labels, num_total_classes, sampler, probs) * np.float32(num_neg_samples)) \
        .astype(x.dtype)
    num_true = label.shape[1]
    cost = xp.concatenate([-xp.log(o[:, :num_true] / (o[:, :num_true] + b[:, :num_true])),
                           -xp.log(b[:, num_true:] / (o[:, num_true:] + b[:, num_true:]))], axis=1)
    if sample_weight is not None:
        cost = cost * sample_weight.reshape(n, 1)
    return cost.sum(axis=1, keepdims=True).astype(x.dtype), o.astype(x.dtype), labels


def _noise_mass(g, labels, like):
    """b = num_neg_samples * P(label) as a formula over the sampled labels (a Python float when constant)."""
    attrs = g.attrs
    k, classes = attrs["num_neg_samples"], attrs["num_total_classes"]
    if attrs["sampler"] == UNIFORM:
        return k / classes
    if attrs["sampler"] == LOG_UNIFORM:
        c = cast(labels, dtype=like.dtype.name)
        return log((c + 2.0) / (c + 1.0)) * (k / math.log(classes))
    probs = cast(reshape(g.input("CustomDistProbs"), shape=[-1, 1]), dtype=like.dtype.name)
    return reshape_as(g.op("embedding", labels, probs), like) * k


def _grad(g):
    """d Cost / d logit: w (b / (o + b)) (o - 1) for the true classes, w o (1 - o) / (o + b) for the negatives;
    the logit is Input_i . Weight[s] + Bias[s], so Weight and Bias get it scattered to the sampled rows."""
    slots = ("Input", "Weight", "Bias")
    dcost = g.output_grad("Cost")
    if dcost is None or not g.needs_any(*slots):
        return
    o, labels, x, w = g.output("SampleLogits"), g.output("SampleLabels"), g.input("Input"), g.input("Weight")
    num_true = _num_true(g.shape(g.input("Label")))
    b = _noise_mass(g, labels, o)
    per_logit = (b / (o + b)) * (o - 1.0), o * (1.0 - o) / (o + b)
    sampled = num_true + g.attrs["num_neg_samples"]
    parts = [g.op("slice", term, axes=[1], starts=[start], ends=[end])
             for term, (start, end) in zip(per_logit, ((0, num_true), (num_true, sampled)))]
    scale = dcost
    if g.input("SampleWeight") is not None:
        scale = scale * reshape(g.input("SampleWeight"), shape=[-1, 1])
    dlogit = unsqueeze(concat(parts, axis=1) * scale, axis=[2])                    # [N, S, 1]
    if g.needs("Input"):
        g.set_input_grad("Input", reduce_sum(dlogit * g.op("embedding", labels, w), axis=[1]))
    if g.needs("Weight"):
        g.set_input_grad("Weight", g.op("embedding_grad", labels, w, dlogit * unsqueeze(x, axis=[1])))
    if g.needs("Bias"):
        g.set_input_grad("Bias", g.op("embedding_grad", labels, g.input("Bias"), dlogit))


NCE = register_op("nce", inputs=_INPUTS, outputs=("Cost", "SampleLogits", "SampleLabels"), forward=_forward,
                  infer=_infer, grad=_grad, attrs=_ATTRS, optional_inputs=_INPUTS[3:],
                  nondiff_inputs=("Label", "SampleWeight", "CustomDistProbs", "CustomDistAlias",
                                  "CustomDistAliasProbs"),
                  intermediate_outputs=("SampleLogits", "SampleLabels"),
                  host_sync=VALUE_CHECK, draws=True)
