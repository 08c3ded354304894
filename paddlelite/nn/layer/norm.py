"""BatchNorm1D/2D, LayerNorm, GroupNorm, InstanceNorm1D/2D/3D and LocalResponseNorm.

As in Paddle, the running statistics `_mean` / `_variance` are non-trainable parameters (so they are
persistable static variables too, and appear in state_dict under those keys); F.batch_norm updates
them in training mode.
"""
import numpy as np

from ... import tensor as _t
from ...autograd import no_grad
from ...framework import dtype as _dtype
from ...ops import norm as _norm_ops
from .. import functional as F
from .. import initializer as _init
from ..functional.norm import _apply_batch_norm
from .layers import Layer
from .param_attr import ParamAttr

__all__ = ["BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "LayerNorm", "GroupNorm", "InstanceNorm1D",
           "InstanceNorm2D", "InstanceNorm3D", "LocalResponseNorm", "SpectralNorm", "SyncBatchNorm"]


class _BatchNormBase(Layer):
    _formats = ("NCHW", "NHWC")
    _ndims = (4,)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NCHW", use_global_stats=None, name=None, dtype=None):
        # Paddle's: the default dtype, but float32 statistics and affine parameters under a float16 default
        super().__init__(dtype=dtype or ("float32" if _dtype.get_default_dtype() == "float16" else None))
        api = type(self).__name__
        if not isinstance(num_features, (int, np.integer)) or num_features <= 0:
            raise ValueError(f"{api}: num_features must be a positive int, received {num_features!r}")
        if data_format not in self._formats:
            raise ValueError(f"{api}: data_format must be one of {self._formats}, received {data_format!r}")
        self._num_features = int(num_features)
        self._momentum = float(momentum)
        self._epsilon = float(epsilon)
        self._data_format = data_format
        self._use_global_stats = use_global_stats
        self._name = name
        shape = [self._num_features]
        if weight_attr is False:
            self.weight = self.create_parameter(shape, attr=ParamAttr(initializer=_init.Constant(1.0),
                                                                      trainable=False))
        else:
            self.weight = self.create_parameter(shape, attr=weight_attr, default_initializer=_init.Constant(1.0))
        if bias_attr is False:
            self.bias = self.create_parameter(shape, attr=ParamAttr(initializer=_init.Constant(0.0),
                                                                    trainable=False), is_bias=True)
        else:
            self.bias = self.create_parameter(shape, attr=bias_attr, is_bias=True)
        self._mean = self.create_parameter(shape, attr=ParamAttr(initializer=_init.Constant(0.0),
                                                                 trainable=False))
        self._variance = self.create_parameter(shape, attr=ParamAttr(initializer=_init.Constant(1.0),
                                                                     trainable=False))

    def _check_input(self, x):
        if len(x.shape) not in self._ndims:
            raise ValueError(f"{type(self).__name__}: expected a {' or '.join(map(str, self._ndims))}-D input, "
                             f"received shape {list(x.shape)}")

    def forward(self, x):
        self._check_input(x)
        return F.batch_norm(x, self._mean, self._variance, weight=self.weight, bias=self.bias,
                            training=self.training, momentum=self._momentum, epsilon=self._epsilon,
                            data_format=self._data_format, use_global_stats=self._use_global_stats)

    def extra_repr(self):
        text = f"num_features={self._num_features}, momentum={self._momentum}, epsilon={self._epsilon}"
        if self._data_format != "NCHW":
            text += f", data_format={self._data_format}"
        return text + self._name_suffix()


class BatchNorm1D(_BatchNormBase):
    _formats = ("NCL", "NLC", "NC")
    _ndims = (2, 3)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NCL", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm2D(_BatchNormBase):
    pass


