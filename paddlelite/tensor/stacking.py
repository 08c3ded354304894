"""Paddle's NumPy-style shaping APIs composed of registered ops: moveaxis, narrow, rot90, unflatten, reduce_as, atleast_*d,
h/v/d/column/row stacking, h/v/d/tensor splitting, meshgrid and broadcast_tensors/broadcast_shape(s)."""
from ..ops.shape_rules import broadcast_shapes as _broadcast
from ..ops import dispatch as _dispatch
from ..ops.registry import get_op as _get_op
from . import manipulation as _manip
from .creation import to_tensor
from .math import is_tensor_like
from .manipulation import _check_tensor, _int, _int_list, _tensor_list


def _axis(axis, ndim, api, arg="axis"):
    axis = _int(axis, api, arg)
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"{api}: {arg} must be in [{-max(ndim, 1)}, {max(ndim, 1)}), received {axis}")
    return axis % max(ndim, 1)


def moveaxis(x, source, destination, name=None):
    """x with the axes `source` moved to positions `destination` (the others keep their order)."""
    _check_tensor(x, "moveaxis")
    ndim = len(x.shape)
    src = [_axis(a, ndim, "moveaxis", "source") for a in _int_list(source, "moveaxis", "source")]
    dst = [_axis(a, ndim, "moveaxis", "destination") for a in _int_list(destination, "moveaxis", "destination")]
    if len(src) != len(dst):
        raise ValueError(f"moveaxis: source and destination must have the same length, received {len(src)} and "
                         f"{len(dst)}")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"moveaxis: source {src} and destination {dst} must not repeat an axis")
    rest = [a for a in range(ndim) if a not in src]
    perm = [None] * ndim
    for s, d in zip(src, dst):
        perm[d] = s
    it = iter(rest)
    perm = [p if p is not None else next(it) for p in perm]
    return _manip.transpose(x, perm) if ndim else x


def narrow(input, dim, start, length):
    """The `length` elements of `input` along `dim` from `start` (negative start counts from the end)."""
    _check_tensor(input, "narrow", "input")
    dim = _axis(dim, len(input.shape), "narrow", "dim")
    size, start, length = input.shape[dim], _int(start, "narrow", "start"), _int(length, "narrow", "length")
    if start < 0:
        start += size
    if not 0 <= start <= size or length < 0 or start + length > size:
        raise ValueError(f"narrow: start {start} and length {length} must lie within dim {dim} of size {size}")
    return _manip.slice(input, [dim], [start], [start + length])


def rot90(x, k=1, axes=[0, 1], name=None):  # noqa: B006  (Paddle's signature)
    """x rotated by k * 90 degrees in the plane of `axes`, from the first axis toward the second."""
    _check_tensor(x, "rot90")
    ndim = len(x.shape)
    axes = _int_list(axes, "rot90", "axes")
    if len(axes) != 2 or ndim < 2:
        raise ValueError(f"rot90: axes must name 2 axes of an at least 2-D tensor, received axes {axes} for "
                         f"{ndim}-D x")
    a, b = (_axis(v, ndim, "rot90", "axes") for v in axes)
    if a == b:
        raise ValueError(f"rot90: the two axes must differ, received {axes}")
    k = _int(k, "rot90", "k") % 4
    if k == 0:
        return x
    if k == 2:
        return _manip.flip(x, [a, b])
    perm = list(range(ndim))
    perm[a], perm[b] = perm[b], perm[a]
    if k == 1:
        return _manip.transpose(_manip.flip(x, [b]), perm)
    return _manip.flip(_manip.transpose(x, perm), [b])


def _atleast(ndim, api):
    def reshaped(x):
        if not is_tensor_like(x):  # a number, list or NumPy array becomes a tensor first, as in Paddle
            x = to_tensor(x)
        shape = list(x.shape)
        if len(shape) >= ndim:
            return x
        if ndim == 3:  # NumPy's rule: [n] -> [1, n, 1], [a, b] -> [a, b, 1]
            shape = {0: [1, 1, 1], 1: [1, *shape, 1], 2: [*shape, 1]}[len(shape)]
        else:
            shape = [1] * (ndim - len(shape)) + shape
        return _manip.reshape(x, shape)

    def fn(*inputs, name=None):
        outs = [reshaped(x) for x in inputs]
        return outs[0] if len(outs) == 1 else outs
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = f"Each input viewed with at least {ndim} dims (NumPy's {api}); one input gives a Tensor."
    return fn


atleast_1d = _atleast(1, "atleast_1d")
atleast_2d = _atleast(2, "atleast_2d")
atleast_3d = _atleast(3, "atleast_3d")


def hstack(x, name=None):
    """Concatenation along axis 1 (axis 0 for 1-D tensors)."""
    xs = [atleast_1d(t) for t in _tensor_list(x, "hstack")]
    return _manip.concat(xs, axis=0 if len(xs[0].shape) == 1 else 1)


def vstack(x, name=None):
    """Concatenation along axis 0 of the inputs as at least 2-D."""
    return _manip.concat([atleast_2d(t) for t in _tensor_list(x, "vstack")], axis=0)


row_stack = vstack


def dstack(x, name=None):
    """Concatenation along axis 2 of the inputs as at least 3-D."""
    return _manip.concat([atleast_3d(t) for t in _tensor_list(x, "dstack")], axis=2)


def column_stack(x, name=None):
    """1-D inputs as columns, then concatenation along axis 1."""
    xs = _tensor_list(x, "column_stack")
    return _manip.concat([_manip.reshape(t, [-1, 1]) if len(t.shape) < 2 else t for t in xs], axis=1)


