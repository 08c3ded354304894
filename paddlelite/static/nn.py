"""paddle.static.nn: layer helpers that create named parameters and call the functional APIs.

Each helper takes a name (`name` or the next `fc_<n>`, `embedding_<n>` ...), creates its parameters
`<name>.w_<k>` / `<name>.b_<k>` (initialised by ops of the startup program), and builds its ops with
the functional layer; their temporaries are named `<name>.tmp_<k>` as Paddle's LayerHelper does.
"""
import functools
import sys as _sys
import math

import numpy as np

from ..framework import dtype as _dtype
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops.registry import get_op
from .appender import layer_name_guard, output_order_guard
from .control_flow import While, cond, while_loop  # noqa: F401  (part of paddle.static.nn)
from .framework import Variable, program_unique_name, require_static
from .py_func import py_func  # noqa: F401  (part of paddle.static.nn)
from .assert_op import Assert  # noqa: F401  (paddle.static.nn.control_flow.Assert)
from .pylayer import static_pylayer  # noqa: F401  (part of paddle.static.nn)


def _F():
    from ..nn import functional
    return functional


def _param(helper, suffix, shape, dtype, attr, is_bias=False, default_initializer=None):
    from ..nn.layer.param_attr import ParamAttr, create_parameter
    attr = ParamAttr._to_attr(attr)
    name = attr.name or program_unique_name(f"{helper}.{suffix}")
    return create_parameter(shape, dtype, name=name, attr=attr, is_bias=is_bias,
                            default_initializer=default_initializer)


def _add_bias(out, b, axis):
    """out + b with b's dims at out's dim `axis` on: the elementwise_add Paddle's static layers append."""
    if b is None:
        return out
    return dispatch.apply(get_op("add"), out, b, axis=axis)


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
    inputs = list(x) if isinstance(x, (list, tuple)) else [x]
    for v in inputs:
        _check_var(v, "fc", "x")
    if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size <= 0:
        raise ValueError(f"fc: size must be a positive int, received {size!r}")
    if not isinstance(num_flatten_dims, int) or num_flatten_dims < 1:
        raise ValueError(f"fc: num_flatten_dims must be a positive int, received {num_flatten_dims!r}")
    helper = name or program_unique_name("fc")
    weight_attrs = weight_attr if isinstance(weight_attr, (list, tuple)) else [weight_attr] * len(inputs)
    dtype = inputs[0].dtype
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
            out = _add_bias(out, b, num_flatten_dims)
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
    helper = program_unique_name("embedding")
    dtype = _dtype.convert_dtype(dtype).name
    with layer_name_guard(helper):
        w = _param(helper, "w", [int(size[0]), int(size[1])], dtype, param_attr)
        return _F().embedding(input, w, padding_idx=padding_idx, sparse=is_sparse)


def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None, param_attr=None,
           bias_attr=None, use_cudnn=True, act=None, name=None, data_format="NCHW"):
    """2-D convolution with a [num_filters, C/groups, kh, kw] weight and a [num_filters] bias."""
    return _conv_nd(2, "conv2d", input, num_filters, filter_size, stride, padding, dilation, groups, param_attr,
                    bias_attr, act, name, data_format)


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
    helper = name or program_unique_name("layer_norm")
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

    In training the op writes MeanOut/VarianceOut into the running statistics, as Paddle's batch_norm (assign
    ops copy them back where the op's statistics have another dtype); `Program.clone(for_test=True)` turns
    is_test on, so the test program normalises with the running statistics.
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
    helper = name or program_unique_name("batch_norm")
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
        order = ("MeanOut", "VarianceOut", "SavedMean", "SavedVariance", "ReserveSpace", "Y")  # Paddle's API's
        with output_order_guard("batch_norm", order):
            outs = dispatch.apply(get_op("batch_norm"), input, scale, bias, mean, var, momentum=float(momentum),
                                  epsilon=float(epsilon), is_test=bool(is_test), data_layout=layout,
                                  use_global_stats=bool(use_global_stats), trainable_statistics=False)
        y, mean_out, var_out = outs[0], outs[1], outs[2]
        if not (is_test or use_global_stats) and mean_out is not mean:  # not written in place (another dtype)
            block = mean.block.program.current_block()
            block.append_op("assign", inputs={"X": [mean_out]}, outputs={"Out": [mean]})
            block.append_op("assign", inputs={"X": [var_out]}, outputs={"Out": [var]})
        return _activation(y, act, "batch_norm")




