"""The transforms' Tensor backend: images are Tensors laid out CHW (or HWC), batched NCHW for the samplers.

Written with the functional API only, so it runs on whatever device holds the image, and the geometric
transforms (flips, crops, pad, resize) also build static Programs, as Paddle's do.
"""
import math
import numbers

from ... import tensor as T
from ...framework.tensor import Tensor
from ...static import Variable
from ...nn import functional as F

_AXES = {"chw": (-3, -2, -1), "hwc": (-1, -3, -2)}  # (channel, height, width)


def _axes(data_format):
    return _AXES[data_format.lower()]


def _check_image(img, data_format):
    if not isinstance(img, (Tensor, Variable)) or img.ndim not in (3, 4) or data_format.lower() not in _AXES:
        raise RuntimeError(f"not support [type={type(img)}, ndim={getattr(img, 'ndim', None)}, "
                           f"data_format={data_format}] paddle image")


def image_size(img, data_format="CHW"):
    """(width, height)"""
    _, h, w = _axes(data_format)
    return img.shape[w], img.shape[h]


def _float(img):
    """img in a floating dtype: integer images (uint8) are computed in float32 and cast back by the caller
    (Paddle's kernels reject uint8 here; paddlelite computes what the float path would and truncates)."""
    return img if T.is_floating_point(img) else img.astype("float32")


def _blend(img1, img2, ratio):
    """img2 + ratio * (img1 - img2), clipped to the image's range, in img1's dtype."""
    top = 1.0 if T.is_floating_point(img1) else 255.0
    return T.lerp(_float(img2), _float(img1), float(ratio)).clip(0, top).astype(img1.dtype)


def normalize(img, mean, std, data_format="CHW"):
    _check_image(img, data_format)
    mean, std = T.to_tensor(mean), T.to_tensor(std)
    if data_format.lower() == "chw":
        mean, std = mean.reshape([-1, 1, 1]), std.reshape([-1, 1, 1])
    return (img - mean) / std


def to_grayscale(img, num_output_channels=1, data_format="CHW"):
    _check_image(img, data_format)
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    weights = T.to_tensor([0.2989, 0.5870, 0.1140]).astype(_float(img).dtype)
    c = _axes(data_format)[0]
    if c == -3:
        weights = weights.reshape([-1, 1, 1])
    gray = (_float(img) * weights).sum(axis=c, keepdim=True).astype(img.dtype)
    shape = list(gray.shape)
    shape[c] = num_output_channels
    return gray.expand(shape)


def _to_nchw(img, data_format):
    batched = img.ndim == 4
    img = img if batched else img.unsqueeze(0)
    return (img if data_format.lower() == "chw" else img.transpose([0, 3, 1, 2])), batched


def _from_nchw(img, data_format, batched):
    img = img if data_format.lower() == "chw" else img.transpose([0, 2, 3, 1])
    return img if batched else img.squeeze(0)


def _grid_sample(img, grid, mode):
    """F.grid_sample(img, grid, mode, padding_mode='zeros', align_corners=False) for these transforms,
    composed of gathers (the samplers never need a gradient)."""
    n, c, h, w = img.shape
    ho, wo = grid.shape[1], grid.shape[2]
    x = ((grid[..., 0] + 1.0) * w - 1.0) / 2.0
    y = ((grid[..., 1] + 1.0) * h - 1.0) / 2.0
    flat = img.reshape([n, c, h * w])

    def at(ix, iy):
        inside = ((ix >= 0) & (ix <= w - 1) & (iy >= 0) & (iy <= h - 1)).astype(img.dtype)
        index = (iy.clip(0, h - 1) * w + ix.clip(0, w - 1)).astype("int64")
        index = index.reshape([n, 1, ho * wo]).expand([n, c, ho * wo])
        return T.take_along_axis(flat, index, axis=2).reshape([n, c, ho, wo]) * inside.unsqueeze(1)

    if mode == "nearest":
        return at(T.round(x), T.round(y))
    if mode != "bilinear":
        raise ValueError(f"grid sampling of the tensor transforms supports 'nearest' and 'bilinear', got '{mode}'")
    x0, y0 = T.floor(x), T.floor(y)
    wx, wy = (x - x0).unsqueeze(1), (y - y0).unsqueeze(1)
    return (at(x0, y0) * (1 - wx) * (1 - wy) + at(x0 + 1, y0) * wx * (1 - wy)
            + at(x0, y0 + 1) * (1 - wx) * wy + at(x0 + 1, y0 + 1) * wx * wy)


def _base_grid(ow, oh, x0, y0, dtype):
    """(1, oh, ow, 3): pixel centres (x, y, 1), the first one at (x0, y0)."""
    xs = T.linspace(x0, ow - 1 + x0, ow).astype(dtype)
    ys = T.linspace(y0, oh - 1 + y0, oh).astype(dtype)
    return T.stack([xs.unsqueeze(0).expand([oh, ow]), ys.unsqueeze(1).expand([oh, ow]),
                    T.ones([oh, ow], dtype=dtype)], axis=-1).unsqueeze(0)


