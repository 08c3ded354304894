"""Complex tensors: paddle.complex, as_complex, as_real, real, imag, conj, angle, is_complex."""
from ..ops import complex as _c
from ..ops.dispatch import apply
from .math import _check_tensor, _unary, check_tensor_type


real = _unary(_c.REAL, "real", "The real part of a complex tensor")
imag = _unary(_c.IMAG, "imag", "The imaginary part of a complex tensor")
conj = _unary(_c.CONJ, "conj", "Elementwise complex conjugate (a real tensor is returned unchanged in value)")
angle = _unary(_c.ANGLE, "angle", "Elementwise argument of a complex (or real) tensor, in radians")
as_complex = _unary(_c.AS_COMPLEX, "as_complex", "A [..., 2] float tensor read as complex numbers")
as_real = _unary(_c.AS_REAL, "as_real", "A complex tensor as a [..., 2] float tensor of (real, imag)")


def view_as_complex(input):
    """as_complex under PyTorch's name (Paddle's alias)."""
    return as_complex(input)


def view_as_real(input):
    """as_real under PyTorch's name (Paddle's alias)."""
    return as_real(input)


def complex(real, imag, name=None):
    """The complex tensor real + i * imag (broadcasting; both float32 or both float64)."""
    _check_tensor(real, "complex", "real")
    _check_tensor(imag, "complex", "imag")
    return apply(_c.COMPLEX, real, imag)


def is_complex(x):
    """Whether x is a complex64/complex128 tensor."""
    check_tensor_type(x, "is_complex")
    return x.dtype.is_complex


__all__ = ["angle", "as_complex", "as_real", "complex", "conj", "imag", "is_complex", "real", "view_as_complex",
           "view_as_real"]
TENSOR_METHODS = ["angle", "as_complex", "as_real", "conj", "imag", "is_complex", "real", "view_as_complex",
                  "view_as_real"]
