"""fluid.layers: the fluid-era layer spellings, over paddle.static.nn and the functional APIs."""
import numpy as np

from .. import tensor as _api
from ..framework import mode as _mode
from ..nn import functional as _functional
from ..ops import dispatch
from ..ops.registry import get_op
from ..static import nn as _snn
from ..static.control_flow import cond, while_loop  # noqa: F401
from ..static.input import data as _static_data
from . import dygraph as _dygraph


def _static_default():
    """fluid graphs are static by default: building one outside dygraph.guard turns static mode on."""
    if _mode.in_dynamic_mode() and not _dygraph.in_guard():
        _mode.enable_static()


def data(name, shape, append_batch_size=True, dtype="float32", lod_level=0, type=None, stop_gradient=True):
    """A feedable Variable; a batch dim -1 is prepended unless the shape already has an unknown dim."""
    _static_default()
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"fluid.layers.data: shape must be a list or tuple, received {type(shape).__name__}")
    shape = list(shape)
    if any(d is None or (isinstance(d, (int, np.integer)) and d < 0) for d in shape):
        append_batch_size = False
    if append_batch_size:
        shape = [-1] + shape
    v = _static_data(name, shape, dtype, lod_level)
    v.stop_gradient = bool(stop_gradient)
    return v


def fc(input, size, num_flatten_dims=1, param_attr=None, bias_attr=None, act=None, name=None):
    _static_default()
    return _snn.fc(input, size, num_flatten_dims=num_flatten_dims, weight_attr=param_attr, bias_attr=bias_attr,
                   activation=act, name=name)


def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None, param_attr=None,
           bias_attr=None, use_cudnn=True, act=None, name=None, data_format="NCHW"):
    _static_default()
    return _snn.conv2d(input, num_filters, filter_size, stride, padding, dilation, groups, param_attr, bias_attr,
                       use_cudnn, act, name, data_format)


def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None, param_attr=None,
              dtype="float32"):
    """fluid's lookup_table: ids of shape [..., 1] give [..., emb_dim]."""
    _static_default()
    if input.ndim >= 1 and input.shape[-1] == 1:
        input = _api.squeeze(input, axis=-1)
    return _snn.embedding(input, size, is_sparse, is_distributed, padding_idx, param_attr, dtype)


def layer_norm(input, scale=True, shift=True, begin_norm_axis=1, epsilon=1e-05, param_attr=None, bias_attr=None,
               act=None, name=None):
    _static_default()
    return _snn.layer_norm(input, scale, shift, begin_norm_axis, epsilon, param_attr, bias_attr, act, name)


def square_error_cost(input, label):
    """(input - label) ** 2, elementwise."""
    p = _api
    return p.square(p.subtract(input, label))


def mean(x, name=None):
    return _api.mean(x)


def reduce_mean(input, dim=None, keep_dim=False, name=None):
    return _api.mean(input, axis=dim, keepdim=keep_dim)


def reduce_sum(input, dim=None, keep_dim=False, name=None):
    return _api.sum(input, axis=dim, keepdim=keep_dim)


def relu(x, name=None):
    return _functional.relu(x)


def sigmoid(x, name=None):
    return _functional.sigmoid(x)


def tanh(x, name=None):
    return _api.tanh(x)


def softmax(input, use_cudnn=True, name=None, axis=-1):
    return _functional.softmax(input, axis=axis)


def _check_axis(x, y, axis, api):
    """fluid's elementwise broadcast: y's dims match x's dims starting at `axis` (-1: the trailing dims).
    -> whether `axis` aligns y other than by its trailing dims (the op's `axis` attribute then does it)."""
    if axis is None or axis == -1 or y.ndim >= x.ndim:
        return False
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)) or not 0 <= axis <= x.ndim - y.ndim:
        raise ValueError(f"{api}: axis must be -1 or in [0, {x.ndim - y.ndim}] for x of rank {x.ndim} and y of "
                         f"rank {y.ndim}, received {axis!r}")
    for k, d in enumerate(y.shape):
        xd = x.shape[axis + k]
        if d not in (1, xd) and d >= 0 and xd >= 0:
            raise ValueError(f"{api}: y of shape {list(y.shape)} does not match x of shape {list(x.shape)} from "
                             f"axis={axis} (dim {axis + k}: {xd} vs {d})")
    return True


