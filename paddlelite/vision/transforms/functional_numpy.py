"""The transforms' NumPy backend: HWC (or HW) ndarrays, with the semantics of Paddle's OpenCV backend.

Lookup tables, slicing and padding are NumPy's; resampling (resize, rotate, affine, perspective) runs
the Tensor backend's samplers on the image laid out HWC and rounds back to the input's dtype.
"""
import numpy as np

from ... import tensor as T
from . import functional_tensor as F_t


def to_tensor(pic, data_format="CHW"):
    if pic.ndim == 2:
        pic = pic[:, :, None]
    img = T.to_tensor(np.ascontiguousarray(pic.transpose((2, 0, 1)) if data_format == "CHW" else pic))
    return img.astype("float32") / 255.0 if pic.dtype == np.uint8 else img


def _through_tensor(img, fn):
    """Run fn on img as a float32 HWC Tensor; back to img's dtype (rounded and clipped for integers)."""
    plane = img.ndim == 2
    arr = img[:, :, None] if plane else img
    out = fn(T.to_tensor(arr.astype(np.float32))).numpy()
    if np.issubdtype(img.dtype, np.integer):
        info = np.iinfo(img.dtype)
        out = np.clip(np.round(out), info.min, info.max)
    out = out.astype(img.dtype)
    return out[:, :, 0] if plane else out


def resize(img, size, interpolation="bilinear"):
    h, w = img.shape[:2]
    if isinstance(size, int):
        if (w <= h and w == size) or (h <= w and h == size):
            return img
        size = (int(size * h / w), size) if w < h else (size, int(size * w / h))
    return _through_tensor(img, lambda t: F_t.resize(t, tuple(size), interpolation, "HWC"))


_NP_PAD_MODES = {"edge": "edge", "reflect": "reflect", "symmetric": "symmetric"}


def pad(img, padding, fill=0, padding_mode="constant"):
    left, top, right, bottom = padding
    widths = ((top, bottom), (left, right)) + (((0, 0),) if img.ndim == 3 else ())
    if padding_mode != "constant":
        return np.pad(img, widths, _NP_PAD_MODES[padding_mode])
    h, w = img.shape[:2]
    out = np.empty((h + top + bottom, w + left + right) + img.shape[2:], img.dtype)
    fills = np.asarray(fill).reshape(-1)
    out[...] = fills[0] if img.ndim == 2 or fills.size == 1 else fills[:img.shape[2]]
    out[top:top + h, left:left + w] = img
    return out


def crop(img, top, left, height, width):
    return img[top:top + height, left:left + width]


def hflip(img):
    return np.ascontiguousarray(img[:, ::-1])


def vflip(img):
    return np.ascontiguousarray(img[::-1])


def _lookup(img, table):
    return table.clip(0, 255).astype(np.uint8)[img]


def adjust_brightness(img, factor):
    return _lookup(img.astype(np.uint8), np.arange(256) * factor)


def adjust_contrast(img, factor):
    # OpenCV backend's fixed pivot: Paddle blends every pixel towards 74, not the image's mean
    return _lookup(img, (np.arange(256) - 74) * factor + 74)


def _bgr_gray(img):
    return img[..., 0] * 0.114 + img[..., 1] * 0.587 + img[..., 2] * 0.299


def adjust_saturation(img, factor):
    # as Paddle's OpenCV backend: the blend weight is drawn from NumPy's generator, the gray is BGR's
    dtype = img.dtype
    img = img.astype(np.float32)
    alpha = np.random.uniform(max(0, 1 - factor), 1 + factor)
    out = img * alpha + _bgr_gray(img)[..., None].astype(np.float32) * (1 - alpha)
    return out.clip(0, 255).astype(dtype)


def adjust_hue(img, hue_factor):
    # OpenCV's images are BGR: rotate hue on the RGB view
    rgb = img[..., ::-1]
    out = _through_tensor(rgb, lambda t: F_t.adjust_hue(t.transpose([2, 0, 1]) / 255.0, hue_factor)
                          .transpose([1, 2, 0]) * 255.0)
    return np.ascontiguousarray(out[..., ::-1])


def _sampled(img, fn, fill):
    fill = None if fill is None else tuple(np.broadcast_to(np.asarray(fill, np.float32).reshape(-1),
                                                           (1 if img.ndim == 2 else img.shape[2],)).tolist())
    return _through_tensor(img, lambda t: fn(t, fill))


def affine(img, matrix, interpolation="nearest", fill=0):
    return _sampled(img, lambda t, f: F_t.affine(t, matrix, interpolation, f, "HWC"), fill)


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    return _sampled(img, lambda t, f: F_t.rotate(t, angle, interpolation, expand, center, f, "HWC"), fill)


def perspective(img, coeffs, interpolation="nearest", fill=0):
    return _sampled(img, lambda t, f: F_t.perspective(t, coeffs, interpolation, f, "HWC"), fill)


def to_grayscale(img, num_output_channels=1):
    if img.dtype == np.uint8:  # OpenCV's fixed-point weights, rounded
        gray = ((img[..., 0].astype(np.int32) * 4899 + img[..., 1].astype(np.int32) * 9617
                 + img[..., 2].astype(np.int32) * 1868 + 8192) >> 14).astype(np.uint8)
    else:
        gray = (img[..., 0] * 0.299 + img[..., 1] * 0.587 + img[..., 2] * 0.114).astype(img.dtype)
    gray = gray[:, :, None]
    return gray if num_output_channels == 1 else np.broadcast_to(gray, img.shape)


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    shape = (-1, 1, 1) if data_format == "CHW" else (1, 1, -1)
    mean = np.float32(np.array(mean).reshape(shape))
    std = np.float32(np.array(std).reshape(shape))
    if to_rgb:
        img = img[..., ::-1]
    return (img - mean) / std


def erase(img, i, j, h, w, v, inplace=False):
    if not inplace:
        img = img.copy()
    img[i:i + h, j:j + w, ...] = v
    return img
