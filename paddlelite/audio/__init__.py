"""paddle.audio: spectrogram features (features), their functional pieces and windows (functional), audio files
(load/save/info through backends: Python's wave module, or soundfile with paddlelite[audio]) and datasets."""
from . import backends, datasets, features, functional
from .backends.backend import info, load, save

__all__ = ["functional", "features", "datasets", "backends", "load", "info", "save"]
