"""Activation functions (paddle.nn.functional.*): argument checks, then one registered op each.

F.sigmoid and F.tanh are paddle.sigmoid / paddle.tanh (the same ops). A few of Paddle's activations
that are plain compositions (hardtanh, selu, softsign, tanhshrink, log_sigmoid) apply those ops in turn.
"""
import numbers

import numpy as np

from ...framework import dtype as _dtype
from ...ops import activation as _act
from ...ops import dispatch
from ...ops import elementwise as _ew
from ...ops import manipulation as _mo
from ...ops import math as _m
from ...ops import nn as _nn
from ... import tensor as T
from ...static.appender import layer_helper
from ...tensor.manipulation import inplace_apply
from ...tensor.math import _check_tensor, _unary, check_float_tensor, sigmoid, tanh

apply = dispatch.apply

__all__ = ["gumbel_softmax", "relu", "relu6", "leaky_relu", "elu", "selu", "gelu", "silu", "swish", "sigmoid", "tanh", "softplus",
           "hardswish", "hardsigmoid", "hardtanh", "mish", "softmax", "log_softmax", "softsign", "tanhshrink",
           "log_sigmoid", "logsigmoid", "celu", "hardshrink", "softshrink", "thresholded_relu", "glu", "swiglu",
           "maxout", "prelu", "rrelu", "relu_", "elu_", "leaky_relu_", "hardtanh_", "softmax_", "tanh_", "thresholded_relu_"]


def _float(value, api, arg):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        raise TypeError(f"{api}: {arg} must be a number, received {type(value).__name__}")
    return float(value)


def _axis(x, axis, api):
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, (bool, np.bool_)):
        raise TypeError(f"{api}: axis must be an int, received {type(axis).__name__}")
    bound = max(len(x.shape), 1)
    if not -bound <= axis < bound:
        raise ValueError(f"{api}: axis {axis} is out of range for a {len(x.shape)}-D tensor "
                         f"(expected -{bound} <= axis < {bound})")
    return int(axis)


relu = _unary(_act.RELU, "relu", "max(x, 0)")
relu6 = _unary(_act.RELU6, "relu6", "min(max(x, 0), 6)")


def leaky_relu(x, negative_slope=0.01, name=None):
    _check_tensor(x, "leaky_relu")
    return apply(_act.LEAKY_RELU, x, alpha=_float(negative_slope, "leaky_relu", "negative_slope"))


def elu(x, alpha=1.0, name=None):
    _check_tensor(x, "elu")
    return apply(_act.ELU, x, alpha=_float(alpha, "elu", "alpha"))


def selu(x, scale=1.0507009873554804934193349852946, alpha=1.6732632423543772848170429916717, name=None):
    _check_tensor(x, "selu")
    scale, alpha = _float(scale, "selu", "scale"), _float(alpha, "selu", "alpha")
    if scale <= 1.0:
        raise ValueError(f"selu: scale must be greater than 1.0, received {scale}")
    if alpha < 0:
        raise ValueError(f"selu: alpha must be no less than zero, received {alpha}")
    return apply(_m.SCALE, apply(_act.ELU, x, alpha=alpha), scale=scale)


def gelu(x, approximate=False, name=None):
    """approximate: True or 'tanh' (the tanh approximation), False or 'none' (the exact erf form)."""
    _check_tensor(x, "gelu")
    if isinstance(approximate, str):
        if approximate not in ("tanh", "none"):
            raise ValueError(f"gelu: approximate should be 'tanh' or 'none', received '{approximate}'")
        approximate = approximate == "tanh"
    elif not isinstance(approximate, (bool, np.bool_)):
        raise TypeError(f"gelu: approximate must be a bool, 'tanh' or 'none', received {type(approximate).__name__}")
    return apply(_act.GELU, x, approximate=bool(approximate))


def silu(x, inplace=False, name=None):
    """x * sigmoid(x); with inplace=True the result is written into x's storage and x returned."""
    _check_tensor(x, "silu")
    if inplace:
        return inplace_apply(x, "silu", lambda a: apply(_act.SILU, a))
    return apply(_act.SILU, x)


swish = _unary(_act.SILU, "swish", "x * sigmoid(x) (the same op as silu)")


def softplus(x, beta=1, threshold=20, name=None):
    _check_tensor(x, "softplus")
    beta = _float(beta, "softplus", "beta")
    if beta == 0:
        raise ValueError("softplus: beta must be non-zero")
    return apply(_act.SOFTPLUS, x, beta=beta, threshold=_float(threshold, "softplus", "threshold"))


def hardsigmoid(x, slope=0.1666667, offset=0.5, name=None):
    _check_tensor(x, "hardsigmoid")
    return apply(_act.HARDSIGMOID, x, slope=_float(slope, "hardsigmoid", "slope"),
                 offset=_float(offset, "hardsigmoid", "offset"))


