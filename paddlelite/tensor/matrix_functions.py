"""trace, kron, diff, renorm and the pairwise distances cdist/pdist: the ops `trace` and `kron`, the others
compositions of registered ops as in Paddle (so their gradients and static programs come with them)."""
import numbers

import numpy as np

from ..framework.promotion import real_to_complex
from ..ops import dispatch
from ..ops import special as _special
from . import creation as _creation
from . import linalg as _linalg
from . import manipulation as _manip
from . import math as _math
from . import reduce as _reduce
from .manipulation import _int
from .math import _check_tensor, check_tensor_type

apply = dispatch.apply


def trace(x, offset=0, axis1=0, axis2=1, name=None):
    """The sum of the `offset` diagonal of the matrices in dims (axis1, axis2)."""
    _check_tensor(x, "trace")
    return apply(_special.TRACE, x, offset=_int(offset, "trace", "offset"), axis1=_int(axis1, "trace", "axis1"),
                 axis2=_int(axis2, "trace", "axis2"))


def kron(x, y, name=None):
    """The Kronecker product (the lower-rank input padded with leading dims of 1)."""
    _check_tensor(x, "kron")
    _check_tensor(y, "kron", "y")
    x, y = real_to_complex(x, y)
    if x.dtype != y.dtype:
        raise ValueError(f"kron: x and y must have the same dtype, received {x.dtype.name} and {y.dtype.name}")
    return apply(_special.KRON, x, y)


def _diff_once(x, axis, out=None):
    length = x.shape[axis]
    back = _manip.slice(x, [axis], [1], [length])
    front = _manip.slice(x, [axis], [0], [max(length - 1, 0)])
    if x.dtype.name == "bool":
        result = _math.logical_xor(back, front)
    else:
        result = _math.subtract(back, front)
    return result if out is None else _creation.assign(result, output=out)


def diff(x, n=1, axis=-1, prepend=None, append=None, name=None, *, out=None):
    """The n-th forward difference along `axis` (x with prepend/append concatenated first); bool: xor."""
    _check_tensor(x, "diff")
    if not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"diff: n must be an int >= 1, received {n!r}")
    ndim = len(x.shape)
    if ndim == 0:
        raise IndexError("diff: x must be at least 1-D, received a 0-D Tensor")
    axis = _int(axis, "diff", "axis")
    if not -ndim <= axis < ndim:
        raise IndexError(f"diff: axis must be in [{-ndim}, {ndim}), received {axis}")
    axis %= ndim
    pieces = [t for t in (prepend, x, append) if t is not None]
    result = _manip.concat(pieces, axis) if len(pieces) > 1 else x
    for i in range(n):
        result = _diff_once(result, axis, out if i == n - 1 else None)
    return result


def renorm(x, p, axis, max_norm):
    """Each slice along `axis` whose p-norm exceeds max_norm scaled to norm max_norm (Paddle's 1e-7 guard)."""
    _check_tensor(x, "renorm")
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"renorm: x must be a float32 or float64 Tensor, received {x.dtype.name}")
    ndim = len(x.shape)
    axis = _int(axis, "renorm", "axis")
    if not axis < ndim:
        raise ValueError(f"renorm: axis ({axis}) must be less than the rank of x ({ndim})")
    if axis < -ndim:
        raise ValueError(f"renorm: axis ({axis}) must not be less than -{ndim}")
    axis %= ndim
    others = [d for d in range(ndim) if d != axis]
    p = float(p)
    norms = _reduce.norm(x, p, axis=others, keepdim=True) if others else _math.abs(x)
    limit = _creation.full_like(norms, float(max_norm))
    factor = _math.where(_math.greater_than(norms, limit),
                         _math.divide(limit, _math.scale(norms, bias=1e-7)), _creation.ones_like(norms))
    return _math.multiply(x, factor)


def _check_distance_input(t, api, arg):
    _check_tensor(t, api, arg)
    if t.dtype.name not in ("float32", "float64"):
        raise TypeError(f"{api}: {arg} must be a float32 or float64 Tensor, received {t.dtype.name}")


_CDIST_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")


def cdist(x, y, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary", name=None):
    """The p-norm distances between the rows of x [..., r1, c] and of y [..., r2, c]: [..., r1, r2]. For p = 2
    with more than 25 rows (or compute_mode 'use_mm_for_euclid_dist') through |x|^2 - 2 x y^T + |y|^2, as Paddle."""
    _check_distance_input(x, "cdist", "x")
    _check_distance_input(y, "cdist", "y")
    if isinstance(p, bool) or not isinstance(p, (float, int)):
        raise TypeError(f"cdist: p must be a float or an int, received {type(p).__name__}")
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"cdist: compute_mode must be one of {list(_CDIST_MODES)}, received {compute_mode!r}")
    xs, ys = list(x.shape), list(y.shape)
    if len(xs) < 2 or len(ys) < 2:
        raise AssertionError(f"cdist: x and y must be at least 2-D, received shapes {xs} and {ys}")
    if xs[-1] != ys[-1]:
        raise AssertionError(f"cdist: x and y must have the same last dim, received {xs[-1]} and {ys[-1]}")
    if p < 0:
        raise AssertionError(f"cdist: p must be >= 0, received {p}")
    r1, r2, p = xs[-2], ys[-2], float(p)
    if r1 == 0 or r2 == 0:
        return _creation.empty([r1, r2], dtype=x.dtype)
    if xs[-1] == 0:
        return _creation.zeros([r1, r2], dtype=x.dtype)
    mode = _CDIST_MODES.index(compute_mode)
    if p == 2.0 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        x_norm = _reduce.sum(_math.square(x), axis=-1, keepdim=True)
        y_norm = _manip.transpose(_reduce.sum(_math.square(y), axis=-1, keepdim=True),
                                  [*range(len(ys) - 2), len(ys) - 1, len(ys) - 2])
        squared = _math.add(_math.add(_math.scale(_math.matmul(x, y, transpose_y=True), scale=-2.0), y_norm), x_norm)
        return _math.sqrt(_math.clip(squared, min=0.0))
    return _linalg.norm(_math.subtract(_manip.unsqueeze(x, [-2]), _manip.unsqueeze(y, [-3])), p=p, axis=-1)


def pdist(x, p=2.0, name=None):
    """The p-norm distances between every pair of rows i < j of a 2-D x, as a vector of N (N - 1) / 2."""
    check_tensor_type(x, "pdist")
    if len(x.shape) != 2:
        raise AssertionError(f"pdist: x must be 2-D, received shape {list(x.shape)}")
    first, second = np.triu_indices(x.shape[0], k=1)  # the pairs only: no zero self-distance to differentiate
    pairs = _math.subtract(_manip.gather(x, _creation.assign(first)), _manip.gather(x, _creation.assign(second)))
    return _linalg.norm(pairs, p=p, axis=-1)


TENSOR_METHODS = ["trace", "kron", "diff", "renorm", "cdist"]
__all__ = ["cdist", "diff", "kron", "renorm", "trace"]  # (pdist: top-level paddle only, as in Paddle)
