"""Embedding lookup and dropout, each with its dedicated grad op (bound to a fused CUDA kernel)."""
import numpy as np

from ..device.deferred_checks import check
from ..framework.random import rng_for
from .conv import scatter_add
from .launch import dropout as _launch_dropout
from .launch import embedding as _launch_embedding
from .registry import Meta, no_grad_op_error, register_op
from .shape_rules import check_float


# ---- embedding ------------------------------------------------------------------------------------
def padding_row(padding_idx, vocab):
    """The op attr -> the padding row, or None. None or -1 mean no padding row; other negatives count from V."""
    if padding_idx is None or padding_idx == -1:
        return None
    return int(padding_idx) + vocab if padding_idx < 0 else int(padding_idx)


def _embedding_infer(ids, w, padding_idx, scale_grad_by_freq, is_sparse):
    if ids.dtype.kind not in "iu":
        raise TypeError(f"op 'embedding': Ids must be an integer tensor (int64 or int32), received dtype {ids.dtype}")
    if len(w.shape) != 2:
        raise ValueError(f"op 'embedding': W must be 2-D [vocab_size, embedding_dim], received shape {list(w.shape)}")
    row = padding_row(padding_idx, w.shape[0])
    if row is not None and w.shape[0] != -1 and not 0 <= row < w.shape[0]:
        raise ValueError(f"op 'embedding': padding_idx={padding_idx} is out of range for a vocabulary of "
                         f"{w.shape[0]} rows")
    return Meta(tuple(ids.shape) + (w.shape[1],), w.dtype)


def _check_ids(xp, op, ids, vocab):
    check(xp, (ids < 0) | (ids >= vocab), lambda: ValueError(
        f"op '{op}': Ids must lie in [0, {vocab}) (the rows of W), received values in [{int(ids.min())}, "
        f"{int(ids.max())}]"))


def _embedding_forward(xp, ids, w, padding_idx, scale_grad_by_freq, is_sparse):
    _check_ids(xp, "embedding", ids, w.shape[0])
    out = w[ids]
    row = padding_row(padding_idx, w.shape[0])
    if row is not None:
        out = xp.where((ids == row)[..., None], w.dtype.type(0), out)
    return out


def _scaled_by_freq(xp, dw, ids):
    """scale_grad_by_freq: each row's gradient divided by how often its id occurs in the batch."""
    counts = xp.bincount(ids.reshape(-1).astype(np.int64), minlength=dw.shape[0])
    return dw / xp.maximum(counts, 1).astype(dw.dtype)[:, None]


def _embedding_grad_forward(xp, ids, w, dout, padding_idx, scale_grad_by_freq, is_sparse):
    _check_ids(xp, "embedding_grad", ids, w.shape[0])
    dw = xp.zeros(w.shape, dtype=dout.dtype)
    scatter_add(xp, dw, ids.reshape(-1), dout.reshape(-1, w.shape[1]))
    row = padding_row(padding_idx, w.shape[0])
    if row is not None:
        dw[row] = 0
    return _scaled_by_freq(xp, dw, ids) if scale_grad_by_freq else dw


def _embedding_grad_infer(ids, w, dout, padding_idx, scale_grad_by_freq, is_sparse):
    expected = _embedding_infer(ids, w, padding_idx, scale_grad_by_freq, is_sparse).shape
    if tuple(dout.shape) != expected and -1 not in expected + tuple(dout.shape):
        raise ValueError(f"op 'embedding_grad': DOut must have shape {list(expected)} (Ids' shape + [dim]), "
                         f"received {list(dout.shape)}")
    return Meta(w.shape, dout.dtype)


def _embedding_grad_kernel(xp, ids, w, dout, padding_idx, scale_grad_by_freq, is_sparse):
    dw = _launch_embedding.embedding_grad(xp, ids, w, dout, padding_row(padding_idx, w.shape[0]))
    return _scaled_by_freq(xp, dw, ids) if scale_grad_by_freq and dw is not None else dw


def _embedding_grad(g):
    if g.needs("W"):
        g.set_input_grad("W", g.op("embedding_grad", g.input("Ids"), g.input("W"), g.output_grad("Out"),
                                   **g.attrs))


def _embedding_grad_grad(g):
    # embedding_grad is linear in DOut; its adjoint is the lookup itself (padding row gives zeros).
    if g.needs("DOut"):
        if g.attrs["scale_grad_by_freq"]:  # as in Paddle, whose embedding_with_scaled_gradient_grad has none
            raise no_grad_op_error("embedding_with_scaled_gradient_grad")
        g.set_input_grad("DOut", g.op("embedding", g.input("Ids"), g.output_grad("DW"), **g.attrs))


