"""Fused ops whose GPU implementation is one kernel (kernels/activation.cu, kernels/dropout.cu).

- fused_bias_act(X, Bias; act): Out = act(X + Bias), Bias broadcast along X's last axis.
- fused_bias_act_grad(X, Bias, DOut; act): DX = DOut * act'(X + Bias) and DBias = DX summed over
  all but the last axis, computed in one pass on the GPU.
- fused_dropout_act_grad(Mask, A, DOut; act, dropout attrs): the gradient through
  dropout(act(h)), i.e. act_grad(A, dropout_grad(Mask, DOut)); A is the activation's saved output
  for relu/sigmoid/tanh and its input for gelu/gelu_tanh/silu, as the unfused grad ops take them.

The forwards here are the references, written with the registry's own activation ops so the math
is defined once; each op's `gpu=` binding runs its kernel (compiled on first use on a GPU).
"""
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
