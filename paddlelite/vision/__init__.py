"""paddle.vision: image transforms, the classification models, the standard datasets and the image backend."""
from . import datasets, models, ops, transforms  # noqa: F401
from .image import get_image_backend, image_load, set_image_backend

__all__ = ["set_image_backend", "get_image_backend", "image_load"]
