"""The image backend the datasets decode to: 'pil' (PIL images; needs Pillow), 'cv2' (HWC NumPy arrays) or
'tensor'. Image files are decoded with Pillow (paddlelite does not use OpenCV)."""
import numpy as np

from .. import tensor as T

_backend = "pil"
_BACKENDS = ("pil", "cv2", "tensor")

__all__ = ["set_image_backend", "get_image_backend", "image_load"]


def _check(backend):
    if backend not in _BACKENDS:
        raise ValueError(f"Expected backend are one of ['pil', 'cv2', 'tensor'], but got {backend}")
    return backend


def set_image_backend(backend):
    global _backend
    _backend = _check(backend)


def get_image_backend():
    return _backend


def pil_image_module():
    """PIL.Image, or a clear ImportError: Pillow is an optional dependency."""
    try:
        from PIL import Image
    except ImportError as error:
        raise ImportError("paddle.vision: PIL images and image files need Pillow (pip install Pillow, or "
                          "paddlelite[vision]); the 'cv2' backend gives NumPy arrays without it") from error
    return Image


def open_image(path_or_file):
    return pil_image_module().open(path_or_file)


def image_load(path, backend=None):
    """The image at `path`: a PIL image ('pil'), a BGR HWC uint8 array as OpenCV's imread gives ('cv2'), or
    an RGB HWC uint8 Tensor ('tensor')."""
    backend = _check(backend or _backend)
    image = open_image(path)
    if backend == "pil":
        return image
    rgb = np.asarray(image.convert("RGB"))
    return np.ascontiguousarray(rgb[..., ::-1]) if backend == "cv2" else T.to_tensor(rgb)
