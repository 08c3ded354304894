"""paddle.incubate.autograd: vjp, jvp and the flattened, lazily evaluated Jacobian and Hessian of a function; the
static-mode switches of Paddle's primitive-operator autodiff (prim), and its forward_grad / grad."""
from .functional import Hessian, Jacobian, jvp, vjp
from .primapi import disable_prim, enable_prim, forward_grad, grad, prim_enabled

__all__ = ["vjp", "jvp", "Jacobian", "Hessian", "enable_prim", "disable_prim", "prim_enabled", "forward_grad", "grad"]