hardswish = _unary(_act.HARDSWISH, "hardswish", "x * relu6(x + 3) / 6")


def hardtanh(x, min=-1.0, max=1.0, name=None):
    _check_tensor(x, "hardtanh")
    lo, hi = _float(min, "hardtanh", "min"), _float(max, "hardtanh", "max")
    if lo > hi:
        raise ValueError(f"hardtanh: min ({lo}) must not exceed max ({hi})")
    check_float_tensor(x, "hardtanh")
    return apply(_m.CLIP, x, min=lo, max=hi)


mish = _unary(_act.MISH, "mish", "x * tanh(softplus(x))")


def _softmax_like(op, api, x, axis, dtype):
    _check_tensor(x, api)
    axis = _axis(x, axis, api)
    if dtype is not None:
        x = apply(_mo.CAST, x, dtype=_dtype.convert_dtype(dtype).name)
    return apply(op, x, axis=axis)


def softmax(x, axis=-1, dtype=None, name=None):
    return _softmax_like(_act.SOFTMAX, "softmax", x, axis, dtype)


def log_softmax(x, axis=-1, dtype=None, name=None):
    return _softmax_like(_act.LOG_SOFTMAX, "log_softmax", x, axis, dtype)


def gumbel_softmax(x, temperature=1.0, hard=False, axis=-1, name=None):
    """softmax((x + g) / temperature) with g Gumbel(0, 1) noise; hard=True returns the one-hot of its argmax.
    As in Paddle, the gradient is softmax's at the output without the 1 / temperature factor (so 0 when hard)."""
    check_float_tensor(x, "gumbel_softmax")
    return apply(_act.GUMBEL_SOFTMAX, x, temperature=float(temperature), hard=bool(hard),
                 axis=_axis(x, axis, "gumbel_softmax"))


def softsign(x, name=None):
    """x / (1 + |x|)."""
    check_float_tensor(x, "softsign")
    return apply(_ew.DIVIDE, x, apply(_m.SCALE, apply(_m.ABS, x), bias=1.0))


def tanhshrink(x, name=None):
    """x - tanh(x)."""
    _check_tensor(x, "tanhshrink")
    return apply(_ew.SUBTRACT, x, apply(_act.TANH, x))


def log_sigmoid(x, name=None):
    """log(sigmoid(x)) = -softplus(-x), without overflow."""
    _check_tensor(x, "log_sigmoid")
    return apply(_m.SCALE, apply(_act.SOFTPLUS, apply(_m.SCALE, x, scale=-1.0)), scale=-1.0)


logsigmoid = log_sigmoid


def celu(x, alpha=1.0, name=None):
    """max(0, x) + min(0, alpha (exp(x / alpha) - 1)): Paddle's one celu op (its static programs show it)."""
    _check_tensor(x, "celu")
    alpha = _float(alpha, "celu", "alpha")
    if alpha == 0:
        raise ZeroDivisionError("celu: alpha cannot be 0")
    return apply(_act.CELU, x, alpha=alpha)


def _threshold(value, api):
    value = _float(value, api, "threshold")
    if value < 0:
        raise ValueError(f"{api}: threshold must be no less than zero, received {value}")
    return value


def hardshrink(x, threshold=0.5, name=None):
    """x where |x| >= threshold, else 0."""
    check_float_tensor(x, "hardshrink")
    threshold = _float(threshold, "hardshrink", "threshold")
    # Paddle's x * mask: keeps the threshold itself, NaN stays NaN (with gradient 0), -0.0 stays -0.0
    return apply(_ew.MULTIPLY, x, T.cast(T.abs(x) >= threshold, x.dtype))


def softshrink(x, threshold=0.5, name=None):
    """x - clip(x, -threshold, threshold): shrinks towards 0 by threshold, 0 inside [-threshold, threshold]."""
    check_float_tensor(x, "softshrink")
    threshold = _threshold(threshold, "softshrink")
    return apply(_ew.SUBTRACT, x, apply(_m.CLIP, x, min=-threshold, max=threshold))


def thresholded_relu(x, threshold=1.0, value=0.0, name=None):
    """x where x > threshold, else value."""
    check_float_tensor(x, "thresholded_relu")
    threshold = _float(threshold, "thresholded_relu", "threshold")
    value = _float(value, "thresholded_relu", "value")
    return T.where(x > threshold, x, T.full_like(x, value))


def glu(x, axis=-1, name=None):
    """a * sigmoid(b), with a, b the two halves of x along axis."""
    check_float_tensor(x, "glu")
    if not x.shape:
        raise ValueError("glu: x must be at least 1-D (it is split in halves along axis), received a 0-D tensor")
    axis = _axis(x, axis, "glu")
    if x.shape[axis] % 2:
        raise ValueError(f"glu: the size of x along axis {axis} must be even, received shape {x.shape}")
    a, b = T.split(x, 2, axis=axis)
    return apply(_ew.MULTIPLY, a, sigmoid(b))


