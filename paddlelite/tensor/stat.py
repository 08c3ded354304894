"""paddle.tensor.stat: Paddle's module path for statistics (implemented in reduction.py and manipulation.py)."""
from .manipulation import numel
from .reduction import mean, std, var

__all__ = ["mean", "numel", "std", "var"]
