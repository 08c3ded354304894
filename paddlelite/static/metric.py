"""paddle.static.accuracy: top-k accuracy of a batch, built from registry ops."""
import numpy as np

from .framework import Variable, require_static


def accuracy(input, label, k=1, name=None):
    """Fraction of rows whose label scores among the k highest: a row counts as correct when fewer than k
    classes score strictly higher than the label's class. input [N, C] float, label [N, 1] (or [N]) int."""
    require_static("paddle.static.accuracy")
    import paddlelite as paddle
    for arg, v in (("input", input), ("label", label)):
        if not isinstance(v, Variable):
            raise TypeError(f"accuracy: {arg} must be a static Variable, received {type(v).__name__}")
    if input.ndim != 2 or input.shape[1] < 0:
        raise ValueError(f"accuracy: input must be [N, num_classes] with a known num_classes, received shape "
                         f"{input.shape}")
    if label.dtype.name not in ("int32", "int64"):
        raise TypeError(f"accuracy: label must be int32 or int64, received {label.dtype.name}")
    if not (label.ndim == 1 or (label.ndim == 2 and label.shape[1] == 1)):
        raise ValueError(f"accuracy: label must be [N] or [N, 1], received shape {label.shape}")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"accuracy: k must be a positive int, received {k!r}")
    num_classes = input.shape[1]
    ids = label if label.ndim == 1 else paddle.squeeze(label, axis=[1])
    from ..ops import dispatch
    from ..ops.registry import get_op
    onehot = paddle.cast(dispatch.apply(get_op("one_hot"), ids, depth=int(num_classes)), input.dtype)
    label_score = paddle.sum(paddle.multiply(input, onehot), axis=1, keepdim=True)
    higher = paddle.sum(paddle.cast(paddle.greater_than(input, label_score), "int64"), axis=1)
    hit = paddle.cast(paddle.less_than(higher, paddle.full([1], int(k), "int64")), "float32")
    return paddle.mean(hit)


__all__ = ["accuracy"]
