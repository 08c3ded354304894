"""Activations. The first-order gradients run through dedicated grad ops with Paddle's slots
(relu_grad(Out, DOut), gelu_grad(X, DOut), softmax_grad(Out, DOut), ...) so a fused CUDA kernel can
replace each one by type; every grad op has a grad maker of its own built from registered ops, which
is what makes double (and higher) backward work.
"""
import math

import numpy as np

from ..framework.random import rng_for
from .formula import exp, hardsigmoid, minimum, reduce_sum, sigmoid, softplus, tanh, where, zeros_like
from .launch import activation as _launch
from .launch import softmax_ce as _sce_launch
from .launch.generated import f32
from .math import erf_array, unary_grad
from .registry import Meta, register_op
from .shape_rules import check_float, float_only, float_rule, normalize_axis


def _grad_op_rule(name, first="X"):
    def infer(a, dout, **attrs):
        check_float(name, dout, "DOut")
        if np.dtype(a.dtype) != np.dtype(dout.dtype):
            raise TypeError(f"op '{name}': input 'DOut' has dtype {dout.dtype} but '{first}' has {a.dtype}")
        return Meta(dout.shape, dout.dtype)
    return infer


def _activation(name, forward, grad, attrs=None, elementwise=None):
    return register_op(name, inputs=("X",), outputs=("Out",), forward=float_only(name, forward),
                       infer=float_rule(name), grad=grad, attrs=attrs, double_grad=True, elementwise=elementwise)


def _grad_op(name, first, forward, grad, attrs=None, nondiff_first=False, gpu=None, elementwise=None):
    return register_op(name, inputs=(first, "DOut"), outputs=("Out",), forward=forward,
                       infer=_grad_op_rule(name, first), grad=grad, attrs=attrs, same_dtype=(first, "DOut"),
                       nondiff_inputs=(first,) if nondiff_first else (), double_grad=True, gpu=gpu,
                       elementwise=elementwise)


def _act_kernel(act):
    """The binding of an activation's grad op to kernels/activation.cu (`act` names its derivative)."""
    return lambda xp, a, dout: _launch.act_grad(xp, a, dout, act)


def _via(grad_type, first):
    """Grad maker of an activation: dX = <grad_type>(<first>, dOut, **attrs)."""
    def grad(g):
        if g.needs("X"):
            ref = g.output("Out") if first == "Out" else g.input("X")
            g.set_input_grad("X", g.op(grad_type, ref, g.output_grad("Out"), **g.attrs))
    return grad


def _grad_op_grad(grad_type, first, second=None):
    """Grad maker of grad op y = dout * f'(a), a = <first> (x or out): linear in dout, so
    dDOut = <grad_type>(a, ddy); and dA = ddy * dout * second(a, **attrs), second = d f'(a) / da
    (None: f' is piecewise constant, a only selects)."""
    def grad(g):
        a, dout, ddy = g.input(first), g.input("DOut"), g.output_grad("Out")
        if g.needs("DOut"):
            g.set_input_grad("DOut", g.op(grad_type, a, ddy, **g.attrs))
        if second is not None and g.needs(first):
            d2 = second(a, **g.attrs)
            g.set_input_grad(first, ddy * dout * d2)
    return grad


def _zero(xp, like):
    return xp.zeros((), like.dtype)


# ---- relu / relu6 / leaky_relu: piecewise linear, masks only --------------------------------------
def _relu(xp, x):
    out = xp.fmax(x, x.dtype.type(0))  # fmax, not maximum: Paddle's relu maps NaN to 0
    out += 0  # and -0.0 to +0.0 (fmax may return either zero); two passes cost less than a select
    return out


RELU = _activation("relu", _relu, _via("relu_grad", "Out"), elementwise=lambda x: f"(fmaxf({x}, 0.f) + 0.f)")
# dOut * (Out > 0), Paddle's formula: one multiply is cheaper than a select
RELU_GRAD = _grad_op("relu_grad", "Out", lambda xp, out, dout: dout * (out > 0),
                     _grad_op_grad("relu_grad", "Out"), nondiff_first=True, gpu=_act_kernel("relu"),
                     elementwise=lambda out, dout: f"({dout} * ({out} > 0.f ? 1.f : 0.f))")

