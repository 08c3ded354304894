"""paddle.autograd.backward_mode: Paddle's module path for autograd.backward (implemented in api.py) and for
gradients_with_optimizer (fluid/backward.py, a static program with an optimizer: this module sits on fluid's floor,
and the top-level package imports it)."""
from .api import backward
from ..fluid.backward import gradients_with_optimizer

__all__ = ["backward", "gradients_with_optimizer"]
