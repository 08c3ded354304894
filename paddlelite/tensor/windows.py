"""Windows onto a tensor: crop (one box) and unfold (sliding windows along an axis), as gathers and slices so
gradients flow back to the positions read; increment (a one-element counter, in place as in Paddle)."""
import numpy as np

from ..framework.tensor import Tensor
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from .manipulation import _int, _int_list
from .math import _check_tensor


def crop(x, shape=None, offsets=None, name=None):
    """The box of x starting at `offsets` (default 0) with `shape` (default x's; -1 takes the rest of a dim)."""
    _check_tensor(x, "crop")
    ndim = len(x.shape)
    shape = list(x.shape) if shape is None else _int_list(shape.tolist() if isinstance(shape, Tensor) else shape,
                                                           "crop", "shape")
    offsets = [0] * ndim if offsets is None else _int_list(
        offsets.tolist() if isinstance(offsets, Tensor) else offsets, "crop", "offsets")
    if len(shape) != ndim or len(offsets) != ndim:
        raise ValueError(f"crop: shape and offsets must have x's rank {ndim}, received {shape} and {offsets}")
    ends = []
    for d, (n, o, s) in enumerate(zip(x.shape, offsets, shape)):
        s = n - o if s == -1 else s
        if o < 0 or s < 0 or o + s > n:
            raise ValueError(f"crop: offsets[{d}] + shape[{d}] = {o} + {s} must lie within x's dim {d} of size {n}")
        ends.append(o + s)
    return _manip.slice(x, list(range(ndim)), offsets, ends) if ndim else x


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
    """x + value written into the one-element x (returned), as Paddle's increment does in dynamic mode."""
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
