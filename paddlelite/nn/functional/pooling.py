"""Pooling: max/avg and adaptive avg/max (3-D through the 'pool3d' op; 2-D and 1-D through 'pool2d'); lp pools;
max pooling's return_mask and max_unpool (1-D, 2-D, 3-D)."""
import numbers

import numpy as np

from ... import tensor as T
from ...ops import dispatch
from ...ops import math as _math
from ...ops import pooling as _pool
from ...ops.registry import get_op
from ...static.appender import layer_helper, reserve_output
from ...tensor.math import _check_tensor, check_float_tensor
from ...ops.conv import resolve_pads
from .conv import int_tuple, padding_attrs

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "adaptive_avg_pool1d",
           "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d",
           "adaptive_max_pool3d", "lp_pool1d", "lp_pool2d", "max_unpool1d", "max_unpool2d", "max_unpool3d",
           "fractional_max_pool2d", "fractional_max_pool3d"]

_FORMATS = {2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}  # channel-first, channel-last

apply = dispatch.apply
_WITH_INDEX = {2: _pool.MAX_POOL2D_WITH_INDEX, 3: _pool.MAX_POOL3D_WITH_INDEX}


def _check_x(x, api, nd, data_format, formats, dtypes=None):
    """x: a Tensor of `nd` dims in one of `formats`, floating-point (or of one of `dtypes`' names)."""
    _check_tensor(x, api)
    if data_format not in formats:
        raise ValueError(f"{api}: data_format must be one of {list(formats)}, received {data_format!r}")
    if len(x.shape) != nd:
        raise ValueError(f"{api}: x must be {nd}-D ({data_format}), received shape {x.shape}")
    if dtypes is None:
        check_float_tensor(x, api)
    elif x.dtype.name not in dtypes:  # RuntimeError, as Paddle's (no kernel registered for that dtype)
        raise RuntimeError(f"{api}: x must be a Tensor of dtype {', '.join(dtypes)}, received {x.dtype.name}")


def _pool_padding(padding, nd, api, channel_last, ceil_mode):
    paddings, algo = padding_attrs(padding, nd, api, channel_last)
    if algo == "VALID" and ceil_mode:  # Paddle's message
        raise ValueError(f'When Attr(padding) is "VALID", Attr(ceil_mode) must be False. Received ceil_mode: '
                         f'{ceil_mode}.')
    return paddings, algo


def _pool_nd(x, nd, pooling_type, kernel_size, stride, padding, ceil_mode, exclusive, data_format, api):
    ksize = int_tuple(kernel_size, nd, api, "kernel_size")
    strides = ksize if stride is None else int_tuple(stride, nd, api, "stride")
    paddings, algo = _pool_padding(padding, nd, api, data_format == _FORMATS[nd][1], ceil_mode)
    return apply(_pool.POOL2D if nd == 2 else _pool.POOL3D, x, pooling_type=pooling_type, ksize=ksize,
                 strides=strides, paddings=paddings, padding_algorithm=algo, ceil_mode=bool(ceil_mode),
                 exclusive=bool(exclusive), data_format=data_format)


def _max_pool(x, nd, kernel_size, stride, padding, return_mask, ceil_mode, data_format, api):
    _check_x(x, api, nd + 2, data_format, _FORMATS[nd])
    if return_mask:
        return _max_pool_with_mask(x, nd, kernel_size, stride, padding, ceil_mode, data_format, api)
    return _pool_nd(x, nd, "max", kernel_size, stride, padding, ceil_mode, True, data_format, api)


def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format="NCHW",
               name=None):
    return _max_pool(x, 2, kernel_size, stride, padding, return_mask, ceil_mode, data_format, "max_pool2d")


def max_pool3d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format="NCDHW",
               name=None):
    return _max_pool(x, 3, kernel_size, stride, padding, return_mask, ceil_mode, data_format, "max_pool3d")


def _avg_pool(x, nd, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format, api):
    _check_x(x, api, nd + 2, data_format, _FORMATS[nd])
    if divisor_override is None:
        return _pool_nd(x, nd, "avg", kernel_size, stride, padding, ceil_mode, exclusive, data_format, api)
    if isinstance(divisor_override, bool) or not isinstance(divisor_override, numbers.Real) or divisor_override <= 0:
        raise ValueError(f"{api}: divisor_override must be a positive number, received {divisor_override!r}")
    # window sums divided by the given divisor: the inclusive average times prod(kernel) / divisor
    ksize = int_tuple(kernel_size, nd, api, "kernel_size")
    out = _pool_nd(x, nd, "avg", ksize, stride, padding, ceil_mode, False, data_format, api)
    return apply(_math.SCALE, out, scale=float(np.prod(ksize)) / float(divisor_override))


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None,
               data_format="NCHW", name=None):
    return _avg_pool(x, 2, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format,
                     "avg_pool2d")


