"""Top-k accuracy: the functional `accuracy` (op 'accuracy' over top_k_v2's indices) and the streaming
`Accuracy` metric (compute -> update -> accumulate -> reset), as in paddle.metric."""
import abc

import numpy as np

from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops import search as _s
from ..tensor.manipulation import _int, reshape, slice
from ..tensor.creation import assign
from ..tensor.math import _check_tensor, is_tensor_like
from ..tensor.reduce import argmax
from ..tensor.search import argsort

apply = dispatch.apply


def accuracy(input, label, k=1, correct=None, total=None, name=None):
    """Fraction of rows of `input` ([N, C] scores) whose `label` ([N, 1] or [N], int) is among the top k.

    `correct` / `total` (int Tensors), when given, receive this batch's counts."""
    return top_k_accuracy(input, label, k, correct, total, sorted=True)


def top_k_accuracy(input, label, k, correct, total, sorted):
    """accuracy(), its top_k sorting the k best (paddle.static.accuracy's does not)."""
    _check_tensor(input, "accuracy", "input")
    _check_tensor(label, "accuracy", "label")
    if len(input.shape) != 2:
        raise ValueError(f"accuracy: input must be 2-D [sample_number, class_dim], received shape {list(input.shape)}")
    if label.dtype.np.kind not in "iu":
        raise TypeError(f"accuracy: label must be an int32 or int64 Tensor, received {label.dtype.name}")
    k = _int(k, "accuracy", "k")
    c = input.shape[1]
    if not 1 <= k <= c:
        raise ValueError(f"accuracy: k must lie in [1, {c}] (class_dim), received {k}")
    values, indices = apply(_s.TOP_K, input, k=k, axis=-1, largest=True, sorted=sorted)
    acc, n_correct, n_total = apply(_s.ACCURACY, values, indices, label)
    for arg, value, src in (("correct", correct, n_correct), ("total", total, n_total)):
        if value is not None:
            if not is_tensor_like(value):
                raise TypeError(f"accuracy: {arg} must be a Tensor, received {type(value).__name__}")
            assign(src if src.dtype == value.dtype else src.astype(value.dtype), output=value)
    return acc


class Metric(abc.ABC):
    """Base of streaming metrics: reset(), update(*args), accumulate(), name(); compute() preprocesses."""

    @abc.abstractmethod
    def reset(self):
        """Clear the accumulated state."""

    @abc.abstractmethod
    def update(self, *args):
        """Add one batch (the outputs of compute) to the state."""

    @abc.abstractmethod
    def accumulate(self):
        """The metric over everything updated since the last reset."""

    @abc.abstractmethod
    def name(self):
        """The metric's name(s)."""

    def compute(self, *args):
        return args


def _as_numpy(value, api, arg):
    if isinstance(value, Tensor):
        return value.numpy()
    if isinstance(value, np.ndarray):
        return value
    raise TypeError(f"{api}: {arg} must be a Tensor or a numpy array, received {type(value).__name__}")


class Accuracy(Metric):
    """Streaming top-k accuracy for each k in `topk`."""

    def __init__(self, topk=(1,), name=None, *args, **kwargs):
        if isinstance(topk, int):
            topk = (topk,)
        if not isinstance(topk, (list, tuple)) or not topk or not all(isinstance(k, int) and k >= 1 for k in topk):
            raise TypeError(f"Accuracy: topk must be a positive int or a list of them, received {topk!r}")
        self.topk = tuple(topk)
        self.maxk = max(self.topk)
        self._init_name(name)
        self.reset()

    def compute(self, pred, label, *args):
        """[N, ..., maxk] 0/1 float32: whether the j-th best prediction of each row is its label (ops, so it
        runs in a static program too)."""
        _check_tensor(pred, "Accuracy.compute", "pred")
        _check_tensor(label, "Accuracy.compute", "label")
        pred = argsort(pred, descending=True)
        pred = slice(pred, axes=[len(pred.shape) - 1], starts=[0], ends=[self.maxk])
        if len(label.shape) == 1 or (len(label.shape) == 2 and label.shape[-1] == 1):
            label = reshape(label, (-1, 1))  # a static label's fed shape may differ from its InputSpec's
        elif label.shape[-1] != 1:  # one-hot / soft labels
            label = argmax(label, axis=-1, keepdim=True)
        return (pred == label.astype(pred.dtype)).astype("float32")

    def update(self, correct, *args):
        c = _as_numpy(correct, "Accuracy.update", "correct")
        n = np.prod(np.array(c.shape[:-1]))  # an int64 scalar, as Paddle: the accuracies come out as float64
        accs = []
        for i, k in enumerate(self.topk):
            num = float(c[..., :k].sum())
            accs.append(num / n if n else 0.0)
            self.total[i] += num
            self.count[i] += n
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self):
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self):
        res = [t / c if c else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def _init_name(self, name):
        name = name or "acc"
        self._name = [f"{name}_top{k}" for k in self.topk] if self.maxk != 1 else [name]

    def name(self):
        return self._name