# ---- case / switch_case: chains of cond, built as Paddle builds them ----------------------------------------
def _tuple_error(what, arg, api, right, received):
    return f"{what} of '{arg}' in {api} must be {right}, but received: {received}."


def _check_pair(pair, arg, api, shown):
    """A (key, fn) element of pred_fn_pairs / branch_fns; `shown` is what Paddle's message names."""
    if not isinstance(pair, tuple):
        raise TypeError(_tuple_error("The elements' type", arg, api, tuple, type(shown)))
    if len(pair) != 2:
        raise TypeError(_tuple_error("The tuple's size", arg, api, "2", f"{len(pair)}-tuple"))
    return pair


def case(pred_fn_pairs, default=None, name=None):
    """if pred_0: fn_0() elif pred_1: fn_1() ... else default() (the last fn when default is None)."""
    if not isinstance(pred_fn_pairs, (list, tuple)):
        raise TypeError(f"case: pred_fn_pairs must be a list or tuple, received {type(pred_fn_pairs).__name__}")
    for pair in pred_fn_pairs:
        pred, fn = _check_pair(pair, "pred_fn_pairs", "case", pair)
        if not isinstance(pred, Variable) and not in_dynamic_mode():
            raise TypeError(f"paddle.static.nn.case: pred must be a boolean Variable, received {type(pred).__name__}")
        if pred.dtype.name != "bool":
            raise TypeError(f"paddle.static.nn.case: pred must have dtype bool, received {pred.dtype.name}")
        if not callable(fn):
            raise TypeError("The fn of pred_fn_pairs in Op(case) must be callable.")
    if default is None:
        pred_fn_pairs, default = pred_fn_pairs[:-1], pred_fn_pairs[-1][1]
    elif not callable(default):
        raise TypeError("The default in Op(case) must be callable.")
    return _chain(pred_fn_pairs, default)


def _chain(pred_fn_pairs, default):
    false_fn = default
    for pred, true_fn in reversed(pred_fn_pairs):
        false_fn = functools.partial(cond, pred=pred, true_fn=true_fn, false_fn=false_fn)
    return false_fn()


def switch_case(branch_index, branch_fns, default=None, name=None):
    """Run the fn whose key equals branch_index (default, else the largest key's fn, when none matches)."""
    from .. import tensor as paddle
    api = "static.nn.switch_case"
    if not isinstance(branch_index, (Variable, Tensor)):
        raise TypeError(f"{api}: branch_index must be a Variable, received {type(branch_index).__name__}")
    if branch_index.dtype.name not in ("uint8", "int32", "int64"):
        raise TypeError(f"{api}: branch_index must be uint8, int32 or int64, received {branch_index.dtype.name}")
    if branch_index.dtype.name != "int64":
        branch_index = paddle.cast(branch_index, "int64")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError(f"switch_case: branch_fns must be a list, tuple or dict, received "
                        f"{type(branch_fns).__name__}")
    pairs = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(branch_fns)
    if all(callable(fn) for fn in pairs):
        pairs = list(enumerate(pairs))
    keys = []
    for pair in pairs:
        key, fn = _check_pair(pair, "branch_fns", "switch_case", branch_fns)
        if not isinstance(key, int):
            raise TypeError(_tuple_error("The key's type", "branch_fns", "switch_case", int, type(key)))
        if key in keys:
            raise ValueError(f"The key in 'branch_fns' must be unique, but '{key}' appears more than once.")
        keys.append(key)
        if not callable(fn):
            raise TypeError(_tuple_error(f"The type of function for key {key}", "branch_fns", "switch_case",
                                         "callable", type(fn)))
    pairs = sorted(pairs, key=lambda p: p[0])
    if default is None:
        pairs, default = pairs[:-1], pairs[-1][1]
    elif not callable(default):
        raise TypeError("The default in Op(case) must be callable.")
    preds = [(paddle.equal(branch_index, paddle.full([1], key, "int64")), fn) for key, fn in pairs]
    return _chain(preds, default)


