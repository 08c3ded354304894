"""Ops that gradients are built from: unbroadcasting, zeros/ones like a tensor, assignment."""
import numpy as np

from ..framework.sparse import is_sparse
from .formula import assign, expand_as, zeros_like
from .launch.reduce import reduce_as as _reduce_as_kernel
from .registry import Meta, register_op
from .shape_rules import known_shapes_differ, same_as_first


def _reduce_as_forward(xp, x, target):
    """Sum x over the leading dims it has beyond target's, and over dims where target has 1."""
    if x.shape == target.shape:
        return x.copy()  # a fresh array: gradients of two inputs must not share storage (in-place writes)
    lead = x.ndim - target.ndim
    axes = tuple(range(lead))
    if 1 in target.shape:  # and the dims where target has 1 (a bias gradient has none: no generator to run)
        axes += tuple(i + lead for i, d in enumerate(target.shape) if d == 1 and x.shape[i + lead] != 1)
    out = x.sum(axis=axes, keepdims=True) if axes else x
    return out.reshape(target.shape)


def _reduce_as_infer(x, target, **attrs):
    return Meta(target.shape, x.dtype)


def _reduce_as_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", expand_as(g.output_grad("Out"), g.input("X")))


REDUCE_AS = register_op("reduce_as", inputs=("X", "Target"), meta_inputs=("Target",), outputs=("Out",), forward=_reduce_as_forward,
                        infer=_reduce_as_infer, grad=_reduce_as_grad, nondiff_inputs=("Target",),
                        double_grad=True, gpu=_reduce_as_kernel)


def _expand_as_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.reduce_as(g.output_grad("Out"), g.input("X")))


EXPAND_AS = register_op("expand_as", inputs=("X", "Target"), meta_inputs=("Target",), outputs=("Out",),
                        forward=lambda xp, x, t: xp.broadcast_to(x, t.shape).copy(),
                        infer=lambda x, t, **a: Meta(t.shape, x.dtype), grad=_expand_as_grad,
                        nondiff_inputs=("Target",), double_grad=True)


def _fill_any_like_forward(xp, x, value, dtype):
    if is_sparse(x):  # the seed or zeros of a sparse tensor's gradient: its pattern (framework/sparse.py)
        return x.filled(xp, value, None if dtype is None else np.dtype(dtype))
    out = xp.empty(x.shape, x.dtype if dtype is None else np.dtype(dtype))
    xp.copyto(out, value, casting="unsafe")  # xp.full without NumPy's Python-level wrapper: every backward seeds with it
    return out


def _fill_any_like_infer(x, value, dtype):
    return Meta(x.shape, x.dtype if dtype is None else np.dtype(dtype))


FILL_ANY_LIKE = register_op("fill_any_like", inputs=("X",), meta_inputs=("X",), outputs=("Out",), forward=_fill_any_like_forward,
                            infer=_fill_any_like_infer, attrs={"value": 0.0, "dtype": None})


def _assign_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", assign(g.output_grad("Out")))


ASSIGN = register_op("assign", inputs=("X",), outputs=("Out",), forward=lambda xp, x: x.copy(),
                     infer=same_as_first, grad=_assign_grad, double_grad=True)


def _overwrite_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", zeros_like(g.input("X")))
    if g.needs("Value"):
        g.set_input_grad("Value", assign(g.output_grad("Out")))


# X overwritten by Value (a fill or a draw written in place): the values overwritten get a zero gradient, as Paddle's
# fill_any_grad and *_inplace_grad give, so a tensor that needed gradients still does after Tensor.fill_ / normal_
OVERWRITE = register_op("overwrite", inputs=("X", "Value"), outputs=("Out",), forward=lambda xp, x, value: value.copy(),
                        infer=same_as_first, grad=_overwrite_grad)


# ---- share_data / memcpy: what a static Variable's detach() and cpu()/cuda() append; no gradient, as Paddle's --------
SHARE_DATA = register_op("share_data", inputs=("X",), outputs=("Out",), forward=lambda xp, x: x, infer=same_as_first,
                         view=True)
# dst_place_type (Paddle's: 0 CPU, 1 GPU) is kept for the program's text; a plan runs on its executor's one place,
# so the copy stays there
MEMCPY = register_op("memcpy", inputs=("X",), outputs=("Out",), forward=lambda xp, x, dst_place_type: x.copy(),
                     infer=same_as_first, attrs={"dst_place_type": 0})


# ---- add_n (Paddle's op type `sum`): Out = X[0] + X[1] + ...; static backward accumulates gradients with it --
def _add_n_infer(xs, **attrs):
    if not xs:
        raise ValueError("op 'sum': input 'X' must hold at least one tensor")
    for k, x in enumerate(xs[1:], 1):
        if x.dtype != xs[0].dtype:  # a ValueError, as Paddle's add_n raises
            raise ValueError(f"op 'sum': X[{k}] has dtype {x.dtype} but X[0] has {xs[0].dtype}")
        if known_shapes_differ(x.shape, xs[0].shape):
            raise ValueError(f"op 'sum': X[{k}] has shape {list(x.shape)} but X[0] has {list(xs[0].shape)}")
    return Meta(xs[0].shape, xs[0].dtype)


def _add_n_forward(xp, xs):
    total = xs[0]
    for x in xs[1:]:
        total = total + x
    return total if len(xs) > 1 else total.copy()


def _add_n_grad(g):  # one scale op per input, as Paddle's sum grad maker builds (ops/legacy.py GRAD_AS_OPS)
    dout = g.output_grad("Out")
    g.set_input_grad("X", [dout.scale() if g.needs_at("X", k) else None for k in range(len(g.input("X")))])


ADD_N = register_op("sum", inputs=("X",), outputs=("Out",), forward=_add_n_forward, infer=_add_n_infer,
                    grad=_add_n_grad, variadic_inputs=("X",), double_grad=True)
