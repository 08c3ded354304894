"""paddle.vision: image transforms (and, below, models and datasets)."""
from . import transforms  # noqa: F401

__all__ = []