def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None,
               data_format="NCDHW", name=None):
    return _avg_pool(x, 3, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format,
                     "avg_pool3d")


def _to_2d(x, data_format, api):
    """[N, C, L] / [N, L, C] -> a 4-D tensor with a unit height, and its 2-D data_format."""
    _check_x(x, api, 3, data_format, ("NCL", "NLC"))
    return apply(get_op("unsqueeze"), x, axis=[2 if data_format == "NCL" else 1]), \
        "NCHW" if data_format == "NCL" else "NHWC"


def _from_2d(out, data_format):
    return apply(get_op("squeeze"), out, axis=[2 if data_format == "NCL" else 1])


def _pad1d(padding, api):
    if isinstance(padding, str):
        return padding
    p, _ = padding_attrs(padding, 1, api, False)
    return [0, 0] + p


def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format="NCL",
               name=None):
    x4, fmt = _to_2d(x, data_format, "max_pool1d")
    k = int_tuple(kernel_size, 1, "max_pool1d", "kernel_size")[0]
    s = k if stride is None else int_tuple(stride, 1, "max_pool1d", "stride")[0]
    if return_mask:  # on the unit-height plane the flat index is the position along L
        out, mask = _max_pool_with_mask(x4, 2, [1, k], [1, s], _pad1d(padding, "max_pool1d"), ceil_mode, fmt,
                                        "max_pool1d")
        return _from_2d(out, data_format), _from_2d(mask, data_format)
    with layer_helper("pool2d") as helper:
        out = _pool_nd(x4, 2, "max", [1, k], [1, s], _pad1d(padding, "max_pool1d"), ceil_mode, True, fmt,
                       "max_pool1d")
        reserve_output(helper, (), "int32", False)  # the Mask variable Paddle's max_pool1d makes and never uses
    return _from_2d(out, data_format)


def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False, data_format="NCL",
               name=None):
    x4, fmt = _to_2d(x, data_format, "avg_pool1d")
    k = int_tuple(kernel_size, 1, "avg_pool1d", "kernel_size")[0]
    s = k if stride is None else int_tuple(stride, 1, "avg_pool1d", "stride")[0]
    out = _pool_nd(x4, 2, "avg", [1, k], [1, s], _pad1d(padding, "avg_pool1d"), ceil_mode, exclusive, fmt, "avg_pool1d")
    return _from_2d(out, data_format)


def _output_size(output_size, in_hw, api):
    sizes = list(output_size) if isinstance(output_size, (list, tuple)) else [output_size] * len(in_hw)
    if len(sizes) != len(in_hw):
        raise ValueError(f"{api}: output_size must be an int or {len(in_hw)} ints, received {output_size!r}")
    out = []
    for s, n in zip(sizes, in_hw):
        if s is None:
            s = n
        if isinstance(s, bool) or not isinstance(s, numbers.Integral) or s < 1:
            raise ValueError(f"{api}: output_size entries must be positive ints (or None), received {output_size!r}")
        out.append(int(s))
    return out


def _adaptive(x, nd, pooling_type, output_size, data_format, api):
    _check_x(x, api, nd + 2, data_format, _FORMATS[nd])
    sizes = x.shape[2:] if data_format == _FORMATS[nd][0] else x.shape[1:-1]
    return apply(_pool.POOL2D if nd == 2 else _pool.POOL3D, x, pooling_type=pooling_type,
                 ksize=_output_size(output_size, sizes, api), adaptive=True, data_format=data_format)


def adaptive_avg_pool2d(x, output_size, data_format="NCHW", name=None):
    return _adaptive(x, 2, "avg", output_size, data_format, "adaptive_avg_pool2d")


def adaptive_avg_pool3d(x, output_size, data_format="NCDHW", name=None):
    return _adaptive(x, 3, "avg", output_size, data_format, "adaptive_avg_pool3d")


def _adaptive_max(x, nd, output_size, return_mask, api):
    """Adaptive max pooling by Paddle's max_pool{2,3}d_with_index op (Out and the int32 flat index of each max):
    output o along a dim of size s covers [floor(o * s / out), ceil((o + 1) * s / out))."""
    _check_x(x, api, nd + 2, _FORMATS[nd][0], _FORMATS[nd])
    out, mask = apply(_WITH_INDEX[nd], x, ksize=_output_size(output_size, list(x.shape[2:]), api), adaptive=True)
    return (out, mask) if return_mask else out