# ---- normalisation, activation and convolution layers ------------------------------------------------------
def group_norm(input, groups, epsilon=1e-05, param_attr=None, bias_attr=None, act=None, data_layout="NCHW",
               name=None):
    """Group normalisation; as Paddle's, a per-channel scale `<name>.w_0` (ones) / shift `<name>.b_0` (zeros)
    exists only when param_attr / bias_attr is given (truthy): by default there is none."""
    if len(getattr(input, "shape", ())) < 2:  # checked first, as Paddle's: in dygraph too
        raise ValueError(f"The dimensions of Op(static.nn.group_norm)'s input should be more than 1. But received "
                         f"{len(getattr(input, 'shape', ()))}")
    require_static("paddle.static.nn.group_norm")
    _check_var(input, "group_norm", "input")
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError(f"Param(data_layout) of Op(static.nn.group_norm) got wrong value: received {data_layout} "
                         f"but only NCHW or NHWC supported.")
    channels = input.shape[1] if data_layout == "NCHW" else input.shape[-1]
    helper = name or program_unique_name("group_norm")
    dtype = input.dtype.name
    from ..nn import initializer as init
    with layer_name_guard(helper):
        w = _param(helper, "w", [channels], dtype, param_attr, default_initializer=init.Constant(1.0)) \
            if param_attr else None
        b = _param(helper, "b", [channels], dtype, bias_attr, is_bias=True) if bias_attr else None
        out = _F().group_norm(input, groups, epsilon=epsilon, weight=w, bias=b, data_format=data_layout)
        return _activation(out, act, "group_norm")


def instance_norm(input, epsilon=1e-05, param_attr=None, bias_attr=None, name=None):
    """Instance normalisation; as Paddle's, the per-channel scale `<name>.w_0` (ones) and shift `<name>.b_0`
    (zeros) exist only when both param_attr and bias_attr are given (truthy): by default there are none."""
    require_static("paddle.static.nn.instance_norm")
    _check_var(input, "instance_norm", "input")
    if param_attr is False and bias_attr is not False:  # AssertionError as Paddle
        raise AssertionError("param_attr and bias_attr must be set to False at the same time in instance_norm")
    if not 2 <= input.ndim <= 5:
        raise ValueError(f"expected 2D or 3D or 4D or 5D input (got {input.ndim}D input, input shape is: "
                         f"{input.shape})")
    helper = name or program_unique_name("instance_norm")
    dtype = "float32" if input.dtype.name == "float16" else input.dtype.name
    from ..nn import initializer as init
    with layer_name_guard(helper):
        w = b = None
        if param_attr and bias_attr:
            w = _param(helper, "w", [input.shape[1]], dtype, param_attr, default_initializer=init.Constant(1.0))
            b = _param(helper, "b", [input.shape[1]], dtype, bias_attr, is_bias=True,
                       default_initializer=init.Constant(0.0))
        return _F().instance_norm(input, weight=w, bias=b, eps=epsilon,
                                  data_format={3: "NCL", 4: "NCHW", 5: "NCDHW"}.get(input.ndim, "NCHW"))


def prelu(x, mode, param_attr=None, data_format="NCHW", name=None):
    """max(0, x) + alpha * min(0, x) with alpha (0.25) shared ('all'), per channel or per element."""
    require_static("paddle.static.nn.prelu")
    _check_var(x, "prelu", "x")
    if mode not in ("all", "channel", "element"):
        raise ValueError("mode should be one of all, channel, element.")
    from .. import tensor as paddle
    from ..nn import initializer as init
    shape = [1]
    if mode == "channel":
        if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError(f"data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', 'NLC', 'NHWC', 'NDHWC' but "
                             f"receive {data_format}")
        if x.ndim < 2:
            raise AssertionError("The size of input shape should be equal or larger than 2 in prelu() when mode is "
                                 "'channel'")
        channel_first = data_format[1] == "C"
        shape = [1, x.shape[1], 1, 1] if channel_first else [1, 1, 1, x.shape[-1]]
    elif mode == "element":
        shape = [1] + list(x.shape[1:])
    helper = name or program_unique_name("prelu")
    with layer_name_guard(helper):
        alpha = _param(helper, "w", shape, x.dtype.name, param_attr, default_initializer=init.Constant(0.25))
        if mode == "element":
            zero = paddle.zeros_like(x)
            return paddle.add(paddle.maximum(x, zero), paddle.multiply(alpha, paddle.minimum(x, zero)))
        fmt = data_format if mode == "channel" else "NCHW"
        return _F().prelu(x, paddle.reshape(alpha, [-1]), data_format=fmt)


