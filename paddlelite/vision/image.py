"""The image backend the datasets decode to: 'pil' (PIL images; needs Pillow) or 'cv2' (HWC NumPy arrays)."""
import numpy as np

_backend = "pil"

__all__ = ["set_image_backend", "get_image_backend", "image_load"]


def set_image_backend(backend):
    global _backend
    if backend not in ("pil", "cv2", "tensor"):
        raise ValueError(f"Expected backend are one of ['pil', 'cv2', 'tensor'], but got {backend}")
    _backend = backend


def get_image_backend():
    return _backend


def image_load(path, backend=None):
    """Read the image at `path`: a PIL image (backend 'pil') or an RGB HWC uint8 array ('cv2').

    Decoding uses Pillow in both cases (paddlelite does not use OpenCV)."""
    backend = backend or _backend
    if backend not in ("pil", "cv2"):
        raise ValueError(f"Expected backend are one of ['pil', 'cv2'], but got {backend}")
    try:
        from PIL import Image
    except ImportError as error:
        raise ImportError("paddle.vision.image_load: reading image files needs Pillow "
                          "(pip install Pillow, or paddlelite[vision])") from error
    image = Image.open(path)
    return image if backend == "pil" else np.asarray(image.convert("RGB"))
