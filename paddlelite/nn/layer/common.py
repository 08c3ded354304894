"""Linear, Embedding, Dropout, Flatten, Identity."""
import numpy as np

from ...framework.mode import _static
from .. import functional as F
from .layers import Layer

__all__ = ["Linear", "Embedding", "Dropout", "Flatten", "Identity"]


def _positive_int(value, api, arg):
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{api}: {arg} must be a positive int, received {value!r}")
    return int(value)


class Linear(Layer):
    """y = x @ weight + bias, weight of shape [in_features, out_features] (Paddle's layout)."""

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, name=None):
        # as in Paddle, `name` does not change the parameter names, and the parameters take the default dtype
        super().__init__(dtype=None)
        self.in_features = _positive_int(in_features, "Linear", "in_features")
        self.out_features = _positive_int(out_features, "Linear", "out_features")
        self.weight = self.create_parameter([self.in_features, self.out_features], attr=weight_attr)
        self.bias = self.create_parameter([self.out_features], attr=bias_attr, is_bias=True)
        self.name = name

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        name = f", name={self.name}" if self.name else ""
        return f"in_features={self.in_features}, out_features={self.out_features}, dtype={self._dtype}{name}"


class Embedding(Layer):
    """A lookup table [num_embeddings, embedding_dim]; the padding_idx row starts at zero and gets no
    gradient. `sparse` is accepted and ignored (gradients are dense)."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, sparse=False, weight_attr=None,
                 name=None):
        super().__init__()
        self._num_embeddings = _positive_int(num_embeddings, "Embedding", "num_embeddings")
        self._embedding_dim = _positive_int(embedding_dim, "Embedding", "embedding_dim")
        if padding_idx is not None:
            if not isinstance(padding_idx, (int, np.integer)) or not \
                    -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError(f"Embedding: padding_idx must be an int in [-{num_embeddings}, "
                                 f"{num_embeddings}), received {padding_idx!r}")
            padding_idx = int(padding_idx) % num_embeddings
        self._padding_idx = padding_idx
        self._sparse = bool(sparse)
        self._name = name
        self.weight = self.create_parameter([self._num_embeddings, self._embedding_dim], attr=weight_attr)
        if padding_idx is not None and not _static[0]:
            data = self.weight._data.copy()
            data[padding_idx] = 0
            self.weight._data = data
            self.weight._bump_version()

    def forward(self, x):
        return F.embedding(x, weight=self.weight, padding_idx=self._padding_idx, sparse=self._sparse)

    def extra_repr(self):
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        s += f", padding_idx={self._padding_idx}" if self._padding_idx is not None else ""
        return s + f", sparse={self._sparse}, scale_grad_by_freq=False" + self._name_suffix()


class Dropout(Layer):
    def __init__(self, p=0.5, inplace=False, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        if not isinstance(p, (int, float)) or isinstance(p, bool) or not 0 <= p <= 1:
            raise ValueError(f"Dropout: p must be a number in [0, 1], received {p!r}")
        if mode not in ("upscale_in_train", "downscale_in_infer"):
            raise ValueError(f"Dropout: mode must be 'upscale_in_train' or 'downscale_in_infer', received {mode!r}")
        self.p = p
        self.inplace = inplace
        self.axis = axis
        self.mode = mode
        self.name = name

    def forward(self, input):
        return F.dropout(input, p=self.p, axis=self.axis, training=self.training, inplace=self.inplace,
                         mode=self.mode)

    def extra_repr(self):
        name = f", name={self.name}" if self.name else ""
        return f"p={self.p}, axis={self.axis}, mode={self.mode}{name}, inplace={self.inplace}"


class Flatten(Layer):
    def __init__(self, start_axis=1, stop_axis=-1):
        super().__init__()
        self.start_axis = start_axis
        self.stop_axis = stop_axis

    def forward(self, input):
        from ... import flatten
        return flatten(input, start_axis=self.start_axis, stop_axis=self.stop_axis)


class Identity(Layer):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input
