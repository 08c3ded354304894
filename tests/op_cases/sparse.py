"""Gradient cases of the sparse-tensor ops (ops/sparse.py): their sparse inputs are framework/sparse.py containers
whose float64 values are what the cases differentiate (eager mode only)."""
import numpy as np

from paddlelite.framework.sparse import SparseCoo, SparseCsr

from . import OpCase, rand

# a 3x4 matrix with 5 entries (one row empty), the same as CSR, an uncoalesced copy (a duplicate, unsorted)
_IDX = np.array([[0, 0, 2, 2, 2], [1, 3, 0, 2, 3]])
COO = SparseCoo(_IDX, rand(5, seed=1), (3, 4))
CSR = SparseCsr(np.array([0, 2, 2, 5]), _IDX[1].copy(), rand(5, seed=2), (3, 4))
UNCOALESCED = SparseCoo(np.array([[2, 0, 2, 1], [0, 1, 0, 3]]), rand(4, seed=3), (3, 4))
OTHER = SparseCoo(np.array([[0, 1, 2], [1, 1, 3]]), rand(3, seed=4), (3, 4))
HYBRID = SparseCoo(np.array([[0, 2], [1, 0]]), rand(2, 3, seed=5), (3, 2, 3))  # dense dim of 3
BATCHED = SparseCsr(np.array([0, 1, 3, 0, 2, 2]), np.array([2, 0, 1, 0, 2]), rand(5, seed=6), (2, 2, 3))


def _case(op, inputs, attrs=None, **kw):
    return OpCase(op, inputs, attrs or {}, eager_only=True, noncontiguous=kw.pop("noncontiguous", True), **kw)


CASES = [
    _case("sparse_coo_tensor", {"Indices": _IDX, "Values": rand(5, seed=7)}, {"shape": [3, 4]}),
    _case("sparse_csr_tensor", {"Crows": CSR.crows, "Cols": CSR.cols, "Values": rand(5, seed=8)}, {"shape": [3, 4]}),
    _case("sparse_values", {"X": COO}, id="sparse_values-coo"),
    _case("sparse_values", {"X": HYBRID}, id="sparse_values-hybrid"),
    _case("sparse_with_values", {"X": CSR, "Values": rand(5, seed=9)}),
    _case("sparse_to_dense", {"X": UNCOALESCED}, id="sparse_to_dense-uncoalesced"),
    _case("sparse_to_dense", {"X": BATCHED}, id="sparse_to_dense-batched-csr"),
    _case("sparse_to_dense", {"X": HYBRID}, id="sparse_to_dense-hybrid"),
    # (no zero where a finite difference would turn it into an entry: only zeros inside a kept dense slice)
    _case("dense_to_sparse_coo", {"X": rand(2, 3, seed=19)}, {"sparse_dim": 2}),
    _case("dense_to_sparse_coo", {"X": np.array([[[0.5, 1.0], [0.0, -1.0]], [[2.0, 0.0], [3.0, 4.0]]])},
          {"sparse_dim": 2}, id="dense_to_sparse_coo-hybrid"),
    _case("dense_to_sparse_csr", {"X": rand(2, 3, seed=20)}),
    _case("sparse_to_coo", {"X": BATCHED}),
    _case("sparse_to_csr", {"X": UNCOALESCED}),
    _case("sparse_coalesce", {"X": UNCOALESCED}),
    _case("sparse_mask_as", {"X": rand(3, 4, seed=10), "Mask": UNCOALESCED}),
    _case("sparse_restrict", {"X": UNCOALESCED, "Mask": OTHER}),
    _case("sparse_restrict", {"X": COO, "Mask": CSR}, id="sparse_restrict-to-csr"),
    _case("sparse_matmul", {"X": COO, "Y": rand(4, 2, seed=11)}),
    _case("sparse_matmul", {"X": CSR, "Y": rand(3, 2, seed=12)}, {"transpose_x": True}, id="sparse_matmul-t"),
    _case("sparse_matmul", {"X": BATCHED, "Y": rand(2, 3, 2, seed=13)}, id="sparse_matmul-batched"),
    _case("sparse_masked_matmul", {"X": rand(3, 2, seed=14), "Y": rand(2, 4, seed=15), "Mask": COO}),
    _case("sparse_masked_matmul", {"X": rand(3, 2, seed=16), "Y": rand(4, 2, seed=17), "Mask": UNCOALESCED},
          {"transpose_y": True}, id="sparse_masked_matmul-ty"),
    _case("sparse_spgemm", {"X": COO, "Y": SparseCoo(np.array([[0, 1, 3, 3], [1, 0, 0, 2]]), rand(4, seed=18),
                                                      (4, 3))}),
    _case("sparse_transpose", {"X": HYBRID}, {"perm": [1, 0, 2]}),
    _case("sparse_transpose", {"X": CSR}, {"perm": [1, 0]}, id="sparse_transpose-csr"),
    _case("sparse_transpose_matrix", {"X": BATCHED}),
    _case("sparse_reshape", {"X": UNCOALESCED}, {"shape": [2, -1]}),
    _case("sparse_reshape", {"X": COO}, {"shape": [0, 1, -1]}, id="sparse_reshape-copy-dim"),
    _case("sparse_slice", {"X": COO}, {"axes": [1], "starts": [1], "ends": [4]}),
    _case("sparse_slice", {"X": CSR}, {"axes": [0, 1], "starts": [1, 0], "ends": [3, 3]}, id="sparse_slice-csr"),
    _case("sparse_sum", {"X": COO}, {"axis": 1}),
    _case("sparse_sum", {"X": HYBRID}, {"axis": None}, id="sparse_sum-all"),
    _case("sparse_sum", {"X": HYBRID}, {"axis": [0, 2], "keepdim": True}, id="sparse_sum-keepdim"),
    _case("sparse_softmax", {"X": UNCOALESCED}),
    _case("sparse_softmax", {"X": BATCHED}, id="sparse_softmax-batched-csr"),
]