def adaptive_max_pool2d(x, output_size, return_mask=False, name=None):
    return _adaptive_max(x, 2, output_size, return_mask, "adaptive_max_pool2d")


def adaptive_max_pool3d(x, output_size, return_mask=False, name=None):
    return _adaptive_max(x, 3, output_size, return_mask, "adaptive_max_pool3d")


def _adaptive1d(x, pooling_type, output_size, api):
    x4, _ = _to_2d(x, "NCL", api)
    size = _output_size(output_size, [x.shape[2]], api)[0]
    out = apply(_pool.POOL2D, x4, pooling_type=pooling_type, ksize=[1, size], adaptive=True)
    return _from_2d(out, "NCL")


def adaptive_avg_pool1d(x, output_size, name=None):
    return _adaptive1d(x, "avg", output_size, "adaptive_avg_pool1d")


def adaptive_max_pool1d(x, output_size, return_mask=False, name=None):
    """On the unit-height plane the flat index of the mask is the position along L."""
    x4, _ = _to_2d(x, "NCL", "adaptive_max_pool1d")
    size = _output_size(output_size, [x.shape[2]], "adaptive_max_pool1d")[0]
    out, mask = _adaptive_max(x4, 2, [1, size], True, "adaptive_max_pool1d")
    return (_from_2d(out, "NCL"), _from_2d(mask, "NCL")) if return_mask else _from_2d(out, "NCL")


def _norm_type(norm_type, api):
    if isinstance(norm_type, bool) or not isinstance(norm_type, numbers.Real) or norm_type == 0:
        raise ValueError(f"{api}: norm_type must be a non-zero number, received {norm_type!r}")
    return float(norm_type)


def lp_pool2d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False, data_format="NCHW", name=None):
    """(sum over each window of x ** norm_type) ** (1 / norm_type): window sums of x^p by the pooling op."""
    p = _norm_type(norm_type, "lp_pool2d")
    ksize = int_tuple(kernel_size, 2, "lp_pool2d", "kernel_size")
    sums = avg_pool2d(apply(_math.POW, x, factor=p), ksize, ksize if stride is None else stride, padding, ceil_mode,
                      divisor_override=1, data_format=data_format)
    return apply(_math.POW, sums, factor=1.0 / p)


def lp_pool1d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False, data_format="NCL", name=None):
    """lp_pool2d over a unit height."""
    p = _norm_type(norm_type, "lp_pool1d")
    x4, fmt = _to_2d(x, data_format, "lp_pool1d")
    k = int_tuple(kernel_size, 1, "lp_pool1d", "kernel_size")[0]
    s = k if stride is None else int_tuple(stride, 1, "lp_pool1d", "stride")[0]
    out = lp_pool2d(x4, p, [1, k], [1, s], _pad1d(padding, "lp_pool1d"), ceil_mode, fmt)
    return _from_2d(out, data_format)


def _max_pool_with_mask(x, nd, kernel_size, stride, padding, ceil_mode, data_format, api):
    """(max over each window, the int32 flat index of that max in its [*sizes] volume, h * W + w in 2-D): Paddle's
    max_pool{2,3}d_with_index op."""
    if data_format != _FORMATS[nd][0]:
        raise ValueError(f"{api}: return_mask=True needs data_format='{_FORMATS[nd][0]}', received {data_format!r}")
    ksize = int_tuple(kernel_size, nd, api, "kernel_size")
    strides = ksize if stride is None else int_tuple(stride, nd, api, "stride")
    paddings, algo = _pool_padding(padding, nd, api, False, ceil_mode)
    if algo == "SAME":
        raise ValueError(f"{api}: return_mask=True needs explicit (or 'VALID') padding")
    pads = resolve_pads(api, paddings, algo, None, None, strides, [1] * nd)[0]
    if any(a != b for a, b in pads):  # the op pads each dim by one amount on both sides
        raise ValueError(f"{api}: return_mask=True needs the same padding before and after each dim, received "
                         f"padding={padding!r}")
    return apply(_WITH_INDEX[nd], x, ksize=ksize, strides=strides, paddings=[a for a, _ in pads],
                 ceil_mode=bool(ceil_mode))


_UNPOOL_DTYPES = ("float32", "float64", "int64")  # Paddle's unpool kernels


