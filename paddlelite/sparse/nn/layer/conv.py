"""paddle.sparse.nn's convolution layers: weight [*kernel, in_channels, out_channels] drawn from
Normal(0, sqrt(2 / (prod(kernel) * in_channels))), bias zeros (Paddle's defaults)."""
import math

from ....nn import initializer as _init
from ....nn.functional.conv import int_tuple
from ....nn.layer.layers import Layer
from ..functional import conv as _conv


class _ConvND(Layer):
    _nd = 3

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 subm=False, key=None, padding_mode="zeros", weight_attr=None, bias_attr=None, data_format=None,
                 backend=None):
        super().__init__()
        api = type(self).__name__
        layout = "NDHWC" if self._nd == 3 else "NHWC"
        data_format = layout if data_format is None else data_format
        if weight_attr is False:
            raise AssertionError("weight_attr should not be False in Conv.")
        if padding_mode != "zeros":
            raise AssertionError("Currently, only support padding_mode='zeros'")
        if groups != 1:
            raise AssertionError("Currently, only support groups=1")
        if backend not in (None, "igemm"):
            raise AssertionError(f"The value of 'backend' in {api} should be None or 'igemm'.")
        if data_format != layout:
            raise ValueError(f"data_format must be one of {{'{layout}'}}, but got data_format='{data_format}'")
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = int_tuple(kernel_size, self._nd, api, "kernel_size")
        self._stride = int_tuple(stride, self._nd, api, "stride")
        self._dilation = int_tuple(dilation, self._nd, api, "dilation")
        self._padding, self._padding_mode, self._groups = padding, padding_mode, groups
        self._subm, self._key, self._backend, self._data_format = subm, key, backend, data_format
        std = math.sqrt(2.0 / (math.prod(self._kernel_size) * in_channels))
        self.weight = self.create_parameter([*self._kernel_size, in_channels, out_channels], attr=weight_attr,
                                            default_initializer=_init.Normal(0.0, std))
        self.bias = self.create_parameter([out_channels], attr=bias_attr, is_bias=True)

    def forward(self, x):
        return _conv._conv(x, self.weight, self.bias, self._stride, self._padding, self._dilation, self._groups,
                           self._subm, self._data_format, self._nd, type(self).__name__)

    def extra_repr(self):
        text = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * self._nd:
            text += f", stride={self._stride}"
        if self._padding != 0:
            text += f", padding={self._padding}"
        if self._dilation != [1] * self._nd:
            text += f", dilation={self._dilation}"
        return text + f", data_format={self._data_format}"


class Conv3D(_ConvND):
    """The 3-D convolution of a point cloud [N, D, H, W, C] (its output sites: every position reached)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format="NDHWC"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, False, None,
                         padding_mode, weight_attr, bias_attr, data_format)


class SubmConv3D(_ConvND):
    """The submanifold 3-D convolution (outputs at the input's own sites)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", key=None, weight_attr=None, bias_attr=None, data_format="NDHWC", backend=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, True, key,
                         padding_mode, weight_attr, bias_attr, data_format, backend)


class Conv2D(_ConvND):
    """The 2-D convolution of a sparse [N, H, W, C] tensor."""

    _nd = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format="NHWC"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, False, None,
                         padding_mode, weight_attr, bias_attr, data_format)


class SubmConv2D(_ConvND):
    """The submanifold 2-D convolution."""

    _nd = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", key=None, weight_attr=None, bias_attr=None, data_format="NHWC", backend=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, True, key,
                         padding_mode, weight_attr, bias_attr, data_format, backend)