def _conv_nd(nd, api, input, num_filters, filter_size, stride, padding, dilation, groups, param_attr, bias_attr,
             act, name, data_format):
    """conv2d / conv3d: weight [num_filters, C/groups, *kernel] ~ Normal(0, sqrt(2 / (prod(kernel) * C)))."""
    require_static(f"paddle.static.nn.{api}")
    _check_var(input, api, "input")
    formats = {2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}[nd]
    if data_format not in formats:
        raise ValueError(f"Attr(data_format) should be {formats[0]!r} or {formats[1]!r}. Received "
                         f"Attr(data_format): {data_format}.")
    if input.ndim != nd + 2:
        raise ValueError(f"Input should be {nd + 2}D tensor, but received input with the shape of {input.shape}")
    channels = input.shape[1] if data_format == formats[0] else input.shape[-1]
    if channels < 0:
        raise ValueError(f"The channel dimension of the input({input.shape}) should be defined. Received: "
                         f"{channels}.")
    groups = 1 if groups is None else groups
    if groups <= 0:
        raise ValueError(f"the groups of {api} should be greater than 0. Received groups: {groups}")
    if channels % groups or num_filters % groups:
        raise ValueError(f"The number of input channels and of filters must be divisible by Attr(groups). Received: "
                         f"number of channels({channels}), num_filters({num_filters}), groups({groups}).")
    ks = [filter_size] * nd if isinstance(filter_size, int) else list(filter_size)
    if channels == 0 or num_filters <= 0 or min(ks) <= 0:
        raise ValueError(f"{api}: the input's channels, num_filters and filter_size must be positive, received "
                         f"{channels} channels, num_filters={num_filters}, filter_size={filter_size}")
    helper = name or program_unique_name(api)
    from ..nn import initializer as init
    std = math.sqrt(2.0 / (int(np.prod(ks)) * channels))
    with layer_name_guard(helper):
        w = _param(helper, "w", [int(num_filters), channels // groups] + ks, input.dtype.name, param_attr,
                   default_initializer=init.Normal(0.0, std))
        out = getattr(_F(), api)(input, w, None, stride=stride, padding=padding, dilation=dilation, groups=groups,
                                 data_format=data_format)
        b = _param(helper, "b", [int(num_filters)], input.dtype.name, bias_attr, is_bias=True) \
            if bias_attr is not False else None
        return _activation(_add_bias(out, b, 1 if data_format == formats[0] else nd + 1), act, api)


def conv3d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None, param_attr=None,
           bias_attr=None, use_cudnn=True, act=None, name=None, data_format="NCDHW"):
    """3-D convolution with a [num_filters, C/groups, kd, kh, kw] weight and a [num_filters] bias."""
    return _conv_nd(3, "conv3d", input, num_filters, filter_size, stride, padding, dilation, groups, param_attr,
                    bias_attr, act, name, data_format)