def _max_unpool(x, indices, nd, kernel_size, stride, padding, data_format, output_size, api):
    """The partial inverse of max pooling: each value of x written at its index (from return_mask) in a zero
    [N, C, *sizes] output (size = (in - 1) * stride - 2 * padding + kernel, or output_size)."""
    _check_x(x, api, nd + 2, data_format, (_FORMATS[nd][0],), _UNPOOL_DTYPES)
    _check_tensor(indices, api, "indices")
    if list(indices.shape) != list(x.shape):
        raise ValueError(f"{api}: indices must have x's shape {x.shape}, received {indices.shape}")
    ksize = int_tuple(kernel_size, nd, api, "kernel_size")
    strides = ksize if stride is None else int_tuple(stride, nd, api, "stride")
    pads = [int(padding)] * nd if isinstance(padding, numbers.Integral) else [int(v) for v in padding][:nd]
    n, c, *sizes = x.shape
    if output_size is None:
        out_sizes = [(size - 1) * s - 2 * p + k for size, s, p, k in zip(sizes, strides, pads, ksize)]
    else:
        out_sizes = [int(v) for v in list(output_size)[-nd:]]
    volume = int(np.prod(out_sizes))
    # each [n, c] plane's indices offset by its row number times the volume; n may be -1 (a static batch left
    # open), so the row numbers and the zero output are built from x rather than from its shape
    index = T.reshape(T.cast(indices, "int64"), [n, c, int(np.prod(sizes))])
    rows = T.cumsum(T.ones_like(index[:, :, :1]), axis=None) - 1
    flat_index = T.reshape(index + T.reshape(rows, [n, c, 1]) * volume, [-1])
    zeros = T.reshape(T.zeros_like(T.reshape(x, index.shape)[:, :, :1]) + T.zeros([volume], x.dtype), [-1])
    out = T.scatter(zeros, flat_index, T.reshape(x, [-1]), overwrite=True)
    return T.reshape(out, [n, c, *out_sizes])


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, data_format="NCHW", output_size=None, name=None):
    return _max_unpool(x, indices, 2, kernel_size, stride, padding, data_format, output_size, "max_unpool2d")


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, data_format="NCDHW", output_size=None, name=None):
    return _max_unpool(x, indices, 3, kernel_size, stride, padding, data_format, output_size, "max_unpool3d")


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, data_format="NCL", output_size=None, name=None):
    """max_unpool2d over a unit height: [N, C, L] values at their positions of a zero [N, C, L_out]."""
    api = "max_unpool1d"
    _check_x(x, api, 3, data_format, ("NCL",), _UNPOOL_DTYPES)
    k = int_tuple(kernel_size, 1, api, "kernel_size")[0]
    s = k if stride is None else int_tuple(stride, 1, api, "stride")[0]
    p = int(padding) if isinstance(padding, numbers.Integral) else int(list(padding)[0])
    size = None if output_size is None else [1, int(list(output_size)[-1])]
    unsq = get_op("unsqueeze")
    out = max_unpool2d(apply(unsq, x, axis=[2]), apply(unsq, indices, axis=[2]), [1, k], [1, s], [0, p],
                       output_size=size)
    return apply(get_op("squeeze"), out, axis=[2])


def _fractional_max_pool(x, nd, output_size, kernel_size, random_u, return_mask, api):
    """Max over pseudo-random windows fixed by random_u (drawn from the global generator when None)."""
    _check_x(x, api, nd + 2, _FORMATS[nd][0], _FORMATS[nd])
    if random_u is not None and not 0 < random_u < 1:
        raise ValueError(f"{api}: random_u must be a float in (0, 1), received {random_u!r}")
    kernels = [0] * nd if kernel_size is None else int_tuple(kernel_size, nd, api, "kernel_size")
    out, mask = apply(_pool.FRACTIONAL_MAX_POOL2D if nd == 2 else _pool.FRACTIONAL_MAX_POOL3D, x,
                      output_size=_output_size(output_size, x.shape[2:], api), kernel_size=kernels,
                      random_u=0.0 if random_u is None else float(random_u))
    return (out, mask) if return_mask else out


def fractional_max_pool2d(x, output_size, kernel_size=None, random_u=None, return_mask=False, name=None):
    return _fractional_max_pool(x, 2, output_size, kernel_size, random_u, return_mask, "fractional_max_pool2d")


def fractional_max_pool3d(x, output_size, kernel_size=None, random_u=None, return_mask=False, name=None):
    return _fractional_max_pool(x, 3, output_size, kernel_size, random_u, return_mask, "fractional_max_pool3d")
