"""paddle.linalg: the linear-algebra namespace (implemented in tensor/linalg.py)."""
from .tensor.diagonals import diagonal
from .tensor.math import inverse as inv
from .tensor.linalg import (cholesky, cholesky_inverse, cholesky_solve, cond, corrcoef, cov, cross, det,
                            eig, eigh, eigvals, eigvalsh, fp8_fp8_half_gemm_fused, householder_product, lstsq, lu,
                            lu_solve, lu_unpack, matmul, matrix_exp, matrix_norm, matrix_power, matrix_rank,
                            matrix_transpose, multi_dot, norm, ormqr, pca_lowrank, pinv, qr, slogdet, solve, svd,
                            svd_lowrank, svdvals, triangular_solve, vecdot, vector_norm)

__all__ = ["cholesky", "cholesky_inverse", "cholesky_solve", "cond", "corrcoef", "cov", "cross", "det", "diagonal",
           "eig", "eigh", "eigvals", "eigvalsh", "fp8_fp8_half_gemm_fused", "householder_product", "inv", "lstsq",
           "lu", "lu_solve", "lu_unpack", "matmul", "matrix_exp", "matrix_norm", "matrix_power", "matrix_rank",
           "matrix_transpose", "multi_dot", "norm", "ormqr", "pca_lowrank", "pinv", "qr", "slogdet", "solve", "svd",
           "svd_lowrank", "svdvals", "triangular_solve", "vecdot", "vector_norm"]
