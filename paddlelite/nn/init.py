"""paddle.nn.init: PyTorch-spelled in-place initialisation of a tensor (`kaiming_uniform_(w, a=...)`), each one of
paddle.nn.initializer's classes applied to it, as Paddle's module does."""
from .. import tensor as _t
from ..framework.mode import in_dynamic_mode
from .initializer import (Constant, Dirac, KaimingNormal, KaimingUniform, Normal, Orthogonal, TruncatedNormal,
                          Uniform, XavierNormal, XavierUniform, calculate_gain)

__all__ = ["calculate_gain", "kaiming_uniform_", "kaiming_normal_", "xavier_uniform_", "xavier_normal_", "uniform_",
           "normal_", "trunc_normal_", "constant_", "ones_", "zeros_", "dirac_", "eye_", "orthogonal_"]


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    return KaimingUniform(negative_slope=a, nonlinearity=nonlinearity, mode=mode)(tensor)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    return KaimingNormal(negative_slope=a, nonlinearity=nonlinearity, mode=mode)(tensor)


def xavier_uniform_(tensor, gain=1.0, fan_in=None, fan_out=None):
    return XavierUniform(gain=gain, fan_in=fan_in, fan_out=fan_out)(tensor)


def xavier_normal_(tensor, gain=1.0, fan_in=None, fan_out=None):
    return XavierNormal(gain=gain, fan_in=fan_in, fan_out=fan_out)(tensor)


def uniform_(tensor, a=0.0, b=1.0):
    return Uniform(low=a, high=b)(tensor)


def normal_(tensor, mean=0.0, std=1.0):
    return Normal(mean=mean, std=std)(tensor)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0):
    return TruncatedNormal(mean=mean, std=std, a=a, b=b)(tensor)


def constant_(tensor, val):
    return Constant(value=val)(tensor)


def ones_(tensor):
    return Constant(value=1.0)(tensor)


def zeros_(tensor):
    return Constant(value=0.0)(tensor)


def dirac_(tensor, groups=1):
    return Dirac(groups=groups)(tensor)


def orthogonal_(tensor, gain=1):
    return Orthogonal(gain=gain)(tensor)


def eye_(tensor):
    """The 2-D `tensor` set to the identity (eager only, as in Paddle's legacy mode)."""
    if len(tensor.shape) != 2:
        raise AssertionError(f"Only support 2 dimensional tensor, but got {len(tensor.shape)}.")
    if not in_dynamic_mode():
        raise NotImplementedError("Only support run in dygraph mode or PIR mode.")
    _t.assign(_t.eye(tensor.shape[0], tensor.shape[1], dtype=tensor.dtype), tensor)