def _elementwise(fn_name, op_type, api):
    def fn(x, y, axis=-1, act=None, name=None):
        if _check_axis(x, y, axis, api):
            return _act(dispatch.apply(get_op(op_type), x, y, axis=int(axis)), act)
        return _act(getattr(_api, fn_name)(x, y), act)
    fn.__name__ = api
    fn.__doc__ = f"fluid.layers.{api}: paddle.{fn_name} with fluid's `axis` broadcast rule and an optional act."
    return fn


elementwise_add = _elementwise("add", "add", "elementwise_add")
elementwise_sub = _elementwise("subtract", "subtract", "elementwise_sub")
elementwise_mul = _elementwise("multiply", "multiply", "elementwise_mul")
elementwise_div = _elementwise("divide", "divide", "elementwise_div")
elementwise_max = _elementwise("maximum", "maximum", "elementwise_max")
elementwise_min = _elementwise("minimum", "minimum", "elementwise_min")
elementwise_pow = _elementwise("pow", "elementwise_pow", "elementwise_pow")


def _act(out, act):
    return out if act is None else getattr(_functional, act)(out)


def matmul(x, y, transpose_x=False, transpose_y=False, alpha=1.0, name=None):
    out = _api.matmul(x, y, transpose_x, transpose_y)
    return out if alpha == 1.0 else out * float(alpha)


def reshape(x, shape, actual_shape=None, act=None, inplace=False, name=None):
    return _act(_api.reshape(x, shape), act)


def concat(input, axis=0, name=None):
    return _api.concat(input, axis=axis)


def split(input, num_or_sections, dim=-1, name=None):
    return _api.split(input, num_or_sections, axis=dim)


def cast(x, dtype):
    return _api.cast(x, dtype)


def assign(input, output=None):
    """A copy of input; with `output` (static mode) an assign op writes into that existing Variable."""
    if not _mode.in_static_mode():
        return _api.assign(input, output)
    from ..static.framework import Variable
    if output is not None and not isinstance(output, Variable):
        raise TypeError(f"fluid.layers.assign: output must be a static Variable, received {type(output).__name__}")
    if not isinstance(input, Variable):  # a constant: an assign_value op holds its values
        arr = np.asarray(input, dtype=None if output is None else output.dtype.np)
        if arr.dtype == np.float64 and output is None:
            arr = arr.astype(np.float32)
        kind = arr.dtype.kind
        if kind not in "fiub":
            raise TypeError(f"fluid.layers.assign: input must be numeric, received dtype {arr.dtype}")
        values = [float(v) for v in arr.ravel()] if kind == "f" else [int(v) for v in arr.ravel()] \
            if kind in "iu" else [bool(v) for v in arr.ravel()]
        input = dispatch.apply(get_op("assign_value"), shape=list(arr.shape), dtype=arr.dtype.name, values=values)
    if output is None:
        return _api.assign(input)
    block = output.block.program.current_block()
    block.append_op("assign", inputs={"X": [input]}, outputs={"Out": [output]})
    return output


def fill_constant(shape, dtype, value, force_cpu=False, out=None, name=None):
    _static_default()
    return _api.fill_constant(shape, dtype, value, out=out)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    return _api.scale(x, scale, bias, bias_after_scale, act)


def reduce_max(input, dim=None, keep_dim=False, name=None):
    return _api.max(input, axis=dim, keepdim=keep_dim)


def reduce_min(input, dim=None, keep_dim=False, name=None):
    return _api.min(input, axis=dim, keepdim=keep_dim)


def reduce_prod(input, dim=None, keep_dim=False, name=None):
    return _api.prod(input, axis=dim, keepdim=keep_dim)


def transpose(x, perm, name=None):
    return _api.transpose(x, perm)


def unsqueeze(input, axes, name=None):
    return _api.unsqueeze(input, axes)


def squeeze(input, axes, name=None):
    return _api.squeeze(input, axes)


def stack(x, axis=0, name=None):
    return _api.stack(x, axis)


