"""Streaming metrics of binary classification, as paddle.metric: Precision, Recall (predictions rounded
to 0/1) and Auc (ROC or PR area from bucketed positive-class scores). They accumulate on the host
in NumPy, as Paddle's do."""
import numpy as np

from ..framework.tensor import Tensor
from .metrics import Metric

__all__ = ["Precision", "Recall", "Auc"]


def _host(value, api, arg):
    if isinstance(value, Tensor):
        return value.numpy()
    if isinstance(value, np.ndarray):
        return value
    raise ValueError(f"{api}: '{arg}' must be a numpy ndarray or Tensor, received {type(value).__name__}")


def _per_sample(array, n, api, arg):
    """One value per sample from a [N] or [N, 1] array."""
    if array.size != n:
        raise ValueError(f"{api}: '{arg}' must hold one value per sample ([N] or [N, 1]), received shape "
                         f"{list(array.shape)} for {n} samples")
    return array.reshape(n)


class _Counting(Metric):
    """tp and one error count over samples whose rounded prediction (Precision) / label (Recall) is 1."""

    _error = None

    def __init__(self, name, *args, **kwargs):
        self._name = name
        self.reset()

    def _pairs(self, preds, labels, rounding):
        api = f"{type(self).__name__}.update"
        labels = _host(labels, api, "labels")
        preds = _host(preds, api, "preds")
        n = labels.shape[0]
        preds = rounding(_per_sample(preds, n, api, "preds")).astype("int32")
        return preds, _per_sample(labels, n, api, "labels")

    def reset(self):
        self.tp = 0
        setattr(self, self._error, 0)

    def accumulate(self):
        total = self.tp + getattr(self, self._error)
        return float(self.tp) / total if total != 0 else 0.0

    def name(self):
        return self._name


class Precision(_Counting):
    """tp / (tp + fp) over predictions floor(p + 0.5) == 1."""

    _error = "fp"

    def __init__(self, name="precision", *args, **kwargs):
        super().__init__(name, *args, **kwargs)

    def update(self, preds, labels):
        preds, labels = self._pairs(preds, labels, lambda p: np.floor(p + 0.5))
        positive = preds == 1
        hits = int(np.count_nonzero(positive & (preds == labels)))
        self.tp += hits
        self.fp += int(np.count_nonzero(positive)) - hits


class Recall(_Counting):
    """tp / (tp + fn) over labels == 1, predictions rounded half to even (np.rint), as Paddle."""

    _error = "fn"

    def __init__(self, name="recall", *args, **kwargs):
        super().__init__(name, *args, **kwargs)

    def update(self, preds, labels):
        preds, labels = self._pairs(preds, labels, np.rint)
        positive = labels == 1
        hits = int(np.count_nonzero(positive & (preds == labels)))
        self.tp += hits
        self.fn += int(np.count_nonzero(positive)) - hits


class Auc(Metric):
    """Area under the ROC curve from preds[:, 1] (the positive class's probability) bucketed into
    num_thresholds + 1 bins: the trapezoid sum over thresholds from high to low."""

    def __init__(self, curve="ROC", num_thresholds=4095, name="auc", *args, **kwargs):
        self._curve = curve
        self._num_thresholds = num_thresholds
        self._name = name
        self.reset()

    def update(self, preds, labels):
        labels = _host(labels, "Auc.update", "labels")
        preds = _host(preds, "Auc.update", "preds")
        if preds.ndim != 2 or preds.shape[1] < 2:
            raise ValueError(f"Auc.update: 'preds' must be [N, 2] class probabilities, received shape "
                             f"{list(preds.shape)}")
        n = len(labels)
        bins = (preds[:n, 1] * self._num_thresholds).astype(np.int64)  # truncation, as int() in Paddle
        if bins.size and (bins.max() > self._num_thresholds or bins.min() < 0):
            raise ValueError("Auc.update: positive-class probabilities preds[:, 1] must lie in [0, 1]")
        positive = labels.reshape(n, -1)[:, 0] != 0
        np.add.at(self._stat_pos, bins[positive], 1.0)
        np.add.at(self._stat_neg, bins[~positive], 1.0)

    def accumulate(self):
        tot_pos = np.cumsum(self._stat_pos[::-1])
        tot_neg = np.cumsum(self._stat_neg[::-1])
        prev_pos = np.concatenate([[0.0], tot_pos[:-1]])
        prev_neg = np.concatenate([[0.0], tot_neg[:-1]])
        auc = float(np.sum(np.abs(tot_neg - prev_neg) * (tot_pos + prev_pos) / 2.0))
        pos, neg = tot_pos[-1], tot_neg[-1]
        return auc / pos / neg if pos > 0.0 and neg > 0.0 else 0.0

    def reset(self):
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def name(self):
        return self._name
