"""paddle.tensor.stat: Paddle's module path for statistics (implemented in reduce.py and manipulation.py)."""
from .manipulation import numel
from .reduce import mean, std, var

__all__ = ["mean", "numel", "std", "var"]
