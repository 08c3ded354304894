"""Common functional APIs: linear, dropout (+ dropout2d/3d), pad (constant mode through the pad op)."""
import contextlib
import numbers

import numpy as np

from ...framework import user_warnings as _user_warnings
from ... import tensor as T
from ...framework.mode import in_static_mode
from ...ops import dispatch
from ...ops import creation as _creation
from ...ops import elementwise as _ew
from ...ops import math as _math
from ...ops import nn as _nn
from ...ops.conv import out_size
from ...ops.registry import get_op
from ...static.appender import layer_helper, layer_name_guard, op_helper_name
from ...tensor.manipulation import inplace_apply
from ...tensor.math import _check_tensor, check_float_tensor, is_tensor_like
from ...tensor.tensor_args import holds_tensors, placeholders, tensor_argument, tensor_list
from .conv import conv2d_transpose, int_list
from .pooling import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d

__all__ = ["linear", "dropout", "dropout1d", "dropout2d", "dropout3d", "pad", "zeropad2d", "normalize",
           "cosine_similarity", "interpolate", "upsample", "unfold", "fold", "bilinear", "alpha_dropout",
           "feature_alpha_dropout"]

apply = dispatch.apply


def linear(x, weight, bias=None, name=None):
    """x @ weight (+ bias); weight has shape [in_features, out_features] as in Paddle (another rank multiplies
    as matmul does: a 1-D weight, as Assign can make a Linear's, gives one feature)."""
    _check_tensor(x, "linear", "x")
    _check_tensor(weight, "linear", "weight")
    if bias is not None:
        _check_tensor(bias, "linear", "bias")
    # Paddle's static linear is two ops, matmul_v2 then elementwise_add, under one name; under auto_cast
    # (which Paddle's legacy static mode lacks) it stays one white-list op, computing in the low dtype as eager
    if (in_static_mode() and dispatch.autocast[0] is None) or len(weight.shape) != 2:
        with layer_helper("linear"):
            out = apply(_math.MATMUL, x, weight)
            return out if bias is None else apply(_ew.ADD, out, bias)
    return apply(_math.LINEAR, x, weight, bias)


_MODES = {"upscale_in_train": "upscale_in_train", "downscale_in_infer": "downgrade_in_infer",
          "downgrade_in_infer": "downgrade_in_infer"}


def _ones(shape, like):
    place = None if in_static_mode() else like.place
    return apply(_creation.FILL_CONSTANT, shape=list(shape), value=1.0, dtype=like.dtype.name, place=place)


def dropout(x, p=0.5, axis=None, training=True, inplace=False, mode="upscale_in_train", name=None):
    """Zero each element with probability p. mode 'upscale_in_train' scales kept values by 1/(1-p) in training
    (a copy at inference); 'downscale_in_infer' keeps values in training and scales by (1-p) at inference.
    `axis` drops whole slices: one mask value per index along those axes, shared by the other dims.
    inplace=True writes the result into x's storage and returns x."""
    check_float_tensor(x, "dropout")
    if inplace:
        return inplace_apply(x, "dropout", lambda a: dropout(a, p, axis, training, False, mode))
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0 <= p <= 1:
        raise ValueError(f"dropout: p must be a number in [0, 1], received {p!r}")
    if mode not in _MODES:
        raise ValueError(f"dropout: mode must be 'upscale_in_train' or 'downscale_in_infer', received {mode!r}")
    impl = _MODES[mode]
    if p == 0:  # Paddle's fast path, in training and at inference alike: x itself
        return x
    seed = 0  # 0: the global generator, so paddle.seed makes it reproducible
    if axis is None:  # at inference too the op runs (is_test): a new tensor, as Paddle's
        with layer_name_guard(name) if name is not None and in_static_mode() else contextlib.nullcontext():
            return apply(_nn.DROPOUT, x, dropout_prob=float(p), is_test=not training, seed=seed,
                         dropout_implementation=impl)[0]
    if not training:  # Paddle's dropout over axes (dropout2d/3d) returns x itself at inference
        return x if impl == "upscale_in_train" else apply(_math.SCALE, x, scale=1.0 - float(p))
    axes = [axis] if isinstance(axis, int) else list(axis)
    nd = len(x.shape)
    if not axes or any(not isinstance(a, int) or not -nd <= a < nd for a in axes):
        raise ValueError(f"dropout: axis must be an int or list of ints in [-{nd}, {nd}), received {axis!r}")
    axes = {a % nd for a in axes}
    if any(x.shape[a] == -1 for a in axes):
        raise ValueError(f"dropout: the dims named by axis={axis!r} must be known, x has shape {x.shape}")
    keep = apply(_nn.DROPOUT, _ones([x.shape[i] if i in axes else 1 for i in range(nd)], x),
                 dropout_prob=float(p), is_test=False, seed=seed, dropout_implementation=impl)[0]
    return apply(_ew.MULTIPLY, x, keep)


