"""The transforms' Pillow backend (Pillow is an optional dependency: imported when a PIL image arrives)."""
import numpy as np

from ... import tensor as T


def _pil():
    from PIL import Image, ImageEnhance, ImageOps
    return Image, ImageEnhance, ImageOps


def is_pil_image(img):
    """True for a PIL image; never imports Pillow (no Pillow: nothing can be a PIL image)."""
    return any(c.__module__.startswith("PIL.") and c.__name__ == "Image" for c in type(img).__mro__)


def _interp(name):
    Image = _pil()[0]
    return {"nearest": Image.Resampling.NEAREST, "bilinear": Image.Resampling.BILINEAR,
            "bicubic": Image.Resampling.BICUBIC, "box": Image.Resampling.BOX,
            "lanczos": Image.Resampling.LANCZOS, "hamming": Image.Resampling.HAMMING}[name]


def to_tensor(pic, data_format="CHW"):
    if pic.mode in ("I", "I;16"):
        arr = np.asarray(pic, np.int32)
    elif pic.mode == "F":
        arr = np.asarray(pic, np.float32)
    elif pic.mode == "1":
        arr = 255 * np.asarray(pic, np.uint8)
    else:
        arr = np.asarray(pic)
    channels = 3 if pic.mode == "YCbCr" else 1 if pic.mode == "I;16" else len(pic.mode)
    img = T.to_tensor(arr)
    if arr.dtype == np.uint8:
        img = img.astype("float32") / 255.0
    img = img.reshape([pic.size[1], pic.size[0], channels])
    return img.transpose([2, 0, 1]) if data_format == "CHW" else img


def resize(img, size, interpolation="bilinear"):
    if isinstance(size, int):
        w, h = img.size
        if (w <= h and w == size) or (h <= w and h == size):
            return img
        size = (int(size * h / w), size) if w < h else (size, int(size * w / h))
    return img.resize(tuple(size)[::-1], _interp(interpolation))


def pad(img, padding, fill=0, padding_mode="constant"):
    left, top, right, bottom = padding
    palette = img.getpalette() if img.mode == "P" else None
    if padding_mode == "constant":
        out = _pil()[2].expand(img, border=(left, top, right, bottom), fill=fill)
    else:
        arr = np.asarray(img)
        widths = ((top, bottom), (left, right)) + (((0, 0),) if arr.ndim == 3 else ())
        out = _pil()[0].fromarray(np.pad(arr, widths, padding_mode))
    if palette is not None:
        out.putpalette(palette)
    return out


def crop(img, top, left, height, width):
    return img.crop((left, top, left + width, top + height))


def hflip(img):
    return img.transpose(_pil()[0].Transpose.FLIP_LEFT_RIGHT)


def vflip(img):
    return img.transpose(_pil()[0].Transpose.FLIP_TOP_BOTTOM)


def adjust_brightness(img, factor):
    return _pil()[1].Brightness(img).enhance(factor)


def adjust_contrast(img, factor):
    return _pil()[1].Contrast(img).enhance(factor)


def adjust_saturation(img, factor):
    return _pil()[1].Color(img).enhance(factor)


def adjust_hue(img, hue_factor):
    if img.mode in {"L", "1", "I", "F"}:
        return img
    Image = _pil()[0]
    h, s, v = img.convert("HSV").split()
    shifted = ((np.array(h, dtype=np.uint8).astype(np.int16) + int(hue_factor * 255)) % 256).astype(np.uint8)
    return Image.merge("HSV", (Image.fromarray(shifted, "L"), s, v)).convert(img.mode)


def _fill(fill):
    return (fill,) * 3 if isinstance(fill, int) else fill


def affine(img, matrix, interpolation="nearest", fill=0):
    return img.transform(img.size, _pil()[0].Transform.AFFINE, matrix, _interp(interpolation), _fill(fill))


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    return img.rotate(angle, _interp(interpolation), expand, center, fillcolor=_fill(fill))


def perspective(img, coeffs, interpolation="nearest", fill=0):
    return img.transform(img.size, _pil()[0].Transform.PERSPECTIVE, coeffs, _interp(interpolation), _fill(fill))


def to_grayscale(img, num_output_channels=1):
    gray = img.convert("L")
    if num_output_channels == 1:
        return gray
    arr = np.array(gray, dtype=np.uint8)
    return _pil()[0].fromarray(np.dstack([arr, arr, arr]), "RGB")


def erase(img, i, j, h, w, v, inplace=False):
    arr = np.array(img, dtype=np.uint8)
    arr[i:i + h, j:j + w, ...] = v
    return _pil()[0].fromarray(arr, "RGB")
