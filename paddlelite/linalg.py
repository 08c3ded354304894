"""paddle.linalg: the linear-algebra namespace (implemented in tensor/linalg.py)."""
from .tensor.math import inverse as inv
from .tensor.linalg import (cholesky, cholesky_inverse, cholesky_solve, cond, corrcoef, cov, cross, det, eigh,
                            eigvalsh, matmul, matrix_norm, matrix_power, matrix_rank, matrix_transpose,
                            multi_dot, norm, pinv, qr, slogdet, solve, svd, svdvals, triangular_solve, vecdot,
                            vector_norm)

__all__ = ["cholesky", "cholesky_inverse", "cholesky_solve", "cond", "corrcoef", "cov", "cross", "det", "eigh",
           "eigvalsh", "inv", "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose",
           "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "triangular_solve", "vecdot",
           "vector_norm"]
