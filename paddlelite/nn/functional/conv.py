"""Convolutions: conv2d / conv3d (ops 'conv2d', 'conv3d'), conv2d_transpose / conv3d_transpose, and the 1-D forms
(the 2-D ops on an added unit height)."""
import numbers

from ... import tensor as T
from ...ops import conv as _conv
from ...ops.conv import resolve_pads
from ...ops import dispatch
from ...ops import elementwise as _ew
from ...ops import manipulation as _mo
from ...ops.registry import get_op
from ...static.appender import layer_helper, output_name_guard, reserve_output, reserved_output_guard
from ...tensor.math import _check_tensor

__all__ = ["conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose", "conv3d_transpose"]

_FORMATS = {2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}  # channel-first, channel-last
_OPS = {2: (_conv.CONV2D, _conv.CONV2D_TRANSPOSE), 3: (_conv.CONV3D, _conv.CONV3D_TRANSPOSE)}

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


def _bias_add(out, bias, channel_axis, api, helper=None):
    """out + bias along the channel axis; the add is named by the conv's `helper` name (static mode), as
    Paddle's conv APIs name it (the reshape of the bias keeps its own name)."""
    _check_tensor(bias, api, "bias")
    if len(bias.shape) != 1:
        raise ValueError(f"{api}: bias must be 1-D [out_channels], received shape {bias.shape}")
    sum_var = reserve_output(helper, out.shape, out.dtype, out.stop_gradient and bias.stop_gradient)
    shape = [1] * len(out.shape)  # channel-last too: Paddle reshapes the bias to [1, ..., 1, C]
    shape[channel_axis] = bias.shape[0]
    bias = apply(_mo.RESHAPE, bias, shape=shape)
    with reserved_output_guard(sum_var):
        return apply(_ew.ADD, out, bias)


def _check_conv_args(x, weight, groups, data_format, api, weight_layout, nd):
    _check_tensor(x, api, "x")
    _check_tensor(weight, api, "weight")
    if data_format not in _FORMATS[nd]:
        raise ValueError(f"{api}: data_format must be '{_FORMATS[nd][0]}' or '{_FORMATS[nd][1]}', received "
                         f"{data_format!r}")
    if len(x.shape) != nd + 2:
        raise ValueError(f"{api}: x must be {nd + 2}-D ({data_format}), received shape {x.shape}")
    if len(weight.shape) != nd + 2:
        raise ValueError(f"{api}: weight must be {nd + 2}-D {weight_layout}, received shape {weight.shape}")
    if isinstance(groups, bool) or not isinstance(groups, numbers.Integral) or groups < 1:
        raise ValueError(f"{api}: groups must be a positive int, received {groups!r}")


def _channel_axis(data_format, nd):
    return nd + 1 if data_format == _FORMATS[nd][1] else 1


def _spatial(x, data_format, nd):
    return list(x.shape[1:-1] if data_format == _FORMATS[nd][1] else x.shape[2:])


def _conv(nd, api, x, weight, bias, stride, padding, dilation, groups, data_format):
    _check_conv_args(x, weight, groups, data_format, api, "[out_channels, in_channels/groups, *kernel]", nd)
    paddings, algo = padding_attrs(padding, nd, api, data_format == _FORMATS[nd][1])
    with layer_helper(api) as helper:
        out = apply(_OPS[nd][0], x, weight, strides=int_tuple(stride, nd, api, "stride"), paddings=paddings,
                    padding_algorithm=algo, dilations=int_tuple(dilation, nd, api, "dilation"), groups=int(groups),
                    data_format=data_format)
    if bias is not None:
        out = _bias_add(out, bias, _channel_axis(data_format, nd), api, helper)
    return out


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW", name=None):
    """2-D convolution; weight [out_channels, in_channels/groups, kh, kw]."""
    return _conv(2, "conv2d", x, weight, bias, stride, padding, dilation, groups, data_format)


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCDHW", name=None):
    """3-D convolution; weight [out_channels, in_channels/groups, kd, kh, kw]."""
    return _conv(3, "conv3d", x, weight, bias, stride, padding, dilation, groups, data_format)


def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCL", name=None):
    """1-D convolution, as Paddle composes it: a copy of weight [out_channels, in_channels/groups, k] and x
    unsqueezed to a unit height, conv2d, the bias added along the channel axis (an elementwise_add with axis,
    named by its LayerHelper), the height squeezed out."""
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
    if bias is not None:
        _check_tensor(bias, "conv1d", "bias")
        if len(bias.shape) != 1:
            raise ValueError(f"conv1d: bias must be 1-D [out_channels], received shape {bias.shape}")
    height = -2 if data_format == "NCL" else -3
    w4 = T.unsqueeze(T.assign(weight), [-2])
    out = conv2d(T.unsqueeze(x, [height]), w4, stride=[1, int_tuple(stride, 1, "conv1d", "stride")[0]],
                 padding=pad2, dilation=[1, int_tuple(dilation, 1, "conv1d", "dilation")[0]], groups=groups,
                 data_format="NCHW" if data_format == "NCL" else "NHWC")
    if bias is not None:
        with layer_helper("elementwise_add") as helper, output_name_guard(helper):
            out = apply(_ew.ADD, out, bias, axis=1 if data_format == "NCL" else -1)
    return T.squeeze(out, [height])


