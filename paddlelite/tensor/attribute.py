"""paddle.tensor.attribute: Paddle's module path for tensor attributes (implemented in manipulation.py and complex_math.py)."""
from .complex_math import imag, is_complex, real
from .manipulation import shape

__all__ = ["imag", "is_complex", "real", "shape"]
