"""Linear, Embedding, Dropout, Flatten, Identity."""
import numpy as np

from ...framework.mode import in_static_mode
from .. import functional as F
from .layers import Layer

__all__ = ["Linear", "Embedding", "Dropout", "Flatten", "Identity",
           "Pad1D", "ZeroPad1D", "ConstantPad1D", "ReflectionPad1D", "ReplicationPad1D", "CircularPad1D", "ConstantPad1d", "ReflectionPad1d", "ReplicationPad1d", "CircularPad1d", "Pad2D", "ZeroPad2D", "ConstantPad2D", "ReflectionPad2D", "ReplicationPad2D", "CircularPad2D", "ConstantPad2d", "ReflectionPad2d", "ReplicationPad2d", "CircularPad2d", "Pad3D", "ZeroPad3D", "ConstantPad3D", "ReflectionPad3D", "ReplicationPad3D", "CircularPad3D", "ConstantPad3d", "ReflectionPad3d", "ReplicationPad3d", "CircularPad3d", "Upsample", "UpsamplingNearest2D", "UpsamplingBilinear2D", "Unfold", "Fold", "Bilinear",
           "CosineSimilarity", "Unflatten", "Dropout2D", "Dropout3D", "AlphaDropout", "FeatureAlphaDropout"]


def _positive_int(value, api, arg):
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{api}: {arg} must be a positive int, received {value!r}")
    return int(value)


class Linear(Layer):
    """y = x @ weight + bias, weight of shape [in_features, out_features] (Paddle's layout)."""

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, name=None):
        # as in Paddle, `name` does not change the parameter names, and the parameters take the default dtype
        super().__init__(dtype=None)
        self.in_features = _positive_int(in_features, "Linear", "in_features")
        self.out_features = _positive_int(out_features, "Linear", "out_features")
        self.weight = self.create_parameter([self.in_features, self.out_features], attr=weight_attr)
        self.bias = self.create_parameter([self.out_features], attr=bias_attr, is_bias=True)
        self.name = name

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        name = f", name={self.name}" if self.name else ""
        return f"in_features={self.in_features}, out_features={self.out_features}, dtype={self._dtype}{name}"


