"""Fused ops whose GPU implementation is one kernel (kernels/activation.cu, kernels/dropout.cu, kernels/rope.cu).

- fused_bias_act(X, Bias; act): Out = act(X + Bias), Bias broadcast along X's last axis.
- fused_bias_act_grad(X, Bias, DOut; act): DX = DOut * act'(X + Bias) and DBias = DX summed over
  all but the last axis, computed in one pass on the GPU.
- fused_dropout_act_grad(Mask, A, DOut; act, dropout attrs): the gradient through
  dropout(act(h)), i.e. act_grad(A, dropout_grad(Mask, DOut)); A is the activation's saved output
  for relu/sigmoid/tanh and its input for gelu/gelu_tanh/silu, as the unfused grad ops take them.
- fused_dropout_add(X, Bias, Y; dropout attrs): (X + Bias) * dropout mask * scale + Y in training, the mask drawn
  from the framework's generator as the dropout op draws it (its Mask output, as dropout's).
- fused_rope(Q, K, V, Sin, Cos, PositionIds; use_neox_rotary_style, time_major, rotary_emb_base, inverse): Paddle's
  fused_rotary_position_embedding; its gradient is the same op with `inverse` flipped (the transposed rotation:
  given Sin/Cos tables hold, as Paddle's gradient assumes, one angle for both elements of a rotated pair).

The forwards here are the references, written with the registry's own activation ops so the math
is defined once; each op's `gpu=` binding runs its kernel (compiled on first use on a GPU).
"""
import numpy as np

from .launch import activation as _launch
from .launch import dropout as _dropout_launch
from .launch import rope as _rope_launch
from ..framework.random import rng_for
from .formula import reduce_sum, reshape_as
from .nn import _keep_scale, dropout_grad_kernel
from .registry import Meta, get_op, register_op
from .shape_rules import check_float

ACTS = ("identity", "relu", "sigmoid", "tanh", "gelu", "gelu_tanh", "silu")
_FROM_OUT = ("relu", "sigmoid", "tanh")  # grad ops of these take the activation's output


def _check_act(op, act):
    if act not in ACTS:
        raise ValueError(f"op '{op}': act must be one of {list(ACTS)}, received {act!r}")


def _act_forward(xp, h, act):
    if act == "identity":
        return h
    if act in ("gelu", "gelu_tanh"):
        return get_op("gelu").forward(xp, h, approximate=act == "gelu_tanh")
    return get_op(act).forward(xp, h)


def _act_backward(xp, a, dout, act):
    """dout * act'(.), with `a` the saved output (relu/sigmoid/tanh) or input (gelu/silu)."""
    if act == "identity":
        return dout
    if act in ("gelu", "gelu_tanh"):
        return get_op("gelu_grad").forward(xp, a, dout, approximate=act == "gelu_tanh")
    return get_op(f"{act}_grad").forward(xp, a, dout)


def _bias_infer(op, x, bias):
    check_float(op, x, real=True)
    if bias.dtype != x.dtype:
        raise TypeError(f"op '{op}': Bias has dtype {bias.dtype} but X has {x.dtype}")
    if len(x.shape) == 0 or len(bias.shape) != 1 or -1 not in (x.shape[-1], bias.shape[0]) \
            and bias.shape[0] != x.shape[-1]:
        raise ValueError(f"op '{op}': Bias must be 1-D with X's last dim ({list(x.shape)[-1:]}), received "
                         f"shape {list(bias.shape)}")


def _fused_bias_act_forward(xp, x, bias, act):
    _check_act("fused_bias_act", act)
    return _act_forward(xp, x + bias, act)


def _fused_bias_act_infer(x, bias, act):
    _check_act("fused_bias_act", act)
    _bias_infer("fused_bias_act", x, bias)
    return Meta(tuple(x.shape), x.dtype)


def _fused_bias_act_grad(g):
    if g.needs_any("X", "Bias"):
        g.set_input_grads(("X", "Bias"), g.op("fused_bias_act_grad", g.input("X"), g.input("Bias"),
                                              g.output_grad("Out"), **g.attrs))


