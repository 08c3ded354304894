"""sequence_mask: mask[..., j] = j < x[...]."""
from ... import tensor as T
from ...framework.mode import _static
from ...tensor.math import _check_tensor

__all__ = ["sequence_mask"]


def sequence_mask(x, maxlen=None, dtype="int64", name=None):
    """x holds lengths; the result has a new last dim of size maxlen (x's largest value when None)."""
    _check_tensor(x, "sequence_mask")
    if maxlen is None:
        if _static[0]:
            raise ValueError("sequence_mask: in static mode maxlen must be given (the output shape depends on it)")
        maxlen = int(T.max(x)) if x.size else 0
    elif not isinstance(maxlen, int) and hasattr(maxlen, "shape"):
        maxlen = int(maxlen)
    steps = T.arange(0, int(maxlen), dtype=x.dtype)
    return T.cast(steps < T.unsqueeze(x, -1), dtype)
