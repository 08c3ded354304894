"""paddle.vision.transforms.functional: each transform once, dispatched on the image's kind --
Tensor (CHW), NumPy ndarray (HWC or HW, OpenCV's semantics) or PIL image (when Pillow is installed)."""
import math
import numbers

import numpy as np

from ...framework.tensor import Tensor
from ...static import Variable
from . import functional_numpy as F_np
from . import functional_pil as F_pil
from . import functional_tensor as F_t

__all__ = ["to_tensor", "hflip", "vflip", "resize", "pad", "affine", "rotate", "perspective", "to_grayscale",
           "crop", "center_crop", "adjust_brightness", "adjust_contrast", "adjust_hue", "normalize", "erase"]


def _is_pil_image(img):
    return F_pil.is_pil_image(img)


def _is_tensor_image(img):
    return isinstance(img, (Tensor, Variable))  # static mode: a Program's Variable


def _is_numpy_image(img):
    return isinstance(img, np.ndarray) and img.ndim in (2, 3)


def _backend(img, api):
    """The backend module for img; TypeError (naming the API) for anything that is not an image."""
    if _is_pil_image(img):
        return F_pil
    if _is_tensor_image(img):
        return F_t
    if _is_numpy_image(img):
        return F_np
    raise TypeError(f"paddle.vision.transforms.{api}: img should be PIL Image or Tensor Image or ndarray "
                    f"with dim=[2 or 3]. Got {type(img)}")


def to_tensor(pic, data_format="CHW"):
    backend = _backend(pic, "to_tensor")
    if backend is F_t:
        return pic if data_format.lower() == "chw" else pic.transpose([1, 2, 0])
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    return backend.to_tensor(pic, data_format)


def resize(img, size, interpolation="bilinear"):
    backend = _backend(img, "resize")
    if not (isinstance(size, int) or (isinstance(size, (tuple, list)) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")
    return backend.resize(img, size, interpolation)


def _ltrb(padding):
    """padding as (left, top, right, bottom), checked as Paddle checks it."""
    if not isinstance(padding, (numbers.Number, list, tuple)):
        raise TypeError("Got inappropriate padding arg")
    if isinstance(padding, (list, tuple)) and len(padding) not in (2, 4):
        raise ValueError("Padding must be an int or a 2, or 4 element tuple, not a "
                         f"{len(padding)} element tuple")
    if isinstance(padding, numbers.Number):
        return (padding,) * 4
    if len(padding) == 2:
        return (padding[0], padding[1], padding[0], padding[1])
    return tuple(padding)


def pad(img, padding, fill=0, padding_mode="constant"):
    backend = _backend(img, "pad")
    ltrb = _ltrb(padding)
    if not isinstance(fill, (numbers.Number, str, list, tuple)):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    assert padding_mode in ("constant", "edge", "reflect", "symmetric"), \
        "Padding mode should be either constant, edge, reflect or symmetric"
    return backend.pad(img, ltrb, fill, padding_mode)


def crop(img, top, left, height, width):
    return _backend(img, "crop").crop(img, top, left, height, width)


def center_crop(img, output_size):
    backend = _backend(img, "center_crop")
    if backend is F_t:
        return F_t.center_crop(img, output_size)
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    w, h = img.size if backend is F_pil else img.shape[1::-1]
    th, tw = output_size
    return backend.crop(img, int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw)


def hflip(img):
    return _backend(img, "hflip").hflip(img)


def vflip(img):
    return _backend(img, "vflip").vflip(img)


def adjust_brightness(img, brightness_factor):
    return _backend(img, "adjust_brightness").adjust_brightness(img, brightness_factor)


def adjust_contrast(img, contrast_factor):
    return _backend(img, "adjust_contrast").adjust_contrast(img, contrast_factor)


def adjust_saturation(img, saturation_factor):
    return _backend(img, "adjust_saturation").adjust_saturation(img, saturation_factor)


def adjust_hue(img, hue_factor):
    backend = _backend(img, "adjust_hue")
    if backend is not F_t and not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    return backend.adjust_hue(img, hue_factor)


def _affine_matrix(center, angle, translate, scale, shear):
    """The inverse affine map (output pixel -> input pixel) as PIL's 6 coefficients."""
    rot, sx, sy = math.radians(angle), math.radians(shear[0]), math.radians(shear[1])
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    (cx, cy), (tx, ty) = center, translate
    m = [x / scale for x in (d, -b, 0.0, -c, a, 0.0)]
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty) + cx
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty) + cy
    return m