def flatten(x, axis=1, name=None):
    """fluid's flatten: a 2-D result [prod(shape[:axis]), prod(shape[axis:])]."""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)) or not 0 <= axis <= x.ndim:
        raise ValueError(f"flatten: axis must be an int in [0, {x.ndim}], received {axis!r}")
    if axis == 0:
        return _api.reshape(x, [1, -1])
    head = x.shape[:axis]
    if any(d < 0 for d in head[1:]) or (head[0] < 0 and any(d < 0 for d in x.shape[axis:])):
        raise ValueError(f"flatten: at most the batch dim may be unknown, received shape {x.shape}")
    if head[0] < 0:
        return _api.reshape(x, [-1, int(np.prod(x.shape[axis:]))])
    return _api.reshape(x, [int(np.prod(head)), -1])


def gather(input, index, overwrite=True):
    return _api.gather(input, index)


def expand(x, expand_times, name=None):
    """fluid's expand tiles: dim i is repeated expand_times[i] times."""
    return _api.tile(x, expand_times)


def slice(input, axes, starts, ends):
    return _api.slice(input, axes, starts, ends)


def clip(x, min, max, name=None):
    return _api.clip(x, min, max)


def argmax(x, axis=0):
    return _api.argmax(x, axis=axis)


def argmin(x, axis=0):
    return _api.argmin(x, axis=axis)


def exp(x, name=None):
    return _api.exp(x)


def log(x, name=None):
    return _api.log(x)


def sqrt(x, name=None):
    return _api.sqrt(x)


def square(x, name=None):
    return _api.square(x)


def abs(x, name=None):
    return _api.abs(x)


def leaky_relu(x, alpha=0.02, name=None):
    return _functional.leaky_relu(x, alpha)


def log_softmax(input, axis=-1, name=None):
    return _functional.log_softmax(input, axis=axis)


def less_than(x, y, force_cpu=None, cond=None, name=None):
    return _out(_api.less_than(x, y), cond)


def equal(x, y, cond=None, name=None):
    return _out(_api.equal(x, y), cond)


def _out(result, out):
    """Write `result` into an existing Variable `out` (fluid's cond=/out= arguments) or return it."""
    if out is None:
        return result
    assign(result, out)
    return out


def increment(x, value=1.0, in_place=True):
    """x + value; with in_place=True the sum is assigned back into x (as fluid's while loops expect)."""
    out = _api.scale(x, 1.0, float(value))
    if in_place and _mode.in_static_mode():
        return assign(out, x)
    return out


def sums(input, out=None):
    result = input[0]
    for v in input[1:]:
        result = _api.add(result, v)
    return _out(result, out)


def zeros(shape, dtype, force_cpu=False, name=None):
    _static_default()
    return _api.zeros(shape, dtype)


def ones(shape, dtype, force_cpu=False, name=None):
    _static_default()
    return _api.ones(shape, dtype)


def zeros_like(x, out=None):
    return _out(_api.zeros_like(x), out)


def ones_like(x, out=None):
    return _out(_api.ones_like(x), out)


def one_hot(input, depth, allow_out_of_range=False):
    """fluid's one_hot: ids [..., 1] give float32 [..., depth]."""
    if input.ndim >= 1 and input.shape[-1] == 1:
        input = _api.squeeze(input, axis=[-1])
    return _api.cast(dispatch.apply(get_op("one_hot"), input, depth=int(depth)), "float32")


def uniform_random(shape, dtype="float32", min=-1.0, max=1.0, seed=0, name=None):
    _static_default()
    return _api.uniform(shape, dtype, min, max, seed)


def gaussian_random(shape, mean=0.0, std=1.0, seed=0, dtype="float32", name=None):
    _static_default()
    return _api.cast(_api.normal(mean, std, shape), dtype)


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    _static_default()
    from ..static import create_parameter as _create
    return _create(shape, dtype, name, attr, is_bias, default_initializer)


def mul(x, y, x_num_col_dims=1, y_num_col_dims=1, name=None):
    """fluid's mul: x flattened to 2-D at x_num_col_dims times y flattened at y_num_col_dims (op 'mul')."""
    return dispatch.apply(get_op("mul"), x, y, x_num_col_dims=x_num_col_dims, y_num_col_dims=y_num_col_dims)