class BatchNorm3D(_BatchNormBase):
    _formats = ("NCDHW", "NDHWC")
    _ndims = (5,)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NCDHW", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class SyncBatchNorm(_BatchNormBase):
    """Batch normalisation over the whole data-parallel batch (Paddle's sync_batch_norm op): in training the
    statistics are those of the batches of every rank of the world together, and backward gives each rank
    the gradient of that global-batch normalisation. In one process (or at inference) it is BatchNorm over
    the input's rank (2-D to 5-D; data_format names the channel position)."""
    _formats = ("NCHW", "NHWC", "NC", "NCL", "NLC", "NCDHW", "NDHWC")
    _ndims = (2, 3, 4, 5)
    _channel_last = ("NHWC", "NLC", "NDHWC")

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NCHW", name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, None, name)

    def forward(self, x):
        self._check_input(x)
        last = self._data_format in self._channel_last
        fmt = {2: "NC", 3: "NLC" if last else "NCL", 4: "NHWC" if last else "NCHW",
               5: "NDHWC" if last else "NCDHW"}[len(x.shape)]
        return _apply_batch_norm(_norm_ops.SYNC_BATCH_NORM, x, self._mean, self._variance, self.weight, self.bias,
                                 self.training, self._momentum, self._epsilon, fmt)

    @classmethod
    def convert_sync_batchnorm(cls, layer):
        """`layer` with every BatchNorm1D/2D/3D in it (itself included) replaced by a SyncBatchNorm sharing
        its parameters and running statistics."""
        out = layer
        if isinstance(layer, _BatchNormBase) and not isinstance(layer, (BatchNorm, SyncBatchNorm)):
            out = cls(layer._num_features, layer._momentum, layer._epsilon, data_format=layer._data_format,
                      name=layer._name)
            out.weight, out.bias = layer.weight, layer.bias
            out._mean, out._variance = layer._mean, layer._variance
        for name, sublayer in layer.named_children():
            out.add_sublayer(name, cls.convert_sync_batchnorm(sublayer))
        return out


class BatchNorm(_BatchNormBase):
    """The fluid-era nn.BatchNorm(num_channels, act=None, is_test=False, momentum=0.9, ...)."""
    _formats = ("NCHW", "NHWC", "NCL", "NLC", "NC")
    _ndims = (2, 3, 4, 5)

    def __init__(self, num_channels, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None,
                 bias_attr=None, dtype="float32", data_layout="NCHW", in_place=False, moving_mean_name=None,
                 moving_variance_name=None, do_model_average_for_mean_and_var=True, use_global_stats=False,
                 trainable_statistics=False):
        super().__init__(num_channels, momentum, epsilon, param_attr, bias_attr, data_layout,
                         use_global_stats, dtype=dtype)
        self._trainable_statistics = trainable_statistics
        self._act = act
        if is_test:
            self.eval()

    def extra_repr(self):  # Paddle's fluid-era BatchNorm prints no settings
        return ""

    def forward(self, x):
        self._check_input(x)
        fmt = self._data_format
        if x.ndim != 4 and fmt in ("NCHW", "NHWC"):
            fmt = "NCL" if fmt == "NCHW" else "NLC"
        # both flags as the op takes them (Paddle's layer passes them straight to its batch_norm op)
        out = _apply_batch_norm(_norm_ops.BATCH_NORM, x, self._mean, self._variance, self.weight, self.bias, self.training,
                                self._momentum, self._epsilon, fmt, self._use_global_stats,
                                self._trainable_statistics)
        return getattr(F, self._act)(out) if self._act else out


class LayerNorm(Layer):
    """Normalise over the trailing `normalized_shape` dims; weight/bias have prod(normalized_shape) elements."""

    def __init__(self, normalized_shape, epsilon=1e-05, weight_attr=None, bias_attr=None, name=None):
        super().__init__(dtype=None)  # the default dtype
        if isinstance(normalized_shape, (int, np.integer)):
            normalized_shape = [int(normalized_shape)]
        if not isinstance(normalized_shape, (list, tuple)) or not normalized_shape or \
                not all(isinstance(d, (int, np.integer)) and d > 0 for d in normalized_shape):
            raise ValueError(f"LayerNorm: normalized_shape must be a positive int or a list of them, received "
                             f"{normalized_shape!r}")
        self._normalized_shape = [int(d) for d in normalized_shape]
        self._epsilon = float(epsilon)
        shape = [int(np.prod(self._normalized_shape))]
        self.weight = self.create_parameter(shape, attr=weight_attr, default_initializer=_init.Constant(1.0))
        self.bias = self.create_parameter(shape, attr=bias_attr, is_bias=True)

    def forward(self, input):
        return F.layer_norm(input, normalized_shape=self._normalized_shape, weight=self.weight, bias=self.bias,
                            epsilon=self._epsilon)

    def extra_repr(self):
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class GroupNorm(Layer):
    """F.group_norm with a per-channel weight (ones) and bias (zeros); weight_attr / bias_attr False drop them."""

    def __init__(self, num_groups, num_channels, epsilon=1e-05, *, affine=True, device=None, dtype=None,
                 weight_attr=None, bias_attr=None, data_format="NCHW", name=None):
        super().__init__(dtype=dtype)
        if num_channels % num_groups:
            raise ValueError(f"GroupNorm: num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self._num_groups, self._num_channels, self._epsilon = num_groups, num_channels, epsilon
        self._data_format = data_format
        if not affine:
            weight_attr = bias_attr = False
        self.weight = self.create_parameter([num_channels], attr=weight_attr, default_initializer=_init.Constant(1.0))
        self.bias = self.create_parameter([num_channels], attr=bias_attr, is_bias=True)

    def forward(self, input):
        return F.group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias, self._data_format)

    def extra_repr(self):
        return f"num_groups={self._num_groups}, num_channels={self._num_channels}, epsilon={self._epsilon}"


