"""paddle.special: PyTorch-compatible spellings (input/dim/keepdim) of functions paddle already has."""
from .nn import functional as _F
from .tensor import math as _m
from .tensor import reduce as _r


def expm1(input, *, out=None):
    """exp(input) - 1."""
    return _m.expm1(input)


def logsumexp(input, dim=None, keepdim=False, *, out=None):
    """log(sum(exp(input))) over dim (all dims when None)."""
    return _r.logsumexp(input, axis=dim, keepdim=keepdim)


def softmax(input, dim=None, dtype=None, *, out=None):
    """softmax over dim, computed in dtype when given. dim=None picks PyTorch's legacy default (as Paddle does):
    dim 0 for 0-D, 1-D and 3-D inputs, else dim 1."""
    if dim is None:
        dim = 0 if len(input.shape) in (0, 1, 3) else 1
    return _F.softmax(input, axis=dim, dtype=dtype)


__all__ = ["expm1", "logsumexp", "softmax"]
