"""Fused ops whose GPU implementation is one kernel (kernels/activation.cu, kernels/dropout.cu).

- fused_bias_act(X, Bias; act): Out = act(X + Bias), Bias broadcast along X's last axis.
- fused_bias_act_grad(X, Bias, DOut; act): DX = DOut * act'(X + Bias) and DBias = DX summed over
  all but the last axis, computed in one pass on the GPU.
- swiglu(X, Y): Out = silu(a) * b, with (a, b) the halves of X's last axis (no Y) or (X, Y); swiglu_grad
  gives DX (both halves' gradients when there is no Y) and DY in one pass.
- fused_dropout_act_grad(Mask, A, DOut; act, dropout attrs): the gradient through
  dropout(act(h)), i.e. act_grad(A, dropout_grad(Mask, DOut)); A is the activation's saved output
  for relu/sigmoid/tanh and its input for gelu/gelu_tanh/silu, as the unfused grad ops take them.

The forwards here are the references, written with the registry's own activation ops so the math
is defined once; each op's `gpu=` binding runs its kernel (compiled on first use on a GPU).
"""
import numpy as np

from .launch import activation as _launch
from .nn import dropout_grad_kernel
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

def _glu_operands(x, y):
    """(a, b) in float32 for 16-bit floats (as the kernel computes), else in their dtype."""
    if y is None:
        n = x.shape[-1] // 2
        x, y = x[..., :n], x[..., n:]
    cdt = np.float32 if x.dtype.itemsize < 4 else x.dtype
    return x.astype(cdt, copy=False), y.astype(cdt, copy=False)


def _swiglu_infer(x, y):
    check_float("swiglu", x, real=True)
    if y is None:
        if len(x.shape) == 0 or (x.shape[-1] != -1 and x.shape[-1] % 2):
            raise ValueError(f"op 'swiglu': without Y the last dim of X must be even (it is split in halves), "
                             f"received shape {list(x.shape)}")
        return Meta((*x.shape[:-1], -1 if x.shape[-1] == -1 else x.shape[-1] // 2), x.dtype)
    if y.dtype != x.dtype or (tuple(y.shape) != tuple(x.shape) and -1 not in tuple(x.shape) + tuple(y.shape)):
        raise ValueError(f"op 'swiglu': Y must have X's shape {list(x.shape)} and dtype {x.dtype}, received "
                         f"{list(y.shape)} {y.dtype}")
    return Meta(tuple(x.shape), x.dtype)


def _swiglu_forward(xp, x, y):
    a, b = _glu_operands(x, y)
    return (_act_forward(xp, a, "silu") * b).astype(x.dtype, copy=False)


def _swiglu_grad(g):
    if g.needs_any("X", "Y"):
        g.set_input_grads(("X", "Y"), g.op("swiglu_grad", g.input("X"), g.input("Y"), g.output_grad("Out")))


def _swiglu_grad_forward(xp, x, y, dout):
    a, b = _glu_operands(x, y)
    d = dout.astype(a.dtype, copy=False)
    da, db = _act_backward(xp, a, d * b, "silu"), d * _act_forward(xp, a, "silu")
    if y is None:
        return xp.concatenate([da, db], axis=-1).astype(x.dtype, copy=False), xp.empty((0,), x.dtype)
    return da.astype(x.dtype, copy=False), db.astype(x.dtype, copy=False)


def _swiglu_grad_infer(x, y, dout):
    out = _swiglu_infer(x, y)
    if dout.dtype != x.dtype or (tuple(dout.shape) != tuple(out.shape) and -1 not in tuple(dout.shape) + out.shape):
        raise ValueError(f"op 'swiglu_grad': DOut must have Out's shape {list(out.shape)} and dtype {x.dtype}, "
                         f"received {list(dout.shape)} {dout.dtype}")
    return Meta(tuple(x.shape), x.dtype), Meta(tuple(x.shape) if y is not None else (0,), x.dtype)


SWIGLU = register_op("swiglu", inputs=("X", "Y"), outputs=("Out",), forward=_swiglu_forward, infer=_swiglu_infer,
                     grad=_swiglu_grad, optional_inputs=("Y",), gpu=_launch.swiglu)

# No grad maker: double backward through swiglu is not supported.
SWIGLU_GRAD = register_op("swiglu_grad", inputs=("X", "Y", "DOut"), outputs=("DX", "DY"),
                          forward=_swiglu_grad_forward, infer=_swiglu_grad_infer, optional_inputs=("Y",),
                          gpu=_launch.swiglu_grad)

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
