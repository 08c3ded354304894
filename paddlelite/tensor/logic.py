"""paddle.tensor.logic: Paddle's module path for comparisons and logical ops (implemented in math.py, is_empty in
attribute.py)."""
from .attribute import is_empty
from .math import (allclose, bitwise_not, equal, equal_all, greater_equal, greater_than, is_tensor, isclose,
                   less_equal, less_than, logical_and, logical_not, logical_or, logical_xor, not_equal)

__all__ = ["allclose", "bitwise_not", "equal", "equal_all", "greater_equal", "greater_than", "is_empty", "is_tensor", "isclose",
           "less_equal", "less_than", "logical_and", "logical_not", "logical_or", "logical_xor", "not_equal"]