def _fused_bias_act_grad_forward(xp, x, bias, dout, act):
    _check_act("fused_bias_act_grad", act)
    h = x + bias
    dh = _act_backward(xp, _act_forward(xp, h, act) if act in _FROM_OUT else h, dout, act)
    return dh, xp.asarray(dh.reshape(-1, bias.shape[0]).sum(axis=0)).astype(bias.dtype, copy=False)


def _fused_bias_act_grad_infer(x, bias, dout, act):
    _check_act("fused_bias_act_grad", act)
    _bias_infer("fused_bias_act_grad", x, bias)
    if tuple(dout.shape) != tuple(x.shape) and -1 not in tuple(x.shape) + tuple(dout.shape):
        raise ValueError(f"op 'fused_bias_act_grad': DOut has shape {list(dout.shape)} but X has {list(x.shape)}")
    return Meta(tuple(x.shape), x.dtype), Meta(tuple(bias.shape), bias.dtype)


FUSED_BIAS_ACT = register_op("fused_bias_act", inputs=("X", "Bias"), outputs=("Out",),
                             forward=_fused_bias_act_forward, infer=_fused_bias_act_infer,
                             grad=_fused_bias_act_grad, attrs={"act": "relu"}, same_dtype=("X", "Bias"),
                             gpu=_launch.bias_act)

# No grad maker: double backward through fused_bias_act is not supported (use the unfused ops).
FUSED_BIAS_ACT_GRAD = register_op("fused_bias_act_grad", inputs=("X", "Bias", "DOut"), outputs=("DX", "DBias"),
                                  forward=_fused_bias_act_grad_forward, infer=_fused_bias_act_grad_infer,
                                  attrs={"act": "relu"}, same_dtype=("X", "Bias", "DOut"), gpu=_launch.bias_act_grad)

_DROPOUT_GRAD_ATTRS = {"act": "relu", "dropout_prob": 0.5, "is_test": False,
                       "dropout_implementation": "upscale_in_train"}


def _fused_dropout_act_grad_forward(xp, mask, a, dout, act, dropout_prob, is_test, dropout_implementation):
    _check_act("fused_dropout_act_grad", act)
    d = get_op("dropout_grad").forward(xp, mask, dout, dropout_prob=dropout_prob, is_test=is_test,
                                       dropout_implementation=dropout_implementation)
    return _act_backward(xp, a, d, act)


def _fused_dropout_act_grad_infer(mask, a, dout, act, **attrs):
    _check_act("fused_dropout_act_grad", act)
    get_op("dropout_grad").infer(mask, dout, **attrs)
    if a.dtype != dout.dtype:
        raise TypeError(f"op 'fused_dropout_act_grad': A has dtype {a.dtype} but DOut has {dout.dtype}")
    if tuple(a.shape) != tuple(dout.shape) and -1 not in tuple(a.shape) + tuple(dout.shape):
        raise ValueError(f"op 'fused_dropout_act_grad': A has shape {list(a.shape)} but DOut has "
                         f"{list(dout.shape)}")
    return Meta(tuple(dout.shape), dout.dtype)


# No grad maker: a backward-only op (what the fused dropout+activation backward runs).
FUSED_DROPOUT_ACT_GRAD = register_op("fused_dropout_act_grad", inputs=("Mask", "A", "DOut"), outputs=("DX",),
                                     forward=_fused_dropout_act_grad_forward, infer=_fused_dropout_act_grad_infer,
                                     attrs=dict(_DROPOUT_GRAD_ATTRS), gpu=dropout_grad_kernel)


# ---- fused_rope -------------------------------------------------------------------------------------
_ROPE_ATTRS = {"use_neox_rotary_style": True, "time_major": False, "rotary_emb_base": 10000.0, "inverse": False}


