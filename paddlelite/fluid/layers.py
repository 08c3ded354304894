"""fluid.layers: the fluid-era layer spellings, over paddle.static.nn and the functional APIs."""
import numpy as np

from ..framework import mode as _mode
from ..static import nn as _snn
from ..static.control_flow import cond, while_loop  # noqa: F401
from ..static.input import data as _static_data
from . import dygraph as _dygraph


def _static_default():
    """fluid graphs are static by default: building one outside dygraph.guard turns static mode on."""
    if _mode.in_dynamic_mode() and not _dygraph.in_guard():
        _mode.enable_static()


def _paddle():
    import paddlelite
    return paddlelite


def _F():
    from ..nn import functional
    return functional


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
        input = _paddle().squeeze(input, axis=-1)
    return _snn.embedding(input, size, is_sparse, is_distributed, padding_idx, param_attr, dtype)


def layer_norm(input, scale=True, shift=True, begin_norm_axis=1, epsilon=1e-05, param_attr=None, bias_attr=None,
               act=None, name=None):
    _static_default()
    return _snn.layer_norm(input, scale, shift, begin_norm_axis, epsilon, param_attr, bias_attr, act, name)


def square_error_cost(input, label):
    """(input - label) ** 2, elementwise."""
    p = _paddle()
    return p.square(p.subtract(input, label))


def mean(x, name=None):
    return _paddle().mean(x)


def reduce_mean(input, dim=None, keep_dim=False, name=None):
    return _paddle().mean(input, axis=dim, keepdim=keep_dim)


def reduce_sum(input, dim=None, keep_dim=False, name=None):
    return _paddle().sum(input, axis=dim, keepdim=keep_dim)


def relu(x, name=None):
    return _F().relu(x)


def sigmoid(x, name=None):
    return _F().sigmoid(x)


def tanh(x, name=None):
    return _paddle().tanh(x)


def softmax(input, use_cudnn=True, name=None, axis=-1):
    return _F().softmax(input, axis=axis)


def elementwise_add(x, y, axis=-1, act=None, name=None):
    return _act(_paddle().add(x, y), act)


def elementwise_sub(x, y, axis=-1, act=None, name=None):
    return _act(_paddle().subtract(x, y), act)


def elementwise_mul(x, y, axis=-1, act=None, name=None):
    return _act(_paddle().multiply(x, y), act)


def elementwise_div(x, y, axis=-1, act=None, name=None):
    return _act(_paddle().divide(x, y), act)


def _act(out, act):
    return out if act is None else getattr(_F(), act)(out)


def matmul(x, y, transpose_x=False, transpose_y=False, alpha=1.0, name=None):
    out = _paddle().matmul(x, y, transpose_x, transpose_y)
    return out if alpha == 1.0 else out * float(alpha)


def reshape(x, shape, actual_shape=None, act=None, inplace=False, name=None):
    return _act(_paddle().reshape(x, shape), act)


def concat(input, axis=0, name=None):
    return _paddle().concat(input, axis=axis)


def split(input, num_or_sections, dim=-1, name=None):
    return _paddle().split(input, num_or_sections, axis=dim)


def cast(x, dtype):
    return _paddle().cast(x, dtype)


def assign(input, output=None):
    return _paddle().assign(input, output)


def fill_constant(shape, dtype, value, force_cpu=False, out=None, name=None):
    _static_default()
    return _paddle().full(shape, value, dtype)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    return _paddle().scale(x, scale, bias, bias_after_scale, act)


__all__ = ["data", "fc", "conv2d", "embedding", "layer_norm", "square_error_cost", "mean", "reduce_mean",
           "reduce_sum", "relu", "sigmoid", "tanh", "softmax", "elementwise_add", "elementwise_sub",
           "elementwise_mul", "elementwise_div", "matmul", "reshape", "concat", "split", "cast", "assign",
           "fill_constant", "scale", "cond", "while_loop"]
