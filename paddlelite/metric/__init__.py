"""paddle.metric: accuracy (functional) and the streaming Accuracy metric."""
from .metrics import Accuracy, Metric, accuracy  # noqa: F401

__all__ = ["Metric", "Accuracy", "accuracy"]
