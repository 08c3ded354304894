"""Input layers: embedding (op 'embedding'), one_hot (op 'one_hot')."""
import numbers

from ...ops import dispatch
from ...ops import nn as _nn
from ...tensor.manipulation import one_hot  # noqa: F401  (paddle.nn.functional.one_hot)
from ...tensor.math import _check_tensor

__all__ = ["embedding", "one_hot"]

apply = dispatch.apply


def embedding(x, weight, padding_idx=None, sparse=False, name=None):
    """Rows of weight [V, D] picked by the integer ids x; the padding_idx row (negative: counted from V) gives
    zeros and receives no gradient. `sparse` is accepted; gradients are dense."""
    _check_tensor(x, "embedding", "x")
    _check_tensor(weight, "embedding", "weight")
    if x.dtype.np.kind not in "iu":
        raise TypeError(f"embedding: x must be an int32 or int64 Tensor of ids, received dtype {x.dtype.name}")
    if len(weight.shape) != 2:
        raise ValueError(f"embedding: weight must be 2-D [num_embeddings, embedding_dim], received shape "
                         f"{weight.shape}")
    vocab = weight.shape[0]
    if padding_idx is None:
        idx = -1
    else:
        if isinstance(padding_idx, bool) or not isinstance(padding_idx, numbers.Integral) or \
                (vocab != -1 and not -vocab <= padding_idx < vocab):
            raise ValueError(f"embedding: padding_idx must be an int in [-{vocab}, {vocab}), received {padding_idx!r}")
        idx = int(padding_idx) + vocab if padding_idx < 0 else int(padding_idx)
    return apply(_nn.EMBEDDING, x, weight, padding_idx=idx)
