"""paddle.static.nn: layer helpers that create named parameters and call the functional APIs.

Each helper takes a name (`name` or the next `fc_<n>`, `embedding_<n>` ...), creates its parameters
`<name>.w_<k>` / `<name>.b_<k>` (initialised by ops of the startup program), and builds its ops with
the functional layer; their temporaries are named `<name>.tmp_<k>` as Paddle's LayerHelper does.
"""
import math

import numpy as np

from ..framework import dtype as _dtype
from ..utils import unique_name
from .appender import layer_name_guard
from .control_flow import cond, while_loop  # noqa: F401  (part of paddle.static.nn)
from .framework import Variable, require_static


def _F():
    from ..nn import functional
    return functional


def _param(helper, suffix, shape, dtype, attr, is_bias=False, default_initializer=None):
    from ..nn.layer.param_attr import ParamAttr, create_parameter
    attr = ParamAttr._to_attr(attr)
    name = attr.name or unique_name.generate(f"{helper}.{suffix}")
    return create_parameter(shape, dtype, name=name, attr=attr, is_bias=is_bias,
                            default_initializer=default_initializer)


def _activation(out, act, api):
    if act is None:
        return out
    if not isinstance(act, str):
        raise TypeError(f"{api}: activation must be a str such as 'relu', received {type(act).__name__}")
    fn = getattr(_F(), act, None)
    if fn is None:
        raise ValueError(f"{api}: unknown activation '{act}'")
    return fn(out)


def _check_var(x, api, arg):
    if not isinstance(x, Variable):
        raise TypeError(f"{api}: {arg} must be a static Variable, received {type(x).__name__}")


def fc(x, size, num_flatten_dims=1, weight_attr=None, bias_attr=None, activation=None, name=None):
    """out = act(sum_i flatten(x_i) @ w_i + b), flattening each input's dims from num_flatten_dims on."""
    require_static("paddle.static.nn.fc")
    from .. import tensor as paddle
    inputs = list(x) if isinstance(x, (list, tuple)) else [x]
    for v in inputs:
        _check_var(v, "fc", "x")
    if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size <= 0:
        raise ValueError(f"fc: size must be a positive int, received {size!r}")
    if not isinstance(num_flatten_dims, int) or num_flatten_dims < 1:
        raise ValueError(f"fc: num_flatten_dims must be a positive int, received {num_flatten_dims!r}")
    helper = name or unique_name.generate("fc")
    weight_attrs = weight_attr if isinstance(weight_attr, (list, tuple)) else [weight_attr] * len(inputs)
    dtype = inputs[0].dtype
    from ..ops import dispatch
    from ..ops.registry import get_op
    with layer_name_guard(helper):
        parts = []
        for v, wattr in zip(inputs, weight_attrs):
            nfd = num_flatten_dims if num_flatten_dims >= 0 else v.ndim + num_flatten_dims
            if nfd >= v.ndim:
                raise ValueError(f"fc: num_flatten_dims={num_flatten_dims} leaves no dims to flatten in an input "
                                 f"of shape {list(v.shape)}")
            rest = v.shape[nfd:]
            if any(d < 0 for d in rest):
                raise ValueError(f"fc: the dims of x from num_flatten_dims on must be known, received shape "
                                 f"{list(v.shape)}")
            in_features = int(np.prod(rest))
            w = _param(helper, "w", [in_features, int(size)], dtype.name, wattr)
            parts.append(dispatch.apply(get_op("mul"), v, w, x_num_col_dims=nfd, y_num_col_dims=1))  # Paddle's op
        out = parts[0] if len(parts) == 1 else dispatch.apply(get_op("sum"), parts)
        if bias_attr is not False:
            b = _param(helper, "b", [int(size)], dtype.name, bias_attr, is_bias=True)
            out = paddle.add(out, b)
        return _activation(out, activation, "fc")


def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None, param_attr=None,
              dtype="float32"):
    """Look rows of a [vocab, dim] table up by integer ids: out shape = input.shape + [dim]."""
    require_static("paddle.static.nn.embedding")
    _check_var(input, "embedding", "input")
    if not isinstance(size, (list, tuple)) or len(size) != 2:
        raise ValueError(f"embedding: size must be [vocab_size, emb_dim], received {size!r}")
    if input.dtype.name not in ("int32", "int64"):
        raise TypeError(f"embedding: input must be int32 or int64 ids, received {input.dtype.name}")
    helper = unique_name.generate("embedding")
    dtype = _dtype.convert_dtype(dtype).name
    with layer_name_guard(helper):
        w = _param(helper, "w", [int(size[0]), int(size[1])], dtype, param_attr)
        return _F().embedding(input, w, padding_idx=padding_idx, sparse=is_sparse)