def _conv_transpose_nd(nd, api, input, num_filters, output_size, filter_size, padding, stride, dilation, groups,
                       param_attr, bias_attr, act, name, data_format):
    """conv2d_transpose / conv3d_transpose: weight [C, num_filters/groups, *kernel] (Xavier), bias
    [num_filters]; filter_size None derives the kernel from output_size as Paddle does."""
    require_static(f"paddle.static.nn.{api}")
    if param_attr is False:
        raise AssertionError(f"param_attr should not be False in {api}.")
    formats = {2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}[nd]
    if data_format not in formats:
        raise ValueError(f"Attr(data_format) of Op(paddle.static.nn.{api}) got wrong value: received {data_format} "
                         f"but only {formats[0]} or {formats[1]} supported.")
    if not isinstance(input, Variable):
        raise TypeError(f"Input of {api} must be Tensor")
    if input.ndim != nd + 2:
        raise ValueError(f"Input should be {nd + 2}D tensor, but received input with the shape of {input.shape}")
    if num_filters == 0:
        raise ValueError("num of filters should not be 0.")
    channel_first = data_format == formats[0]
    channels = input.shape[1] if channel_first else input.shape[-1]
    groups = 1 if groups is None else groups
    if groups <= 0:
        raise ValueError(f"the groups of {api} should be greater than 0. Received groups: {groups}")
    if num_filters % groups:
        raise ValueError(f"Attr(num_filters) must be divisible by groups,Received: Attr(num_filters) is "
                         f"{num_filters}, the groups is {groups}")
    if isinstance(output_size, int):
        output_size = [output_size] * nd
    if filter_size is None:
        if not output_size:
            raise ValueError("output_size must be set when filter_size is None")
        if isinstance(padding, str) or not isinstance(padding, int) and len(padding) != nd:
            raise ValueError(f"{api}: filter_size=None needs padding as an int or {nd} ints, received {padding!r}")
        pads = [padding] * nd if isinstance(padding, int) else list(padding)
        strides = [stride] * nd if isinstance(stride, int) else list(stride)
        dilations = [dilation] * nd if isinstance(dilation, int) else list(dilation)
        spatial = input.shape[2:] if channel_first else input.shape[1:-1]
        filter_size = [(o - (i - 1) * s + 2 * p - 1) // d + 1
                       for o, i, s, p, d in zip(output_size, spatial, strides, pads, dilations)]
    ks = [filter_size] * nd if isinstance(filter_size, int) else list(filter_size)
    helper = name or program_unique_name(api)
    with layer_name_guard(helper):
        w = _param(helper, "w", [channels, int(num_filters) // groups] + ks, input.dtype.name, param_attr)
        out = getattr(_F(), api)(input, w, None, stride=stride, padding=padding, dilation=dilation, groups=groups,
                                 output_size=output_size or None, data_format=data_format)
        b = _param(helper, "b", [int(num_filters)], input.dtype.name, bias_attr, is_bias=True) \
            if bias_attr is not False else None
        return _activation(_add_bias(out, b, 1 if channel_first else nd + 1), act, api)


def conv2d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0, stride=1, dilation=1,
                     groups=None, param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
                     data_format="NCHW"):
    """Transposed 2-D convolution with a [C, num_filters/groups, kh, kw] weight and a [num_filters] bias."""
    return _conv_transpose_nd(2, "conv2d_transpose", input, num_filters, output_size, filter_size, padding, stride,
                              dilation, groups, param_attr, bias_attr, act, name, data_format)


def conv3d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0, stride=1, dilation=1,
                     groups=None, param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
                     data_format="NCDHW"):
    """Transposed 3-D convolution with a [C, num_filters/groups, kd, kh, kw] weight and a [num_filters] bias."""
    return _conv_transpose_nd(3, "conv3d_transpose", input, num_filters, output_size, filter_size, padding, stride,
                              dilation, groups, param_attr, bias_attr, act, name, data_format)


def bilinear_tensor_product(x, y, size, act=None, name=None, param_attr=None, bias_attr=None):
    """out[n, k] = x[n] @ W[k] @ y[n] + b[k]: weight [size, M, N] (Xavier), bias [1, size] (zeros)."""
    require_static("paddle.static.nn.bilinear_tensor_product")
    _check_var(x, "bilinear_tensor_product", "x")
    _check_var(y, "bilinear_tensor_product", "y")
    if x.ndim != 2 or y.ndim != 2:
        raise ValueError(f"Input x and y should be 2D tensor, but received x with the shape of {x.shape}, y with "
                         f"the shape of {y.shape}")
    helper = name or program_unique_name("bilinear_tensor_product")
    with layer_name_guard(helper):
        w = _param(helper, "w", [int(size), x.shape[1], y.shape[1]], x.dtype.name, param_attr)
        b = _param(helper, "b", [1, int(size)], x.dtype.name, bias_attr, is_bias=True) \
            if bias_attr is not False else None
        return _activation(_F().bilinear(x, y, w, b), act, "bilinear_tensor_product")


def sparse_embedding(input, size, padding_idx=None, is_test=False, entry=None, table_class="MemorySparseTable",
                     param_attr=None, dtype="float32", slot=None):
    """The embedding lookup of a parameter-server sparse table; here the table is an ordinary (local)
    [vocab, dim] parameter, so it is embedding with is_sparse=True. As Paddle's lookup_table (v1) op, the ids'
    last dim must be 1 and the output is input.shape[:-1] + [dim]."""
    require_static("paddle.static.nn.sparse_embedding")
    _check_var(input, "paddle.incubate.layers.sparse_embedding", "input")
    if input.dtype.name != "int64":
        raise TypeError(f"paddle.incubate.layers.sparse_embedding: input must be int64, received "
                        f"{input.dtype.name}")
    if _dtype.convert_dtype(dtype).name not in ("float32", "float64"):
        raise TypeError(f"paddle.static.nn.sparse_embedding: dtype must be float32 or float64, received {dtype}")
    if table_class not in ("CommonSparseTable", "SSDSparseTable", "MemorySparseTable"):
        raise ValueError("table_class must be in [CommonSparseTable, SSDSparseTable, MemorySparseTable]")
    if input.ndim < 1 or input.shape[-1] != 1:
        raise ValueError(f"sparse_embedding: the last dimension of input (the ids) must be 1, received shape "
                         f"{list(input.shape)}")
    from .. import tensor as paddle
    helper = program_unique_name("sparse_embedding")
    with layer_name_guard(helper):
        w = _param(helper, "w", [int(size[0]), int(size[1])], _dtype.convert_dtype(dtype).name, param_attr)
        return _F().embedding(paddle.squeeze(input, -1), w, padding_idx=padding_idx, sparse=True)