RELU6 = _activation("relu6", lambda xp, x, threshold: xp.clip(x, 0, threshold).astype(x.dtype, copy=False),
                    _via("relu6_grad", "Out"), attrs={"threshold": 6.0})
RELU6_GRAD = _grad_op("relu6_grad", "Out",
                      lambda xp, out, dout, threshold: xp.where((out > 0) & (out < threshold), dout,
                                                                    _zero(xp, dout)),
                      _grad_op_grad("relu6_grad", "Out"), attrs={"threshold": 6.0}, nondiff_first=True)


def _leaky_relu(xp, x, alpha):
    return xp.where(x > 0, x, x * x.dtype.type(alpha))


def _leaky_relu_grad(xp, x, dout, alpha):
    # Paddle's masks: slope 1 from x >= 0 (so at 0), alpha below, and 0 where x is NaN
    return dout * ((x >= 0) + (x < 0) * dout.dtype.type(alpha)).astype(dout.dtype, copy=False)


LEAKY_RELU = _activation("leaky_relu", _leaky_relu, _via("leaky_relu_grad", "X"), attrs={"alpha": 0.01})
LEAKY_RELU_GRAD = _grad_op("leaky_relu_grad", "X", _leaky_relu_grad, _grad_op_grad("leaky_relu_grad", "X"),
                           attrs={"alpha": 0.01}, nondiff_first=True)


# ---- elu: x > 0 ? x : alpha (e^x - 1) -------------------------------------------------------------
def _elu(xp, x, alpha):
    return xp.where(x > 0, x, x.dtype.type(alpha) * xp.expm1(xp.minimum(x, _zero(xp, x))))


def _elu_grad_forward(xp, x, dout, alpha):
    return xp.where(x > 0, dout, dout * (x.dtype.type(alpha) * xp.exp(xp.minimum(x, _zero(xp, x)))))


def _elu_second(x, alpha):  # d/dx of alpha e^x on the negative side, 0 on the positive side
    zeros = zeros_like(x)
    return where(x > zeros, zeros, exp(minimum(x, zeros)) * alpha)


ELU = _activation("elu", _elu, _via("elu_grad", "X"), attrs={"alpha": 1.0})
ELU_GRAD = _grad_op("elu_grad", "X", _elu_grad_forward, _grad_op_grad("elu_grad", "X", _elu_second),
                    attrs={"alpha": 1.0})


# ---- celu: x > 0 ? x : alpha (e^(x / alpha) - 1) -----------------------------------------------------
def _celu(xp, x, alpha):
    a = x.dtype.type(alpha)
    return xp.where(x > 0, x, a * xp.expm1(xp.minimum(x, _zero(xp, x)) / a))


def _celu_grad_forward(xp, x, dout, alpha):
    return xp.where(x > 0, dout, dout * xp.exp(xp.minimum(x, _zero(xp, x)) / x.dtype.type(alpha)))


def _celu_second(x, alpha):  # d/dx of e^(x / alpha) on the negative side, 0 on the positive side
    zeros = zeros_like(x)
    return where(x > zeros, zeros, exp(minimum(x, zeros) * (1.0 / alpha)) * (1.0 / alpha))


CELU = _activation("celu", _celu, _via("celu_grad", "X"), attrs={"alpha": 1.0})
CELU_GRAD = _grad_op("celu_grad", "X", _celu_grad_forward, _grad_op_grad("celu_grad", "X", _celu_second),
                     attrs={"alpha": 1.0})


# ---- sigmoid / tanh: grads from Out ---------------------------------------------------------------
def _sigmoid(xp, x):
    e = xp.exp(-xp.abs(x))  # never overflows
    one = x.dtype.type(1)
    return xp.where(x >= 0, one / (one + e), e / (one + e))


def _sigmoid_expr(x):  # as _sigmoid: e^-|x| never overflows
    e = f"expf(-fabsf({x}))"
    return f"({x} >= 0.f ? 1.f / (1.f + {e}) : {e} / (1.f + {e}))"