def _rope_infer(q, k, v, sin, cos, position_ids, use_neox_rotary_style, time_major, rotary_emb_base, inverse):
    op = "fused_rope"
    check_float(op, q, "Q", real=True)
    if len(q.shape) != 4 or q.shape[-1] != -1 and q.shape[-1] % 2:
        raise ValueError(f"op '{op}': Q must be 4-D [batch, seq, heads, head_dim] (time_major: [seq, batch, ...]) "
                         f"with an even head_dim, received shape {list(q.shape)}")
    for slot, t in (("K", k), ("V", v)):
        if t is not None and (t.dtype != q.dtype or len(t.shape) != 4 or tuple(t.shape[:2]) != tuple(q.shape[:2])
                              or t.shape[-1] != q.shape[-1]):
            raise ValueError(f"op '{op}': {slot} must be {q.dtype} and shaped like Q but for its heads "
                             f"({list(q.shape)}), received {list(t.shape)}, {t.dtype}")
    if (sin is None) != (cos is None):
        raise ValueError(f"op '{op}': give both Sin and Cos, or neither (they are then computed)")
    if sin is not None:
        for slot, t in (("Sin", sin), ("Cos", cos)):
            check_float(op, t, slot, real=True)
            n = int(np.prod(t.shape))
            if -1 not in (q.shape[-1], n) and n % q.shape[-1]:
                raise ValueError(f"op '{op}': {slot} must be [positions, head_dim] (or [1, positions, 1, head_dim]), "
                                 f"received shape {list(t.shape)} for head_dim {q.shape[-1]}")
    if position_ids is not None and np.dtype(position_ids.dtype).kind not in "iu":
        raise TypeError(f"op '{op}': PositionIds must be integers, received {position_ids.dtype}")
    return tuple(Meta(tuple(t.shape), q.dtype) if t is not None else Meta((0,), q.dtype) for t in (q, k, v))


def _rope_tables(xp, sin, cos, position_ids, B, S, D, neox, base, time_major, cdt):
    """(sin, cos) broadcastable to a [B, S, heads, D] tensor ([S, B, ...] time_major), in cdt."""
    if sin is not None:
        tables = [t.reshape(-1, D).astype(cdt, copy=False) for t in (sin, cos)]
        if position_ids is None:
            rows = [t[:S][None] for t in tables]                                     # [1, S, D]
        else:
            # a position outside the tables' rows gives NaN, as the kernel (no host read of the ids)
            ids = position_ids.reshape(B, S)
            inside = ((ids >= 0) & (ids < tables[0].shape[0]))[..., None]
            rows = [xp.where(inside, t[xp.clip(ids, 0, t.shape[0] - 1)], np.dtype(cdt).type(np.nan)) for t in tables]  # [B, S, D]
    else:
        inv_freq = (1.0 / (np.float32(base) ** (xp.arange(0, D, 2, dtype=np.float32) / np.float32(D)))).astype(
            np.float32)
        per_dim = xp.concatenate([inv_freq, inv_freq]) if neox else xp.repeat(inv_freq, 2)
        p = (position_ids.reshape(B, S) if position_ids is not None else xp.arange(S)[None]).astype(np.float32)
        angle = p[..., None] * per_dim                                               # [B or 1, S, D]
        rows = [xp.sin(angle).astype(cdt, copy=False), xp.cos(angle).astype(cdt, copy=False)]
    rows = [r[:, :, None] for r in rows]
    return [r.transpose(1, 0, 2, 3) for r in rows] if time_major else rows


def _rotated(xp, x, neox):
    """x with each pair (a, b) -> (-b, a): the halves of the last axis (neox), else adjacent elements."""
    if neox:
        a, b = xp.split(x, 2, axis=-1)
        return xp.concatenate([-b, a], axis=-1)
    pairs = x.reshape(*x.shape[:-1], -1, 2)
    return xp.stack([-pairs[..., 1], pairs[..., 0]], axis=-1).reshape(x.shape)


def _rope_forward(xp, q, k, v, sin, cos, position_ids, use_neox_rotary_style, time_major, rotary_emb_base,
                  inverse):
    cdt = np.float32 if q.dtype.itemsize <= 2 else q.dtype
    B, S = (q.shape[1], q.shape[0]) if time_major else (q.shape[0], q.shape[1])
    s, c = _rope_tables(xp, sin, cos, position_ids, B, S, q.shape[-1], use_neox_rotary_style, rotary_emb_base,
                        time_major, cdt)
    if inverse:
        s = -s

    def rotate(x):
        x = x.astype(cdt, copy=False)
        return (x * c + _rotated(xp, x, use_neox_rotary_style) * s).astype(q.dtype, copy=False)
    return tuple(rotate(t) if t is not None else xp.empty((0,), q.dtype) for t in (q, k, v))