def spectral_norm(weight, dim=0, power_iters=1, eps=1e-12, name=None):
    """weight / sigma (its largest singular value as a [shape[dim], -1] matrix) from power_iters steps starting
    at the non-trainable parameters `<name>.w_0` (u, [shape[dim]]) and `<name>.w_1` (v), both Normal(0, 1)."""
    require_static("paddle.static.nn.spectral_norm")
    api = "spectral_norm"
    _check_var(weight, api, "weight")
    if weight.dtype.name not in ("float32", "float64"):
        raise TypeError(f"The data type of 'weight' in {api} must be ['float32', 'float64'], but received "
                        f"{weight.dtype.name}. ")
    for arg, value, kind in (("dim", dim, int), ("power_iters", power_iters, int), ("eps", eps, float)):
        if not isinstance(value, kind) or isinstance(value, bool):
            raise TypeError(f"The type of '{arg}' in {api} must be {kind}, but received {type(value)}. ")
    if 0 in weight.shape:
        raise AssertionError("Any dimension of input cannot be equal to 0.")
    if dim not in (0, 1):
        raise ValueError(f"The input `dim` must be 0 (if weight in fc) or 1 (if weight in conv), but received dim={dim}")
    from ..nn import initializer as init
    from ..nn.layer.norm import spectral_normalize
    h = weight.shape[dim]
    w = int(np.prod(weight.shape)) // h
    helper = name or program_unique_name(api)
    with layer_name_guard(helper):
        u = _param(helper, "w", [h], weight.dtype.name, None, default_initializer=init.Normal(0.0, 1.0))
        v = _param(helper, "w", [w], weight.dtype.name, None, default_initializer=init.Normal(0.0, 1.0))
        u.stop_gradient = v.stop_gradient = True
        return spectral_normalize(weight, u, v, dim, power_iters, eps)


def row_conv(input, future_context_size, param_attr=None, act=None):
    """Lookahead convolution over time of a [B, T, D] input: out[:, t] = sum_j x[:, t + j] * filter[j] for
    j = 0 .. future_context_size (zeros past the end); filter `<name>.w_0` is [future_context_size + 1, D]."""
    require_static("paddle.static.nn.row_conv")
    _check_var(input, "row_conv", "input")
    if input.dtype.name != "float32":
        raise TypeError(f"The data type of 'input' in row_conv must be ['float32'], but received {input.dtype.name}. ")
    if input.ndim != 3:
        raise NotImplementedError(f"row_conv: only a dense [batch, time, dim] input is supported (paddlelite has no "
                                  f"LoD sequences), received shape {list(input.shape)}")
    from .. import tensor as paddle
    k = int(future_context_size)
    helper = program_unique_name("row_conv")
    with layer_name_guard(helper):
        w = _param(helper, "w", [k + 1, input.shape[-1]], input.dtype.name, param_attr)
        padded = _F().pad(input, [0, k], data_format="NLC")
        out = None
        for j in range(k + 1):
            window = paddle.slice(padded, [1], [j], [j - k if j < k else 2 ** 31 - 1])
            term = paddle.multiply(window, w[j])
            out = term if out is None else paddle.add(out, term)
        return _activation(out, act, "row_conv")


def _pair_arg(value, arg, api):
    """An int or a list/tuple of 2 ints (Paddle's convert_to_list(value, 2, arg))."""
    values = [value] * 2 if isinstance(value, (int, np.integer)) and not isinstance(value, bool) else value
    if not isinstance(values, (list, tuple)) or len(values) != 2:
        raise ValueError(f"{api}: {arg} must be an int or a list/tuple of 2 ints, received {value!r}")
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
        raise TypeError(f"{api}: {arg} must hold ints, received {value!r}")
    return [int(v) for v in values]


