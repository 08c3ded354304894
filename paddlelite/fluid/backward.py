"""fluid.backward: append_backward and gradients."""
from ..static.backward import append_backward, calc_gradient, gradients
from ..static.backward import strip_grad as _strip_grad_suffix_  # noqa: F401 -- Paddle code calls it by this name

__all__ = ["append_backward", "gradients", "calc_gradient"]
