import numpy as np

from . import OpCase, rand


def well_conditioned(*shape, seed=0):
    """Random square matrices plus a multiple of the identity: far from singular."""
    return rand(*shape, seed=seed) + 3.0 * np.eye(shape[-1])


def spd(*shape, seed=0):
    a = rand(*shape, seed=seed)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def with_singular_values(m, n, seed=0):
    """An m x n matrix with well separated singular values (the SVD gradient divides by their gaps)."""
    g = np.random.default_rng(seed)
    k = min(m, n)
    u, _ = np.linalg.qr(g.normal(size=(m, k)))
    v, _ = np.linalg.qr(g.normal(size=(n, k)))
    return (u * np.linspace(3.0, 1.0, k)) @ v.T


def with_eigenvalues(n, seed=0):
    g = np.random.default_rng(seed)
    q, _ = np.linalg.qr(g.normal(size=(n, n)))
    return (q * np.linspace(-2.0, 3.0, n)) @ q.T


SVD_SIGNS = {"U": -2, "VH": -1}  # U's columns, VH's rows
EIGH_SIGNS = {"Eigenvectors": -2}  # columns

CASES = [
    OpCase("inverse", {"X": well_conditioned(3, 3)}, id="inverse"),
    OpCase("inverse", {"X": well_conditioned(2, 3, 3, seed=1)}, id="inverse-batched"),
    OpCase("determinant", {"X": well_conditioned(3, 3)}, id="determinant"),
    OpCase("determinant", {"X": well_conditioned(2, 2, 2, seed=1)}, id="determinant-batched"),
    OpCase("slogdeterminant", {"X": well_conditioned(2, 3, 3)}, grad_inputs=("X",), id="slogdeterminant"),
    OpCase("solve", {"X": well_conditioned(3, 3), "Y": rand(3, 2, seed=1)}, id="solve"),
    OpCase("solve", {"X": well_conditioned(2, 3, 3), "Y": rand(3, seed=1)}, id="solve-vector-bcast"),
    OpCase("solve", {"X": well_conditioned(2, 3, 3), "Y": rand(1, 3, 2, seed=1)}, id="solve-batched-bcast"),
    OpCase("triangular_solve", {"X": well_conditioned(3, 3), "Y": rand(3, 2, seed=1)}, id="triangular_solve-upper"),
    OpCase("triangular_solve", {"X": well_conditioned(2, 3, 3), "Y": rand(2, 3, 2, seed=1)},
           {"upper": False, "transpose": True}, id="triangular_solve-lower-transpose"),
    OpCase("triangular_solve", {"X": well_conditioned(3, 3), "Y": rand(3, 1, seed=1)},
           {"unitriangular": True}, id="triangular_solve-unit"),
    OpCase("cholesky", {"X": spd(3, 3)}, id="cholesky"),
    OpCase("cholesky", {"X": spd(2, 3, 3, seed=1)}, {"upper": True}, id="cholesky-upper-batched"),
    OpCase("qr", {"X": rand(4, 3)}, id="qr-tall"),
    OpCase("qr", {"X": well_conditioned(2, 3, 3)}, {"mode": "complete"}, id="qr-square-complete"),
    OpCase("qr", {"X": rand(2, 4, seed=2) + np.eye(2, 4)}, id="qr-wide"),
    OpCase("svd", {"X": with_singular_values(4, 3)}, sign_free=SVD_SIGNS, id="svd-tall"),
    OpCase("svd", {"X": with_singular_values(2, 3, seed=1)}, sign_free=SVD_SIGNS, id="svd-wide"),
    OpCase("svd", {"X": np.stack([with_singular_values(3, 3, seed=s) for s in (2, 3)])}, sign_free=SVD_SIGNS,
           id="svd-batched"),
    OpCase("eigh", {"X": with_eigenvalues(3)}, sign_free=EIGH_SIGNS, id="eigh"),
    OpCase("eigh", {"X": np.stack([with_eigenvalues(3, seed=s) for s in (1, 2)])}, {"UPLO": "U"},
           sign_free=EIGH_SIGNS, id="eigh-batched"),
    # a non-symmetric matrix with distinct real eigenvalues (LAPACK's eigenvector phases move continuously)
    OpCase("eig", {"X": with_eigenvalues(3) + np.triu(rand(3, 3, seed=5), 1)}, id="eig"),
    OpCase("cross", {"X": rand(2, 3), "Y": rand(2, 3, seed=1)}, {"axis": 1}, id="cross"),
    OpCase("cross", {"X": rand(3, 2), "Y": rand(3, 2, seed=1)}, {"axis": 0}, id="cross-axis0"),
]
CASES += [
    OpCase("lu", {"X": well_conditioned(2, 3, 3)}, grad_inputs=("X",), id="lu-square"),
    OpCase("lu", {"X": rand(4, 3, seed=1) + np.eye(4, 3) * 3}, grad_inputs=("X",), id="lu-tall"),
    OpCase("lu", {"X": rand(3, 4, seed=2) + np.eye(3, 4) * 3}, grad_inputs=("X",), id="lu-wide"),
    OpCase("matrix_exp", {"X": rand(2, 3, 3)}, id="matrix_exp"),
    OpCase("matrix_exp", {"X": rand(3, 3, seed=1) * 3}, id="matrix_exp-scaled"),
]