class Embedding(Layer):
    """A lookup table [num_embeddings, embedding_dim]; the padding_idx row starts at zero and gets no
    gradient. `_weight` is used as the table (its padding row zeroed in place, as Paddle does); `_freeze` stops
    its gradient. `sparse` makes the table's gradient Paddle's SELECTED_ROWS variable in a static program (its
    values are the dense gradient's); `device` is accepted and the table lives on the default place."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0, *,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None,
                 weight_attr=None, name=None):
        super().__init__(dtype=dtype)  # None: the table takes the default dtype, as in Paddle
        self._num_embeddings = _positive_int(num_embeddings, "Embedding", "num_embeddings")
        self._embedding_dim = _positive_int(embedding_dim, "Embedding", "embedding_dim")
        if padding_idx is not None and (not isinstance(padding_idx, (int, np.integer)) or
                                        not -num_embeddings <= padding_idx < num_embeddings):
            raise ValueError(f"Embedding: padding_idx must be an int in [-{num_embeddings}, "
                             f"{num_embeddings}), received {padding_idx!r}")
        self._padding_idx = padding_idx  # as given (negative counts from the end), as Paddle keeps it
        self._max_norm = max_norm
        self._norm_type = norm_type
        self._scale_grad_by_freq = bool(scale_grad_by_freq)
        self._sparse = bool(sparse)
        self._device = device
        self._name = name
        if _weight is not None:
            if list(_weight.shape) != [self._num_embeddings, self._embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = _weight
            self.weight.stop_gradient = _freeze
        else:
            self.weight = self.create_parameter([self._num_embeddings, self._embedding_dim], attr=weight_attr)
            if weight_attr is None:
                self.weight.stop_gradient = _freeze
        if padding_idx is not None and not in_static_mode():
            data = self.weight._data.copy()
            data[int(padding_idx) % num_embeddings] = 0
            self.weight._write(data)

    def forward(self, x):
        return F.embedding(x, weight=self.weight, padding_idx=self._padding_idx, max_norm=self._max_norm,
                           norm_type=self._norm_type, sparse=self._sparse,
                           scale_grad_by_freq=self._scale_grad_by_freq)

    def extra_repr(self):
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        s += f", padding_idx={self._padding_idx}" if self._padding_idx is not None else ""
        return s + f", sparse={self._sparse}, scale_grad_by_freq={self._scale_grad_by_freq}" + self._name_suffix()


class Dropout(Layer):
    def __init__(self, p=0.5, inplace=False, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        if not isinstance(p, (int, float)) or isinstance(p, bool) or not 0 <= p <= 1:
            raise ValueError(f"Dropout: p must be a number in [0, 1], received {p!r}")
        if mode not in ("upscale_in_train", "downscale_in_infer"):
            raise ValueError(f"Dropout: mode must be 'upscale_in_train' or 'downscale_in_infer', received {mode!r}")
        self.p = p
        self.inplace = inplace
        self.axis = axis
        self.mode = mode
        self.name = name

    def forward(self, input):
        return F.dropout(input, p=self.p, axis=self.axis, training=self.training, inplace=self.inplace,
                         mode=self.mode)

    def extra_repr(self):
        name = f", name={self.name}" if self.name else ""
        return f"p={self.p}, axis={self.axis}, mode={self.mode}{name}, inplace={self.inplace}"


class Flatten(Layer):
    def __init__(self, start_axis=1, stop_axis=-1):
        super().__init__()
        self.start_axis = start_axis
        self.stop_axis = stop_axis

    def forward(self, input):
        from ... import flatten
        return flatten(input, start_axis=self.start_axis, stop_axis=self.stop_axis)


class Identity(Layer):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


_PAD_FORMATS = {1: "NCL", 2: "NCHW", 3: "NCDHW"}


class _PadNd(Layer):
    """F.pad over the spatial dims; an int padding pads every side by it."""
    _nd = 2
    _mode = "constant"

    def __init__(self, padding, mode="constant", value=0.0, data_format=None, name=None):
        super().__init__()
        self._pad = [int(padding)] * (2 * self._nd) if isinstance(padding, (int, np.integer)) else padding
        self._mode, self._value = mode, value
        self._data_format = data_format or _PAD_FORMATS[self._nd]
        self._name = name

    def forward(self, x):
        return F.pad(x, self._pad, mode=self._mode, value=self._value, data_format=self._data_format)

    def extra_repr(self):
        return (f"padding={self._pad}, mode={self._mode}, value={self._value}, data_format={self._data_format}"
                + self._name_suffix())


def _pad_layers(nd):
    fmt = _PAD_FORMATS[nd]

    class Pad(_PadNd):
        _nd = nd

        def __init__(self, padding, mode="constant", value=0.0, data_format=fmt, name=None):
            super().__init__(padding, mode, value, data_format, name)

    class ZeroPad(_PadNd):
        _nd = nd

        def __init__(self, padding, data_format=fmt, name=None):
            super().__init__(padding, "constant", 0.0, data_format, name)

    class ConstantPad(_PadNd):
        _nd = nd

        def __init__(self, padding, value, data_format=fmt, name=None):
            super().__init__(padding, "constant", value, data_format, name)

    def fixed(mode):
        class Fixed(_PadNd):
            _nd = nd

            def __init__(self, padding, data_format=fmt, name=None):
                super().__init__(padding, mode, 0.0, data_format, name)
        return Fixed
    layers = {"Pad": Pad, "ZeroPad": ZeroPad, "ConstantPad": ConstantPad, "ReflectionPad": fixed("reflect"),
              "ReplicationPad": fixed("replicate"), "CircularPad": fixed("circular")}
    for prefix, cls in layers.items():
        cls.__name__ = cls.__qualname__ = f"{prefix}{nd}D"
        cls.__doc__ = f"Pads the spatial dims of a {nd + 2}-D input ({prefix[:-3].lower() or 'any'} mode)."
    return layers.values()


Pad1D, ZeroPad1D, ConstantPad1D, ReflectionPad1D, ReplicationPad1D, CircularPad1D = _pad_layers(1)
Pad2D, ZeroPad2D, ConstantPad2D, ReflectionPad2D, ReplicationPad2D, CircularPad2D = _pad_layers(2)
Pad3D, ZeroPad3D, ConstantPad3D, ReflectionPad3D, ReplicationPad3D, CircularPad3D = _pad_layers(3)
ConstantPad1d, ReflectionPad1d, ReplicationPad1d, CircularPad1d = ConstantPad1D, ReflectionPad1D, ReplicationPad1D, \
    CircularPad1D  # Paddle's aliases
ConstantPad2d, ReflectionPad2d, ReplicationPad2d, CircularPad2d = ConstantPad2D, ReflectionPad2D, ReplicationPad2D, \
    CircularPad2D
ConstantPad3d, ReflectionPad3d, ReplicationPad3d, CircularPad3d = ConstantPad3D, ReflectionPad3D, ReplicationPad3D, \
    CircularPad3D


class Upsample(Layer):
    """F.interpolate with fixed settings."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
                 data_format=None, recompute_scale_factor=None, name=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode.lower()
        self.align_corners, self.align_mode, self.data_format = align_corners, align_mode, data_format
        self.recompute_scale_factor, self.name = recompute_scale_factor, name

    def forward(self, x):
        if self.data_format is None:  # Paddle's layer keeps the layout it resolved for the first input
            self.data_format = {3: "NCW", 4: "NCHW", 5: "NCDHW"}.get(len(x.shape))
        return F.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners, self.align_mode,
                             self.data_format, self.recompute_scale_factor)

    def _size_text(self):
        return f"scale_factor={self.scale_factor}" if self.scale_factor is not None else f"size={self.size}"

    def extra_repr(self):
        return (f"{self._size_text()}, mode={self.mode}, align_corners={self.align_corners}, "
                f"align_mode={self.align_mode}, data_format={self.data_format}"
                + (f", name={self.name}" if self.name else ""))