SIGMOID = _activation("sigmoid", _sigmoid, _via("sigmoid_grad", "Out"), elementwise=_sigmoid_expr)
SIGMOID_GRAD = _grad_op("sigmoid_grad", "Out", lambda xp, out, dout: dout * out * (out.dtype.type(1) - out),
                        _grad_op_grad("sigmoid_grad", "Out", lambda out: 1.0 - 2.0 * out),
                        gpu=_act_kernel("sigmoid"), elementwise=lambda out, dout: f"({dout} * {out} * (1.f - {out}))")


TANH = _activation("tanh", lambda xp, x: xp.tanh(x), _via("tanh_grad", "Out"), elementwise=lambda x: f"tanhf({x})")
TANH_GRAD = _grad_op("tanh_grad", "Out", lambda xp, out, dout: dout * (out.dtype.type(1) - out * out),
                     _grad_op_grad("tanh_grad", "Out", lambda out: out * -2.0), gpu=_act_kernel("tanh"),
                     elementwise=lambda out, dout: f"({dout} * (1.f - {out} * {out}))")


# ---- gelu: exact 0.5 x (1 + erf(x / sqrt 2)), or the tanh approximation ----------------------------
_INV_SQRT2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_GELU_C = math.sqrt(2.0 / math.pi)
_GELU_A = 0.044715


def _gelu(xp, x, approximate):
    if approximate:
        inner = _GELU_C * (x + _GELU_A * x * x * x)
        return (0.5 * x * (1.0 + xp.tanh(inner))).astype(x.dtype, copy=False)
    return (0.5 * x * (1.0 + erf_array(xp, x * x.dtype.type(_INV_SQRT2)))).astype(x.dtype, copy=False)


def _gelu_grad_forward(xp, x, dout, approximate):
    if approximate:
        u = _GELU_C * (x + _GELU_A * x * x * x)
        t = xp.tanh(u)
        deriv = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * (_GELU_C * (1.0 + 3.0 * _GELU_A * x * x))
    else:
        cdf = 0.5 * (1.0 + erf_array(xp, x * x.dtype.type(_INV_SQRT2)))
        deriv = cdf + x * (_INV_SQRT_2PI * xp.exp(-0.5 * x * x))
    return (dout * deriv).astype(dout.dtype, copy=False)


def _gelu_second(x, approximate):
    """gelu''(x). exact: phi(x) (2 - x^2); tanh form: (1 - t^2)(u' - x t u'^2 + 3 a c x^2)."""
    x2 = x ** 2
    if not approximate:
        return exp(x2 * -0.5) * _INV_SQRT_2PI * (2.0 - x2)
    t = tanh((x + x2 * x * _GELU_A) * _GELU_C)
    du = x2 * (3.0 * _GELU_A * _GELU_C) + _GELU_C
    return (1.0 - t ** 2) * (du + x2 * (3.0 * _GELU_A * _GELU_C) - x * t * du ** 2)


def _gelu_expr(x, approximate):
    if approximate:
        inner = f"{f32(_GELU_C)} * ({x} + {f32(_GELU_A)} * {x} * {x} * {x})"
        return f"(0.5f * {x} * (1.f + tanhf({inner})))"
    return f"(0.5f * {x} * (1.f + erff({x} * {f32(_INV_SQRT2)})))"


GELU = _activation("gelu", _gelu, _via("gelu_grad", "X"), attrs={"approximate": False}, elementwise=_gelu_expr)
GELU_GRAD = _grad_op("gelu_grad", "X", _gelu_grad_forward, _grad_op_grad("gelu_grad", "X", _gelu_second),
                     attrs={"approximate": False},
                     gpu=lambda xp, x, dout, approximate: _launch.act_grad(xp, x, dout,
                                                                           "gelu_tanh" if approximate else "gelu"))


# ---- silu: x sigmoid(x) ----------------------------------------------------------------------------
def _silu_grad_expr(x, dout):  # as _silu_grad_forward
    s = _sigmoid_expr(x)
    return f"({dout} * {s} * (1.f + {x} * (1.f - {s})))"


def _silu_grad_forward(xp, x, dout):
    s = _sigmoid(xp, x)
    return dout * s * (x.dtype.type(1) + x * (x.dtype.type(1) - s))


