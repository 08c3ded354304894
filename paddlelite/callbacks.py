"""paddle.callbacks (the classes live in paddlelite.hapi.callbacks)."""
from .hapi.callbacks import (Callback, EarlyStopping, LRScheduler, ModelCheckpoint, ProgBarLogger,  # noqa: F401
                             ReduceLROnPlateau, VisualDL, WandbCallback)

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "VisualDL", "LRScheduler", "EarlyStopping",
           "ReduceLROnPlateau", "WandbCallback"]