def swiglu(x, y=None, name=None):
    """silu(x) * y; without y, x's last axis is split into halves (x, y). One swiglu op: one launch on a GPU."""
    check_float_tensor(x, "swiglu")
    if y is None:
        if not x.shape:
            raise ValueError("swiglu: with y=None x must be at least 1-D (its last dim is split in halves), "
                             "received a 0-D tensor")
        if x.shape[-1] % 2:
            raise ValueError(f"swiglu: with y=None the last dim of x must be even, received shape {x.shape}")
    else:
        check_float_tensor(y, "swiglu", "y")
        if y.shape != x.shape:
            raise ValueError(f"swiglu: y must have x's shape {x.shape}, received {y.shape}")
    return apply(_act.SWIGLU, x, y)


def maxout(x, groups, axis=1, name=None):
    """Max over each run of `groups` consecutive channels: [N, C, ...] -> [N, C / groups, ...]."""
    check_float_tensor(x, "maxout")
    if isinstance(groups, bool) or not isinstance(groups, numbers.Integral) or groups <= 0:
        raise ValueError(f"maxout: groups must be a positive int, received {groups!r}")
    nd = len(x.shape)
    if axis not in (1, -1, 3) or (axis == 3 and nd != 4) or nd != 4:
        raise ValueError(f"maxout: axis must be 1, -1 or 3 on a 4-D input, received axis={axis!r} for shape "
                         f"{x.shape}")
    axis %= nd
    channels = x.shape[axis]
    if channels % groups:
        raise ValueError(f"maxout: the number of channels ({channels}) must be divisible by groups ({groups})")
    shape = list(x.shape[:axis]) + [channels // groups, groups] + list(x.shape[axis + 1:])
    return T.max(T.reshape(x, [-1 if d is None or d < 0 else d for d in shape]), axis=axis + 1)


def prelu(x, weight, data_format="NCHW", name=None):
    """max(0, x) + weight * min(0, x); weight has 1 value or one per channel."""
    check_float_tensor(x, "prelu")
    check_float_tensor(weight, "prelu", "weight")
    if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError(f"prelu: data_format must be one of NC, NCL, NCHW, NCDHW, NLC, NHWC, NDHWC, received "
                         f"{data_format!r}")
    if len(weight.shape) != 1:
        raise ValueError(f"prelu: weight must be 1-D, received shape {weight.shape}")
    count = weight.shape[0]
    mode = "all"
    if count != 1:  # Paddle's channel mode records the layout as NCHW or NHWC
        if len(x.shape) < 2:
            raise ValueError(f"prelu: x must be at least 2-D for a per-channel weight, received shape {x.shape}")
        data_format = "NCHW" if data_format[1] == "C" else "NHWC"
        channel = 1 if data_format == "NCHW" else len(x.shape) - 1
        if x.shape[channel] != count:
            raise ValueError(f"prelu: weight has {count} values but x has {x.shape[channel]} channels")
        mode = "channel"
    with layer_helper("prelu"):
        return apply(_nn.PRELU, x, weight, mode=mode, data_format=data_format)


def rrelu(x, lower=1.0 / 8.0, upper=1.0 / 3.0, training=True, name=None):
    """Leaky relu whose negative slope is drawn uniformly from [lower, upper] per element in training and is
    (lower + upper) / 2 at inference."""
    check_float_tensor(x, "rrelu")
    lower, upper = _float(lower, "rrelu", "lower"), _float(upper, "rrelu", "upper")
    if not 0 <= lower <= 1 or not 0 <= upper <= 1 or lower > upper:
        raise ValueError(f"rrelu: need 0 <= lower <= upper <= 1, received lower={lower}, upper={upper}")
    if not training:
        return apply(_act.LEAKY_RELU, x, alpha=(lower + upper) / 2.0)
    slope = T.uniform(T.shape(x) if -1 in list(x.shape) else x.shape, dtype=x.dtype, min=lower, max=upper)
    return T.where(x >= 0, x, apply(_ew.MULTIPLY, slope, x))


def _inplace_version(fn):
    """Paddle's F.<name>_: fn's result written into x's storage, x returned."""
    def inplace(x, *args, **kwargs):
        return inplace_apply(x, fn.__name__ + "_", lambda a: fn(a, *args, **kwargs))
    inplace.__name__ = fn.__name__ + "_"
    inplace.__doc__ = f"In-place {fn.__name__}: the result is written into x."
    return inplace


relu_, elu_, leaky_relu_, hardtanh_, softmax_, tanh_, thresholded_relu_ = map(
    _inplace_version, (relu, elu, leaky_relu, hardtanh, softmax, tanh, thresholded_relu))