def _silu_second(x):  # silu'' = s (1 - s) (2 + x (1 - 2 s)), s = sigmoid(x)
    s = sigmoid(x)
    return s * (1.0 - s) * (x * (1.0 - 2.0 * s) + 2.0)


SILU = _activation("silu", lambda xp, x: x * _sigmoid(xp, x), _via("silu_grad", "X"),
                   elementwise=lambda x: f"({x} * {_sigmoid_expr(x)})")
SILU_GRAD = _grad_op("silu_grad", "X", _silu_grad_forward, _grad_op_grad("silu_grad", "X", _silu_second),
                     gpu=_act_kernel("silu"), elementwise=_silu_grad_expr)


# ---- swiglu: silu(a) * b, (a, b) = (X, Y) or X's halves along its last axis ----------------------------
def _swiglu_infer(x, y):
    check_float("swiglu", x, real=True)
    if y is not None:
        check_float("swiglu", y, "Y", real=True)
        if y.dtype != x.dtype or tuple(y.shape) != tuple(x.shape) and -1 not in x.shape + y.shape:
            raise ValueError(f"op 'swiglu': Y must be like X ({list(x.shape)}, {x.dtype}), received "
                             f"{list(y.shape)}, {y.dtype}")
        return Meta(x.shape, x.dtype)
    if not len(x.shape) or x.shape[-1] != -1 and x.shape[-1] % 2:
        raise ValueError(f"op 'swiglu': without Y the last dim of X must be even (it splits in halves), received "
                         f"shape {list(x.shape)}")
    return Meta(tuple(x.shape[:-1]) + (x.shape[-1] // 2 if x.shape[-1] != -1 else -1,), x.dtype)


_GLU_ACTS = ("silu", "gelu")  # swiglu's and geglu's


def _glu_halves(xp, x, y, bias=None):
    """(a, b) in float32 for 16-bit floats (the kernels' math), else in X's dtype: (X, Y), or the halves of X + Bias."""
    cdt = np.float32 if x.dtype.itemsize <= 2 else x.dtype
    x = x.astype(cdt, copy=False)
    if bias is not None:
        x = x + bias.astype(cdt, copy=False)
    if y is None:
        x, y = xp.split(x, 2, axis=-1)
    return x, y.astype(cdt, copy=False)


def _glu_act(xp, a, act):
    return a * _sigmoid(xp, a) if act == "silu" else _gelu(xp, a, False)


def _glu_grads(xp, x, y, dout, bias=None, act="silu"):
    """(da, db) in the math's dtype."""
    a, b = _glu_halves(xp, x, y, bias)
    d = dout.astype(a.dtype, copy=False)
    da = _silu_grad_forward(xp, a, d * b) if act == "silu" else _gelu_grad_forward(xp, a, d * b, False)
    return da, d * _glu_act(xp, a, act)


def _swiglu_forward(xp, x, y):
    a, b = _glu_halves(xp, x, y)
    return (_glu_act(xp, a, "silu") * b).astype(x.dtype, copy=False)


def _swiglu_grad_forward(xp, x, y, dout):
    da, db = _glu_grads(xp, x, y, dout)
    if y is None:
        return xp.concatenate([da, db], axis=-1).astype(x.dtype, copy=False), xp.empty((0,), x.dtype)
    return da.astype(x.dtype, copy=False), db.astype(x.dtype, copy=False)


def _swiglu_grad_infer(x, y, dout):
    return Meta(x.shape, x.dtype), Meta(y.shape if y is not None else (0,), x.dtype)


def _swiglu_grad(g):
    if g.output_grad("Out") is not None and g.needs_any("X", "Y"):
        g.set_input_grads(("X", "Y"), g.op("swiglu_grad", g.input("X"), g.input("Y"), g.output_grad("Out")))


SWIGLU = register_op("swiglu", inputs=("X", "Y"), outputs=("Out",), forward=_swiglu_forward, infer=_swiglu_infer,
                     grad=_swiglu_grad, optional_inputs=("Y",), gpu=_launch.swiglu)
# No grad maker: double backward through swiglu is not supported.
SWIGLU_GRAD = register_op("swiglu_grad", inputs=("X", "Y", "DOut"), outputs=("DX", "DY"),
                          forward=_swiglu_grad_forward, infer=_swiglu_grad_infer, optional_inputs=("Y",),
                          gpu=_launch.swiglu_grad)


# ---- fused_glu: act(a) * b over the halves (a, b) of X + Bias (fused_bias_act's swiglu / geglu) ------------
def _check_glu_act(op, act):
    if act not in _GLU_ACTS:
        raise ValueError(f"op '{op}': act must be one of {list(_GLU_ACTS)}, received {act!r}")


def _fused_glu_infer(x, bias, act):
    _check_glu_act("fused_glu", act)
    out = _swiglu_infer(x, None)
    if bias is not None and (bias.dtype != x.dtype or len(bias.shape) != 1
                             or -1 not in (bias.shape[0], x.shape[-1]) and bias.shape[0] != x.shape[-1]):
        raise ValueError(f"op 'fused_glu': Bias must be 1-D of X's last dim and dtype ({list(x.shape)[-1:]}, "
                         f"{x.dtype}), received {list(bias.shape)}, {bias.dtype}")
    return out


def _fused_glu_forward(xp, x, bias, act):
    _check_glu_act("fused_glu", act)
    a, b = _glu_halves(xp, x, None, bias)
    return (_glu_act(xp, a, act) * b).astype(x.dtype, copy=False)


def _fused_glu_grad_forward(xp, x, bias, dout, act):
    dx = xp.concatenate(_glu_grads(xp, x, None, dout, bias, act), axis=-1)
    dbias = dx.reshape(-1, x.shape[-1]).sum(axis=0).astype(bias.dtype, copy=False) if bias is not None else \
        xp.empty((0,), x.dtype)
    return dx.astype(x.dtype, copy=False), dbias


def _fused_glu_grad_infer(x, bias, dout, act):
    return Meta(x.shape, x.dtype), Meta(bias.shape if bias is not None else (0,), x.dtype)


def _fused_glu_grad(g):
    if g.output_grad("Out") is not None and g.needs_any("X", "Bias"):
        g.set_input_grads(("X", "Bias"), g.op("fused_glu_grad", g.input("X"), g.input("Bias"), g.output_grad("Out"),
                                              **g.attrs))


def _fused_glu_grad_kernel(xp, x, bias, dout, act):
    if bias is None:  # DBias empty, as swiglu_grad's DY without Y
        return _launch.swiglu_grad(xp, x, None, dout, act=act)
    return _launch.glu_bias_grad(xp, x, bias, dout, act)


FUSED_GLU = register_op("fused_glu", inputs=("X", "Bias"), outputs=("Out",), forward=_fused_glu_forward,
                        infer=_fused_glu_infer, grad=_fused_glu_grad, attrs={"act": "silu"}, optional_inputs=("Bias",),
                        gpu=lambda xp, x, bias, act: _launch.swiglu(xp, x, None, bias, act))
# No grad maker: double backward through fused_glu is not supported.
FUSED_GLU_GRAD = register_op("fused_glu_grad", inputs=("X", "Bias", "DOut"), outputs=("DX", "DBias"),
                             forward=_fused_glu_grad_forward, infer=_fused_glu_grad_infer, attrs={"act": "silu"},
                             optional_inputs=("Bias",), gpu=_fused_glu_grad_kernel)


# ---- softplus: log(1 + e^(beta x)) / beta, linear above the threshold -------------------------------
def _softplus(xp, x, beta, threshold):
    bx = x * x.dtype.type(beta)
    # log1p(e^z) = max(z, 0) + log1p(e^-|z|) never overflows
    soft = (xp.maximum(bx, _zero(xp, bx)) + xp.log1p(xp.exp(-xp.abs(bx)))) / x.dtype.type(beta)
    return xp.where(bx > threshold, x, soft).astype(x.dtype, copy=False)


def _softplus_dx(x, out, dout, beta, threshold):  # dout * (beta x > threshold ? 1 : sigmoid(beta x))
    bx = x * beta
    return where(bx > threshold, dout, dout * sigmoid(bx))


SOFTPLUS = _activation("softplus", _softplus, unary_grad(_softplus_dx), attrs={"beta": 1.0, "threshold": 20.0})


# ---- hardsigmoid: clip(slope x + offset, 0, 1); hardswish: x relu6(x + 3) / 6 ----------------------
def _hardsigmoid(xp, x, slope, offset):
    return xp.clip(x * x.dtype.type(slope) + x.dtype.type(offset), 0, 1).astype(x.dtype, copy=False)


def _hardsigmoid_grad(g):
    if g.needs("X"):
        slope, linear = g.attrs["slope"], g.input("X") * g.attrs["slope"] + g.attrs["offset"]
        g.set_input_grad("X", g.op("clip_grad", linear, g.output_grad("Out"), min=0.0, max=1.0) * slope)


HARDSIGMOID = _activation("hardsigmoid", _hardsigmoid, _hardsigmoid_grad, attrs={"slope": 0.1666667, "offset": 0.5})


def _hardswish(xp, x):
    return (x * xp.clip(x + x.dtype.type(3), 0, 6) / x.dtype.type(6)).astype(x.dtype, copy=False)


def _hardswish_grad(g):
    # d/dx [x h(x)], h = clip(x/6 + 1/2, 0, 1): h + x/6 inside (-3, 3)
    if g.needs("X"):
        x, dout = g.input("X"), g.output_grad("Out")
        inside = g.op("clip_grad", x, dout * x, min=-3.0, max=3.0)
        g.set_input_grad("X", dout * hardsigmoid(x, slope=1.0 / 6.0, offset=0.5) + inside * (1.0 / 6.0))


HARDSWISH = _activation("hardswish", _hardswish, _hardswish_grad)


# ---- mish: x tanh(softplus(x)) ---------------------------------------------------------------------
def _mish(xp, x, threshold):
    return x * xp.tanh(_softplus(xp, x, 1.0, threshold))


def _mish_dx(x, out, dout, threshold):  # dout (t + x (1 - t^2) sigmoid(x)), t = tanh(softplus(x))
    t = tanh(softplus(x, beta=1.0, threshold=threshold))
    return dout * (t + x * (1.0 - t ** 2) * sigmoid(x))


MISH = _activation("mish", _mish, unary_grad(_mish_dx), attrs={"threshold": 20.0})


# ---- softmax / log_softmax over one axis -----------------------------------------------------------
def _softmax_rule(name):
    def infer(x, axis):
        meta = check_float(name, x)
        normalize_axis(name, axis, len(x.shape))
        return meta
    return infer


def shifted_logits(xp, x, axis):
    """x minus its maximum along `axis`, clipped below at -64 as Paddle's softmax kernels do (so a logit far
    below the maximum, or -inf, still gets probability exp(-64) / sum)."""
    shifted = x - x.max(axis=axis, keepdims=True)
    return xp.maximum(shifted, x.dtype.type(-64), out=shifted)


def _softmax(xp, x, axis):
    if x.dtype.kind != "f":
        check_float("softmax", x)
    if x.ndim == 0:
        return xp.ones_like(x)
    e = shifted_logits(xp, x, axis)
    xp.exp(e, out=e)
    e /= e.sum(axis=axis, keepdims=True)
    return e


def _log_softmax(xp, x, axis):
    if x.dtype.kind != "f":
        check_float("log_softmax", x)
    if x.ndim == 0:
        return xp.zeros_like(x)
    shifted = shifted_logits(xp, x, axis)
    return shifted - xp.log(xp.exp(shifted).sum(axis=axis, keepdims=True))


def _softmax_grad_forward(xp, out, dout, axis):
    if out.ndim == 0:
        return xp.zeros_like(dout)
    dx = dout * out  # one full-size array: the products, then dout - their sum, then times out
    xp.subtract(dout, dx.sum(axis=axis, keepdims=True), out=dx)
    dx *= out
    return dx


def _log_softmax_grad_forward(xp, out, dout, axis):
    if out.ndim == 0:
        return xp.zeros_like(dout)
    return dout - xp.exp(out) * dout.sum(axis=axis, keepdims=True)


def _keep_sum(ref, axis):
    return reduce_sum(ref, axis=axis if ref.ndim else None, keepdim=True)


def _softmax_grad_grad(g):
    # y = out (dout - s), s = sum(dout out): dDOut = softmax_grad(out, ddy) (J is symmetric);
    # dOut = ddy (dout - s) - dout sum(ddy out)
    out, dout, ddy, axis = g.input("Out"), g.input("DOut"), g.output_grad("Out"), g.attrs["axis"]
    if g.needs("DOut"):
        g.set_input_grad("DOut", g.op("softmax_grad", out, ddy, axis=axis))
    if g.needs("Out"):
        g.set_input_grad("Out", ddy * (dout - _keep_sum(dout * out, axis)) - dout * _keep_sum(ddy * out, axis))


def _log_softmax_grad_grad(g):
    # y = dout - e^out S, S = sum(dout): dDOut = ddy - sum(ddy e^out); dOut = -ddy e^out S
    out, dout, ddy, axis = g.input("Out"), g.input("DOut"), g.output_grad("Out"), g.attrs["axis"]
    ddy_p = ddy * exp(out)
    if g.needs("DOut"):
        g.set_input_grad("DOut", ddy - _keep_sum(ddy_p, axis))
    if g.needs("Out"):
        g.set_input_grad("Out", -(ddy_p * _keep_sum(dout, axis)))


SOFTMAX = register_op("softmax", inputs=("X",), outputs=("Out",), forward=_softmax, infer=_softmax_rule("softmax"),
                      grad=_via("softmax_grad", "Out"), attrs={"axis": -1}, double_grad=True,
                      gpu=_sce_launch.softmax)
SOFTMAX_GRAD = _grad_op("softmax_grad", "Out", _softmax_grad_forward, _softmax_grad_grad, attrs={"axis": -1},
                        gpu=_sce_launch.softmax_grad)
LOG_SOFTMAX = register_op("log_softmax", inputs=("X",), outputs=("Out",), forward=_log_softmax,
                          infer=_softmax_rule("log_softmax"), grad=_via("log_softmax_grad", "Out"),
                          attrs={"axis": -1}, double_grad=True)
LOG_SOFTMAX_GRAD = _grad_op("log_softmax_grad", "Out", _log_softmax_grad_forward, _log_softmax_grad_grad,
                            attrs={"axis": -1})


# ---- gumbel_softmax: softmax((x + Gumbel noise) / temperature), one-hot of its argmax when hard ----------
def _gumbel_softmax_infer(x, temperature, hard, axis, seed):
    if not temperature > 0:
        raise ValueError(f"op 'gumbel_softmax': temperature must be greater than 0, received {temperature}")
    return _softmax_rule("gumbel_softmax")(x, axis)


def _gumbel_softmax(xp, x, temperature, hard, axis, seed):
    uniform = rng_for(xp, seed).random(x.shape).astype(x.dtype)
    tiny = np.finfo(x.dtype).tiny
    noise = -xp.log(-xp.log(xp.maximum(uniform, tiny)) + tiny)
    out = _softmax(xp, (x + noise) / x.dtype.type(temperature), axis)
    if not hard or out.ndim == 0:
        return out
    winner = xp.expand_dims(out.argmax(axis=axis), axis)
    positions = xp.arange(out.shape[axis]).reshape([-1] + [1] * (out.ndim - 1 - axis % out.ndim))
    return (positions == winner).astype(out.dtype)


def _gumbel_softmax_grad(g):
    # Paddle's rule: softmax_grad of the output, without the 1/temperature factor, and so 0 when hard
    if g.needs("X"):
        g.set_input_grad("X", g.op("softmax_grad", g.output("Out"), g.output_grad("Out"), axis=g.attrs["axis"]))


GUMBEL_SOFTMAX = register_op("gumbel_softmax", inputs=("X",), outputs=("Out",), forward=_gumbel_softmax,
                             infer=_gumbel_softmax_infer, grad=_gumbel_softmax_grad,
                             attrs={"temperature": 1.0, "hard": False, "axis": -1, "seed": 0}, double_grad=True)