class _InstanceNormBase(Layer):
    """F.instance_norm with a per-channel `scale` (ones) and `bias` (zeros), Paddle's parameter names."""
    _ndim = None

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None, bias_attr=None,
                 data_format="NCHW", name=None):
        super().__init__(dtype=None)  # the default dtype
        self._num_features, self._epsilon, self._momentum = num_features, epsilon, momentum
        self._data_format = data_format
        if weight_attr is False or bias_attr is False:
            self.scale = self.bias = None
        else:
            self.scale = self.create_parameter([num_features], attr=weight_attr,
                                               default_initializer=_init.Constant(1.0))
            self.bias = self.create_parameter([num_features], attr=bias_attr, is_bias=True)

    def forward(self, input):
        if len(input.shape) not in self._ndim:
            raise ValueError(f"{type(self).__name__}: expected a {' or '.join(map(str, self._ndim))}-D input, "
                             f"received shape {input.shape}")
        return F.instance_norm(input, weight=self.scale, bias=self.bias, eps=self._epsilon)

    def extra_repr(self):
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    _ndim = (2, 3)

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None, bias_attr=None,
                 data_format="NCL", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format, name)


class InstanceNorm2D(_InstanceNormBase):
    _ndim = (4,)


class InstanceNorm3D(_InstanceNormBase):
    _ndim = (5,)

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None, bias_attr=None,
                 data_format="NCDHW", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format, name)


class LocalResponseNorm(Layer):
    def __init__(self, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k
        self.data_format, self.name = data_format, name

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k, self.data_format)

    def extra_repr(self):
        text = f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
        if self.data_format != "NCHW":
            text += f", data_format={self.data_format}"
        return text + (f", name={self.name}" if self.name is not None else "")


class SpectralNorm(Layer):
    """forward(weight) = weight / sigma, sigma its largest singular value as a [shape[dim], -1] matrix, estimated
    by `power_iters` power-iteration steps from the non-trainable parameters weight_u, weight_v (normal draws);
    the gradient treats the estimated singular vectors as constants (Paddle's spectral_norm op)."""

    def __init__(self, weight_shape, dim=0, power_iters=1, eps=1e-12, dtype="float32"):
        super().__init__()
        self._power_iters = power_iters
        self._eps = eps
        self._dim = dim
        self._dtype = dtype
        self._weight_shape = list(weight_shape)
        # AssertionError, as Paddle raises
        if np.prod(self._weight_shape) <= 0:
            raise AssertionError("Any dimension of `weight_shape` cannot be equal to 0.")
        if dim >= len(self._weight_shape):
            raise AssertionError(f"The input `dim` should be less than the length of `weight_shape`, but received "
                                 f"dim={dim}")
        h = self._weight_shape[dim]
        w = int(np.prod(self._weight_shape)) // h
        self.weight_u = self.create_parameter([h], attr=ParamAttr(), dtype=dtype,
                                              default_initializer=_init.Normal(0.0, 1.0))
        self.weight_u.stop_gradient = True
        self.weight_v = self.create_parameter([w], attr=ParamAttr(), dtype=dtype,
                                              default_initializer=_init.Normal(0.0, 1.0))
        self.weight_v.stop_gradient = True

    def forward(self, x):
        return spectral_normalize(x, self.weight_u, self.weight_v, self._dim, self._power_iters, self._eps)


def spectral_normalize(x, u, v, dim, power_iters, eps):
    """x / sigma, sigma estimated by power_iters power-iteration steps from u, v on x as a [shape[dim], -1]
    matrix; the iteration is a constant for the gradient (Paddle's spectral_norm op). Both modes."""
    dim = dim % len(x.shape)
    mat = _t.transpose(x, [dim] + [d for d in range(len(x.shape)) if d != dim]) if dim else x
    mat = _t.reshape(mat, [mat.shape[0], -1])
    with no_grad():
        for _ in range(power_iters):
            v = _t.matmul(mat, u, transpose_x=True)
            v = v / (_t.sqrt(_t.sum(v * v)) + eps)
            u = _t.mv(mat, v)
            u = u / (_t.sqrt(_t.sum(u * u)) + eps)
    u.stop_gradient = v.stop_gradient = True  # static mode: the backward pass stops at the estimates
    return x / _t.sum(u * _t.mv(mat, v))
