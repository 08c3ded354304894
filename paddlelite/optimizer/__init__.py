"""Optimizers and learning-rate schedulers."""
from . import lr  # noqa: F401
from . import regularizer  # noqa: F401
from .adam import Adam, AdamW  # noqa: F401
from .momentum import Momentum  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW", "lr", "regularizer"]
