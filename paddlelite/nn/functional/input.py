"""Input layers: embedding (op 'embedding'), one_hot (op 'one_hot')."""
import numbers

from ... import tensor as T
from ...framework.mode import in_static_mode, no_grad
from ...ops import dispatch
from ...ops import nn as _nn
from ...tensor.manipulation import one_hot  # noqa: F401  (paddle.nn.functional.one_hot)
from ...tensor.math import _check_tensor

__all__ = ["embedding", "one_hot"]  # and embedding_renorm_, shown outside __all__ as in Paddle

apply = dispatch.apply


def embedding_renorm_(x, weight, max_norm, norm_type=2.0):
    """Paddle's embedding_renorm_: the rows of `weight` that x looks up, scaled to a norm_type-norm of at most
    max_norm. Eager: written into weight in place without grad. Static: a new variable (Paddle's scatter_
    is out of place there) that the lookup reads."""
    with no_grad():
        ids = T.unique(x)
        rows = T.index_select(weight, ids)
        norm = T.norm(rows, p=norm_type, axis=1, keepdim=True)
        scale = T.where(norm > max_norm, max_norm / (norm + 1e-7), T.ones_like(norm))
        renormed = T.scatter(weight, ids, rows * T.expand_as(scale, rows), overwrite=True)
        if in_static_mode():
            return renormed
        T.assign(renormed, output=weight)
    return weight


def embedding(x, weight, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False, scale_grad_by_freq=False,
              name=None):
    """Rows of weight [V, D] picked by the integer ids x; the padding_idx row (negative: counted from V) gives
    zeros and receives no gradient. max_norm first renormalises the looked-up rows of weight (in place in eager
    mode); scale_grad_by_freq divides each row's gradient by how often its id occurs in x. `sparse` makes the
    weight's gradient Paddle's SELECTED_ROWS variable in a static program; its values are the dense gradient's."""
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
    if max_norm and weight.size != 0:
        weight = embedding_renorm_(x, weight, max_norm, norm_type)
    if scale_grad_by_freq and sparse:
        raise AttributeError("embedding: scale_grad_by_freq = True is not supported with sparse update.")
    return apply(_nn.EMBEDDING, x, weight, padding_idx=idx, scale_grad_by_freq=bool(scale_grad_by_freq),
                 is_sparse=bool(sparse))