def tensor_split(x, num_or_indices, axis=0, name=None):
    """x split along `axis` into `num` near-equal parts (the first ones one longer), or at the `indices`."""
    _check_tensor(x, "tensor_split")
    axis = _axis(axis, len(x.shape), "tensor_split")
    size = x.shape[axis]
    if isinstance(num_or_indices, (list, tuple)):
        bounds = [min(max(i + size if i < 0 else i, 0), size) for i in _int_list(num_or_indices, "tensor_split",
                                                                                   "num_or_indices")]
        edges = list(zip([0, *bounds], [*bounds, size]))
    else:
        num = _int(num_or_indices, "tensor_split", "num_or_indices")
        if num <= 0:
            raise ValueError(f"tensor_split: num_or_indices must be > 0 when it is an int, received {num}")
        each, extra = divmod(size, num)
        starts = [i * each + min(i, extra) for i in range(num + 1)]
        edges = list(zip(starts[:-1], starts[1:]))
    return [_manip.slice(x, [axis], [s], [max(s, e)]) for s, e in edges]


def _split_along(axis_of, min_ndim, api):
    def fn(x, num_or_indices, name=None):
        _check_tensor(x, api)
        if len(x.shape) < min_ndim:
            raise ValueError(f"{api}: x must have at least {min_ndim} dims, received {len(x.shape)}")
        return tensor_split(x, num_or_indices, axis_of(len(x.shape)))
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = f"tensor_split along NumPy's {api} axis."
    return fn


hsplit = _split_along(lambda ndim: 1 if ndim > 1 else 0, 1, "hsplit")
vsplit = _split_along(lambda ndim: 0, 2, "vsplit")
dsplit = _split_along(lambda ndim: 2, 3, "dsplit")


def unflatten(x, axis, shape, name=None):
    """x with dim `axis` split into `shape` (one -1 allowed)."""
    _check_tensor(x, "unflatten")
    axis = _axis(axis, len(x.shape), "unflatten")
    shape = _int_list(shape, "unflatten", "shape")
    return _manip.reshape(x, list(x.shape[:axis]) + shape + list(x.shape[axis + 1:]))


def reduce_as(x, target, name=None):
    """x summed over the dims that broadcasting `target` to x's shape would add or stretch."""
    _check_tensor(x, "reduce_as")
    _check_tensor(target, "reduce_as", "target")
    return _dispatch.apply(_get_op("reduce_as"), x, target)


def broadcast_shape(x_shape, y_shape):
    """The shape x_shape and y_shape broadcast to (a list)."""
    return list(_broadcast("broadcast_shape", tuple(x_shape), tuple(y_shape), names=("x_shape", "y_shape")))


def broadcast_shapes(*shapes):
    """The shape all `shapes` broadcast to (a list)."""
    out = []
    for s in shapes:
        out = broadcast_shape(out, s)
    return out


def broadcast_tensors(input, name=None):
    """Each Tensor of `input` broadcast to their common shape."""
    xs = _tensor_list(input, "broadcast_tensors", "input")
    if getattr(xs[0], "_is_variable", False):
        _check_static_broadcast(xs)
    return _dispatch.apply(_get_op("broadcast_tensors"), xs)


def _check_static_broadcast(xs):
    """Paddle's legacy static API checks the inputs itself, with TypeErrors; an unknown (-1) dim broadcasts only
    with 1 or another -1 there (so a bool index mixed with other advanced indices fails in static mode)."""
    for k, x in enumerate(xs):
        if x.dtype != xs[0].dtype:
            raise TypeError(f"broadcast_tensors: all the Tensors in input must have the same data type, input[{k}] "
                            f"is {x.dtype.name} but input[0] is {xs[0].dtype.name}")
    out = []  # the broadcast shape so far, last dim first
    for k, x in enumerate(xs):
        for i, d in enumerate(reversed(x.shape)):
            if i == len(out):
                out.append(d)
            elif out[i] != d and 1 not in (out[i], d):
                raise TypeError(f"broadcast_tensors: input[{k}] of shape {list(x.shape)} does not broadcast with "
                                f"the inputs before it (reversed dim {i}: {d} vs {out[i]})")
            else:
                out[i] = max(out[i], d)


def meshgrid(*args, **kwargs):
    """Coordinate grids ('ij' indexing) of 1-D tensors, given as arguments or one list."""
    xs = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
    xs = _tensor_list(xs, "meshgrid", "args")
    for k, t in enumerate(xs):
        if len(t.shape) > 1:
            raise ValueError(f"meshgrid: args[{k}] must be 0-D or 1-D, received shape {list(t.shape)}")
    shape = [int(t.shape[0]) if t.shape else 1 for t in xs]
    grids = []
    for k, t in enumerate(xs):
        view = [1] * len(xs)
        view[k] = shape[k]
        grids.append(_manip.broadcast_to(_manip.reshape(t, view), shape))
    return grids


__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shape", "broadcast_shapes", "broadcast_tensors",
           "column_stack", "dsplit", "dstack", "hsplit", "hstack", "meshgrid", "moveaxis", "narrow", "rot90",
           "reduce_as", "row_stack", "tensor_split", "unflatten", "vsplit", "vstack"]
TENSOR_METHODS = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shape", "broadcast_shapes",
                  "broadcast_tensors", "dsplit", "hsplit", "moveaxis", "narrow", "reduce_as", "rot90", "tensor_split",
                  "unflatten", "vsplit"]
