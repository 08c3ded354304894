"""Conv1D / Conv2D / Conv3D layers (weights [out_channels, in_channels / groups, *kernel], Paddle's layout) and their
transposes (weights [in_channels, out_channels / groups, *kernel])."""
import numpy as np

from .. import functional as F
from .. import initializer as _init
from .layers import Layer

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose", "Conv1d", "Conv2d",
           "Conv3d"]

_PAD_MODES = {"zeros": None, "reflect": "reflect", "replicate": "replicate", "circular": "circular"}


def _ntuple(value, n, api, arg):
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return [int(value)] * n
    if isinstance(value, (list, tuple)) and len(value) == n and all(isinstance(v, (int, np.integer)) for v in value):
        return [int(v) for v in value]
    raise ValueError(f"{api}: {arg} must be an int or a list of {n} ints, received {value!r}")


class _ConvNd(Layer):
    _nd = 2
    _fn = None
    _transposed = False
    _output_padding = 0

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format="NCHW"):
        super().__init__(dtype=None)  # the parameters take the default dtype, as in Paddle
        api = type(self).__name__
        for arg, v in (("in_channels", in_channels), ("out_channels", out_channels), ("groups", groups)):
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"{api}: {arg} must be a positive int, received {v!r}")
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"{api}: in_channels ({in_channels}) and out_channels ({out_channels}) must be "
                             f"divisible by groups ({groups})")
        if padding_mode not in _PAD_MODES:
            raise ValueError(f"{api}: padding_mode must be one of {sorted(_PAD_MODES)}, received {padding_mode!r}")
        self._in_channels, self._out_channels, self._groups = int(in_channels), int(out_channels), int(groups)
        self._kernel_size = _ntuple(kernel_size, self._nd, api, "kernel_size")
        self._stride = stride
        self._dilation = dilation
        self._padding_mode = padding_mode
        self._data_format = data_format
        self._padding = padding
        if padding_mode != "zeros":  # padded by F.pad before the convolution
            if not isinstance(padding, (int, np.integer)) or isinstance(padding, bool):
                raise TypeError(f"{api}: with padding_mode={padding_mode!r} padding must be an int, received "
                                f"{padding!r}")
            self._pad = _ntuple(padding, self._nd, api, "padding")
        fan_in = self._in_channels * int(np.prod(self._kernel_size))  # Paddle's: all input channels, groups or not
        if self._transposed:  # Paddle's default (Xavier) initializer, weights [in, out / groups, *kernel]
            shape, init = [self._in_channels, self._out_channels // self._groups], None
        else:
            shape, init = [self._out_channels, self._in_channels // self._groups], _init.Normal(0.0, (2.0 / fan_in) ** 0.5)
        self.weight = self.create_parameter(shape + self._kernel_size, attr=weight_attr, default_initializer=init)
        self.bias = self.create_parameter([self._out_channels], attr=bias_attr, is_bias=True)

    def _padded(self, x):
        return padded(x, self._padding_mode, getattr(self, "_pad", None), self._data_format)

    def forward(self, x):
        return getattr(F, self._fn)(self._padded(x), self.weight, bias=self.bias, stride=self._stride,
                                    padding=self._padding if self._padding_mode == "zeros" else 0,
                                    dilation=self._dilation, groups=self._groups,
                                    data_format=self._data_format)

    def extra_repr(self):
        text = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        stride = _ntuple(self._stride, self._nd, type(self).__name__, "stride")
        dilation = _ntuple(self._dilation, self._nd, type(self).__name__, "dilation")
        if stride != [1] * self._nd:
            text += f", stride={stride}"
        if self._padding != 0:
            text += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            text += f", padding_mode={self._padding_mode}"
        if self._output_padding != 0:
            text += f", output_padding={self._output_padding}"
        if dilation != [1] * self._nd:
            text += f", dilation={dilation}"
        if self._groups != 1:
            text += f", groups={self._groups}"
        return text + f", data_format={self._data_format}"


class Conv2D(_ConvNd):
    _nd = 2
    _fn = "conv2d"


class Conv3D(_ConvNd):
    _nd = 3
    _fn = "conv3d"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format="NCDHW"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, padding_mode,
                         weight_attr, bias_attr, data_format)


class Conv1D(_ConvNd):
    _nd = 1
    _fn = "conv1d"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format="NCL"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, padding_mode,
                         weight_attr, bias_attr, data_format)


class _ConvTransposeNd(_ConvNd):
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, dilation, groups,
                 weight_attr, bias_attr, data_format):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, "zeros",
                         weight_attr, bias_attr, data_format)
        self._output_padding = output_padding

    def forward(self, x, output_size=None):
        return getattr(F, self._fn)(x, self.weight, bias=self.bias, stride=self._stride, padding=self._padding,
                                    output_padding=self._output_padding, dilation=self._dilation,
                                    groups=self._groups, output_size=output_size, data_format=self._data_format)


class Conv2DTranspose(_ConvTransposeNd):
    _nd = 2
    _fn = "conv2d_transpose"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, dilation=1,
                 groups=1, weight_attr=None, bias_attr=None, data_format="NCHW"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, output_padding, dilation, groups,
                         weight_attr, bias_attr, data_format)


class Conv3DTranspose(_ConvTransposeNd):
    _nd = 3
    _fn = "conv3d_transpose"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, dilation=1,
                 groups=1, weight_attr=None, bias_attr=None, data_format="NCDHW"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, output_padding, dilation, groups,
                         weight_attr, bias_attr, data_format)


class Conv1DTranspose(_ConvTransposeNd):
    _nd = 1
    _fn = "conv1d_transpose"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 dilation=1, weight_attr=None, bias_attr=None, data_format="NCL"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, output_padding, dilation, groups,
                         weight_attr, bias_attr, data_format)


Conv1d, Conv2d, Conv3d = Conv1D, Conv2D, Conv3D  # Paddle's aliases


def padded(x, padding_mode, pad, data_format):
    """x padded by F.pad for a convolution's non-zero padding_mode (`pad`: one int per spatial dim); x itself for
    'zeros', which the convolution pads."""
    if padding_mode == "zeros":
        return x
    widths = []
    for p in reversed(pad):  # F.pad lists the last spatial dim first
        widths += [p, p]
    return F.pad(x, widths, mode=_PAD_MODES[padding_mode], data_format=data_format)
