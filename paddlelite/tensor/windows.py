"""Windows onto a tensor: crop (one box: Paddle's crop_tensor op) and unfold (sliding windows along an axis, as a
gather, so gradients flow back to the positions read); increment (a one-element counter, in place as in Paddle)."""
import numpy as np

from ..framework.tensor import Tensor
from ..ops import manipulation as _mo
from ..ops.dispatch import apply
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from .manipulation import _int, _ints_or_tensors
from .math import _check_tensor


def crop(x, shape=None, offsets=None, name=None):
    """The box of x starting at `offsets` (default 0) with `shape` (default x's; -1 takes the rest of a dim), as
    Paddle's crop_tensor op: either may be a 1-D int Tensor or a list holding Tensors, read when the op runs."""
    _check_tensor(x, "crop")
    ndim = len(x.shape)
    shape_in, shape = _ints_or_tensors(list(x.shape) if shape is None else shape, "crop", "shape", tensor_attr=[],
                                       placeholder=0)
    offsets_in, offsets = _ints_or_tensors([0] * ndim if offsets is None else offsets, "crop", "offsets",
                                           tensor_attr=[-1] * ndim)
    if not shape_in and (len(shape) != ndim or any(s < -1 for s in shape)):
        raise ValueError(f"crop: shape must give each of x's {ndim} dims a size >= 0 (or -1: the rest of the dim), "
                         f"received {shape}")
    if not offsets_in and (len(offsets) != ndim or any(o < 0 for o in offsets)):
        raise ValueError(f"crop: offsets must give each of x's {ndim} dims an offset >= 0, received {offsets}")
    (shape_t, shape_list), (offsets_t, offsets_list) = (shape_in + (None, None))[:2], (offsets_in + (None, None))[:2]
    return apply(_mo.CROP_TENSOR, x, shape_t, offsets_t, shape_list, offsets_list, shape=shape, offsets=offsets)


def unfold(x, axis, size, step, name=None):
    """The windows of `size` elements every `step` along axis: that axis becomes the window count and a new last
    axis of `size` holds each window."""
    _check_tensor(x, "unfold")
    ndim = max(len(x.shape), 1)
    axis, size, step = (_int(v, "unfold", a) for v, a in ((axis, "axis"), (size, "size"), (step, "step")))
    if not -ndim <= axis < ndim:
        raise ValueError(f"unfold: axis must be in [{-ndim}, {ndim}), received {axis}")
    axis %= ndim
    x = _manip.reshape(x, [1]) if not x.shape else x
    n = x.shape[axis]
    if step <= 0:
        raise ValueError(f"unfold: step must be > 0, received {step}")
    if not 0 <= size <= n:
        raise ValueError(f"unfold: size must be in [0, {n}] (the size of axis {axis}), received {size}")
    count = (n - size) // step + 1
    index = (np.arange(count)[:, None] * step + np.arange(size)[None, :]).reshape(-1)
    picked = _manip.gather(x, _creation.assign(index), axis)  # [..., count * size, ...]
    shape = list(x.shape[:axis]) + [count, size] + list(x.shape[axis + 1:])
    perm = [d for d in range(len(shape)) if d != axis + 1] + [axis + 1]
    return _manip.transpose(_manip.reshape(picked, shape), perm)


def increment(x, value=1.0, name=None):
    """x + value written into the one-element x (returned), as Paddle's increment does (static: its increment op
    writing x, appended to the block being built)."""
    _check_tensor(x, "increment")
    if int(np.prod(x.shape)) != 1:
        raise ValueError(f"increment: x must hold exactly one element, received shape {list(x.shape)}")
    if not isinstance(x, Tensor):  # static mode: Paddle's increment op writing x itself (a step counter)
        x.block.program.current_block().append_op("increment", inputs={"X": [x]}, outputs={"Out": [x]},
                                                  attrs={"step": float(value)})
        return x
    return _manip.inplace_apply(x, "increment", lambda a: _math.scale(a, 1.0, float(value)).astype(x.dtype))


__all__ = ["increment", "unfold"]  # crop: top level only, as in Paddle
TENSOR_METHODS = ["increment", "unfold"]
