"""What the datasets share: finding their files (paddlelite never downloads) and the image backend."""
import os

import numpy as np

from ..image import get_image_backend, pil_image_module


def local_file(path, url, name, what, download):
    """`path` when it names an existing file; otherwise a clear error: paddlelite does not download."""
    if path is None:
        assert download, f"{what} is not set and downloading automatically is disabled"
        raise ValueError(f"paddle.vision.datasets.{name}: {what} is not set and paddlelite does not download "
                         f"(no network access); fetch {url} yourself and pass {what}='<local path>'")
    if not os.path.exists(path):
        raise ValueError(f"paddle.vision.datasets.{name}: {what}={path!r} does not exist (paddlelite does not "
                         f"download; the file is {url})")
    return path


def check_backend(backend):
    backend = get_image_backend() if backend is None else backend
    if backend not in ("pil", "cv2"):
        raise ValueError(f"Expected backend are one of ['pil', 'cv2'], but got {backend}")
    return backend


def to_pil(array, mode=None):
    array = np.asarray(array).astype("uint8")
    return pil_image_module().fromarray(array, mode=mode) if mode else pil_image_module().fromarray(array)
