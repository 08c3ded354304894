"""pairwise_distance: the p-norm of x - y + epsilon along the last axis."""
from ... import tensor as T
from ...tensor.math import check_float_tensor

__all__ = ["pairwise_distance"]


def pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    check_float_tensor(x, "pairwise_distance", "x")
    check_float_tensor(y, "pairwise_distance", "y")
    if len(x.shape) not in (1, 2) or len(y.shape) not in (1, 2):
        raise ValueError(f"pairwise_distance: x and y must be 1-D or 2-D, received shapes {x.shape} and {y.shape}")
    return T.norm(T.scale(x - y, 1.0, float(epsilon)), p=p, axis=-1, keepdim=keepdim)
