"""paddle.tensor.attribute: tensor attributes -- shape (implemented in manipulation.py), real/imag/is_complex
(complex_math.py), rank, and the dtype predicates."""
from ..framework.dtype import kind as dtype_kind
from . import creation as _creation
from .complex_math import imag, is_complex, real
from .manipulation import _check_tensor, shape
from .math import check_tensor_type


def rank(input):
    """The number of dims of `input`, as a 0-D int32 Tensor."""
    _check_tensor(input, "rank", "input")
    return _creation.full([], len(input.shape), "int32")


def is_empty(x, name=None):
    """Whether x has no elements, as a 0-D bool Tensor."""
    _check_tensor(x, "is_empty")
    return _creation.full([], 0 in x.shape, "bool")


def _kind_test(kinds, api, doc):
    def fn(x):
        check_tensor_type(x, api)
        return dtype_kind(x.dtype.np) in kinds  # bfloat16 and float8 count as floating
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = doc
    return fn


is_floating_point = _kind_test("f", "is_floating_point", "Whether x's dtype is floating point.")
is_integer = _kind_test("iu", "is_integer", "Whether x's dtype is an integer dtype.")

# is_empty: Paddle's logic.py path
__all__ = ["imag", "is_complex", "is_floating_point", "is_integer", "rank", "real", "shape"]
TENSOR_METHODS = ["is_empty", "is_floating_point", "is_integer", "rank"]