def affine(img, angle, translate, scale, shear, interpolation="nearest", fill=0, center=None):
    backend = _backend(img, "affine")
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if not isinstance(translate, (list, tuple)):
        raise TypeError("Argument translate should be a sequence")
    if len(translate) != 2:
        raise ValueError("Argument translate should be a sequence of length 2")
    if scale <= 0.0:
        raise ValueError("Argument scale should be positive")
    if not isinstance(shear, (numbers.Number, list, tuple)):
        raise TypeError("Shear should be either a single value or a sequence of two values")
    if not isinstance(interpolation, str):
        raise TypeError("Argument interpolation should be a string")
    shear = [shear, 0.0] if isinstance(shear, numbers.Number) else list(shear)
    if len(shear) == 1:
        shear = [shear[0], shear[0]]
    if len(shear) != 2:
        raise ValueError(f"Shear should be a sequence containing two values. Got {shear}")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    translate = [1.0 * t for t in translate]
    if backend is F_pil:
        w, h = img.size
        center = [w * 0.5, h * 0.5] if center is None else center
        return F_pil.affine(img, _affine_matrix(center, float(angle), translate, scale, shear), interpolation, fill)
    # the samplers' coordinates are centred on the image; for Tensors Paddle takes the centre's offset
    # from (height/2, width/2) read off the last two axes the other way round -- kept, to agree with it
    w, h = tuple(img.shape[-2:]) if backend is F_t else img.shape[1::-1]
    center = [0.0, 0.0] if center is None else [1.0 * (c - s * 0.5) for c, s in zip(center, [w, h])]
    matrix = _affine_matrix(center, float(angle), translate, scale, shear)
    return backend.affine(img, matrix, interpolation, fill)


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    backend = _backend(img, "rotate")
    center = tuple(center) if isinstance(center, list) else center
    fill = tuple(fill) if isinstance(fill, list) else fill
    return backend.rotate(img, angle, interpolation, expand, center, fill)


def _perspective_coeffs(startpoints, endpoints):
    """The 8 coefficients of the projective map endpoints -> startpoints (least squares)."""
    a = np.zeros((2 * len(startpoints), 8))
    for i, (p1, p2) in enumerate(zip(endpoints, startpoints)):
        a[2 * i] = [p1[0], p1[1], 1, 0, 0, 0, -p2[0] * p1[0], -p2[0] * p1[1]]
        a[2 * i + 1] = [0, 0, 0, p1[0], p1[1], 1, -p2[1] * p1[0], -p2[1] * p1[1]]
    return list(np.linalg.lstsq(a, np.array(startpoints).reshape([8]), rcond=None)[0])


def perspective(img, startpoints, endpoints, interpolation="nearest", fill=0):
    backend = _backend(img, "perspective")
    return backend.perspective(img, _perspective_coeffs(startpoints, endpoints), interpolation, fill)


def to_grayscale(img, num_output_channels=1):
    backend = _backend(img, "to_grayscale")
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    return backend.to_grayscale(img, num_output_channels)


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    if _is_tensor_image(img):
        return F_t.normalize(img, mean, std, data_format)
    if _is_pil_image(img):
        img = np.array(img).astype(np.float32)
    return F_np.normalize(img, mean, std, data_format, to_rgb)


def erase(img, i, j, h, w, v, inplace=False):
    return _backend(img, "erase").erase(img, i, j, h, w, v, inplace=inplace)