def _check_float_var(x, api, arg):
    _check_var(x, api, arg)
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"{api}: {arg} must be float32 or float64, received {x.dtype.name}")


def deform_conv2d(x, offset, mask, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=1,
                  deformable_groups=1, im2col_step=1, weight_attr=None, bias_attr=None, name=None):
    """Deformable convolution (v2 with `mask`, v1 without: ops `deformable_conv` / `deformable_conv_v1`) with a
    [num_filters, C/groups, kh, kw] weight ~ Normal(0, sqrt(2 / (kh * kw * C))) and a [num_filters] bias."""
    api = "deform_conv2d"
    require_static(f"paddle.static.nn.{api}")
    _check_float_var(x, api, "x")
    _check_float_var(offset, api, "offset")
    if mask is not None:
        _check_var(mask, api, "mask")
    if x.ndim != 4:
        raise ValueError(f"{api}: x must be 4-D [N, C, H, W], received shape {list(x.shape)}")
    channels = x.shape[1]
    if channels < 0:
        raise ValueError(f"{api}: the channel dim of x must be known, received shape {list(x.shape)}")
    groups = 1 if groups is None else groups
    if groups == 0 or channels % groups:
        raise ValueError(f"{api}: groups must be a nonzero divisor of x's {channels} channels, received {groups}")
    ks = _pair_arg(filter_size, "filter_size", api)
    attrs = {"strides": _pair_arg(stride, "stride", api), "paddings": _pair_arg(padding, "padding", api),
             "dilations": _pair_arg(dilation, "dilation", api), "groups": groups,
             "deformable_groups": 1 if deformable_groups is None else deformable_groups,
             "im2col_step": 64 if im2col_step is None else im2col_step}
    helper = name or program_unique_name("deformable_conv")
    from .. import tensor as paddle
    from ..nn import initializer as init
    with layer_name_guard(helper):
        w = _param(helper, "w", [int(num_filters), channels // groups] + ks, x.dtype.name, weight_attr,
                   default_initializer=init.Normal(0.0, math.sqrt(2.0 / (ks[0] * ks[1] * channels))))
        if mask is None:
            out = dispatch.apply(get_op("deformable_conv_v1"), x, offset, w, **attrs)
        else:
            out = dispatch.apply(get_op("deformable_conv"), x, offset, w, mask, **attrs)
        if bias_attr is False:
            return out
        b = _param(helper, "b", [int(num_filters)], x.dtype.name, bias_attr, is_bias=True)
        return paddle.add(out, paddle.reshape(b, [1, int(num_filters), 1, 1]))


_NCE_SAMPLERS = {"uniform": 0, "log_uniform": 1, "custom_dist": 2}


def _alias_tables(probs):
    """Walker's alias tables of a distribution (Paddle's construction, so the tables are the same):
    (alias (-1: none), alias probabilities)."""
    n = len(probs)
    alias, alias_probs = [0] * n, [0.0] * n
    bigs, littles = [], []

    def file(i, scaled):  # above 1: gives mass away; below 1: takes an alias; 1: complete
        if scaled > 1.0:
            bigs.append((i, scaled))
        elif scaled < 1.0:
            littles.append((i, scaled))
        else:
            alias_probs[i], alias[i] = scaled, -1

    for i, p in enumerate(probs):
        file(i, p * n)
    while bigs and littles:
        (big, big_p), (little, little_p) = bigs.pop(0), littles.pop(0)
        alias_probs[little], alias[little] = little_p, big
        file(big, big_p + little_p - 1)
    for rest in (bigs, littles):
        if rest:
            alias_probs[rest[0][0]], alias[rest[0][0]] = 1.0, -1
    return np.array(alias, dtype=np.int32), np.array(alias_probs, dtype=np.float32)


def nce(input, label, num_total_classes, sample_weight=None, param_attr=None, bias_attr=None, num_neg_samples=None,
        name=None, sampler="uniform", custom_dist=None, seed=0, is_sparse=False):
    """Noise-contrastive estimation loss per row, [batch_size, 1] (op `nce`, divided by num_neg_samples + 1 as
    Paddle does): weight [num_total_classes, dim], bias [num_total_classes, 1]; `sampler` draws the negatives."""
    api = "nce"
    require_static(f"paddle.static.nn.{api}")
    _check_float_var(input, api, "input")
    _check_var(label, api, "label")
    if label.dtype.name != "int64":
        raise TypeError(f"{api}: label must be int64, received {label.dtype.name}")
    if input.ndim != 2:
        raise ValueError(f"{api}: input must be 2-D [batch_size, dim], received shape {list(input.shape)}")
    if label.ndim != 2:  # Paddle reads label.shape[1]
        raise IndexError(f"{api}: label must be 2-D [batch_size, num_true_class], received shape {list(label.shape)}")
    if sampler not in _NCE_SAMPLERS:
        raise ValueError(f"{api}: sampler must be one of {list(_NCE_SAMPLERS)}, received {sampler!r}")
    if sampler == "custom_dist" and custom_dist is None:
        raise AssertionError(f"{api}: sampler='custom_dist' needs custom_dist, the probability of each class")
    num_neg_samples = 10 if num_neg_samples is None else int(num_neg_samples)
    print("With sparse mode, if your models has only small parameter prefetch may cause speed down")  # as Paddle's,
    # on every call (scripts and doctests compare their output with Paddle's)
    helper = name or program_unique_name("nce")
    dtype = input.dtype.name
    from .. import tensor as paddle
    from ..nn import initializer as init
    with layer_name_guard(helper):
        w = _param(helper, "w", [int(num_total_classes), input.shape[1]], dtype, param_attr)
        b = _param(helper, "b", [int(num_total_classes), 1], dtype, bias_attr, is_bias=True) \
            if bias_attr is not False else None
        tables = [None] * 3
        if sampler == "custom_dist":
            probs = [float(custom_dist[i]) for i in range(int(num_total_classes))]
            tables = [np.array(probs, dtype=np.float32), *_alias_tables(probs)]
            tables = [_param(helper, "w", list(t.shape), t.dtype.name, None, default_initializer=init.Assign(t))
                      for t in tables]
            for t in tables:
                t.stop_gradient = True
        cost, _, _ = dispatch.apply(get_op("nce"), input, label, w, b, sample_weight, *tables,
                                    num_total_classes=int(num_total_classes), num_neg_samples=num_neg_samples,
                                    sampler=_NCE_SAMPLERS[sampler], seed=seed, is_sparse=is_sparse,
                                    remote_prefetch=is_sparse)
        return paddle.scale(cost, 1.0 / (num_neg_samples + 1))


def _lod_only(api):
    def unsupported(*args, **kwargs):
        raise NotImplementedError(
            f"paddle.static.nn.{api} works on LoD (variable-length sequence) tensors, which paddlelite does not "
            f"have; pad the sequences and use the dense APIs (e.g. paddle.nn.functional, masks) instead")
    unsupported.__name__ = unsupported.__qualname__ = api
    unsupported.__doc__ = f"paddle.static.nn.{api}: needs LoD tensors (not supported; raises NotImplementedError)."
    return unsupported


sequence_conv = _lod_only("sequence_conv")
sequence_expand = _lod_only("sequence_expand")
sequence_first_step = _lod_only("sequence_first_step")
sequence_last_step = _lod_only("sequence_last_step")
sequence_pool = _lod_only("sequence_pool")
sequence_softmax = _lod_only("sequence_softmax")


__all__ = ["fc", "embedding", "conv2d", "layer_norm", "batch_norm", "cond", "while_loop", "case", "switch_case",
           "group_norm", "instance_norm", "prelu", "conv3d", "conv2d_transpose", "conv3d_transpose",
           "bilinear_tensor_product", "sparse_embedding", "sequence_conv", "sequence_expand", "sequence_first_step",
           "sequence_last_step", "sequence_pool", "sequence_softmax", "py_func", "spectral_norm", "row_conv",
           "static_pylayer", "deform_conv2d", "nce"]

# Paddle's static.nn is a package whose modules (common, control_flow, sequence_lod, static_pylayer) Paddle code
# imports from: here one module holds them all, under each of those paths (static_pylayer stays the function, as
# in Paddle, whose function shadows its module)
for _path in ("common", "control_flow", "sequence_lod", "static_pylayer"):
    _sys.modules[f"{__name__}.{_path}"] = _sys.modules[__name__]
    globals().setdefault(_path, _sys.modules[__name__])
__path__ = []  # a package, as Paddle's, so those paths import through an import alias's finder too (paddle.static...)
