"""paddle.vision: image transforms and the classification models."""
from . import models, transforms  # noqa: F401

__all__ = []
