"""Convolutions: conv2d (op 'conv2d'), conv1d (conv2d on an added unit height)."""
import numbers

from ...ops import conv as _conv
from ...ops import dispatch
from ...ops import elementwise as _ew
from ...ops import manipulation as _mo
from ...ops.registry import get_op
from ...tensor.math import _check_tensor

__all__ = ["conv1d", "conv2d"]

apply = dispatch.apply


def int_tuple(value, n, api, arg):
    """An int or n ints -> list of n ints (>= 1)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        out = [int(value)] * n
    elif isinstance(value, (list, tuple)) and len(value) == n and all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in value):
        out = [int(v) for v in value]
    else:
        raise ValueError(f"{api}: {arg} must be an int or a list of {n} ints, received {value!r}")
    if min(out) < 1:
        raise ValueError(f"{api}: {arg} must be >= 1, received {value!r}")
    return out


def padding_attrs(padding, n, api, channel_last):
    """Paddle's padding argument -> (paddings attr [2n entries: before/after per spatial dim], algorithm)."""
    if isinstance(padding, str):
        algo = padding.upper()
        if algo not in ("SAME", "VALID"):
            raise ValueError(f"{api}: padding must be 'SAME', 'VALID', an int or a list, received {padding!r}")
        return [0] * (2 * n), algo
    if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
        p = [int(padding)] * (2 * n)
    elif isinstance(padding, (list, tuple)):
        if all(isinstance(v, (list, tuple)) for v in padding) and len(padding) == n + 2:
            # [[0,0],[0,0],[pt,pb],[pl,pr]] (or channel-last): the batch/channel pairs must be zero
            spatial = padding[1:-1] if channel_last else padding[2:]
            others = [padding[0], padding[-1]] if channel_last else padding[:2]
            if any(list(o) != [0, 0] for o in others):
                raise ValueError(f"{api}: padding on the batch and channel dims must be 0, received {padding!r}")
            p = [int(v) for pair in spatial for v in pair]
        elif len(padding) == n and all(isinstance(v, numbers.Integral) for v in padding):
            p = [int(v) for v in padding for _ in range(2)]
        elif len(padding) == 2 * n and all(isinstance(v, numbers.Integral) for v in padding):
            p = [int(v) for v in padding]
        else:
            raise ValueError(f"{api}: padding must be an int, {n} ints, {2 * n} ints, or {n + 2} pairs, "
                             f"received {padding!r}")
    else:
        raise ValueError(f"{api}: padding must be 'SAME', 'VALID', an int or a list, received {padding!r}")
    if min(p) < 0:
        raise ValueError(f"{api}: padding must be non-negative, received {padding!r}")
    return p, "EXPLICIT"


def _bias_add(out, bias, channel_axis, api):
    _check_tensor(bias, api, "bias")
    if len(bias.shape) != 1:
        raise ValueError(f"{api}: bias must be 1-D [out_channels], received shape {bias.shape}")
    if channel_axis == len(out.shape) - 1:
        return apply(_ew.ADD, out, bias)
    shape = [1] * len(out.shape)
    shape[channel_axis] = -1
    return apply(_ew.ADD, out, apply(_mo.RESHAPE, bias, shape=shape))


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW", name=None):
    """2-D convolution; weight [out_channels, in_channels/groups, kh, kw]."""
    _check_tensor(x, "conv2d", "x")
    _check_tensor(weight, "conv2d", "weight")
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"conv2d: data_format must be 'NCHW' or 'NHWC', received {data_format!r}")
    if len(x.shape) != 4:
        raise ValueError(f"conv2d: x must be 4-D ({data_format}), received shape {x.shape}")
    if len(weight.shape) != 4:
        raise ValueError(f"conv2d: weight must be 4-D [out_channels, in_channels/groups, kh, kw], "
                         f"received shape {weight.shape}")
    if isinstance(groups, bool) or not isinstance(groups, numbers.Integral) or groups < 1:
        raise ValueError(f"conv2d: groups must be a positive int, received {groups!r}")
    paddings, algo = padding_attrs(padding, 2, "conv2d", data_format == "NHWC")
    out = apply(_conv.CONV2D, x, weight, strides=int_tuple(stride, 2, "conv2d", "stride"), paddings=paddings,
                padding_algorithm=algo, dilations=int_tuple(dilation, 2, "conv2d", "dilation"), groups=int(groups),
                data_format=data_format)
    if bias is not None:
        out = _bias_add(out, bias, 3 if data_format == "NHWC" else 1, "conv2d")
    return out


def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCL", name=None):
    """1-D convolution (as conv2d over a unit height); weight [out_channels, in_channels/groups, k]."""
    _check_tensor(x, "conv1d", "x")
    _check_tensor(weight, "conv1d", "weight")
    if data_format not in ("NCL", "NLC"):
        raise ValueError(f"conv1d: data_format must be 'NCL' or 'NLC', received {data_format!r}")
    if len(x.shape) != 3 or len(weight.shape) != 3:
        raise ValueError(f"conv1d: x and weight must be 3-D, received shapes {x.shape} and {weight.shape}")
    if isinstance(padding, str):
        pad2 = padding
    else:
        p, _ = padding_attrs(padding, 1, "conv1d", data_format == "NLC")
        pad2 = [0, 0] + p
    unsq = get_op("unsqueeze")
    x4 = apply(unsq, x, axis=[2 if data_format == "NCL" else 1])
    w4 = apply(unsq, weight, axis=[2])
    out = conv2d(x4, w4, stride=[1, int_tuple(stride, 1, "conv1d", "stride")[0]], padding=pad2,
                 dilation=[1, int_tuple(dilation, 1, "conv1d", "dilation")[0]], groups=groups,
                 data_format="NCHW" if data_format == "NCL" else "NHWC")
    out = apply(get_op("squeeze"), out, axis=[2 if data_format == "NCL" else 1])
    if bias is not None:
        out = _bias_add(out, bias, 1 if data_format == "NCL" else 2, "conv1d")
    return out
