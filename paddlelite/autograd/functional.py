"""jacobian() and hessian(): Paddle's lazily evaluated, optionally batched derivative matrices.

A Jacobian evaluates one row (one output element, per batch entry when batched) with one reverse pass
of grad(create_graph=True) when an index first needs it, and caches it; hessian is the Jacobian of the
gradient. Indexing follows Paddle: ints, negative ints and slices, no Ellipsis.
"""
from collections.abc import Sequence

from ..framework.mode import in_static_mode
from ..ops import dispatch
from ..ops.registry import get_op
from .api import grad
from .engine import _fill_like

# paddle.static.gradients, for Jacobians of static Variables: autograd and static never import each
# other, so the top-level package hands it over (set_static_gradients)
_static_gradients = []


def set_static_gradients(fn):
    _static_gradients[:] = [fn]


def _concat(tensors, axis):
    return dispatch.apply(get_op("concat"), list(tensors), axis=axis)


def _grads_or_zeros(y, xs):
    """d(sum y)/d xs with the graph kept (for higher derivatives); zeros for an x that y does not reach."""
    seq = xs if isinstance(xs, Sequence) else [xs]
    if in_static_mode():
        got = _static_gradients[0]([y], list(seq))
    else:
        got = grad(y, list(seq), create_graph=True, allow_unused=True)
    out = []
    for g, x in zip(got, seq):
        if g is None:
            g = _fill_like(x, 0.0)
            g.stop_gradient = x.stop_gradient
        out.append(g)
    return tuple(out) if isinstance(xs, Sequence) else out[0]


def _multi_index(indexes, shape):
    """`indexes` as one non-negative int or step-1-based slice per axis of `shape` (trailing axes: all)."""
    indexes = tuple(indexes) if isinstance(indexes, Sequence) else (indexes,)
    if any(i is Ellipsis for i in indexes):
        raise IndexError("Jacobian: Ellipsis index currently is not supported.")
    indexes = indexes + (slice(0, None, None),) * (len(shape) - len(indexes))
    out = []
    for n, index in zip(shape, indexes):
        if isinstance(index, slice):
            start, stop = index.start or 0, index.stop or n
            out.append(slice(start + n if start < 0 else start, stop + n if stop < 0 else stop, index.step or 1))
        elif isinstance(index, int):
            out.append(index + n if index < 0 else index)
        else:
            raise TypeError(f"Jacobian: not supported index type {index!r}; use ints and slices.")
    return tuple(out)


class _Rows:
    """The flattened matrix [N, M] (or [B, N, M] batched) of d ys / d xs, evaluated row by row on demand."""

    def __init__(self, ys, xs, is_batched):
        self.is_batched = is_batched
        self.original_ys_shape = list(ys.shape)
        self._xs = xs
        if is_batched:
            if len(ys.shape) == 1:
                ys = ys.reshape([-1, 1])
        elif len(ys.shape) == 0:
            ys = ys.reshape([-1])
        self._flat_ys = self._flatten(ys)
        flat_xs = self._flatten(xs)
        self._cache = {}
        if is_batched:
            self._lazy_axis = 1
            self.inner_shape = [flat_xs.shape[0], self._flat_ys.shape[1], flat_xs.shape[1]]
            self.shape = [flat_xs.shape[0], *self.original_ys_shape[1:2], *list(xs.shape)[1:2]]
        else:
            self._lazy_axis = 0
            self.inner_shape = [self._flat_ys.shape[0], flat_xs.shape[0]]
            self.shape = [*self.original_ys_shape[0:1], *list(xs.shape)[0:1]]

    def _flatten(self, xs):
        seq = xs if isinstance(xs, Sequence) else [xs]
        flat = [x.reshape([x.shape[0], -1]) if self.is_batched else x.reshape([-1]) for x in seq]
        return flat[0] if not isinstance(xs, Sequence) else _concat(flat, 1 if self.is_batched else 0)

    def _row(self, k):
        if k is None:  # the whole of a 0-D Jacobian
            return self._row(0).reshape([])
        if k not in self._cache:
            y = self._flat_ys[:, k] if self.is_batched else self._flat_ys[k]
            self._cache[k] = self._flatten(_grads_or_zeros(y, self._xs))
        return self._cache[k]

    def __getitem__(self, indexes):
        if not self.is_batched:
            if len(self.shape) == 0:
                raise IndexError("Jacobian: a 0-D Jacobian can not be indexed.")
            if len(self.shape) == 1:
                indexes = (0, indexes) if len(self.original_ys_shape) == 0 else (indexes, 0)
        elif len(self.shape) == 1:
            indexes = (indexes, 0, 0)
        elif len(self.shape) == 2:
            if isinstance(indexes, slice):
                indexes = (indexes, slice(None))
            else:
                indexes = ((indexes[0], 0, indexes[1]) if len(self.original_ys_shape) == 1
                           else (indexes[0], indexes[1], 0))
        indexes = _multi_index(indexes, self.inner_shape)
        axis = self._lazy_axis
        lazy = indexes[axis]
        if isinstance(lazy, int):
            return self._row(lazy)[indexes[:axis] + indexes[axis + 1:]]
        rows = range(lazy.start, lazy.stop, lazy.step)
        shape = list(self.inner_shape)
        shape[axis] = len(rows)
        part = _concat([self._row(i) for i in rows], axis).reshape(shape)
        result = part[indexes[:axis] + (slice(0, len(rows), 1),) + indexes[axis + 1:]]
        for _ in range(len(result.shape) - len(self.shape)):  # as Paddle: a size>1 last axis stays
            result = result.squeeze(-1)
        return result

    def evaluate_all(self):
        return self._row(None) if len(self.shape) == 0 else self[:]