def pool2d(input, pool_size=-1, pool_type="max", pool_stride=1, pool_padding=0, global_pooling=False,
           use_cudnn=True, ceil_mode=False, name=None, exclusive=True, data_format="NCHW"):
    if pool_type not in ("max", "avg"):
        raise ValueError(f"pool2d: pool_type must be 'max' or 'avg', received {pool_type!r}")
    F = _functional
    if global_pooling:
        if pool_type == "avg":
            return F.adaptive_avg_pool2d(input, 1, data_format=data_format)
        if data_format != "NCHW":
            raise ValueError(f"pool2d: global max pooling supports data_format='NCHW' only, received {data_format!r}")
        return F.adaptive_max_pool2d(input, 1)
    if pool_type == "max":
        return F.max_pool2d(input, pool_size, pool_stride, pool_padding, ceil_mode=ceil_mode, data_format=data_format)
    return F.avg_pool2d(input, pool_size, pool_stride, pool_padding, ceil_mode=ceil_mode, exclusive=exclusive,
                        data_format=data_format)


def batch_norm(input, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None, bias_attr=None,
               data_layout="NCHW", in_place=False, name=None, moving_mean_name=None, moving_variance_name=None,
               do_model_average_for_mean_and_var=True, use_global_stats=False):
    _static_default()
    return _snn.batch_norm(input, act, is_test, momentum, epsilon, param_attr, bias_attr, data_layout, in_place,
                           name, moving_mean_name, moving_variance_name, do_model_average_for_mean_and_var,
                           use_global_stats)


_DROPOUT_MODES = {"downgrade_in_infer": "downscale_in_infer", "upscale_in_train": "upscale_in_train"}


def dropout(x, dropout_prob, is_test=None, seed=None, name=None, dropout_implementation="downgrade_in_infer"):
    """fluid's dropout; the default 'downgrade_in_infer' keeps values in training and scales by 1-p at test."""
    if dropout_implementation not in _DROPOUT_MODES:
        raise ValueError(f"dropout: dropout_implementation must be 'downgrade_in_infer' or 'upscale_in_train', "
                         f"received {dropout_implementation!r}")
    return _functional.dropout(x, dropout_prob, training=not is_test, mode=_DROPOUT_MODES[dropout_implementation])


def cross_entropy(input, label, soft_label=False, ignore_index=-100):
    """fluid's cross_entropy takes probabilities: -log(input[label]) per row, shape [N, 1]."""
    return _functional.cross_entropy(input, label, reduction="none", soft_label=soft_label, ignore_index=ignore_index,
                              use_softmax=False)


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100, numeric_stable_mode=True,
                               return_softmax=False, axis=-1):
    return _functional.softmax_with_cross_entropy(logits, label, soft_label, ignore_index, numeric_stable_mode,
                                           return_softmax, axis)


def sigmoid_cross_entropy_with_logits(x, label, ignore_index=-100, name=None, normalize=False):
    if ignore_index != -100 or normalize:
        raise ValueError("sigmoid_cross_entropy_with_logits: ignore_index and normalize are not supported, "
                         f"received ignore_index={ignore_index!r}, normalize={normalize!r}")
    return _functional.binary_cross_entropy_with_logits(x, label, reduction="none")


def accuracy(input, label, k=1, correct=None, total=None):
    from ..metric import accuracy as _accuracy
    return _accuracy(input, label, k, correct=correct, total=total)


__all__ = ["data", "fc", "conv2d", "embedding", "layer_norm", "square_error_cost", "mean", "reduce_mean",
           "reduce_sum", "relu", "sigmoid", "tanh", "softmax", "elementwise_add", "elementwise_sub",
           "elementwise_mul", "elementwise_div", "matmul", "reshape", "concat", "split", "cast", "assign",
           "fill_constant", "scale", "cond", "while_loop", "elementwise_max", "elementwise_min", "elementwise_pow",
           "reduce_max", "reduce_min", "reduce_prod", "transpose", "unsqueeze", "squeeze", "stack", "flatten",
           "gather", "expand", "slice", "clip", "argmax", "argmin", "exp", "log", "sqrt", "square", "abs",
           "leaky_relu", "log_softmax", "less_than", "equal", "increment", "sums", "zeros", "ones", "zeros_like",
           "ones_like", "one_hot", "uniform_random", "gaussian_random", "create_parameter", "mul", "pool2d",
           "batch_norm", "dropout", "cross_entropy", "softmax_with_cross_entropy",
           "sigmoid_cross_entropy_with_logits", "accuracy"]
