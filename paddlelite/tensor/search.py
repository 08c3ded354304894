"""Search and sort APIs: topk, sort, argsort, take_along_axis, nonzero, unique, masked_fill-free helpers."""
import numpy as np

from ..framework import dtype as _dtype
from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops import manipulation as _mo
from ..ops import search as _s
from ..ops.shape_rules import broadcast_shapes
from .manipulation import _int
from .math import _check_tensor, is_tensor_like
from .tensor_args import tensor_argument

apply = dispatch.apply


def _axis(x, axis, api):
    axis = _int(axis, api, "axis")
    nd = max(len(x.shape), 1)
    if not -nd <= axis < nd:
        raise ValueError(f"{api}: axis {axis} is out of range for a {len(x.shape)}-D tensor "
                         f"(expected -{nd} <= axis < {nd})")
    return axis


def topk(x, k, axis=None, largest=True, sorted=True, name=None):
    """The k largest (largest=False: smallest) values along axis (default: the last) and their int64 indices."""
    _check_tensor(x, "topk")
    axis = -1 if axis is None else _axis(x, axis, "topk")
    if is_tensor_like(k):  # the op reads it when it runs
        return apply(_s.TOP_K, x, tensor_argument(k, "topk", "k"), axis=axis, largest=bool(largest),
                     sorted=bool(sorted))
    k = _int(k, "topk", "k")
    n = x.shape[axis] if len(x.shape) else 1
    if not 1 <= k <= n and n != -1:  # an unknown (static -1) dim is checked when the program runs
        raise ValueError(f"topk: k must lie in [1, {n}] (the size of axis {axis}), received {k}")
    return apply(_s.TOP_K, x, k=k, axis=axis, largest=bool(largest), sorted=bool(sorted))


def argsort(x, axis=-1, descending=False, stable=False, name=None):
    """int64 indices that sort x along axis (equal elements keep their order)."""
    _check_tensor(x, "argsort")
    return apply(_s.ARGSORT, x, axis=_axis(x, axis, "argsort"), descending=bool(descending))[1]


def sort(x, axis=-1, descending=False, stable=False, name=None):
    """x sorted along axis."""
    _check_tensor(x, "sort")
    return apply(_s.ARGSORT, x, axis=_axis(x, axis, "sort"), descending=bool(descending))[0]


def take_along_axis(arr, indices, axis, broadcast=True):
    """arr's values at `indices` along axis; indices (int32/int64, arr's rank) broadcast over the other dims."""
    _check_tensor(arr, "take_along_axis", "arr")
    _check_tensor(indices, "take_along_axis", "indices")
    if indices.dtype.np.kind not in "iu":
        raise TypeError(f"take_along_axis: indices must be an int32 or int64 Tensor, received {indices.dtype.name}")
    if len(indices.shape) != len(arr.shape):
        raise ValueError(f"take_along_axis: indices must have the rank of arr ({len(arr.shape)}), "
                         f"received shape {list(indices.shape)} for arr of shape {list(arr.shape)}")
    axis = _axis(arr, axis, "take_along_axis")
    if broadcast and len(arr.shape):
        ax = axis % len(arr.shape)
        a_shape = [1 if d == ax else s for d, s in enumerate(arr.shape)]
        i_shape = [1 if d == ax else s for d, s in enumerate(indices.shape)]
        common = list(broadcast_shapes("take_along_axis", tuple(a_shape), tuple(i_shape), ("arr", "indices")))
        want_i = [indices.shape[ax] if d == ax else s for d, s in enumerate(common)]
        want_a = [arr.shape[ax] if d == ax else s for d, s in enumerate(common)]
        if list(indices.shape) != want_i:
            indices = apply(_mo.EXPAND, indices, shape=want_i)
        if list(arr.shape) != want_a:
            arr = apply(_mo.EXPAND, arr, shape=want_a)
    return apply(_s.TAKE_ALONG_AXIS, arr, indices, axis=axis)


