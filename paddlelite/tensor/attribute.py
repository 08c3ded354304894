"""paddle.tensor.attribute: Paddle's module path for tensor attributes: the dtype predicates live here,
real/imag/is_complex in complex_math.py, shape in manipulation.py."""
from .complex_math import imag, is_complex, real
from .manipulation import shape
from .math import _check_tensor


def is_floating_point(x):
    """Whether x has a floating dtype (float16, bfloat16, float32, float64, float8)."""
    _check_tensor(x, "is_floating_point")
    return x.dtype.is_floating_point


def is_integer(x):
    """Whether x has an integer dtype (uint8, int8, int16, int32, int64; not bool)."""
    _check_tensor(x, "is_integer")
    return x.dtype.np.kind in "iu"


__all__ = ["imag", "is_complex", "is_floating_point", "is_integer", "real", "shape"]
TENSOR_METHODS = ["is_floating_point", "is_integer"]
