"""What the datasets share: finding their files (paddlelite never downloads) and the image backend."""
import numpy as np

from ...io.dataset_files import local_file as _local_file
from ..image import get_image_backend, pil_image_module


def local_file(path, url, name, what, download):
    """`path` when it names an existing file (paddlelite does not download)."""
    return _local_file(path, url, f"paddle.vision.datasets.{name}", what, download)


def check_backend(backend):
    backend = get_image_backend() if backend is None else backend
    if backend not in ("pil", "cv2"):
        raise ValueError(f"Expected backend are one of ['pil', 'cv2'], but got {backend}")
    return backend


def to_pil(array, mode=None):
    array = np.asarray(array).astype("uint8")
    return pil_image_module().fromarray(array, mode=mode) if mode else pil_image_module().fromarray(array)
