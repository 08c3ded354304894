"""Paddle's index-add / scatter-add APIs -- index_add, index_fill, scatter_add, scatter_nd, scatter_nd_add --
and take / take_along_dim, built on the registered gather ops and their scatter-add grad ops (whose own
gradients are gathers, so every input gets its gradient)."""
import numpy as np

from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops import indexing as _io
from ..ops import search as _s
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from .aliases import _deliver
from .creation import _shape_list
from .manipulation import _check_tensor, _int, _int_index
from .search import take_along_axis

apply = dispatch.apply


def _axis(x, axis, api):
    axis = _int(axis, api, "axis")
    ndim = max(len(x.shape), 1)
    if not -ndim <= axis < ndim:
        raise ValueError(f"{api}: axis must be in [{-ndim}, {ndim}), received {axis}")
    return axis % ndim


def index_add(x, index, axis, value, alpha=1, name=None, *, out=None):
    """x with alpha * value added at `index` along `axis` (repeated indices accumulate)."""
    _check_tensor(x, "index_add")
    _check_tensor(value, "index_add", "value")
    _int_index(index, "index_add", ndims=(1,))
    axis = _axis(x, axis, "index_add")
    added = apply(_io.GATHER_GRAD, x, index, value, axis=axis)
    return _deliver(_math.add(x, added if alpha == 1 else _math.scale(added, float(alpha))), out)


def index_fill(x, index, axis, value, name=None):
    """x with the slices at `index` along `axis` set to `value`."""
    _check_tensor(x, "index_fill")
    _int_index(index, "index_fill", ndims=(1,))
    axis = _axis(x, axis, "index_fill")
    picked = apply(_io.GATHER_GRAD, x, index, _manip.gather(_creation.ones_like(x), index, axis), axis=axis)
    return _math.where(_math.greater_than(picked, _creation.zeros_like(picked)), _creation.full_like(x, value), x)


def scatter_add(input, dim, index, src):
    """input with src[i...] added at index[i...] along `dim` (src read over index's shape)."""
    _check_tensor(input, "scatter_add", "input")
    _check_tensor(src, "scatter_add", "src")
    _check_tensor(index, "scatter_add", "index")
    dim = _axis(input, dim, "scatter_add")
    if list(src.shape) != list(index.shape):
        src = _manip.slice(src, list(range(len(index.shape))), [0] * len(index.shape), list(index.shape))
    return _math.add(input, apply(_s.TAKE_ALONG_AXIS_GRAD, input, index, src, axis=dim))


def scatter_nd_add(x, index, updates, name=None):
    """x with updates added at the n-d positions index[..., :] (repeated positions accumulate)."""
    _check_tensor(x, "scatter_nd_add")
    _check_tensor(updates, "scatter_nd_add", "updates")
    _int_index(index, "scatter_nd_add", ndims=None)
    return _math.add(x, apply(_io.GATHER_ND_GRAD, x, index, updates))


def scatter_nd(index, updates, shape, name=None):
    """Zeros of `shape` with updates added at the n-d positions index[..., :]."""
    _check_tensor(updates, "scatter_nd", "updates")
    _int_index(index, "scatter_nd", ndims=None)
    zeros = _creation.zeros(_shape_list(shape, "scatter_nd"), updates.dtype)
    return apply(_io.GATHER_ND_GRAD, zeros, index, updates)


def take(x, index, mode="raise", name=None):
    """The elements of flattened x at `index` (shaped like index); mode: 'raise' (negative counts from the
    end, out of range raises), 'wrap' (modulo) or 'clip' (to the ends)."""
    _check_tensor(x, "take")
    _int_index(index, "take", ndims=None)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"take: mode must be 'raise', 'wrap' or 'clip', received {mode!r}")
    n = int(np.prod(x.shape))
    if mode == "raise" and isinstance(index, Tensor):
        values = index.numpy()
        if values.size and (values.min() < -n or values.max() >= n):
            raise ValueError(f"take: index values must be in [{-n}, {n}), received min {values.min()} and max "
                             f"{values.max()}")
    if mode == "wrap":
        index = _math.remainder(index, n)
    elif mode == "clip":
        index = _math.clip(index, 0, n - 1)
    else:
        index = _math.where(_math.less_than(index, _creation.zeros_like(index)), _math.add(index, n), index)
    flat = _manip.gather(_manip.flatten(x), _manip.flatten(index))
    return _manip.reshape(flat, list(index.shape))


def take_along_dim(arr, indices, axis, broadcast=True, *, out=None):
    """Paddle's other name for take_along_axis (`out` receives the result)."""
    return _deliver(take_along_axis(arr, indices, axis, broadcast), out)


__all__ = ["index_add", "index_fill", "scatter_add", "scatter_nd", "scatter_nd_add", "take", "take_along_dim"]
TENSOR_METHODS = list(__all__)