def nonzero(x, as_tuple=False):
    """int64 coordinates of the non-zero elements: [count, rank], or (as_tuple) rank 1-D tensors of shape [count]."""
    _check_tensor(x, "nonzero")
    out = apply(_s.WHERE_INDEX, x)
    if not as_tuple:
        return out
    rank = len(x.shape)
    if rank == 0:
        raise ValueError("nonzero: as_tuple=True needs a tensor of at least 1 dimension, received a 0-D tensor")
    return tuple(apply(_mo.UNSTACK, out, axis=1, num=rank))


def argwhere(input):
    """int64 coordinates [count, rank] of input's non-zero elements (input of at least one dimension)."""
    _check_tensor(input, "argwhere", "input")
    if len(input.shape) == 0:
        raise ValueError("argwhere: input must have at least 1 dimension, received a 0-D tensor")
    return nonzero(input)


def _unique_args(x, axis, dtype, api):
    """(the normalised axis or None, the index dtype's name: int32 or int64)."""
    _check_tensor(x, api)
    if axis is not None:
        axis = _axis(x, axis, api)
    dt = _dtype.convert_dtype(dtype).name
    if dt not in ("int32", "int64"):
        raise TypeError(f"{api}: dtype must be int32 or int64, received {dt}")
    return axis, dt


def unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None, dtype="int64", sorted=True,
           name=None):
    """Sorted distinct values (of the flattened x when axis is None), optionally with the first index of each,
    the inverse mapping (x = out[inverse]) and the counts. `sorted=False` sorts too (as Paddle's CPU kernel)."""
    axis, dt = _unique_args(x, axis, dtype, "unique")
    out, index, inverse, counts = apply(_s.UNIQUE, x, axis=axis, dtype=dt)
    extras = [t for t, want in ((index, return_index), (inverse, return_inverse), (counts, return_counts)) if want]
    return tuple([out] + extras) if extras else out


def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None, dtype="int64", name=None):
    """x with each run of equal consecutive elements (of the flattened x when axis is None; of equal slices
    along axis otherwise) collapsed to one, optionally with the inverse mapping and the run lengths."""
    axis, dt = _unique_args(x, axis, dtype, "unique_consecutive")
    out, inverse, counts = apply(_s.UNIQUE_CONSECUTIVE, x, axis=axis, dtype=dt)
    extras = [t for t, want in ((inverse, return_inverse), (counts, return_counts)) if want]
    return tuple([out] + extras) if extras else out


def top_p_sampling(x, ps, threshold=None, topp_seed=None, seed=-1, k=0, mode="truncated", return_top=False,
                   name=None):
    """One token id per row of the probabilities x [batch, vocab], drawn from the most probable tokens whose mass
    before them stays under ps (all tokens with mode 'non-truncated'; none below `threshold`): (its probability,
    its id), plus the top-k probabilities and ids when return_top."""
    _check_tensor(x, "top_p_sampling")
    _check_tensor(ps, "top_p_sampling", "ps")
    out, ids, top_scores, top_ids = apply(_s.TOP_P_SAMPLING, x, ps, threshold, topp_seed, seed=int(seed), k=int(k),
                                          mode=mode, return_top=bool(return_top))
    return (out, ids, top_scores, top_ids) if return_top else (out, ids)


def masked_fill(x, mask, value, name=None):
    """x with `value` where the (broadcast) bool mask is True."""
    from .math import where
    from .creation import full_like
    _check_tensor(x, "masked_fill")
    _check_tensor(mask, "masked_fill", "mask")
    if mask.dtype.np != np.bool_:
        raise TypeError(f"masked_fill: mask must be a bool Tensor, received {mask.dtype.name}")
    if isinstance(value, Tensor):
        fill = value.astype(x.dtype) if value.dtype != x.dtype else value
    else:
        fill = full_like(x, value)
    return where(mask, fill, x)


__all__ = ["topk", "argsort", "sort", "take_along_axis", "nonzero", "argwhere", "unique", "unique_consecutive", "masked_fill", "top_p_sampling"]
TENSOR_METHODS = list(__all__)
