"""paddle.metric: accuracy (functional), the streaming Accuracy, Precision, Recall and Auc metrics."""
from .binary import Auc, Precision, Recall  # noqa: F401
from .metrics import Accuracy, Metric, accuracy  # noqa: F401

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]
