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
from ...tensor.manipulation import inplace_apply
from ...tensor.math import _check_tensor, _unary, check_float_tensor, sigmoid, tanh

apply = dispatch.apply

__all__ = ["relu", "relu6", "leaky_relu", "elu", "selu", "gelu", "silu", "swish", "sigmoid", "tanh", "softplus",
           "hardswish", "hardsigmoid", "hardtanh", "mish", "softmax", "log_softmax", "softsign", "tanhshrink",
           "log_sigmoid", "relu_", "elu_", "leaky_relu_", "hardtanh_", "softmax_", "tanh_"]


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
    _check_tensor(x, "gelu")
    if not isinstance(approximate, (bool, np.bool_)):
        raise TypeError(f"gelu: approximate must be a bool, received {type(approximate).__name__}")
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


def _inplace_version(fn):
    """Paddle's F.<name>_: fn's result written into x's storage, x returned."""
    def inplace(x, *args, **kwargs):
        return inplace_apply(x, fn.__name__ + "_", lambda a: fn(a, *args, **kwargs))
    inplace.__name__ = fn.__name__ + "_"
    inplace.__doc__ = f"In-place {fn.__name__}: the result is written into x."
    return inplace


relu_, elu_, leaky_relu_, hardtanh_, softmax_, tanh_ = map(_inplace_version, (relu, elu, leaky_relu, hardtanh,
                                                                               softmax, tanh))