def _sample(img, grid, mode, fill):
    """Sample `img` (N, C, H, W) at `grid`; pixels from outside the image take `fill` when it is given."""
    if not T.is_floating_point(img):
        return _sample(_float(img), grid, mode, fill).astype(img.dtype)
    grid = grid.expand([img.shape[0]] + list(grid.shape[1:]))
    if fill is not None:
        img = T.concat([img, T.ones([img.shape[0], 1] + list(img.shape[2:]), dtype=img.dtype)], axis=1)
    out = _grid_sample(img, grid, mode)
    if fill is None:
        return out
    mask, out = out[:, -1:], out[:, :-1]
    mask = mask.tile([1, out.shape[1], 1, 1])
    fills = list(fill) if isinstance(fill, (tuple, list)) else [fill]
    fill_img = T.to_tensor(fills).reshape([1, len(fills), 1, 1]).astype(out.dtype).expand_as(out)
    if mode == "nearest":
        mask = (mask < 0.5).astype(out.dtype)
        return out * (1.0 - mask) + mask * fill_img
    return out * mask + (1.0 - mask) * fill_img


def _affine_grid(matrix, w, h, ow, oh):
    base = _base_grid(ow, oh, -ow * 0.5 + 0.5, -oh * 0.5 + 0.5, matrix.dtype)
    theta = matrix.reshape([1, 2, 3]).transpose([0, 2, 1]) / T.to_tensor([0.5 * w, 0.5 * h]).astype(matrix.dtype)
    return base.reshape([1, oh * ow, 3]).bmm(theta).reshape([1, oh, ow, 2])


def affine(img, matrix, interpolation="nearest", fill=None, data_format="CHW"):
    img, batched = _to_nchw(img, data_format)
    h, w = img.shape[-2:]
    grid = _affine_grid(T.to_tensor(matrix, dtype="float32"), w, h, w, h)
    if isinstance(fill, int):
        fill = (fill,) * 3
    return _from_nchw(_sample(img, grid, interpolation, fill), data_format, batched)


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=None, data_format="CHW"):
    w, h = image_size(img, data_format)
    img, _ = _to_nchw(img, data_format)
    cx, cy = (0.0, 0.0) if center is None else (center[0] - w * 0.5, center[1] - h * 0.5)
    rad = math.radians(-angle % 360)
    m = [math.cos(rad), math.sin(rad), 0.0, -math.sin(rad), math.cos(rad), 0.0]
    m[2] += m[0] * -cx + m[1] * -cy + cx
    m[5] += m[3] * -cx + m[4] * -cy + cy
    matrix = T.to_tensor(m, dtype="float32")
    ow, oh = w, h
    if expand:
        corners = T.to_tensor([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0],
                               [0.5 * w, 0.5 * h, 1.0], [0.5 * w, -0.5 * h, 1.0]], dtype="float32")
        pos = corners.matmul(matrix.reshape([2, 3]).t())
        span = pos.max(axis=0).ceil() - pos.min(axis=0).floor()
        ow, oh = int(span[0].item()), int(span[1].item())
    grid = _affine_grid(matrix, w, h, ow, oh)
    return _from_nchw(_sample(img, grid, interpolation, fill), data_format, False)


def perspective(img, coeffs, interpolation="nearest", fill=None, data_format="CHW"):
    img, batched = _to_nchw(img, data_format)
    oh, ow = img.shape[-2:]
    dtype = img.dtype if T.is_floating_point(img) else "float32"
    coeffs = T.to_tensor(coeffs).astype(dtype)
    theta1 = coeffs[:6].reshape([1, 2, 3])
    theta2 = T.concat([coeffs[6:].reshape([1, 2]).tile([2, 1]), T.ones([2, 1], dtype=dtype)], axis=1).unsqueeze(0)
    base = _base_grid(ow, oh, 0.5, 0.5, dtype).reshape([1, oh * ow, 3])
    num = base.bmm(theta1.transpose([0, 2, 1]) / T.to_tensor([0.5 * ow, 0.5 * oh]).astype(dtype))
    den = base.bmm(theta2.transpose([0, 2, 1]))
    grid = (num / den - 1.0).reshape([1, oh, ow, 2])
    return _from_nchw(_sample(img, grid, interpolation, fill), data_format, batched)


def vflip(img, data_format="CHW"):
    _check_image(img, data_format)
    return img.flip(axis=[_axes(data_format)[1]])


def hflip(img, data_format="CHW"):
    _check_image(img, data_format)
    return img.flip(axis=[_axes(data_format)[2]])


def crop(img, top, left, height, width, data_format="CHW"):
    _check_image(img, data_format)
    if data_format.lower() == "chw":
        return img[..., top:top + height, left:left + width]
    return img[..., top:top + height, left:left + width, :]


def center_crop(img, output_size, data_format="CHW"):
    _check_image(img, data_format)
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    w, h = image_size(img, data_format)
    th, tw = output_size
    return crop(img, int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw, data_format)