def _channel_dropout(nd, api):
    def fn(x, p=0.5, training=True, data_format="NCHW" if nd == 4 else "NCDHW", name=None):
        _check_tensor(x, api)
        if len(x.shape) != nd:
            raise ValueError(f"{api}: x must be {nd}-D, received shape {x.shape}")
        if data_format not in (("NCHW", "NHWC") if nd == 4 else ("NCDHW", "NDHWC")):
            raise ValueError(f"{api}: unsupported data_format {data_format!r}")
        return dropout(x, p=p, axis=[0, 1] if data_format.startswith("NC") else [0, nd - 1], training=training)
    fn.__name__ = api
    fn.__doc__ = f"Drop whole channels of a {nd}-D input (one mask value per (sample, channel))."
    return fn


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Drop whole channels of a (C, L) or (N, C, L) input. Like Paddle, inplace=True is ignored (warned)."""
    _check_tensor(input, "dropout1d", "input")
    if len(input.shape) not in (2, 3):  # RuntimeError, as Paddle raises
        raise RuntimeError(f"dropout1d expects 2D or 3D input, got {len(input.shape)}D")
    if inplace:
        _user_warnings.warn("inplace=True is currently not supported in dropout1d and will be ignored. This parameter "
                            "is reserved for future implementation.")
    return dropout(input, p=p, axis=[0, 1] if len(input.shape) == 3 else [0], training=training)


dropout2d = _channel_dropout(4, "dropout2d")
dropout3d = _channel_dropout(5, "dropout3d")


_PAD_MODES = ("constant", "reflect", "replicate", "circular")


def pad(x, pad, mode="constant", value=0.0, data_format=None, pad_from_left_axis=True, name=None):
    """Paddle's F.pad. In constant mode, unless `pad` has 2 * (ndim - 2) entries, the pad op pads every dim:
    `pad` lists (before, after) pairs, first dim first when it has 2 * ndim entries and `pad_from_left_axis`,
    else last dim first, missing pairs 0. Otherwise `pad` covers the spatial dims LAST dim first ([left, right,
    top, bottom, ...]): as Paddle, a 3-D or 4-D x is unsqueezed to 5-D for the pad3d op and squeezed back. Modes:
    'constant', 'reflect' (mirror without the edge), 'replicate' (repeat the edge), 'circular' (wrap around).
    A bad mode, rank or data_format raises AssertionError, as Paddle's asserts do."""
    _check_tensor(x, "pad")
    if mode not in _PAD_MODES:
        raise AssertionError(f"pad: mode must be one of {list(_PAD_MODES)}, received mode={mode!r}")
    if is_tensor_like(pad):  # the pad3d op reads it when it runs
        return _pad3d_by_tensor(x, pad, mode, value, data_format)
    if not isinstance(pad, (list, tuple)) or not all(isinstance(v, int) and not isinstance(v, bool) for v in pad):
        raise TypeError(f"pad: pad must be a list of ints, received {pad!r}")
    nd = len(x.shape)
    if mode == "constant" and len(pad) != 2 * (nd - 2):
        if len(pad) > 2 * nd:
            raise ValueError(f"pad: pad must have at most {2 * nd} entries for a {nd}-D x, received {len(pad)}")
        paddings = [*pad, *[0] * (2 * nd - len(pad))]
        if not (len(pad) == 2 * nd and pad_from_left_axis):  # pairs given last dim first
            paddings = [v for k in range(nd - 1, -1, -1) for v in paddings[2 * k:2 * k + 2]]
        return apply(get_op("pad"), x, paddings=paddings, pad_value=float(value))
    if nd not in (3, 4, 5):
        raise AssertionError(f"pad: x must be 3-D to 5-D for mode {mode!r} with {len(pad)} paddings, received a "
                             f"{nd}-D x")
    formats = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}[nd]
    data_format = formats[0] if data_format is None else str(data_format).upper()
    if data_format not in formats:
        raise AssertionError(f"pad: data_format of a {nd}-D x must be one of {list(formats)}, received "
                             f"{data_format!r}")
    if len(pad) != 2 * (nd - 2):
        raise ValueError(f"pad: pad must have {2 * (nd - 2)} entries (the spatial dims) for a {nd}-D x in mode "
                         f"{mode!r}, received {len(pad)}")
    channel_first = data_format == formats[0]
    unsqueezed = {3: [3, 4] if channel_first else [2, 3], 4: [2] if channel_first else [1], 5: []}[nd]
    paddings = [0, 0, 0, 0, *pad] if nd == 3 else [*pad, 0, 0] if nd == 4 else list(pad)
    if unsqueezed:
        x = T.unsqueeze(x, unsqueezed)
    out = apply(get_op("pad3d"), x, paddings=paddings, mode=mode, value=float(value),
                data_format="NCDHW" if channel_first else "NDHWC")
    return T.squeeze(out, unsqueezed) if unsqueezed else out