# is_sparse (Paddle's attr): the gradient of W is Paddle's SELECTED_ROWS variable in a static program (ops/legacy.py);
# its values are the dense gradient's
_EMBEDDING_ATTRS = {"padding_idx": -1, "scale_grad_by_freq": False, "is_sparse": False}
EMBEDDING = register_op("embedding", inputs=("Ids", "W"), outputs=("Out",), forward=_embedding_forward,
                        infer=_embedding_infer, grad=_embedding_grad,
                        attrs=_EMBEDDING_ATTRS, nondiff_inputs=("Ids",), double_grad=True)

EMBEDDING_GRAD = register_op("embedding_grad", inputs=("Ids", "W", "DOut"), meta_inputs=("W",), outputs=("DW",),
                             forward=_embedding_grad_forward, infer=_embedding_grad_infer, grad=_embedding_grad_grad,
                             attrs=_EMBEDDING_ATTRS, nondiff_inputs=("Ids", "W"),
                             double_grad=True,
                             gpu=_embedding_grad_kernel)


# ---- dropout --------------------------------------------------------------------------------------
_DROPOUT_MODES = ("upscale_in_train", "downgrade_in_infer")
_DROPOUT_ATTRS = {"dropout_prob": 0.5, "is_test": False, "seed": 0, "dropout_implementation": "upscale_in_train"}


def _check_dropout_attrs(op, dropout_prob, dropout_implementation):
    if not 0.0 <= dropout_prob <= 1.0:
        raise ValueError(f"op '{op}': dropout_prob must be in [0, 1], received {dropout_prob!r}")
    if dropout_implementation not in _DROPOUT_MODES:
        raise ValueError(f"op '{op}': dropout_implementation must be one of {list(_DROPOUT_MODES)}, received "
                         f"{dropout_implementation!r}")


def _dropout_infer(x, seed_tensor, dropout_prob, is_test, seed, dropout_implementation):
    _check_dropout_attrs("dropout", dropout_prob, dropout_implementation)
    check_float("dropout", x, real=True)
    return Meta(x.shape, x.dtype), Meta(x.shape, np.dtype(np.uint8))


def _keep_scale(dtype, p, mode, is_test):
    """The factor kept elements are multiplied by."""
    if is_test:
        return dtype.type(1.0 if mode == "upscale_in_train" else 1.0 - p)
    if mode == "upscale_in_train":
        return dtype.type(0.0 if p >= 1.0 else 1.0 / (1.0 - p))
    return dtype.type(1.0)


def _dropout_forward(xp, x, seed_tensor, dropout_prob, is_test, seed, dropout_implementation):
    """Seed (an int [1] tensor, read on the host), when given, fixes the mask's draws as a nonzero seed attr does:
    how a recomputing backward runs dropout again with the same mask (ops/creation.py's seed op makes it)."""
    _check_dropout_attrs("dropout", dropout_prob, dropout_implementation)
    if is_test:
        return (x * _keep_scale(x.dtype, dropout_prob, dropout_implementation, True),
                xp.ones(x.shape, dtype=np.uint8))
    if seed_tensor is not None:
        seed = int(np.asarray(seed_tensor.get() if hasattr(seed_tensor, "get") else seed_tensor).reshape(-1)[0])
    mask = (rng_for(xp, seed).random(x.shape) >= dropout_prob).astype(np.uint8)
    return x * mask * _keep_scale(x.dtype, dropout_prob, dropout_implementation, False), mask


def _dropout_grad_forward(xp, mask, dout, dropout_prob, is_test, dropout_implementation):
    return dout * mask * _keep_scale(dout.dtype, dropout_prob, dropout_implementation, is_test)


def dropout_grad_kernel(xp, mask, a, dout, act, dropout_prob, is_test, dropout_implementation):
    """dropout's backward on kernels/dropout.cu, fused with act's gradient at `a` unless act='identity'."""
    scale = float(_keep_scale(np.dtype(np.float32), dropout_prob, dropout_implementation, is_test))
    return _launch_dropout.dropout_act_grad(xp, mask, a, dout, scale, act)


def _dropout_grad_infer(mask, dout, dropout_prob, is_test, dropout_implementation):
    _check_dropout_attrs("dropout_grad", dropout_prob, dropout_implementation)
    if tuple(mask.shape) != tuple(dout.shape) and -1 not in tuple(mask.shape) + tuple(dout.shape):
        raise ValueError(f"op 'dropout_grad': Mask has shape {list(mask.shape)} but DOut has {list(dout.shape)}")
    return Meta(dout.shape, dout.dtype)


