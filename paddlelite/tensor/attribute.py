"""paddle.tensor.attribute: Paddle's module path for tensor attributes (implemented in manipulation.py)."""
from .manipulation import shape

__all__ = ["shape"]
