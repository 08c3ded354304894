"""paddle.tensor.linalg: Paddle's module path for the linear-algebra APIs (implemented elsewhere in tensor/)."""
from .manipulation import transpose
from .math import bmm, dot, matmul, t
from .reduce import norm

__all__ = ["bmm", "dot", "matmul", "norm", "t", "transpose"]