def _grad_attrs(attrs):
    return {k: attrs[k] for k in ("dropout_prob", "is_test", "dropout_implementation")}


def _dropout_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("dropout_grad", g.output("Mask"), g.output_grad("Out"), **_grad_attrs(g.attrs)))


def _dropout_grad_grad(g):
    if g.needs("DOut"):
        g.set_input_grad("DOut", g.op("dropout_grad", g.input("Mask"), g.output_grad("DX"), **_grad_attrs(g.attrs)))


DROPOUT = register_op("dropout", inputs=("X", "Seed"), outputs=("Out", "Mask"), forward=_dropout_forward,
                      infer=_dropout_infer, grad=_dropout_grad, attrs=_DROPOUT_ATTRS, host_inputs=("Seed",),
                      intermediate_outputs=("Mask",), double_grad=True, draws=True, seed_input="Seed")

DROPOUT_GRAD = register_op("dropout_grad", inputs=("Mask", "DOut"), outputs=("DX",), forward=_dropout_grad_forward,
                           infer=_dropout_grad_infer, grad=_dropout_grad_grad,
                           attrs={k: _DROPOUT_ATTRS[k] for k in ("dropout_prob", "is_test", "dropout_implementation")},
                           nondiff_inputs=("Mask",), double_grad=True,
                           gpu=lambda xp, mask, dout, **attrs: dropout_grad_kernel(xp, mask, None, dout, "identity",
                                                                                   **attrs))


# ---- prelu: X where X > 0, else Alpha X; Alpha holds one slope ('all') or one per channel ('channel') --------
def _prelu_channel(ndim, data_format):
    return 1 if data_format[1] == "C" else ndim - 1


def _prelu_slopes(alpha, ndim, mode, data_format):
    if mode == "all":
        return alpha.reshape(())
    channel = _prelu_channel(ndim, data_format)
    return alpha.reshape([-1 if i == channel else 1 for i in range(ndim)])


def _prelu_forward(xp, x, alpha, mode, data_format):
    return xp.where(x > 0, x, _prelu_slopes(alpha, x.ndim, mode, data_format) * x).astype(x.dtype, copy=False)


def _prelu_infer(x, alpha, mode, data_format):
    check_float("prelu", x, "X", real=True)
    if mode not in ("all", "channel"):
        raise ValueError(f"op 'prelu': mode must be 'all' or 'channel', received {mode!r}")
    channels = 1 if mode == "all" else x.shape[_prelu_channel(len(x.shape), data_format)]
    if len(alpha.shape) != 1 or -1 not in (channels, alpha.shape[0]) and alpha.shape[0] != channels:
        raise ValueError(f"op 'prelu': Alpha must hold {channels} slope(s) for mode {mode!r}, received shape "
                         f"{list(alpha.shape)}")
    return Meta(x.shape, x.dtype)


def _prelu_grad_forward(xp, x, alpha, dout, mode, data_format):
    positive = x > 0
    slopes = _prelu_slopes(alpha, x.ndim, mode, data_format)
    dx = xp.where(positive, dout, slopes * dout).astype(x.dtype, copy=False)
    dslopes = xp.where(positive, x.dtype.type(0), x * dout)
    if mode == "all":
        dalpha = dslopes.sum()
    else:
        channel = _prelu_channel(x.ndim, data_format)
        dalpha = dslopes.sum(axis=tuple(i for i in range(x.ndim) if i != channel))
    return dx, dalpha.reshape(alpha.shape).astype(alpha.dtype, copy=False)


def _prelu_grad(g):
    if g.needs_any("X", "Alpha"):
        dx, dalpha = g.op("prelu_grad", g.input("X"), g.input("Alpha"), g.output_grad("Out"), **g.attrs)
        g.set_input_grads(("X", "Alpha"), (dx, dalpha))


_PRELU_ATTRS = {"mode": "all", "data_format": "NCHW"}
PRELU = register_op("prelu", inputs=("X", "Alpha"), outputs=("Out",), forward=_prelu_forward, infer=_prelu_infer,
                    grad=_prelu_grad, attrs=_PRELU_ATTRS)
PRELU_GRAD = register_op("prelu_grad", inputs=("X", "Alpha", "DOut"), outputs=("DX", "DAlpha"),
                         forward=_prelu_grad_forward,
                         infer=lambda x, alpha, dout, **a: (Meta(x.shape, x.dtype), Meta(alpha.shape, alpha.dtype)),
                         attrs=_PRELU_ATTRS)
