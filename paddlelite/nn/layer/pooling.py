"""Pooling layers."""
from .. import functional as F
from .layers import Layer

__all__ = ["MaxPool2D", "AvgPool2D", "AdaptiveAvgPool2D", "AdaptiveMaxPool2D", "MaxPool1D", "AvgPool1D",
           "AdaptiveAvgPool1D", "AdaptiveMaxPool1D", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "LPPool1D", "LPPool2D",
           "LPPool1d", "LPPool2d", "MaxUnPool2D", "MaxUnPool1D", "MaxPool3D", "AvgPool3D", "AdaptiveAvgPool3D",
           "AdaptiveMaxPool3D", "AdaptiveMaxPool3d", "MaxUnPool3D", "FractionalMaxPool2D", "FractionalMaxPool3D"]


class MaxPool2D(Layer):
    _fn = "max_pool2d"

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NCHW", name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode, self.data_format = return_mask, ceil_mode, data_format

    def forward(self, x):
        return getattr(F, self._fn)(x, kernel_size=self.ksize, stride=self.stride, padding=self.padding,
                            return_mask=self.return_mask, ceil_mode=self.ceil_mode, data_format=self.data_format)

    def extra_repr(self):
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class AvgPool2D(Layer):
    _fn = "avg_pool2d"

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format="NCHW", name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.exclusive, self.divisor = ceil_mode, exclusive, divisor_override
        self.data_format = data_format

    def forward(self, x):
        return getattr(F, self._fn)(x, kernel_size=self.ksize, stride=self.stride, padding=self.padding,
                            ceil_mode=self.ceil_mode, exclusive=self.exclusive, divisor_override=self.divisor,
                            data_format=self.data_format)

    def extra_repr(self):
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2D(Layer):
    _fn = "adaptive_avg_pool2d"

    def __init__(self, output_size, data_format="NCHW", name=None):
        super().__init__()
        self._output_size, self._data_format = output_size, data_format

    def forward(self, x):
        return getattr(F, self._fn)(x, output_size=self._output_size, data_format=self._data_format)

    def extra_repr(self):
        return f"output_size={self._output_size}"


class AdaptiveMaxPool2D(Layer):
    _fn = "adaptive_max_pool2d"

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__()
        self._output_size, self._return_mask = output_size, return_mask

    def forward(self, x):
        return getattr(F, self._fn)(x, output_size=self._output_size, return_mask=self._return_mask)

    def extra_repr(self):
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class MaxPool1D(Layer):
    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode = return_mask, ceil_mode

    def forward(self, x):
        return F.max_pool1d(x, self.ksize, self.stride, self.padding, self.return_mask, self.ceil_mode)

    def extra_repr(self):
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class AvgPool1D(Layer):
    def __init__(self, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False, name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.exclusive, self.ceil_mode = exclusive, ceil_mode

    def forward(self, x):
        return F.avg_pool1d(x, self.ksize, self.stride, self.padding, self.exclusive, self.ceil_mode)

    def extra_repr(self):
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool1D(Layer):
    def __init__(self, output_size, name=None):
        super().__init__()
        self._output_size = output_size

    def forward(self, x):
        return F.adaptive_avg_pool1d(x, self._output_size)

    def extra_repr(self):
        return f"output_size={self._output_size}"


class AdaptiveMaxPool1D(Layer):
    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__()
        self._output_size, self._return_mask = output_size, return_mask

    def forward(self, x):
        return F.adaptive_max_pool1d(x, self._output_size, self._return_mask)

    def extra_repr(self):
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


AdaptiveMaxPool1d, AdaptiveMaxPool2d = AdaptiveMaxPool1D, AdaptiveMaxPool2D  # Paddle's aliases


class LPPool2D(Layer):
    _fn, _format = "lp_pool2d", "NCHW"

    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False, data_format=None, name=None):
        super().__init__()
        self.norm_type, self.kernel_size = float(norm_type), kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding, self.ceil_mode, self.data_format = padding, ceil_mode, data_format or self._format

    def forward(self, x):
        return getattr(F, self._fn)(x, self.norm_type, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                    self.data_format)

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"padding={self.padding}")


class LPPool1D(LPPool2D):
    _fn, _format = "lp_pool1d", "NCL"


LPPool1d, LPPool2d = LPPool1D, LPPool2D  # Paddle's aliases


class MaxUnPool2D(Layer):
    _fn = "max_unpool2d"

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCHW", output_size=None, name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.data_format, self.output_size, self.name = data_format, output_size, name

    def forward(self, x, indices):
        return getattr(F, self._fn)(x, indices, self.ksize, self.stride, self.padding, self.data_format,
                                    self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class MaxUnPool1D(MaxUnPool2D):
    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCL", output_size=None, name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)

    def forward(self, x, indices):
        return F.max_unpool1d(x, indices, self.ksize, self.stride, self.padding, self.data_format, self.output_size)


# ---- 3-D: the 2-D layers over the 3-D functions (channel-first default NCDHW) ---------------------
class MaxPool3D(MaxPool2D):
    _fn = "max_pool3d"

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NCDHW", name=None):
        super().__init__(kernel_size, stride, padding, return_mask, ceil_mode, data_format, name)


class AvgPool3D(AvgPool2D):
    _fn = "avg_pool3d"

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format="NCDHW", name=None):
        super().__init__(kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format, name)


class AdaptiveAvgPool3D(AdaptiveAvgPool2D):
    _fn = "adaptive_avg_pool3d"

    def __init__(self, output_size, data_format="NCDHW", name=None):
        super().__init__(output_size, data_format, name)


class AdaptiveMaxPool3D(AdaptiveMaxPool2D):
    _fn = "adaptive_max_pool3d"


class MaxUnPool3D(MaxUnPool2D):
    _fn = "max_unpool3d"

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCDHW", output_size=None, name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)


AdaptiveMaxPool3d = AdaptiveMaxPool3D  # Paddle's alias


class FractionalMaxPool2D(Layer):
    _fn = "fractional_max_pool2d"

    def __init__(self, output_size, kernel_size=None, random_u=None, return_mask=False, name=None):
        super().__init__()
        self.output_size, self.kernel_size, self.random_u = output_size, kernel_size, random_u
        self.return_mask, self.name = return_mask, name

    def forward(self, x):
        return getattr(F, self._fn)(x, self.output_size, self.kernel_size, self.random_u, self.return_mask)

    def extra_repr(self):
        return f"output_size={self.output_size}, return_mask={self.return_mask}"


class FractionalMaxPool3D(FractionalMaxPool2D):
    _fn = "fractional_max_pool3d"