def _rope_grad(g):
    """The rotation is orthogonal: the gradient is the transposed rotation of the outputs' gradients."""
    if not g.needs_any("Q", "K", "V"):
        return
    douts = [g.output_grad_or_zeros(o) if g.input(i) is not None else None
             for i, o in (("Q", "OutQ"), ("K", "OutK"), ("V", "OutV"))]
    grads = g.op("fused_rope", *douts, g.input("Sin"), g.input("Cos"), g.input("PositionIds"),
                 **dict(g.attrs, inverse=not g.attrs["inverse"]))
    g.set_input_grads(("Q", "K", "V"), grads)


FUSED_ROPE = register_op("fused_rope", inputs=("Q", "K", "V", "Sin", "Cos", "PositionIds"),
                         outputs=("OutQ", "OutK", "OutV"), forward=_rope_forward, infer=_rope_infer, grad=_rope_grad,
                         attrs=dict(_ROPE_ATTRS), optional_inputs=("K", "V", "Sin", "Cos", "PositionIds"),
                         nondiff_inputs=("Sin", "Cos", "PositionIds"), double_grad=True, gpu=_rope_launch.rope)


# ---- fused_dropout_add ------------------------------------------------------------------------------
_DROPOUT_ADD_ATTRS = {"dropout_prob": 0.5, "seed": 0, "dropout_implementation": "upscale_in_train"}


def _dropout_add_infer(x, bias, y, dropout_prob, seed, dropout_implementation):
    get_op("dropout").infer(x, dropout_prob, False, seed, dropout_implementation)
    if bias is not None:
        _bias_infer("fused_dropout_add", x, bias)
    if y.dtype != x.dtype or tuple(y.shape) != tuple(x.shape) and -1 not in tuple(x.shape) + tuple(y.shape):
        raise ValueError(f"op 'fused_dropout_add': Y must be like X ({list(x.shape)}, {x.dtype}), received "
                         f"{list(y.shape)}, {y.dtype}")
    return Meta(tuple(x.shape), x.dtype), Meta(tuple(x.shape), np.dtype(np.uint8))


def _dropout_add_forward(xp, x, bias, y, dropout_prob, seed, dropout_implementation):
    out, mask = get_op("dropout").forward(xp, x if bias is None else x + bias, dropout_prob=dropout_prob, is_test=False,
                                          seed=seed, dropout_implementation=dropout_implementation)
    return out + y, mask


def _dropout_add_kernel(xp, x, bias, y, dropout_prob, seed, dropout_implementation):
    scale = float(_keep_scale(np.dtype(np.float32), dropout_prob, dropout_implementation, False))
    return _dropout_launch.dropout_add(xp, rng_for(xp, seed), x, bias, y, dropout_prob, scale)


def _dropout_add_grad(g):
    dout = g.output_grad("Out")
    if dout is None:
        return
    if g.needs_any("X", "Bias"):
        dx = g.op("dropout_grad", g.output("Mask"), dout, dropout_prob=g.attrs["dropout_prob"], is_test=False,
                  dropout_implementation=g.attrs["dropout_implementation"])
        if g.needs("Bias"):
            g.set_input_grad("Bias", reshape_as(reduce_sum(dx, axis=list(range(len(g.shape(dx)) - 1))),
                                                g.input("Bias")))
        g.set_input_grads(("X",), (dx,))
    g.set_input_grads(("Y",), (dout,))


FUSED_DROPOUT_ADD = register_op("fused_dropout_add", inputs=("X", "Bias", "Y"), outputs=("Out", "Mask"),
                                forward=_dropout_add_forward, infer=_dropout_add_infer, grad=_dropout_add_grad,
                                attrs=dict(_DROPOUT_ADD_ATTRS), optional_inputs=("Bias",),
                                intermediate_outputs=("Mask",), gpu=_dropout_add_kernel)