def erase(img, i, j, h, w, v, inplace=False):
    _check_image(img, "CHW")
    if not inplace:
        img = img.clone()
    img[..., i:i + h, j:j + w] = v
    return img


def pad(img, padding, fill=0, padding_mode="constant", data_format="CHW"):
    _check_image(img, data_format)
    left, top, right, bottom = padding
    if padding_mode == "symmetric":
        raise ValueError("Do not support symmetric mode")
    mode = "replicate" if padding_mode == "edge" else padding_mode
    out = F.pad(img.unsqueeze(0), pad=[left, right, top, bottom], mode=mode, value=float(fill),
                data_format="N" + data_format.upper())
    return out.squeeze(0)


def resize(img, size, interpolation="bilinear", data_format="CHW"):
    _check_image(img, data_format)
    w, h = image_size(img, data_format)
    if isinstance(size, int):
        if w <= 0 or h <= 0:
            raise NotImplementedError(f"Not support while w<=0 or h<=0, but received w={w}, h={h}")
        if (w <= h and w == size) or (h <= w and h == size):
            return img
        oh, ow = (int(size * h / w), size) if w < h else (size, int(size * w / h))
    else:
        oh, ow = size
    out = F.interpolate(img.unsqueeze(0), size=(oh, ow), mode=interpolation.lower(),
                        data_format="N" + data_format.upper())
    return out.squeeze(0)


def _channels(img):
    c = img.shape[-3]
    if c not in (1, 3):
        raise ValueError("channels of input should be either 1 or 3.")
    return c


def adjust_brightness(img, brightness_factor):
    _check_image(img, "CHW")
    assert brightness_factor >= 0, "brightness_factor should be non-negative."
    _channels(img)
    return _blend(img, T.zeros_like(img), brightness_factor)


def adjust_contrast(img, contrast_factor):
    _check_image(img, "CHW")
    assert contrast_factor >= 0, "contrast_factor should be non-negative."
    dtype = img.dtype if T.is_floating_point(img) else "float32"
    gray = img if _channels(img) == 1 else to_grayscale(img)
    return _blend(img, T.mean(gray.astype(dtype), axis=(-3, -2, -1), keepdim=True), contrast_factor)


def adjust_saturation(img, saturation_factor):
    _check_image(img, "CHW")
    assert saturation_factor >= 0, "saturation_factor should be non-negative."
    if _channels(img) == 1:
        return img
    return _blend(img, to_grayscale(img), saturation_factor)


def _rgb_to_hsv(img):
    maxc, minc = img.max(axis=-3), img.min(axis=-3)
    flat = maxc == minc
    ones = T.ones_like(maxc)
    delta = maxc - minc
    s = delta / T.where(flat, ones, maxc)
    r, g, b = img.unbind(axis=-3)
    divisor = T.where(flat, ones, delta)
    rc, gc, bc = (maxc - r) / divisor, (maxc - g) / divisor, (maxc - b) / divisor
    hr = (maxc == r).astype(maxc.dtype) * (bc - gc)
    hg = ((maxc == g) & (maxc != r)).astype(maxc.dtype) * (rc - bc + 2.0)
    hb = ((maxc != r) & (maxc != g)).astype(maxc.dtype) * (gc - rc + 4.0)
    h = (hr + hg + hb) / 6.0 + 1.0
    return T.stack([h - h.trunc(), s, maxc], axis=-3)


def _hsv_to_rgb(img):
    h, s, v = img.unbind(axis=-3)
    f = h * 6.0
    i = T.floor(f)
    f = f - i
    i = i.astype("int32") % 6
    p = T.clip(v * (1.0 - s), 0.0, 1.0)
    q = T.clip(v * (1.0 - s * f), 0.0, 1.0)
    t = T.clip(v * (1.0 - s * (1.0 - f)), 0.0, 1.0)
    mask = (i.unsqueeze(-3) == T.arange(6, dtype="int32").reshape([-1, 1, 1])).astype(img.dtype)
    matrix = T.stack([T.stack([v, q, p, p, t, v], axis=-3), T.stack([t, v, v, q, p, p], axis=-3),
                      T.stack([p, p, t, v, v, q], axis=-3)], axis=-4)
    return T.einsum("...ijk, ...xijk -> ...xjk", mask, matrix)


def adjust_hue(img, hue_factor):
    _check_image(img, "CHW")
    assert -0.5 <= hue_factor <= 0.5, "hue_factor should be in range [-0.5, 0.5]"
    if _channels(img) == 1:
        return img
    dtype = img.dtype
    if str(dtype) == "paddle.uint8":
        img = img.astype("float32") / 255.0
    h, s, v = _rgb_to_hsv(img).unbind(axis=-3)
    h = h + hue_factor
    out = _hsv_to_rgb(T.stack([h - h.floor(), s, v], axis=-3))
    return (out * 255.0).astype(dtype) if str(dtype) == "paddle.uint8" else out