class UpsamplingNearest2D(Upsample):
    _mode, _align = "nearest", False

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__(size, scale_factor, self._mode, self._align, 0, data_format, None, name)

    def extra_repr(self):
        return f"{self._size_text()}, data_format={self.data_format}" + (f", name={self.name}" if self.name else "")


class UpsamplingBilinear2D(UpsamplingNearest2D):
    _mode, _align = "bilinear", True


class Unfold(Layer):
    def __init__(self, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        self.kernel_sizes, self.dilations, self.paddings, self.strides = kernel_sizes, dilations, paddings, strides
        self.name = name

    def forward(self, input):
        return F.unfold(input, self.kernel_sizes, self.strides, self.paddings, self.dilations)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, padding={self.paddings}, "
                f"stride={self.strides}" + (f", name={self.name}" if self.name else ""))


class Fold(Unfold):
    def __init__(self, output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__(kernel_sizes, dilations, paddings, strides, name)
        self.output_sizes = output_sizes

    def forward(self, input):
        return F.fold(input, self.output_sizes, self.kernel_sizes, self.strides, self.paddings, self.dilations)


class Bilinear(Layer):
    """out = x1 W x2 + b with W [out_features, in1_features, in2_features] and b [1, out_features]."""

    def __init__(self, in1_features, in2_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__(dtype=None)  # the parameters take the default dtype, as in Paddle
        self._in1_features, self._in2_features, self._out_features = in1_features, in2_features, out_features
        self._name = name
        self.weight = self.create_parameter([out_features, in1_features, in2_features], attr=weight_attr)
        self.bias = self.create_parameter([1, out_features], attr=bias_attr, is_bias=True)

    def forward(self, x1, x2):
        return F.bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self._in1_features}, in2_features={self._in2_features}, "
                f"out_features={self._out_features}, dtype={self._dtype}" + self._name_suffix())


class CosineSimilarity(Layer):
    def __init__(self, axis=1, eps=1e-8):
        super().__init__()
        self._axis, self._eps = axis, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, axis=self._axis, eps=self._eps)

    def extra_repr(self):
        return f"axis={self._axis}, eps={self._eps}"


class Unflatten(Layer):
    """Splits dim `axis` into `shape`."""

    def __init__(self, axis, shape, name=None):
        super().__init__()
        self.axis, self.shape, self.name = axis, shape, name

    def forward(self, input):
        nd = len(input.shape)
        axis = self.axis % nd
        return input.reshape(list(input.shape[:axis]) + list(self.shape) + list(input.shape[axis + 1:]))

    def extra_repr(self):
        return f"axis={self.axis}, shape={self.shape}" + (f", name={self.name}" if self.name else "")


class _ChannelDropout(Layer):
    _fn, _format = None, None

    def __init__(self, p=0.5, data_format=None, name=None):
        super().__init__()
        self.p, self.data_format, self.name = p, data_format or self._format, name

    def forward(self, input):
        return getattr(F, self._fn)(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self):
        return f"p={self.p}, data_format={self.data_format}" + (f", name={self.name}" if self.name else "")


class Dropout2D(_ChannelDropout):
    _fn, _format = "dropout2d", "NCHW"

    def __init__(self, p=0.5, data_format="NCHW", name=None):
        super().__init__(p, data_format, name)


class Dropout3D(_ChannelDropout):
    _fn, _format = "dropout3d", "NCDHW"

    def __init__(self, p=0.5, data_format="NCDHW", name=None):
        super().__init__(p, data_format, name)


class AlphaDropout(Layer):
    _fn = "alpha_dropout"

    def __init__(self, p=0.5, name=None):
        super().__init__()
        self.p, self.name = p, name

    def forward(self, input):
        return getattr(F, self._fn)(input, p=self.p, training=self.training)

    def extra_repr(self):
        return f"p={self.p}" + (f", name={self.name}" if self.name else "")


class FeatureAlphaDropout(AlphaDropout):
    _fn = "feature_alpha_dropout"
