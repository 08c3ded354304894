"""Channel/space rearrangements: pixel_shuffle, pixel_unshuffle, channel_shuffle (reshape + transpose)."""
import numbers

from ... import tensor as T
from ...tensor.math import _check_tensor

__all__ = ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle"]


def _check(x, factor, data_format, api, arg):
    _check_tensor(x, api)
    if len(x.shape) != 4:
        raise ValueError(f"{api}: x must be 4-D, received shape {x.shape}")
    if isinstance(factor, bool) or not isinstance(factor, numbers.Integral):
        raise TypeError(f"{api}: {arg} must be an int, received {type(factor).__name__}")
    if factor <= 0:
        raise ValueError(f"{api}: {arg} must be positive, received {factor}")
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{api}: data_format must be 'NCHW' or 'NHWC', received {data_format!r}")
    return T.transpose(x, [0, 3, 1, 2]) if data_format == "NHWC" else x


def _back(x, data_format):
    return T.transpose(x, [0, 2, 3, 1]) if data_format == "NHWC" else x


def pixel_shuffle(x, upscale_factor, data_format="NCHW", name=None):
    """[N, C r^2, H, W] -> [N, C, H r, W r]."""
    r = upscale_factor
    x = _check(x, r, data_format, "pixel_shuffle", "upscale_factor")
    n, c, h, w = x.shape
    if c % (r * r):
        raise ValueError(f"pixel_shuffle: the channel count {c} must be divisible by upscale_factor^2 ({r * r})")
    x = T.reshape(x, [n, c // (r * r), r, r, h, w])
    x = T.transpose(x, [0, 1, 4, 2, 5, 3])
    return _back(T.reshape(x, [n, c // (r * r), h * r, w * r]), data_format)


def pixel_unshuffle(x, downscale_factor, data_format="NCHW", name=None):
    """[N, C, H r, W r] -> [N, C r^2, H, W]."""
    r = downscale_factor
    x = _check(x, r, data_format, "pixel_unshuffle", "downscale_factor")
    n, c, h, w = x.shape
    if h % r or w % r:
        raise ValueError(f"pixel_unshuffle: height {h} and width {w} must be divisible by downscale_factor {r}")
    x = T.reshape(x, [n, c, h // r, r, w // r, r])
    x = T.transpose(x, [0, 1, 3, 5, 2, 4])
    return _back(T.reshape(x, [n, c * r * r, h // r, w // r]), data_format)


def channel_shuffle(x, groups, data_format="NCHW", name=None):
    """Interleaves the channels of `groups` groups: [N, g * k, H, W] -> channel order (k, g)."""
    x = _check(x, groups, data_format, "channel_shuffle", "groups")
    n, c, h, w = x.shape
    if c % groups:
        raise ValueError(f"channel_shuffle: the channel count {c} must be divisible by groups ({groups})")
    x = T.transpose(T.reshape(x, [n, groups, c // groups, h, w]), [0, 2, 1, 3, 4])
    return _back(T.reshape(x, [n, c, h, w]), data_format)