def _pad3d_by_tensor(x, pad, mode, value, data_format):
    """F.pad with a 1-D int32 Tensor `pad` of the spatial dims' paddings: as Paddle, zeros joined for the dims a
    3-D or 4-D x lacks (unsqueezed to 5-D and squeezed back), whatever the mode."""
    nd = len(x.shape)
    formats = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}.get(nd)
    data_format = None if formats is None else formats[0] if data_format is None else str(data_format).upper()
    if formats is None or data_format not in formats:
        raise AssertionError(f"pad: a Tensor pad needs a 3-D to 5-D x with a data_format of its rank, received a "
                             f"{nd}-D x and data_format {data_format!r}")
    pad = tensor_argument(pad, "pad", "pad")
    channel_first = data_format == formats[0]
    unsqueezed = {3: [3, 4] if channel_first else [2, 3], 4: [2] if channel_first else [1], 5: []}[nd]
    if nd == 3:
        pad = T.concat([T.zeros([4], dtype="int32"), pad], axis=0)
    elif nd == 4:
        pad = T.concat([pad, T.zeros([2], dtype="int32")], axis=0)
    if unsqueezed:
        x = T.unsqueeze(x, unsqueezed)
    out = apply(get_op("pad3d"), x, pad, paddings=[], mode=mode, value=float(value),
                data_format="NCDHW" if channel_first else "NDHWC")
    return T.squeeze(out, unsqueezed) if unsqueezed else out


def zeropad2d(x, padding, data_format="NCHW", name=None):
    """F.pad in constant mode with zeros; padding [left, right, top, bottom]."""
    return pad(x, padding, mode="constant", value=0.0, data_format=data_format)


def normalize(x, p=2, axis=1, epsilon=1e-12, name=None):
    """x / max(||x||_p along axis, epsilon)."""
    from ...tensor.reduce import norm
    check_float_tensor(x, "normalize")
    if isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise TypeError(f"normalize: p must be a number, received {type(p).__name__}")
    n = norm(x, p=float(p), axis=axis, keepdim=True)
    return apply(_ew.DIVIDE, x, apply(_math.CLIP, n, min=float(epsilon), max=float("inf")))


def cosine_similarity(x1, x2, axis=1, eps=1e-8):
    """sum(x1 * x2) / sqrt(max(sum(x1^2) * sum(x2^2), eps^2)) along axis (x1, x2 broadcast together)."""
    from ...ops import reduce as _r
    check_float_tensor(x1, "cosine_similarity", "x1")
    check_float_tensor(x2, "cosine_similarity", "x2")

    def dot(a, b):
        return apply(_r.REDUCE_SUM, apply(_ew.MULTIPLY, a, b), axis=axis, keepdim=False)
    w12 = apply(_ew.MULTIPLY, dot(x1, x1), dot(x2, x2))
    den = apply(_math.SQRT, apply(_math.CLIP, w12, min=float(eps) ** 2, max=float("inf")))
    return apply(_ew.DIVIDE, dot(x1, x2), den)


