"""paddle.autograd.backward_mode: Paddle's module path for autograd.backward (implemented in api.py)."""
from .api import backward

__all__ = ["backward"]
