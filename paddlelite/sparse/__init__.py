"""paddle.sparse: COO and CSR tensors (a Tensor kind: paddlelite/framework/sparse.py), their math, products and
the point-cloud layers of paddle.sparse.nn."""
from . import nn
from ..tensor.sparse import sparse_coo_tensor, sparse_csr_tensor
from .binary import add, divide, is_same_shape, mask_as, masked_matmul, matmul, multiply, mv, subtract
from .multiary import addmm, pca_lowrank
from .unary import (abs, asin, asinh, atan, atanh, cast, coalesce, deg2rad, expm1, isnan, log1p, neg, pow, rad2deg,
                    reshape, sin, sinh, slice, sqrt, square, sum, tan, tanh, transpose)

__all__ = ["sparse_coo_tensor", "sparse_csr_tensor", "sin", "tan", "asin", "atan", "sinh", "tanh", "asinh", "atanh",
           "sqrt", "square", "log1p", "abs", "pow", "cast", "neg", "deg2rad", "rad2deg", "expm1", "mv", "matmul",
           "pca_lowrank", "masked_matmul", "addmm", "add", "subtract", "transpose", "sum", "multiply", "divide",
           "coalesce", "is_same_shape", "reshape", "isnan", "slice", "mask_as"]