def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None, param_attr=None,
           bias_attr=None, use_cudnn=True, act=None, name=None, data_format="NCHW"):
    """2-D convolution with a [num_filters, C/groups, kh, kw] weight and a [num_filters] bias."""
    require_static("paddle.static.nn.conv2d")
    _check_var(input, "conv2d", "input")
    if input.ndim != 4:
        raise ValueError(f"conv2d: input must be 4-D ({data_format}), received shape {input.shape}")
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"conv2d: data_format must be 'NCHW' or 'NHWC', received {data_format!r}")
    groups = 1 if groups is None else int(groups)
    channels = input.shape[1] if data_format == "NCHW" else input.shape[3]
    if channels < 0:
        raise ValueError(f"conv2d: the channel dim of input must be known, received shape {input.shape}")
    if channels % groups or num_filters % groups:
        raise ValueError(f"conv2d: channels ({channels}) and num_filters ({num_filters}) must be divisible by "
                         f"groups ({groups})")
    ks = [filter_size, filter_size] if isinstance(filter_size, int) else list(filter_size)
    helper = name or unique_name.generate("conv2d")
    dtype = input.dtype.name
    from ..nn import initializer as init
    std = math.sqrt(2.0 / (ks[0] * ks[1] * channels))
    with layer_name_guard(helper):
        w = _param(helper, "w", [int(num_filters), channels // groups] + ks, dtype, param_attr,
                   default_initializer=init.Normal(0.0, std))
        b = None
        if bias_attr is not False:
            b = _param(helper, "b", [int(num_filters)], dtype, bias_attr, is_bias=True)
        out = _F().conv2d(input, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups,
                          data_format=data_format)
        return _activation(out, act, "conv2d")


def layer_norm(input, scale=True, shift=True, begin_norm_axis=1, epsilon=1e-05, param_attr=None,
               bias_attr=None, act=None, name=None):
    """Normalise over the dims from begin_norm_axis on, with a learned scale (ones) and shift (zeros)."""
    require_static("paddle.static.nn.layer_norm")
    _check_var(input, "layer_norm", "input")
    if not 0 < begin_norm_axis < input.ndim:
        raise ValueError(f"layer_norm: begin_norm_axis must be in [1, {input.ndim - 1}], "
                         f"received {begin_norm_axis}")
    normalized = input.shape[begin_norm_axis:]
    if any(d < 0 for d in normalized):
        raise ValueError(f"layer_norm: the normalised dims must be known, received shape {input.shape}")
    helper = name or unique_name.generate("layer_norm")
    dtype = input.dtype.name
    n = int(np.prod(normalized))
    from ..nn import initializer as init
    with layer_name_guard(helper):
        w = _param(helper, "w", [n], dtype, param_attr, default_initializer=init.Constant(1.0)) if scale else None
        b = _param(helper, "b", [n], dtype, bias_attr, is_bias=True) if shift else None
        out = _F().layer_norm(input, normalized, weight=w, bias=b, epsilon=epsilon)
        return _activation(out, act, "layer_norm")


def batch_norm(input, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None, bias_attr=None,
               data_layout="NCHW", in_place=False, name=None, moving_mean_name=None, moving_variance_name=None,
               do_model_average_for_mean_and_var=True, use_global_stats=False):
    """Batch normalisation with a learned scale `<name>.w_0` (ones) and shift `<name>.b_0` (zeros) and the
    non-trainable running statistics `<name>.w_1` (mean, zeros) and `<name>.w_2` (variance, ones).

    In training the op's MeanOut/VarianceOut are assigned back into the running statistics each run
    (Paddle's batch_norm writes them in place); `Program.clone(for_test=True)` turns is_test on, so the
    test program normalises with the running statistics.
    """
    require_static("paddle.static.nn.batch_norm")
    _check_var(input, "batch_norm", "input")
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError(f"batch_norm: data_layout must be 'NCHW' or 'NHWC', received {data_layout!r}")
    if input.ndim < 2:
        raise ValueError(f"batch_norm: input must be at least 2-D, received shape {input.shape}")
    channels = input.shape[1] if data_layout == "NCHW" else input.shape[-1]
    if channels < 0:
        raise ValueError(f"batch_norm: the channel dim of input must be known, received shape {input.shape}")
    from ..nn import initializer as init
    from ..nn.layer.param_attr import ParamAttr
    from ..ops import dispatch
    from ..ops.registry import get_op
    helper = name or unique_name.generate("batch_norm")
    dtype = input.dtype.name
    layout = data_layout
    if input.ndim != 4:
        layout = {2: "NC", 3: "NCL", 5: "NCDHW"}.get(input.ndim, data_layout) if data_layout == "NCHW" else "NHWC"
    with layer_name_guard(helper):
        scale = _param(helper, "w", [channels], dtype, param_attr, default_initializer=init.Constant(1.0))
        bias = _param(helper, "b", [channels], dtype, bias_attr, is_bias=True)
        mean = _param(helper, "w", [channels], dtype,
                      ParamAttr(name=moving_mean_name, initializer=init.Constant(0.0), trainable=False))
        var = _param(helper, "w", [channels], dtype,
                     ParamAttr(name=moving_variance_name, initializer=init.Constant(1.0), trainable=False))
        mean.stop_gradient = var.stop_gradient = True
        outs = dispatch.apply(get_op("batch_norm"), input, scale, bias, mean, var, momentum=float(momentum),
                              epsilon=float(epsilon), is_test=bool(is_test), data_layout=layout,
                              use_global_stats=bool(use_global_stats), trainable_statistics=False)
        y, mean_out, var_out = outs[0], outs[1], outs[2]
        if not (is_test or use_global_stats):
            block = mean.block.program.current_block()
            block.append_op("assign", inputs={"X": [mean_out]}, outputs={"Out": [mean]})
            block.append_op("assign", inputs={"X": [var_out]}, outputs={"Out": [var]})
        return _activation(y, act, "batch_norm")


__all__ = ["fc", "embedding", "conv2d", "layer_norm", "batch_norm", "cond", "while_loop"]
