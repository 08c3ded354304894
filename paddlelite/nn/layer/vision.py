"""PixelShuffle, PixelUnshuffle, ChannelShuffle: layers over nn.functional.vision."""
from .. import functional as F
from .layers import Layer

__all__ = ["PixelShuffle", "PixelUnshuffle", "ChannelShuffle"]


class _Rearrange(Layer):
    _fn = _arg = None

    def __init__(self, factor, data_format="NCHW", name=None):
        super().__init__()
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"{type(self).__name__}: data_format must be 'NCHW' or 'NHWC', received "
                             f"{data_format!r}")
        self._factor, self._data_format, self._name = factor, data_format, name

    def forward(self, x):
        return getattr(F, self._fn)(x, self._factor, self._data_format)

    def extra_repr(self):
        text = f"{self._arg}={self._factor}"
        if self._data_format != "NCHW":
            text += f", data_format={self._data_format}"
        return text + self._name_suffix()


class PixelShuffle(_Rearrange):
    _fn, _arg = "pixel_shuffle", "upscale_factor"

    def __init__(self, upscale_factor, data_format="NCHW", name=None):
        super().__init__(upscale_factor, data_format, name)


class PixelUnshuffle(_Rearrange):
    _fn, _arg = "pixel_unshuffle", "downscale_factor"

    def __init__(self, downscale_factor, data_format="NCHW", name=None):
        super().__init__(downscale_factor, data_format, name)


class ChannelShuffle(_Rearrange):
    _fn, _arg = "channel_shuffle", "groups"

    def __init__(self, groups, data_format="NCHW", name=None):
        super().__init__(groups, data_format, name)
