"""fluid.backward: append_backward and gradients."""
from ..static.backward import append_backward, calc_gradient, gradients

__all__ = ["append_backward", "gradients", "calc_gradient"]
