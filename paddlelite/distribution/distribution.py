"""The base class of paddle.distribution: batch and event shapes, and the argument handling every distribution
shares (Python numbers and arrays as float32 tensors, a parameter's dtype for the values scored)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import tensor as _pt
from ..framework import dtype as _dtype
from ..framework.mode import in_dynamic_mode, no_grad
from ..framework.tensor import Tensor
from ..framework.user_warnings import warn
from ..nn import functional as _F
from ..tensor.tensor_args import is_tensor_like
from ..static.framework import Variable


def check_type(value, name, types, api):
    """Paddle's static-mode argument check: TypeError naming the API, the argument and the types it takes."""
    if not isinstance(value, types):
        allowed = ", ".join(t.__name__ for t in types)
        raise TypeError(f"{api}: the type of '{name}' must be one of ({allowed}), received {type(value).__name__}")


def check_sample_shape(shape, kind=Sequence):
    """TypeError unless `shape` is a Sequence (or, with kind=Iterable, any iterable), as Paddle's samplers."""
    if not isinstance(shape, kind):
        raise TypeError(f"sample shape must be {kind.__name__} object.")


def sample_by_rsample(self, shape=(), *args):
    """A sample() that returns rsample's draws without their gradient."""
    with no_grad():
        return self.rsample(shape, *args)


def sum_rightmost(value, n):
    """`value` summed over its last n dims."""
    return value.sum(list(range(-n, 0))) if n > 0 else value


class Distribution:
    """A probability distribution with `batch_shape` (independent, not identically distributed draws) and
    `event_shape` (the shape of one draw)."""

    def __init__(self, batch_shape=(), event_shape=()):
        self._batch_shape = tuple(batch_shape)
        self._event_shape = tuple(event_shape)
        super().__init__()

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def variance(self):
        raise NotImplementedError

    def sample(self, shape=()):
        raise NotImplementedError

    def rsample(self, shape=()):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def kl_divergence(self, other):
        raise NotImplementedError

    def prob(self, value):
        """The density (or mass) at `value`."""
        return self.log_prob(value).exp()

    def log_prob(self, value):
        raise NotImplementedError

    def probs(self, value):
        raise NotImplementedError

    def _extend_shape(self, sample_shape):
        """sample_shape + batch_shape + event_shape."""
        return tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape)

    def _validate_args(self, *args):
        """Whether the arguments are tensors; ValueError when some are and others are not."""
        tensors = [is_tensor_like(a) for a in args]
        if any(tensors) and not all(tensors):
            raise ValueError("if one argument is Tensor, all arguments should be Tensor")
        return all(tensors) and bool(tensors)

    def _to_tensor(self, *args):
        """Floats, lists, tuples and arrays as float32 tensors broadcast to one shape (dtypes other than float32
        and float64 warn first); tensors pass through."""
        arrays = []
        for arg in args:
            if is_tensor_like(arg):
                arrays.append(arg)
                continue
            if not isinstance(arg, (float, list, tuple, np.ndarray)):
                raise TypeError("Type of input args must be float, list, tuple, numpy.ndarray or Tensor, but "
                                f"received type {type(arg)}")
            array = np.array(arg)
            if array.dtype not in (np.float32, np.float64):
                warn("data type of argument only support float32 and float64, your argument will be convert to "
                     "float32.")
            arrays.append(array.astype(np.float32))
        shape = np.broadcast_shapes(*[a.shape for a in arrays if isinstance(a, np.ndarray)])
        return tuple(_pt.assign(np.array(np.broadcast_to(a, shape))) if isinstance(a, np.ndarray)
                     else a for a in arrays)

    def _float_parameter(self, value, name, api, types=(float,)):
        """(tensor, dtype name) of a parameter given as a float (a float32 tensor; the dtype is then the default
        dtype) or a tensor (its own dtype); in static mode other types are a TypeError."""
        if not in_dynamic_mode():
            check_type(value, name, (*types, Tensor, Variable), api)
        if self._validate_args(value):
            return value, value.dtype.name
        return self._to_tensor(value)[0], _dtype.get_default_dtype()

    def _check_values_dtype_in_probs(self, param, value):
        """`value` in the dtype of `param` (a float value of another float dtype is cast, with a warning)."""
        if param.dtype.is_complex:
            return value.astype(param.dtype)
        floats = (_dtype.DTYPES["float32"], _dtype.DTYPES["float64"])
        if not in_dynamic_mode() and value.dtype not in floats:
            raise TypeError(f"log_prob: the data type of 'value' must be float32 or float64, received "
                            f"{value.dtype.name}")
        if value.dtype != param.dtype and value.dtype in floats:
            warn("dtype of input 'value' needs to be the same as parameters of distribution class. dtype of "
                 "'value' will be converted.")
            return _pt.cast(value, param.dtype)
        return value

    def _probs_to_logits(self, probs, is_binary=False):
        """Probabilities as logits: log-odds of event 1 (binary), else the log of each probability."""
        return _pt.log(probs) - _pt.log1p(-probs) if is_binary else _pt.log(probs)

    def _logits_to_probs(self, logits, is_binary=False):
        return _F.sigmoid(logits) if is_binary else _F.softmax(logits, axis=-1)

    def _broadcast_all(self, *args):
        """The arguments as tensors broadcast together; numbers take the first tensor's dtype (else the default)."""
        for arg in args:
            if not isinstance(arg, (float, list, tuple, np.ndarray)) and not is_tensor_like(arg):
                raise TypeError("Type of input args must be float, list, tuple, numpy.ndarray or Tensor, but "
                                f"received type {type(arg)}")
        dtype = next((a.dtype for a in args if is_tensor_like(a)), _dtype.get_default_dtype())
        return tuple(_pt.broadcast_tensors([a if is_tensor_like(a) else _pt.to_tensor(a, dtype=dtype) for a in args]))
