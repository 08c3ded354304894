"""vjp / jvp / Jacobian / Hessian of a function `func(*xs)`, as Paddle's incubate.autograd: the inputs are copied so
the function's graph starts at them; Jacobian flattens and concatenates every input (and output) into one matrix
[M, N] ([B, M, N] batched), evaluated one row (one reverse pass) at a time and cached. jvp is the double-backward
trick: the vjp's gradient with respect to its cotangent."""
from collections.abc import Sequence

from ... import tensor as T
from ...autograd.functional import _grads_or_zeros, _multi_index
from ...framework.mode import in_static_mode
from ...tensor.tensor_args import is_tensor_like
from .primapi import grad as _static_grad

__all__ = []


def _as_list(xs):
    return list(xs) if isinstance(xs, Sequence) else [xs]


def _separate(xs):
    """Copies of the inputs that need gradients (the function's graph starts there; a stop_gradient input is
    detached, sharing memory)."""
    def one(x):
        if x is None:
            return None
        if not x.stop_gradient:
            return T.assign(x)
        x = x.detach()
        x.stop_gradient = False
        return x
    return tuple(one(x) for x in xs) if isinstance(xs, Sequence) else one(xs)


def _grad(ys, xs, v=None):
    """d ys / d xs (contracted with v), the graph kept; zeros for an input ys does not reach."""
    if in_static_mode():
        got = _static_grad(ys, xs, v)
        got = _as_list(got)
    else:
        from ...autograd.api import grad
        got = grad(ys, _as_list(xs), v, create_graph=True, allow_unused=True)
    out = []
    for g, x in zip(got, _as_list(xs)):
        if g is None:
            g = T.zeros_like(x)
            g.stop_gradient = x.stop_gradient
        out.append(g)
    return tuple(out) if isinstance(xs, Sequence) else out[0]


def _check_inputs(func, xs, v=None):
    if not callable(func):
        raise TypeError(f"Expected 'fun' is Callable, but got {type(func)}.")
    if not (is_tensor_like(xs) or isinstance(xs, Sequence)):
        raise TypeError(f"Expected 'xs' is a Tensor|Sequence[Tensor], but got {type(xs)}.")
    if isinstance(xs, Sequence) and not all(is_tensor_like(x) for x in xs):
        raise TypeError("All elements of 'xs' should be Tensor.")
    if not (v is None or is_tensor_like(v) or isinstance(v, Sequence)):
        raise TypeError(f"Expected 'v' is Tensor|Sequence[Tensor]|None, but got {type(v)}.")
    if isinstance(v, Sequence) and not all(is_tensor_like(e) for e in v):
        raise TypeError("All elements of 'xs' should be Tensor.")


def _check_v_shape(v, refs):
    if v is None:
        return
    v, refs = _as_list(v), _as_list(refs)
    if len(refs) != len(v):
        raise RuntimeError(f"The argument v is a tuple of invalid length:should be {len(refs)} but got {len(v)}.")
    for i, (e, ref) in enumerate(zip(v, refs)):
        if list(e.shape) != list(ref.shape):
            raise RuntimeError(f"The v[{i}] has invalid shape: should be {list(ref.shape)} but got {list(e.shape)}.")


def _call(func, xs):
    return func(*xs) if isinstance(xs, Sequence) else func(xs)


def vjp(func, xs, v=None):
    """(func(xs), v^T J): the cotangent v (ones when None) pulled back to the inputs."""
    _check_inputs(func, xs, v)
    xs, v = _separate(xs), _separate(v)
    ys = _call(func, xs)
    _check_v_shape(v, ys)
    return ys, _grad(ys, xs, v)


def jvp(func, xs, v=None):
    """(func(xs), J v): the tangent v (ones when None) pushed forward to the outputs."""
    _check_inputs(func, xs, v)
    xs, v = _separate(xs), _separate(v)
    ys = _call(func, xs)
    _check_v_shape(v, xs)
    ys_grad = [T.zeros_like(y) for y in _as_list(ys)]
    for y in ys_grad:
        y.stop_gradient = False
    ys_grad = ys_grad if isinstance(ys, Sequence) else ys_grad[0]
    return ys, _grad(_grad(ys, xs, ys_grad), ys_grad, v)


class Jacobian:
    """The Jacobian of func at xs as one matrix: [M, N] (all outputs flattened and concatenated by all inputs
    flattened and concatenated), or [B, M, N] with is_batched (axis 0 kept); rows evaluated on demand, indexed
    with ints and slices."""

    def __init__(self, func, xs, is_batched=False):
        self._batched = bool(is_batched)
        self._xs = _separate(xs)
        self._ys = _call(func, self._xs)
        self._flat_xs = self._flatten(_as_list(self._xs))
        self._flat_ys = self._flatten(_as_list(self._ys))
        self._cache = {}

    def _flatten(self, xs):
        if self._batched:
            return T.concat([x.reshape([x.shape[0], -1]) for x in xs], axis=1)
        return T.concat([x.reshape([-1]) for x in xs], axis=0)

    @property
    def shape(self):
        if self._batched:
            return (self._flat_xs.shape[0], self._flat_ys.shape[1], self._flat_xs.shape[1])
        return (self._flat_ys.shape[0], self._flat_xs.shape[0])

    @property
    def _lazy_axis(self):
        return 1 if self._batched else 0

    def _row(self, k):
        if k not in self._cache:
            y = self._flat_ys[:, k] if self._batched else self._flat_ys[k]
            self._cache[k] = self._flatten(_as_list(_grads_or_zeros(y, self._xs)))
        return self._cache[k]

    def __getitem__(self, indexes):
        indexes = _multi_index(indexes, self.shape)
        axis = self._lazy_axis
        lazy = indexes[axis]
        if isinstance(lazy, int):
            return self._row(lazy)[indexes[:axis] + indexes[axis + 1:]]
        rows = range(lazy.start, lazy.stop, lazy.step)
        shape = list(self.shape)
        shape[axis] = len(rows)
        part = T.concat([self._row(i) for i in rows], axis=axis).reshape(shape)
        return part[indexes[:axis] + (slice(0, len(rows), 1),) + indexes[axis + 1:]]


class Hessian:
    """The Hessian of a scalar (per batch entry with is_batched) function: the Jacobian of its gradient."""

    def __init__(self, func, xs, is_batched=False):
        def gradient(*xs):
            jac = Jacobian(func, xs, is_batched=is_batched)
            if (is_batched and jac.shape[1] != 1) or (not is_batched and jac.shape[0] != 1):
                raise RuntimeError("The function given to Hessian should return as single element Tensor or batched "
                                   "single element Tensor.")
            return jac[:, 0, :] if is_batched else jac[0, :]
        self.symbolic = Jacobian(gradient, xs, is_batched=is_batched)

    def __getitem__(self, indexes):
        return self.symbolic[indexes]

    @property
    def shape(self):
        return self.symbolic.shape