# ---- interpolate: Paddle's <mode>_interp_v2 ops; 'area' is adaptive average pooling -----------------------------
_INTERP_MODES = {"nearest": None, "linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3, "area": None}
_AREA_POOLS = {1: adaptive_avg_pool1d, 2: adaptive_avg_pool2d, 3: adaptive_avg_pool3d}
_INTERP_FORMATS = {1: ("NCW", "NWC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _interp_layout(x, mode, data_format, api):
    """(number of spatial dims, data_format) after checking mode and data_format against x's rank."""
    if mode not in _INTERP_MODES:
        raise ValueError(f"{api}: mode must be one of {sorted(_INTERP_MODES)}, received {mode!r}")
    nd = len(x.shape) - 2
    if nd not in _INTERP_FORMATS:
        raise ValueError(f"{api}: x must be 3-D, 4-D or 5-D, received shape {x.shape}")
    if mode == "nearest" and nd == 1:
        raise ValueError(f"{api}: 'nearest' mode needs a 4-D or 5-D input, received shape {x.shape}")
    if _INTERP_MODES[mode] not in (None, nd):
        raise ValueError(f"{api}: mode {mode!r} needs a {_INTERP_MODES[mode] + 2}-D input, received shape {x.shape}")
    if data_format is None:
        data_format = _INTERP_FORMATS[nd][0]
    if data_format == "NCL":
        data_format = "NCW"
    if data_format == "NLC":
        data_format = "NWC"
    if data_format not in _INTERP_FORMATS[nd]:
        raise ValueError(f"{api}: data_format must be one of {_INTERP_FORMATS[nd]} for a {nd + 2}-D x, received "
                         f"{data_format!r}")
    return nd, data_format


def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
                data_format=None, recompute_scale_factor=None, antialias=False, name=None):
    """Resize the spatial dims of a 3-D/4-D/5-D x to `size` (or by `scale_factor`): 'nearest', 'linear',
    'bilinear', 'bicubic', 'trilinear' (separable along each spatial dim); 'area' is adaptive average
    pooling to `size`, as in Paddle."""
    api = "interpolate"
    _check_tensor(x, api)
    mode = mode.lower() if isinstance(mode, str) else mode
    nd, data_format = _interp_layout(x, mode, data_format, api)
    if mode == "nearest" and align_corners:
        raise ValueError(f"{api}: align_corners must be False in 'nearest' mode")
    if align_mode not in (0, 1):
        raise ValueError(f"{api}: align_mode must be 0 or 1, received {align_mode!r}")
    if (size is None) == (scale_factor is None):
        raise ValueError(f"{api}: exactly one of size and scale_factor must be given")
    if mode == "area":  # Paddle pools to `size` directly (data_format is not consulted)
        if size is None:
            raise ValueError(f"{api}: output size can not be None in 'area' mode")
        return _AREA_POOLS[nd](x, size)
    layout = "NHWC" if data_format[-1] == "C" else "NCHW"
    if is_tensor_like(size) or holds_tensors(size) or is_tensor_like(scale_factor):
        return _interpolate_by_tensors(x, size, scale_factor, mode, nd, align_corners, align_mode, layout)
    if size is not None:
        size = [int(v) for v in size] if isinstance(size, (list, tuple)) else None
        if size is None or len(size) != nd or min(size) < 1:
            raise ValueError(f"{api}: size must be a list of {nd} positive ints")
        scales = []
    else:
        scales = list(scale_factor) if isinstance(scale_factor, (list, tuple)) else [scale_factor] * nd
        if len(scales) != nd or not all(isinstance(s, numbers.Real) and s > 0 for s in scales):
            raise ValueError(f"{api}: scale_factor must be a positive number or a list of {nd}, received "
                             f"{scale_factor!r}")
        scales = [float(s) for s in scales]
        if recompute_scale_factor:  # Paddle passes the sizes instead
            axes = range(1, nd + 1) if data_format[-1] == "C" else range(2, nd + 2)
            size, scales = [int(np.floor(x.shape[a] * s)) for a, s in zip(axes, scales)], []
    out_d, out_h, out_w = [-1] * (3 - nd) + size if size else [-1, -1, -1]
    return apply(get_op(f"{mode}_interp_v2"), x, out_d=out_d, out_h=out_h, out_w=out_w, scale=scales,
                 interp_method=mode, align_corners=bool(align_corners), align_mode=int(align_mode),
                 data_layout=layout)


def _interpolate_by_tensors(x, size, scale_factor, mode, nd, align_corners, align_mode, layout):
    """interpolate with its size (a 1-D int Tensor, or a list holding Tensors) or scale_factor (a Tensor) given as
    tensors, which the op reads when it runs. As Paddle's static API: a size tensor cast to int32, a list's ints
    int32 constants written into the op helper's variables."""
    api, name = "interpolate", f"{mode}_interp_v2"
    attrs = {"interp_method": mode, "align_corners": bool(align_corners), "align_mode": int(align_mode),
             "data_layout": layout}
    if holds_tensors(size):
        if len(size) != nd:
            raise ValueError(f"{api}: size must list {nd} sizes for a {nd + 2}-D x, received {len(size)}")
        with layer_name_guard(op_helper_name(name)):
            sizes = tensor_list(size, api, "size", into_helper=True)
            out_d, out_h, out_w = [-1] * (3 - nd) + placeholders(size)
            return apply(get_op(name), x, None, sizes, out_d=out_d, out_h=out_h, out_w=out_w, **attrs)
    if size is not None:
        return apply(get_op(name), x, apply(get_op("cast"), tensor_argument(size, api, "size"), dtype="int32"),
                     **attrs)
    return apply(get_op(name), x, None, None, tensor_argument(scale_factor, api, "scale_factor", kinds="f"),
                 **attrs)


def upsample(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0, data_format=None,
             name=None):
    """The same as interpolate."""
    return interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format)


# ---- unfold / fold: im2col as a gather of window taps; col2im as conv2d_transpose with a one-hot kernel per channel
def _window_args(kernel_sizes, strides, paddings, dilations, api):
    kernel = int_list(kernel_sizes, 2, api, "kernel_sizes", 1)
    stride = int_list(strides, 2, api, "strides", 1)
    dilation = int_list(dilations, 2, api, "dilations", 1)
    pads = [paddings] * 4 if isinstance(paddings, numbers.Integral) else list(paddings)
    if len(pads) == 2:
        pads = pads * 2
    if len(pads) != 4 or not all(isinstance(v, numbers.Integral) and v >= 0 for v in pads):
        raise ValueError(f"{api}: paddings must be an int or 2 or 4 non-negative ints, received {paddings!r}")
    top, left, bottom, right = (int(v) for v in pads)  # Paddle's order
    return kernel, stride, [top, bottom, left, right], dilation


def _one_hot_kernel(channels, kernel, dtype):
    """[channels * kh * kw, 1, kh, kw]: output channel c * kh * kw + i * kw + j picks tap (i, j) of channel c."""
    k = kernel[0] * kernel[1]
    eye = np.eye(k, dtype=dtype.np).reshape(k, 1, kernel[0], kernel[1])
    return T.assign(np.tile(eye, (channels, 1, 1, 1)))


def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """Every sliding window of a [N, C, H, W] x as a column: [N, C * kh * kw, L]."""
    api = "unfold"
    _check_tensor(x, api)
    if len(x.shape) != 4:
        raise ValueError(f"{api}: x must be 4-D [N, C, H, W], received shape {x.shape}")
    kernel, stride, pads, dilation = _window_args(kernel_sizes, strides, paddings, dilations, api)
    channels, height, width = x.shape[1], x.shape[2] + pads[0] + pads[1], x.shape[3] + pads[2] + pads[3]
    blocks = [out_size(n, p, kk, s, d) for n, p, kk, s, d in
              zip(x.shape[2:], (pads[:2], pads[2:]), kernel, stride, dilation)]
    if min(blocks) <= 0:
        raise ValueError(f"{api}: the sliding blocks of kernel {kernel} (dilations {dilation}) do not fit the padded "
                         f"input of spatial size {[height, width]}")
    # a gather of every tap of every window from the zero-padded x (not a conv with a one-hot kernel, whose
    # zero taps would turn one inf or NaN of x into NaN across its whole neighbourhood)
    rows = (np.arange(kernel[0])[:, None] * dilation[0])[:, None, :, None] + \
        (np.arange(blocks[0]) * stride[0])[None, None, :, None]
    cols = (np.arange(kernel[1]) * dilation[1])[None, :, None, None] + (np.arange(blocks[1]) * stride[1])[None, None, None, :]
    positions = (rows * width + cols).reshape(-1).astype(np.int64)  # [kh, kw, bh, bw] flattened
    padded = pad(x, [pads[2], pads[3], pads[0], pads[1]]) if any(pads) else x
    flat = T.reshape(padded, [-1, channels, height * width])
    taps = T.gather(flat, T.assign(positions), axis=2)
    return T.reshape(taps, [-1, channels * kernel[0] * kernel[1], blocks[0] * blocks[1]])


def fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """The adjoint of unfold: sum the columns of [N, C * kh * kw, L] back into [N, C, H, W]."""
    api = "fold"
    _check_tensor(x, api)
    if len(x.shape) != 3:
        raise ValueError(f"{api}: x must be 3-D [N, C * kh * kw, L], received shape {x.shape}")
    size = int_list(output_sizes, 2, api, "output_sizes", 1)
    kernel, stride, pads, dilation = _window_args(kernel_sizes, strides, paddings, dilations, api)
    k = kernel[0] * kernel[1]
    if x.shape[1] % k:
        raise ValueError(f"{api}: x.shape[1] ({x.shape[1]}) must be divisible by kh * kw ({k})")
    blocks = [out_size(n, p, kk, s, d) for n, p, kk, s, d in
              zip(size, (pads[:2], pads[2:]), kernel, stride, dilation)]
    if blocks[0] * blocks[1] != x.shape[2]:
        raise ValueError(f"{api}: x.shape[2] ({x.shape[2]}) must be the number of blocks ({blocks[0]} * "
                         f"{blocks[1]}) for output_sizes {size}")
    channels = x.shape[1] // k
    grid = T.reshape(x, [-1, x.shape[1]] + blocks)
    return conv2d_transpose(grid, _one_hot_kernel(channels, kernel, x.dtype), stride=stride, padding=pads,
                            dilation=dilation, groups=channels, output_size=size)


def bilinear(x1, x2, weight, bias=None, name=None):
    """out[n, o] = x1[n] @ weight[o] @ x2[n] (+ bias[0, o]); weight [out, in1, in2]."""
    api = "bilinear"
    for arg, t in (("x1", x1), ("x2", x2), ("weight", weight)):
        check_float_tensor(t, api, arg)
    if len(weight.shape) != 3 or len(x1.shape) != 2 or len(x2.shape) != 2:
        raise ValueError(f"{api}: x1 [N, in1], x2 [N, in2] and weight [out, in1, in2] expected, received shapes "
                         f"{x1.shape}, {x2.shape}, {weight.shape}")
    left = T.matmul(T.unsqueeze(x1, 0), weight)                      # [out, N, in2]
    out = T.transpose(T.sum(left * T.unsqueeze(x2, 0), axis=-1), [1, 0])
    return out + bias if bias is not None else out


# ---- alpha dropout: dropped units take SELU's negative saturation, then an affine map keeps mean/variance ---
_SELU_ALPHA_P = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946


def _alpha_dropout(x, p, training, mask_shape, api):
    check_float_tensor(x, api)
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0 <= p <= 1:
        raise ValueError(f"{api}: p must be a number in [0, 1], received {p!r}")
    if not training or p == 0:
        return x
    a = ((1 - p) * (1 + p * _SELU_ALPHA_P ** 2)) ** -0.5
    b = -a * _SELU_ALPHA_P * p
    keep = T.cast(T.uniform(mask_shape, dtype="float32", min=0.0, max=1.0) >= p, x.dtype)
    y = x * keep + T.scale(keep, -_SELU_ALPHA_P, _SELU_ALPHA_P)  # alpha_p where dropped
    return T.scale(y, a, b)


def alpha_dropout(x, p=0.5, training=True, name=None):
    """Dropout for SELU networks (keeps zero mean and unit variance)."""
    return _alpha_dropout(x, p, training, x.shape, "alpha_dropout")


def feature_alpha_dropout(x, p=0.5, training=True, name=None):
    """alpha_dropout dropping whole channels ([N, C, 1, ...] masks)."""
    if len(x.shape) < 2:
        raise ValueError(f"feature_alpha_dropout: x must be at least 2-D, received shape {x.shape}")
    return _alpha_dropout(x, p, training, list(x.shape[:2]) + [1] * (len(x.shape) - 2), "feature_alpha_dropout")
