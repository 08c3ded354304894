"""Paddle's prim switches and its static forward_grad / grad. paddlelite differentiates every op through the one
registry in both modes, so there is no separate primitive-operator lowering: with prim on, forward_grad is the
double-backward trick on the static program and grad is static.gradients, the values Paddle's prim transform
computes."""
from collections.abc import Sequence

from ... import tensor as T
from ...fluid.framework import static_only
from ...static.backward import gradients
from ...tensor.tensor_args import is_tensor_like

__all__ = []

_prim = [False]


@static_only
def prim_enabled():
    """Whether prim is on (static mode only)."""
    return _prim[0]


@static_only
def enable_prim():
    """Turn prim on (static mode only): forward_grad needs it."""
    _prim[0] = True


@static_only
def disable_prim():
    """Turn prim off (static mode only)."""
    _prim[0] = False


def _check(outputs, inputs):
    for arg, value in (("outputs", outputs), ("inputs", inputs)):
        if not (is_tensor_like(value) or isinstance(value, Sequence)):
            raise TypeError(f"Expected {arg} is Tensor|Sequence[Tensor], but got {type(value)}.")


def _listed(xs):
    return None if xs is None else (list(xs) if isinstance(xs, Sequence) else [xs])


@static_only
def grad(outputs, inputs, grad_outputs=None):
    """Reverse-mode gradients of outputs with respect to inputs appended to the static program (a Variable for one
    input, a list for several)."""
    _check(outputs, inputs)
    got = gradients(_listed(outputs), _listed(inputs), _listed(grad_outputs))
    return got[0] if is_tensor_like(inputs) and got else got


def forward_grad(outputs, inputs, grad_inputs=None):
    """Forward-mode derivatives (J @ grad_inputs, ones when None) appended to the static program; prim must be on."""
    if not _prim[0]:
        raise RuntimeError("forward_grad must be running on primitiveoperators, use enable_prim to turn it on.")
    _check(outputs, inputs)
    ys, xs = _listed(outputs), _listed(inputs)
    cotangents = []
    for y in ys:
        c = T.zeros_like(y)
        c.stop_gradient = False
        cotangents.append(c)
    pulled = gradients(ys, xs, cotangents)
    tangents = _listed(grad_inputs) or [T.ones_like(x) for x in xs]
    ys_dot = gradients(pulled, cotangents, tangents)
    return ys_dot[0] if is_tensor_like(outputs) else ys_dot