def _binary(op):
    def method(self, other):
        return op(self._evaluate_all(), other._evaluate_all() if isinstance(other, Jacobian) else other)
    method.__name__ = op.__name__
    return method


class Jacobian:
    """The Jacobian matrix of ys with respect to xs: [N, M] for ys [N] (or 0-D) and xs [M] (or 0-D);
    [B, N, M] with a batch axis first. Index it (J[:], J[i], J[:, i, j], slices) to evaluate; any other
    Tensor attribute or arithmetic evaluates all of it."""

    def __init__(self, ys, xs, is_batched=False):
        lo, hi, what = (1, 2, "True") if is_batched else (0, 1, "False")
        for name, t in (("xs", xs), ("ys", ys)):
            if not lo <= len(t.shape) <= hi:
                raise ValueError(f"jacobian: {name}.ndim should be {lo} or {hi} when is_batched={what} "
                                 f"but got {len(t.shape)}")
        self._jacobian = _Rows(ys, xs, is_batched)

    @property
    def shape(self):
        """The shape of the flattened Jacobian matrix."""
        return self._jacobian.shape

    def __getitem__(self, indexes):
        return self._jacobian[indexes]

    def _evaluate_all(self):
        return self._jacobian.evaluate_all()

    def __getattr__(self, name):
        if name.startswith("__") or name == "_jacobian":
            raise AttributeError(name)
        return getattr(self._jacobian.evaluate_all(), name)

    __add__ = _binary(lambda a, b: a + b)
    __sub__ = _binary(lambda a, b: a - b)
    __mul__ = _binary(lambda a, b: a * b)
    __truediv__ = __div__ = _binary(lambda a, b: a / b)
    __pow__ = _binary(lambda a, b: a ** b)
    __mod__ = _binary(lambda a, b: a % b)
    __floordiv__ = _binary(lambda a, b: a // b)
    __matmul__ = _binary(lambda a, b: a @ b)
    __eq__ = _binary(lambda a, b: a == b)
    __ne__ = _binary(lambda a, b: a != b)
    __lt__ = _binary(lambda a, b: a < b)
    __le__ = _binary(lambda a, b: a <= b)
    __gt__ = _binary(lambda a, b: a > b)
    __ge__ = _binary(lambda a, b: a >= b)
    __hash__ = object.__hash__


class Hessian(Jacobian):
    """The Jacobian of the gradient of a scalar (per batch entry) ys."""


def jacobian(ys, xs, batch_axis=None):
    """The Jacobian(s) of ys with respect to xs; a tuple per tuple of ys and of xs (nested when both)."""
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"jacobian: batch_axis should be None or 0, but got {batch_axis}.")
    batched = batch_axis is not None
    ys_seq, xs_seq = isinstance(ys, Sequence), isinstance(xs, Sequence)
    if ys_seq and xs_seq:
        return tuple(tuple(Jacobian(y, x, batched) for x in xs) for y in ys)
    if ys_seq:
        return tuple(Jacobian(y, xs, batched) for y in ys)
    if xs_seq:
        return tuple(Jacobian(ys, x, batched) for x in xs)
    return Jacobian(ys, xs, batched)


def hessian(ys, xs, batch_axis=None):
    """The Hessian(s) of a one-element ys (one element per batch entry with batch_axis=0) w.r.t. xs;
    a tuple of tuples for a tuple of xs."""
    if batch_axis is None:
        if ys.size > 1:
            raise ValueError(f"hessian: only support ys.numel()({ys.size})==1 when batch_axis is None.")
        ys = ys.reshape([])
    elif isinstance(batch_axis, int):
        if ys[0].size > 1:
            raise ValueError(f"hessian: only support ys[0].numel()({ys[0].size})==1 when batch_axis is int")
        if batch_axis != 0:
            raise ValueError("hessian: only support batch_axis=0 yet.")
        ys = ys.reshape([-1])
    else:
        raise ValueError(f"hessian: batch_axis should be None or int, but got {type(batch_axis)}.")
    # as Paddle, the gradient's Jacobian object is the ys of the second: its `shape` is the flattened
    # matrix's, and reading its values (reshape) evaluates it whole
    first = jacobian(ys, xs, batch_axis)
    if not isinstance(xs, Sequence):
        result = jacobian(first, xs, batch_axis)
        result.__class__ = Hessian
        return result
    result = tuple(jacobian(j, xs, batch_axis) for j in first)
    for row in result:
        for h in row:
            h.__class__ = Hessian
    return result
