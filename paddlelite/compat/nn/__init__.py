"""paddle.compat.nn: torch.nn's spellings of Linear (weight [out, in], torch's initialisation), Softmax (`dim`),
AvgPool1d/2d/3d (`count_include_pad`), Unfold and MultiheadAttention (transformer.py)."""
import collections.abc as _abc
import itertools as _itertools
import math as _math

from ... import nn as _nn
from ...framework.dtype import get_default_dtype as _default_dtype
from ...nn import init as _init
from ...tensor.tensor_args import is_tensor_like as _is_tensor_like
from ...utils.decorator_utils import ForbidKeywordsDecorator
from . import functional
from .transformer import MultiheadAttention

__all__ = ["Unfold", "Linear", "Softmax", "AvgPool1D", "AvgPool2D", "AvgPool3D", "AvgPool1d", "AvgPool2d", "AvgPool3d",
           "MultiheadAttention"]


def _single(x):
    return tuple(x) if isinstance(x, _abc.Iterable) else tuple(_itertools.repeat(x, 1))


class AvgPool1D(_nn.Layer):
    """torch.nn.AvgPool1d: `count_include_pad` (the padding counts in the mean) where Paddle says `exclusive`."""

    @ForbidKeywordsDecorator(illegal_keys={"exclusive", "name"}, func_name="paddle.compat.nn.AvgPool1D",
                             correct_name="paddle.nn.AvgPool1D")
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input):
        return _nn.functional.avg_pool1d(input, self.kernel_size, self.stride, self.padding, not self.count_include_pad,
                                        self.ceil_mode)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AvgPoolND(_nn.Layer):
    """AvgPool2d / AvgPool3d: torch's arguments, with `divisor_override`."""
    _pool = None

    def __init_subclass__(cls):  # each subclass rejects Paddle's keywords under its own name
        cls.__init__ = ForbidKeywordsDecorator(illegal_keys={"exclusive", "data_format", "name"},
                                               func_name=f"paddle.compat.nn.{cls.__name__}",
                                               correct_name=f"paddle.nn.{cls.__name__}")(_AvgPoolND.__init__)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def forward(self, input):
        return type(self)._pool(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                not self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2D(_AvgPoolND):
    _pool = _nn.functional.avg_pool2d


class AvgPool3D(_AvgPoolND):
    _pool = _nn.functional.avg_pool3d


class Unfold(_nn.Unfold):
    """torch.nn.Unfold: `kernel_size`, `dilation`, `padding`, `stride` (Paddle's are plural)."""

    @ForbidKeywordsDecorator(illegal_keys={"kernel_sizes", "dilations", "paddings", "strides"},
                             func_name="paddle.compat.nn.Unfold", correct_name="paddle.nn.Unfold")
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(kernel_size, dilation, padding, stride)

    def forward(self, input):
        def as_list(x):
            return x.tolist() if _is_tensor_like(x) else x
        return _nn.functional.unfold(input, kernel_sizes=as_list(self.kernel_sizes), strides=as_list(self.strides),
                                    paddings=as_list(self.paddings), dilations=as_list(self.dilations))


class Linear(_nn.Layer):
    """torch.nn.Linear: weight [out_features, in_features], kaiming-uniform weight and fan-in uniform bias."""

    @ForbidKeywordsDecorator(illegal_keys={"weight_attr", "bias_attr", "name"}, func_name="paddle.compat.nn.Linear",
                             correct_name="paddle.nn.Linear")
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self._dtype = _default_dtype() if dtype is None else dtype
        self.in_features, self.out_features = in_features, out_features
        self.weight = self.create_parameter(shape=[out_features, in_features], attr=None, dtype=self._dtype,
                                            is_bias=False, device=device)
        self.bias = None
        if bias:
            self.bias = self.create_parameter(shape=[out_features], attr=None, dtype=self._dtype, is_bias=True,
                                              device=device)
        self.reset_parameters()

    def forward(self, input):
        return functional.linear.__wrapped__(input=input, weight=self.weight, bias=self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"

    def reset_parameters(self):
        _init.kaiming_uniform_(self.weight, a=_math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.shape[1]
            bound = 1 / _math.sqrt(fan_in) if fan_in > 0 else 0
            _init.uniform_(self.bias, -bound, bound)


class Softmax(_nn.Layer):
    """torch.nn.Softmax(dim)."""

    @ForbidKeywordsDecorator(illegal_keys={"axis"}, func_name="paddle.compat.nn.Softmax",
                             correct_name="paddle.nn.Softmax")
    def __init__(self, dim=None):
        super().__init__()
        self._dim = dim
        self._dtype = None

    def forward(self, input):
        return functional.softmax(input, self._dim)

    def extra_repr(self):
        return f"dim={self._dim}"


AvgPool1d, AvgPool2d, AvgPool3d = AvgPool1D, AvgPool2D, AvgPool3D
