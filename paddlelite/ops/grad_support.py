"""Ops that gradients are built from: unbroadcasting, zeros/ones like a tensor, assignment."""
import numpy as np

from .registry import Meta, register_op
from .shape_rules import same_as_first


def _reduce_as_forward(xp, x, target):
    """Sum x over the leading dims it has beyond target's, and over dims where target has 1."""
    if x.shape == target.shape:
        return x
    lead = x.ndim - target.ndim
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(target.shape)
                                      if d == 1 and x.shape[i + lead] != 1)
    out = x.sum(axis=axes, keepdims=True) if axes else x
    return out.reshape(target.shape)


def _reduce_as_infer(x, target, **attrs):
    return Meta(target.shape, x.dtype)


def _reduce_as_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("expand_as", g.output_grad("Out"), g.input("X")))


REDUCE_AS = register_op("reduce_as", inputs=("X", "Target"), outputs=("Out",), forward=_reduce_as_forward,
                        infer=_reduce_as_infer, grad=_reduce_as_grad, nondiff_inputs=("Target",),
                        double_grad=True)


def _expand_as_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("reduce_as", g.output_grad("Out"), g.input("X")))


EXPAND_AS = register_op("expand_as", inputs=("X", "Target"), outputs=("Out",),
                        forward=lambda xp, x, t: xp.broadcast_to(x, t.shape),
                        infer=lambda x, t, **a: Meta(t.shape, x.dtype), grad=_expand_as_grad,
                        nondiff_inputs=("Target",), double_grad=True)


def _fill_any_like_forward(xp, x, value=0.0, dtype=None):
    return xp.full(x.shape, value, dtype=x.dtype if dtype is None else np.dtype(dtype))


def _fill_any_like_infer(x, value=0.0, dtype=None):
    return Meta(x.shape, x.dtype if dtype is None else np.dtype(dtype))


FILL_ANY_LIKE = register_op("fill_any_like", inputs=("X",), outputs=("Out",), forward=_fill_any_like_forward,
                            infer=_fill_any_like_infer, attrs={"value": 0.0, "dtype": None})


def _assign_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("assign", g.output_grad("Out")))


ASSIGN = register_op("assign", inputs=("X",), outputs=("Out",), forward=lambda xp, x: x.copy(),
                     infer=same_as_first, grad=_assign_grad, double_grad=True)