def _transpose_extra(output_padding, output_size, x, weight, strides, pads, dilations, data_format, api, nd):
    """output_padding as a list of nd ints, or derived from output_size (Paddle's two ways to pick among the
    input sizes one transposed convolution can produce)."""
    if output_size is None:
        return int_list(output_padding, nd, api, "output_padding", minimum=0)
    if output_padding not in (0, [0] * nd, (0,) * nd):
        raise ValueError(f"{api}: output_padding option is mutually exclusive with output_size")
    size = int_list(output_size, nd, api, "output_size", minimum=1)
    extra = []
    for want, n, s, (p0, p1), d, k in zip(size, _spatial(x, data_format, nd), strides, pads, dilations,
                                          weight.shape[2:]):
        smallest = (n - 1) * s - p0 - p1 + d * (k - 1) + 1
        if not smallest <= want < smallest + s:
            raise ValueError(f"{api}: output_size {size} is not reachable: each entry must be in "
                             f"[{smallest}, {smallest + s}) for this input, stride and padding")
        extra.append(want - smallest)
    return extra


def int_list(value, n, api, arg, minimum):
    """An int or n ints (each >= minimum) -> list of n ints."""
    values = [value] * n if isinstance(value, numbers.Integral) and not isinstance(value, bool) else value
    if not isinstance(values, (list, tuple)) or len(values) != n or not all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) and v >= minimum for v in values):
        raise ValueError(f"{api}: {arg} must be an int or a list of {n} ints >= {minimum}, received {value!r}")
    return [int(v) for v in values]


def _conv_transpose(nd, api, x, weight, bias, stride, padding, output_padding, dilation, groups, output_size,
                    data_format):
    _check_conv_args(x, weight, groups, data_format, api, "[in_channels, out_channels/groups, *kernel]", nd)
    strides = int_tuple(stride, nd, api, "stride")
    dilations = int_tuple(dilation, nd, api, "dilation")
    paddings, algo = padding_attrs(padding, nd, api, data_format == _FORMATS[nd][1])
    if algo == "SAME":  # resolved here from the input size: the gradient convolutions need explicit pads
        sizes = _spatial(x, data_format, nd)
        if -1 in sizes:
            raise ValueError(f"{api}: padding='SAME' needs the input's spatial size, received shape {x.shape}")
        pads, dilations = resolve_pads(api, paddings, algo, sizes, weight.shape[2:], strides, dilations)
        paddings, algo = [v for pair in pads for v in pair], "EXPLICIT"
    pads = resolve_pads(api, paddings, algo, None, None, strides, dilations)[0] if algo != "VALID" else [(0, 0)] * nd
    extra = _transpose_extra(output_padding, output_size, x, weight, strides, pads, dilations, data_format, api, nd)
    with layer_helper(api) as helper:
        out = apply(_OPS[nd][1], x, weight, strides=strides, paddings=paddings, padding_algorithm=algo,
                    dilations=dilations, groups=int(groups), data_format=data_format, output_padding=extra)
    if bias is not None:
        out = _bias_add(out, bias, _channel_axis(data_format, nd), api, helper)
    return out


def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, dilation=1, groups=1,
                     output_size=None, data_format="NCHW", name=None):
    """The transposed 2-D convolution (conv2d's adjoint in its input); weight [in_channels,
    out_channels/groups, kh, kw]."""
    return _conv_transpose(2, "conv2d_transpose", x, weight, bias, stride, padding, output_padding, dilation, groups,
                           output_size, data_format)


def conv3d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                     output_size=None, data_format="NCDHW", name=None):
    """The transposed 3-D convolution (conv3d's adjoint in its input); weight [in_channels,
    out_channels/groups, kd, kh, kw]."""
    return _conv_transpose(3, "conv3d_transpose", x, weight, bias, stride, padding, output_padding, dilation, groups,
                           output_size, data_format)


def conv1d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                     output_size=None, data_format="NCL", name=None):
    """The transposed 1-D convolution (conv2d_transpose on a unit height); weight [in_channels,
    out_channels/groups, k]."""
    api = "conv1d_transpose"
    _check_tensor(x, api, "x")
    _check_tensor(weight, api, "weight")
    if data_format not in ("NCL", "NLC"):
        raise ValueError(f"{api}: data_format must be 'NCL' or 'NLC', received {data_format!r}")
    if len(x.shape) != 3 or len(weight.shape) != 3:
        raise ValueError(f"{api}: x and weight must be 3-D, received shapes {x.shape} and {weight.shape}")
    if isinstance(padding, str):
        pad2 = padding
    else:
        pad2 = [0, 0] + padding_attrs(padding, 1, api, data_format == "NLC")[0]
    height = 2 if data_format == "NCL" else 1
    unsq = get_op("unsqueeze")
    out = conv2d_transpose(apply(unsq, x, axis=[height]), apply(unsq, weight, axis=[2]),
                           stride=[1, int_tuple(stride, 1, api, "stride")[0]], padding=pad2,
                           output_padding=[0, int_list(output_padding, 1, api, "output_padding", 0)[0]],
                           dilation=[1, int_tuple(dilation, 1, api, "dilation")[0]], groups=groups,
                           output_size=None if output_size is None else
                           [1, int_list(output_size, 1, api, "output_size", 1)[0]],
                           data_format="NCHW" if data_format == "NCL" else "NHWC")
    out = apply(get_op("squeeze"), out, axis=[height])
    if bias is not None:
        out = _bias_add(out, bias, 1 if data_format == "NCL" else 2, api)
    return out
