"""Backward steps Paddle's large-model training code calls as functions of their own (paddle.incubate.nn.functional's
cross_entropy_with_softmax_bwd_w_downcast, embedding_grad_add_to_, fused_swiglu_weighted_bwd): each a registry op
whose forward IS the gradient formula, written once against xp. Paddle ships them as GPU kernels only.

- cross_entropy_with_softmax_bwd_w_downcast(label, softmax, loss_grad): (softmax - onehot(label)) * loss_grad over
  the last axis (0 where label == -100), as bfloat16 -- softmax_with_cross_entropy_grad's hard-label rule.
- embedding_grad_add_to(token_indices, main_grad, out_grad): main_grad plus out_grad's rows summed into the rows
  token_indices name (the embedding table's gradient accumulated into a float32 master gradient).
- fused_swiglu_weighted_bwd(o1 [..., 2I], do2_s [..., I], probs): for o2_s = silu(x1) * x2 * prob, the gradient
  do1 of o1's halves, probs_grad = sum(do2_s * silu(x1) * x2) per row, and o2_s itself (recomputed).
"""
import ml_dtypes
import numpy as np

from .conv import scatter_add
from .registry import Meta, get_op, register_op

_BF16 = np.dtype(ml_dtypes.bfloat16)
_F32 = np.dtype(np.float32)
IGNORE_INDEX = -100


def _ce_bwd_forward(xp, label, softmax, loss_grad):
    grad = get_op("softmax_with_cross_entropy_grad").forward(
        xp, label, softmax, loss_grad, soft_label=False, ignore_index=IGNORE_INDEX, axis=-1, numeric_stable_mode=True,
        use_softmax=True)
    return grad.astype(_BF16)


def _ce_bwd_infer(label, softmax, loss_grad):
    get_op("softmax_with_cross_entropy_grad").infer(label, softmax, loss_grad, soft_label=False,
                                                    ignore_index=IGNORE_INDEX, axis=-1, numeric_stable_mode=True,
                                                    use_softmax=True)
    return Meta(tuple(softmax.shape), _BF16)


CROSS_ENTROPY_WITH_SOFTMAX_BWD_W_DOWNCAST = register_op(
    "cross_entropy_with_softmax_bwd_w_downcast", inputs=("label", "softmax", "loss_grad"), outputs=("input_grad",),
    forward=_ce_bwd_forward, infer=_ce_bwd_infer)


def _embedding_add_forward(xp, token_indices, main_grad, out_grad):
    rows = out_grad.reshape(-1, main_grad.shape[-1]).astype(main_grad.dtype)
    return scatter_add(xp, main_grad.copy(), token_indices.reshape(-1).astype(np.int64), rows)


def _embedding_add_infer(token_indices, main_grad, out_grad):
    op = "embedding_grad_add_to"
    if token_indices.dtype.kind not in "iu":
        raise TypeError(f"op '{op}': token_indices must be an integer tensor, received {token_indices.dtype}")
    if len(main_grad.shape) != 2:
        raise ValueError(f"op '{op}': main_grad must be 2-D [vocab, dim], received shape {list(main_grad.shape)}")
    want = tuple(token_indices.shape) + (main_grad.shape[1],)
    if -1 not in want + tuple(out_grad.shape) and tuple(out_grad.shape) != want:
        raise ValueError(f"op '{op}': out_grad must have shape {list(want)} (token_indices' shape + [dim]), "
                         f"received {list(out_grad.shape)}")
    return Meta(tuple(main_grad.shape), main_grad.dtype)


EMBEDDING_GRAD_ADD_TO = register_op(
    "embedding_grad_add_to", inputs=("token_indices", "main_grad", "out_grad"), outputs=("main_grad_out",),
    forward=_embedding_add_forward, infer=_embedding_add_infer)


def _swiglu_weighted_bwd_forward(xp, o1, do2_s, unzipped_probs):
    half = o1.shape[-1] // 2
    wide = o1.astype(_F32)
    gate, up = wide[..., :half], wide[..., half:]
    sig = np.float32(1) / (np.float32(1) + xp.exp(-gate))
    silu = gate * sig
    act = silu * up
    prob = unzipped_probs.astype(_F32).reshape(o1.shape[:-1] + (1,))
    dout = do2_s.astype(_F32)
    probs_grad = (dout * act).sum(axis=-1).reshape(unzipped_probs.shape)
    weighted = dout * prob
    d_gate = weighted * up * sig * (np.float32(1) + gate * (np.float32(1) - sig))
    d_up = weighted * silu
    do1 = xp.concatenate([d_gate, d_up], axis=-1)
    return do1.astype(o1.dtype), probs_grad.astype(_F32), (act * prob).astype(o1.dtype)


def _swiglu_weighted_bwd_infer(o1, do2_s, unzipped_probs):
    op = "fused_swiglu_weighted_bwd"
    if o1.dtype.kind != "f" and o1.dtype != _BF16:
        raise TypeError(f"op '{op}': o1 must be a floating-point tensor, received {o1.dtype}")
    cols = o1.shape[-1] if o1.shape else -1
    if cols != -1 and cols % 2:
        raise ValueError(f"op '{op}': o1's last dim must be even (two halves), received {cols}")
    half = -1 if cols == -1 else cols // 2
    want = tuple(o1.shape[:-1]) + (half,)
    if -1 not in want + tuple(do2_s.shape) and tuple(do2_s.shape) != want:
        raise ValueError(f"op '{op}': do2_s must have shape {list(want)}, received {list(do2_s.shape)}")
    rows = tuple(o1.shape[:-1])
    probs = tuple(unzipped_probs.shape)
    if -1 not in rows + probs and probs not in (rows, rows + (1,)):
        raise ValueError(f"op '{op}': unzipped_probs must have shape {list(rows)} (or with a trailing 1), received "
                         f"{list(probs)}")
    return Meta(tuple(o1.shape), o1.dtype), Meta(probs, _F32), Meta(want, o1.dtype)


FUSED_SWIGLU_WEIGHTED_BWD = register_op(
    "fused_swiglu_weighted_bwd", inputs=("o1", "do2_s", "unzipped_probs"), outputs=("do1", "probs_grad", "o2_s"),
    forward=_swiglu_weighted_bwd_forward, infer=_swiglu_weighted_bwd_infer)
