"""Categorical(logits): one of K categories. As in Paddle, sampling, entropy and KL read `logits` as logits
(softmax), while probs/log_prob read them as unnormalised probabilities (logits / their sum)."""
import math

import numpy as np

from .. import tensor as _pt
from . import distribution
from .distribution import check_type
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor
from ..static.framework import Variable


class Categorical(distribution.Distribution):
    """A distribution over the indices of the last axis of `logits`."""

    def __init__(self, logits, name=None):
        if not in_dynamic_mode():
            check_type(logits, "logits", (np.ndarray, Tensor, Variable, list, tuple), "Categorical")
        self.name = name if name is not None else "Categorical"
        self.dtype = "float32"
        if self._validate_args(logits):
            self.logits = logits
            self.dtype = logits.dtype.name
        else:
            if isinstance(logits, np.ndarray) and logits.dtype in (np.float32, np.float64):
                self.dtype = str(logits.dtype)
            self.logits = self._to_tensor(logits)[0]
            if self.dtype != self.logits.dtype.name:
                self.logits = _pt.cast(self.logits, self.dtype)
        self._prob = self.logits / _pt.sum(self.logits, axis=-1, keepdim=True)

    def sample(self, shape=()):
        """Category indices (int64) of shape `shape` + the batch dims of logits."""
        if not in_dynamic_mode():
            check_type(shape, "shape", (list, tuple), "sample")
        shape = list(shape)
        count = math.prod(shape)
        dims = list(self.logits.shape)
        logits = self.logits if len(dims) == 1 else _pt.reshape(self.logits, [math.prod(dims[:-1]), dims[-1]])
        index = _pt.multinomial(self._logits_to_probs(logits), count, True)
        order = list(range(index.ndim))
        order.insert(0, order.pop(-1))
        return _pt.reshape(index.transpose(order), shape + dims[:-1])

    def _normalised(self, logits):
        """(log-softmax pieces) logits shifted by their max, and the sum of their exponentials."""
        shifted = logits - _pt.max(logits, axis=-1, keepdim=True)
        return shifted, _pt.sum(_pt.exp(shifted), axis=-1, keepdim=True)

    def kl_divergence(self, other):
        """KL(self || other), keeping the category axis as size 1."""
        if not in_dynamic_mode():
            check_type(other, "other", (Categorical,), "kl_divergence")
        logits, z = self._normalised(self.logits)
        other_logits, other_z = self._normalised(other.logits)
        prob = _pt.exp(logits) / z
        return _pt.sum(prob * (logits - _pt.log(z) - other_logits + _pt.log(other_z)), axis=-1, keepdim=True)

    def entropy(self):
        logits, z = self._normalised(self.logits)
        prob = _pt.exp(logits) / z
        return _pt.scale(_pt.sum(prob * (logits - _pt.log(z)), axis=-1), scale=-1.0)

    def probs(self, value):
        """The (unnormalised-logits) probabilities of the categories `value`."""
        if len(self._prob.shape) == 1:
            return _pt.gather(self._prob, value.reshape([-1])).reshape(value.shape)
        if len(value.shape) == 1:
            return _pt.take_along_axis(self._prob, _pt.reshape(value, (len(self._prob.shape) - 1) * [1] + [-1]),
                                       axis=-1)
        return _pt.take_along_axis(self._prob, value, axis=-1)

    def log_prob(self, value):
        return _pt.log(self.probs(value))
