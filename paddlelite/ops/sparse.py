"""Ops on sparse tensors (framework/sparse.py: a Tensor whose array is a COO or CSR container).

Autograd sees a sparse tensor through its values: every gradient of a sparse tensor is a sparse tensor of its
pattern. Two ops carry values across the kinds -- `sparse_values` (the values of a sparse tensor, a dense
tensor) and `sparse_with_values` (a pattern holding new values) -- and each one's gradient is the other, so a
value-wise function of a sparse tensor is a dense op between them and needs no gradient of its own. The ops
below are the ones whose result's pattern is computed: creation and conversions, coalescing, restriction to
another pattern, the products (SciPy's sparse matrices on the CPU, CuPy's `cupyx.scipy.sparse` on the GPU: one
code path over `xp`), transposes, reshapes, sums, slices and the row softmax. Patterns are read on the host.
"""
import math

import numpy as np

from ..framework.sparse import SparseArray, SparseCoo, SparseCsr
from .conv import scatter_add
from .formula import transpose
from .registry import DATA_DEPENDENT_SHAPE, register_op
from .search import _scatter_at

_INT = np.int64


def sparse_op(type, **spec):
    """register_op for an op that takes or makes sparse tensors."""
    return register_op(type, sparse=True, **spec)


def sparse_module(xp):
    """The sparse-matrix library of array module `xp`: SciPy's for NumPy, cupyx.scipy.sparse for CuPy."""
    if xp is np:
        try:
            import scipy.sparse as sp
        except ImportError:
            raise ImportError("products of sparse tensors need SciPy on the CPU: pip install "
                              "'paddlelite-numpy[sparse]' (or scipy)") from None
        return sp
    import cupyx.scipy.sparse as sp
    return sp


# ---- index arithmetic ---------------------------------------------------------------------------------------
def linear_keys(xp, indices, dims):
    """The row-major position of each entry among the sparse dims `dims`."""
    keys = xp.zeros(indices.shape[1], dtype=_INT)
    for d, n in enumerate(dims):
        keys = keys * n + indices[d].astype(_INT)
    return keys


def unravel(xp, keys, dims):
    """linear_keys' inverse: indices [len(dims), n]."""
    rows = []
    for n in reversed(dims):
        rows.append(keys % n)
        keys = keys // n
    return xp.stack(rows[::-1]) if rows else xp.zeros((0, keys.shape[0]), dtype=_INT)


def segment_sum(xp, ids, values, n):
    """out[i] = the sum of values[k] over the k with ids[k] == i, for i < n."""
    return scatter_add(xp, xp.zeros((n,) + tuple(values.shape[1:]), dtype=values.dtype), ids, values)


def csr_entry_rows(xp, x):
    """(batch, row) of each entry of a CSR container, from its row pointers."""
    m = x.shape[-2]
    crows = x.crows.astype(_INT).reshape(-1, m + 1)
    batch_nnz = crows[:, -1]
    base = xp.concatenate([xp.zeros(1, dtype=_INT), xp.cumsum(batch_nnz)[:-1]])
    starts = (crows[:, :-1] + base[:, None]).ravel()  # the first entry of every (batch, row)
    row = xp.searchsorted(starts, xp.arange(x.cols.shape[0], dtype=_INT), side="right") - 1
    return row // m, row % m


def as_coo(xp, x):
    """A COO container of `x`'s entries in their order (a CSR's: row by row)."""
    if isinstance(x, SparseCoo):
        return x
    batch, row = csr_entry_rows(xp, x)
    parts = ([batch] if len(x.shape) == 3 else []) + [row, x.cols.astype(_INT)]
    return SparseCoo(xp.stack(parts), x.values, x.shape)


def coalesce(xp, x):
    """`x` (COO) with its entries sorted row-major and duplicates summed."""
    dims = x.shape[:x.sparse_dim]
    keys, inverse = xp.unique(linear_keys(xp, x.indices, dims), return_inverse=True)
    return SparseCoo(unravel(xp, keys, dims), segment_sum(xp, inverse.ravel(), x.values, keys.shape[0]), x.shape,
                     coalesced=True)


def as_csr(xp, x):
    """A CSR container of a 2-D or 3-D COO `x` (coalesced first) or `x` itself."""
    if isinstance(x, SparseCsr):
        return x
    if len(x.shape) not in (2, 3) or x.dense_dim:
        raise ValueError(f"a CSR tensor is 2-D or 3-D without dense dims, received shape {list(x.shape)} with "
                         f"{x.dense_dim} dense dims")
    c = coalesce(xp, x)
    batches, m = (x.shape[0] if len(x.shape) == 3 else 1), x.shape[-2]
    row = c.indices[-2] + (c.indices[0] * m if len(x.shape) == 3 else 0)
    counts = xp.bincount(row, minlength=batches * m).reshape(batches, m)
    crows = xp.concatenate([xp.zeros((batches, 1), dtype=_INT), xp.cumsum(counts, axis=1)], axis=1)
    return SparseCsr(crows.ravel(), c.indices[-1], c.values, x.shape)


def like_kind(xp, coo, kind):
    """`coo` as a container of `kind`'s format."""
    return as_csr(xp, coo) if isinstance(kind, SparseCsr) else coo


def to_dense(xp, x):
    coo = as_coo(xp, x)
    dims = x.shape[:coo.sparse_dim]
    flat = segment_sum(xp, linear_keys(xp, coo.indices, dims), coo.values, math.prod(dims))
    return flat.reshape(x.shape)


def from_dense(xp, x, sparse_dim):
    """The COO container of the positions of the first `sparse_dim` dims where x is nonzero (row-major)."""
    nonzero = x != 0
    if x.ndim > sparse_dim:
        nonzero = nonzero.any(axis=tuple(range(sparse_dim, x.ndim)))
    indices = xp.stack(xp.nonzero(nonzero)).astype(_INT) if sparse_dim else xp.zeros((0, 1), dtype=_INT)
    return SparseCoo(indices, x[tuple(indices)], x.shape, coalesced=True)


def restrict(xp, src, mask):
    """`mask`'s pattern holding src's value at each entry's position (duplicates of src summed; 0 where src has
    no entry); src dense or sparse. A src of mask's very pattern gives its values entry for entry."""
    m = as_coo(xp, mask)
    if not isinstance(src, SparseArray):
        return mask.with_values(src[tuple(m.indices)])
    if src.same_pattern(mask):  # entry for entry (a gradient read back at the entries it came from)
        return mask.with_values(src.values)
    s = coalesce(xp, as_coo(xp, src))
    dims = mask.shape[:m.sparse_dim]
    have, want = linear_keys(xp, s.indices, dims), linear_keys(xp, m.indices, dims)
    if have.shape[0] == 0:
        return mask.with_values(xp.zeros((want.shape[0],) + tuple(s.values.shape[1:]), dtype=s.values.dtype))
    at = xp.minimum(xp.searchsorted(have, want), have.shape[0] - 1)
    found = (have[at] == want).reshape((-1,) + (1,) * (s.values.ndim - 1))
    return mask.with_values(xp.where(found, s.values[at], xp.zeros((), dtype=s.values.dtype)))


def grad_op_of(grad_type, *sources):
    """A grad maker giving X the result of grad op `grad_type` applied to `sources` (input slots, or "Out" for the
    forward's output) and the output's gradient, with the forward's attrs."""
    def grad(g):
        if g.needs("X"):
            refs = [g.output("Out") if s == "Out" else g.input(s) for s in sources]
            g.set_input_grad("X", g.op(grad_type, *refs, g.output_grad("Out"), **g.attrs))
    return grad


def _check_sparse(op, x):
    if not isinstance(x, SparseArray):
        raise TypeError(f"op '{op}': input 'X' must be a sparse tensor, received a dense {type(x).__name__}")
    return x


# ---- creation, the values, conversions ------------------------------------------------------------------------
def _values_grad(g):  # the gradient of a sparse result with respect to its values: the values of its gradient
    if g.needs("Values"):
        g.set_input_grad("Values", g.op("sparse_values", g.output_grad("Out")))


# a sparse tensor made of values views them (Values comes first: a view op's outputs view its first input)
SPARSE_COO_TENSOR = sparse_op(
    "sparse_coo_tensor", inputs=("Values", "Indices"), outputs=("Out",), nondiff_inputs=("Indices",), view=True,
    forward=lambda xp, values, indices, shape: SparseCoo(indices, values, shape), grad=_values_grad,
    attrs={"shape": []})
SPARSE_CSR_TENSOR = sparse_op(
    "sparse_csr_tensor", inputs=("Values", "Crows", "Cols"), outputs=("Out",), nondiff_inputs=("Crows", "Cols"),
    view=True, forward=lambda xp, values, crows, cols, shape: SparseCsr(crows, cols, values, shape),
    grad=_values_grad, attrs={"shape": []})


def _sparse_values_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("sparse_with_values", g.output_grad("Out"), g.input("X")))


SPARSE_VALUES = sparse_op("sparse_values", inputs=("X",), outputs=("Out",), view=True, grad=_sparse_values_grad,
                          forward=lambda xp, x: _check_sparse("sparse_values", x).values)
SPARSE_WITH_VALUES = sparse_op("sparse_with_values", inputs=("Values", "X"), outputs=("Out",), meta_inputs=("X",),
                               view=True, forward=lambda xp, values, x: x.with_values(values), grad=_values_grad)


def _structure(xp, x, part):
    """A sparse tensor's index arrays: COO `indices`, CSR `crows` and `cols`."""
    kind = {"indices": SparseCoo, "crows": SparseCsr, "cols": SparseCsr}[part]
    if not isinstance(x, kind):
        raise TypeError(f"{part}(): needs a {kind.format.upper()} tensor, received a "
                        f"{'dense' if not isinstance(x, SparseArray) else x.format.upper()} one")
    return getattr(x, part)


SPARSE_STRUCTURE = sparse_op("sparse_structure", inputs=("X",), outputs=("Out",), forward=_structure,
                             attrs={"part": "indices"})


def _restrict_grad_of(slot):
    """dX of a result on X's entries rearranged: the output's gradient read back at X's entries."""
    def grad(g):
        if g.needs(slot):
            g.set_input_grad(slot, g.op("sparse_restrict", g.output_grad("Out"), g.input(slot)))
    return grad


def _to_dense_of_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("sparse_to_dense", g.output_grad("Out")))


def _dense_grad_read_at_entries(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("sparse_mask_as", g.output_grad("Out"), g.input("X")))


SPARSE_TO_DENSE = sparse_op("sparse_to_dense", inputs=("X",), outputs=("Out",), grad=_dense_grad_read_at_entries,
                            forward=lambda xp, x: to_dense(xp, _check_sparse("sparse_to_dense", x)))
DENSE_TO_SPARSE_COO = sparse_op("dense_to_sparse_coo", inputs=("X",), outputs=("Out",),
                                forward=lambda xp, x, sparse_dim: from_dense(xp, x, sparse_dim),
                                grad=_to_dense_of_grad, attrs={"sparse_dim": 1}, host_sync=DATA_DEPENDENT_SHAPE)
DENSE_TO_SPARSE_CSR = sparse_op("dense_to_sparse_csr", inputs=("X",), outputs=("Out",),
                                forward=lambda xp, x: as_csr(xp, from_dense(xp, x, x.ndim)),
                                grad=_to_dense_of_grad, host_sync=DATA_DEPENDENT_SHAPE)
SPARSE_TO_COO = sparse_op("sparse_to_coo", inputs=("X",), outputs=("Out",), grad=_restrict_grad_of("X"),
                          forward=lambda xp, x: as_coo(xp, _check_sparse("sparse_to_coo", x).map_arrays(xp.copy)))
SPARSE_TO_CSR = sparse_op("sparse_to_csr", inputs=("X",), outputs=("Out",), grad=_restrict_grad_of("X"),
                          forward=lambda xp, x: as_csr(xp, _check_sparse("sparse_to_csr", x)),
                          host_sync=DATA_DEPENDENT_SHAPE)
SPARSE_COALESCE = sparse_op("sparse_coalesce", inputs=("X",), outputs=("Out",), grad=_restrict_grad_of("X"),
                            forward=lambda xp, x: coalesce(xp, as_coo(xp, _check_sparse("sparse_coalesce", x))),
                            host_sync=DATA_DEPENDENT_SHAPE)


# ---- patterns: restriction and union ---------------------------------------------------------------------------
def _check_same_shape(op, x, mask):
    if tuple(x.shape) != tuple(mask.shape):
        raise ValueError(f"op '{op}': the tensor and the mask must have one shape, received {list(x.shape)} and "
                         f"{list(mask.shape)}")


def _mask_as(xp, x, mask):
    _check_same_shape("sparse_mask_as", x, mask)
    return restrict(xp, x, mask)


def _restrict(xp, x, mask):
    _check_same_shape("sparse_restrict", x, mask)
    return restrict(xp, _check_sparse("sparse_restrict", x), mask)


# mask_as: a dense X's values at Mask's entries (its gradient: the entries' gradients added into a dense tensor);
# restrict: a sparse X's values at Mask's entries (its gradient: the result's gradient read back at X's entries)
SPARSE_MASK_AS = sparse_op("sparse_mask_as", inputs=("X", "Mask"), outputs=("Out",), meta_inputs=("Mask",),
                           forward=_mask_as, grad=_to_dense_of_grad)
SPARSE_RESTRICT = sparse_op("sparse_restrict", inputs=("X", "Mask"), outputs=("Out",), meta_inputs=("Mask",),
                            forward=_restrict, grad=_restrict_grad_of("X"), host_sync=DATA_DEPENDENT_SHAPE)


def _union(xp, x, y):
    """The entries of x or y (sorted, unique), holding zeros, in x's format."""
    _check_same_shape("sparse_union", x, y)
    cx, cy = as_coo(xp, x), as_coo(xp, y)
    dims = x.shape[:cx.sparse_dim]
    keys = xp.unique(xp.concatenate([linear_keys(xp, cx.indices, dims), linear_keys(xp, cy.indices, dims)]))
    zeros = xp.zeros((keys.shape[0],) + tuple(cx.values.shape[1:]), dtype=cx.values.dtype)
    return like_kind(xp, SparseCoo(unravel(xp, keys, dims), zeros, x.shape), x)


SPARSE_UNION = sparse_op("sparse_union", inputs=("X", "Y"), outputs=("Out",), forward=_union,
                         host_sync=DATA_DEPENDENT_SHAPE)


# ---- products ------------------------------------------------------------------------------------------------
def _matrices(xp, x):
    """The 2-D sparse matrices (scipy/cupyx CSR) of a 2-D or batched 3-D sparse container."""
    sp = sparse_module(xp)
    coo = as_coo(xp, x)
    m, n = x.shape[-2:]
    def matrix(values, rows, cols):  # (through COO: the (data, (row, col)) form both libraries take)
        return sp.coo_matrix((values, (rows, cols)), shape=(m, n)).tocsr()
    if len(x.shape) == 2:
        return [matrix(coo.values, coo.indices[0], coo.indices[1])]
    batch = coo.indices[0]
    return [matrix(coo.values[batch == b], coo.indices[1][batch == b], coo.indices[2][batch == b])
            for b in range(x.shape[0])]


def _check_matmul(op, x, y, transpose_x):
    rank = len(x.shape)
    if rank not in (2, 3) or len(y.shape) != rank:
        raise ValueError(f"op '{op}': x and y must both be 2-D or both 3-D, received {list(x.shape)} and "
                         f"{list(y.shape)}")
    k = x.shape[-2] if transpose_x else x.shape[-1]
    if y.shape[-2] != k or (rank == 3 and x.shape[0] != y.shape[0]):
        raise ValueError(f"op '{op}': the shapes {list(x.shape)} and {list(y.shape)} do not multiply")


def _sparse_matmul(xp, x, y, transpose_x):
    """op(x) @ y for sparse x (op: transpose when transpose_x) and dense y: a dense result."""
    _check_matmul("sparse_matmul", _check_sparse("sparse_matmul", x), y, transpose_x)
    mats = _matrices(xp, x)
    blocks = y if len(x.shape) == 3 else [y]
    out = [xp.asarray((m.T if transpose_x else m) @ b) for m, b in zip(mats, blocks)]
    return (xp.stack(out) if len(x.shape) == 3 else out[0]).astype(y.dtype, copy=False)


def _sparse_matmul_grad(g):
    x, y, dout, tx = g.input("X"), g.input("Y"), g.output_grad("Out"), g.attrs["transpose_x"]
    if g.needs("Y"):
        g.set_input_grad("Y", g.op("sparse_matmul", x, dout, transpose_x=not tx))
    if g.needs("X"):  # d op(X) = dout y^T, read at X's entries (transposed back when op transposes)
        a, b = (y, dout) if tx else (dout, y)
        g.set_input_grad("X", g.op("sparse_masked_matmul", a, b, x, transpose_y=True))


SPARSE_MATMUL = sparse_op("sparse_matmul", inputs=("X", "Y"), outputs=("Out",), forward=_sparse_matmul,
                          grad=_sparse_matmul_grad, attrs={"transpose_x": False}, host_sync=DATA_DEPENDENT_SHAPE)


def _mask_rows_cols(xp, mask):
    coo = as_coo(xp, mask)
    batch = coo.indices[0] if len(mask.shape) == 3 else None
    return batch, coo.indices[-2], coo.indices[-1]


# A mask holding at least this share of its matrices' entries takes the whole product from the BLAS, then reads it at
# the entries (an order of magnitude faster than per-entry dots, and no more memory than the pattern: 4-8 bytes per
# matrix element against ~28 per entry); a sparser one dots the rows of its entries, _GATHER_CHUNK elements at a time.
_DENSE_SHARE = 1 / 8
_GATHER_CHUNK = 1 << 20


def _masked_matmul(xp, x, y, mask, transpose_y):
    """(x @ op(y)) at mask's entries: for entry (r, c) the dot of x's row r and op(y)'s column c."""
    rank = len(mask.shape)
    if x.ndim != rank or y.ndim != rank:
        raise ValueError(f"op 'sparse_masked_matmul': x, y and mask must have one rank (2 or 3), received "
                         f"{list(x.shape)}, {list(y.shape)}, {list(mask.shape)}")
    yt = y if transpose_y else xp.swapaxes(y, -1, -2)  # rows of yt are op(y)'s columns
    if x.shape[-1] != yt.shape[-1] or (x.shape[-2], yt.shape[-2]) != tuple(mask.shape[-2:]):
        raise ValueError(f"op 'sparse_masked_matmul': x {list(x.shape)} times y {list(y.shape)} does not give the "
                         f"mask's shape {list(mask.shape)}")
    batch, row, col = _mask_rows_cols(xp, mask)
    if batch is None:
        x, yt, batch = x[None], yt[None], xp.zeros_like(row)
    if row.size >= _DENSE_SHARE * math.prod(mask.shape):
        return mask.with_values((x @ xp.swapaxes(yt, -1, -2))[batch, row, col])
    dots = xp.empty(row.shape, x.dtype)
    step = max(1, _GATHER_CHUNK // x.shape[-1])
    for start in range(0, row.size, step):
        at = slice(start, start + step)
        dots[at] = xp.einsum("ij,ij->i", x[batch[at], row[at]], yt[batch[at], col[at]])
    return mask.with_values(dots)


def _masked_matmul_grad(g):
    x, y, dout, ty = g.input("X"), g.input("Y"), g.output_grad("Out"), g.attrs["transpose_y"]
    rank = len(g.shape(x))
    swap = list(range(rank - 2)) + [rank - 1, rank - 2]
    if g.needs("X"):  # dX = dS op(y)^T
        g.set_input_grad("X", g.op("sparse_matmul", dout, y if ty else transpose(y, perm=swap)))
    if g.needs("Y"):  # d op(y) = x^T dS
        dy_t = g.op("sparse_matmul", dout, x, transpose_x=True)  # (x^T dS)^T
        g.set_input_grad("Y", dy_t if ty else transpose(dy_t, perm=swap))


SPARSE_MASKED_MATMUL = sparse_op("sparse_masked_matmul", inputs=("X", "Y", "Mask"), outputs=("Out",),
                                 meta_inputs=("Mask",), forward=_masked_matmul, grad=_masked_matmul_grad,
                                 attrs={"transpose_y": False})


def _spgemm(xp, x, y, transpose_x, transpose_y):
    """op(x) @ op(y) of two sparse matrices (or batches): a sparse result in x's format, entries row-major."""
    _check_sparse("sparse_spgemm", x)
    _check_sparse("sparse_spgemm", y)
    mats = [(a.T if transpose_x else a) @ (b.T if transpose_y else b) for a, b in zip(_matrices(xp, x),
                                                                                   _matrices(xp, y))]
    rows, cols, vals, batch = [], [], [], []
    for b, m in enumerate(mats):
        m = m.tocoo()
        m.sum_duplicates()
        rows.append(xp.asarray(m.row, dtype=_INT))
        cols.append(xp.asarray(m.col, dtype=_INT))
        vals.append(xp.asarray(m.data, dtype=x.values.dtype))
        batch.append(xp.full(m.nnz, b, dtype=_INT))
    shape = tuple(x.shape[:-2]) + tuple(mats[0].shape)
    parts = ([xp.concatenate(batch)] if len(x.shape) == 3 else []) + [xp.concatenate(rows), xp.concatenate(cols)]
    out = SparseCoo(xp.stack(parts), xp.concatenate(vals), shape)
    return like_kind(xp, coalesce(xp, out), x)


def _spgemm_grad(g):
    x, y, dout = g.input("X"), g.input("Y"), g.output_grad("Out")
    tx, ty = g.attrs["transpose_x"], g.attrs["transpose_y"]
    if g.needs("X"):  # d op(x) = dout op(y)^T
        da = g.op("sparse_spgemm", dout, y, transpose_x=False, transpose_y=not ty)
        g.set_input_grad("X", g.op("sparse_restrict", g.op("sparse_transpose_matrix", da) if tx else da, x))
    if g.needs("Y"):  # d op(y) = op(x)^T dout
        db = g.op("sparse_spgemm", x, dout, transpose_x=not tx, transpose_y=False)
        g.set_input_grad("Y", g.op("sparse_restrict", g.op("sparse_transpose_matrix", db) if ty else db, y))


SPARSE_SPGEMM = sparse_op("sparse_spgemm", inputs=("X", "Y"), outputs=("Out",), forward=_spgemm, grad=_spgemm_grad,
                          attrs={"transpose_x": False, "transpose_y": False}, host_sync=DATA_DEPENDENT_SHAPE)


# ---- rearrangements: transpose, reshape, slice, sum ------------------------------------------------------------
def _check_perm(perm, rank):
    if sorted(p % rank if rank else p for p in perm) != list(range(rank)):
        raise ValueError(f"op 'sparse_transpose': perm must be a permutation of range({rank}), received "
                         f"{list(perm)}")
    return [p % rank for p in perm]


def _sparse_transpose(xp, x, perm):
    """x with its dims permuted: a COO's index rows (the entries keep their order; dense dims stay last); a CSR
    goes through COO."""
    _check_sparse("sparse_transpose", x)
    coo = as_coo(xp, x)
    perm = _check_perm(perm, len(x.shape))
    sd = coo.sparse_dim
    if any(p >= sd for p in perm[:sd]) or perm[sd:] != list(range(sd, len(x.shape))):
        raise ValueError(f"op 'sparse_transpose': perm {perm} would move a dense dim of a tensor with {sd} "
                         "sparse dims")
    out = SparseCoo(coo.indices[perm[:sd]], coo.values.copy(), tuple(x.shape[p] for p in perm))
    return like_kind(xp, out, x)


def _inverse_transpose_grad(g):
    if g.needs("X"):
        perm = _check_perm(g.attrs["perm"], len(g.shape(g.input("X"))))
        inverse = [perm.index(i) for i in range(len(perm))]
        back = g.op("sparse_transpose", g.output_grad("Out"), perm=inverse)
        g.set_input_grad("X", g.op("sparse_restrict", back, g.input("X")))


SPARSE_TRANSPOSE = sparse_op("sparse_transpose", inputs=("X",), outputs=("Out",), forward=_sparse_transpose,
                             grad=_inverse_transpose_grad, attrs={"perm": []}, host_sync=DATA_DEPENDENT_SHAPE)


def _matrix_transpose_grad(g):
    if g.needs("X"):
        back = g.op("sparse_transpose_matrix", g.output_grad("Out"))
        g.set_input_grad("X", g.op("sparse_restrict", back, g.input("X")))


SPARSE_TRANSPOSE_MATRIX = sparse_op(  # the last two dims swapped (what the products' gradients need)
    "sparse_transpose_matrix", inputs=("X",), outputs=("Out",), grad=_matrix_transpose_grad,
    forward=lambda xp, x: _sparse_transpose(xp, x, list(range(len(x.shape) - 2)) + [-1, -2]),
    host_sync=DATA_DEPENDENT_SHAPE)


def reshaped(shape, old, api):
    """`shape` with its one -1 (if any) taking what is left of `old`."""
    shape = list(shape)
    if shape.count(-1) > 1:
        raise ValueError(f"{api}: only one dim of the shape may be -1, received {shape}")
    known = math.prod(d for d in shape if d != -1)
    total = math.prod(old)
    if -1 in shape:
        if known == 0 or total % known:
            raise ValueError(f"{api}: cannot reshape {list(old)} into {shape}")
        shape[shape.index(-1)] = total // known
    if math.prod(shape) != total:
        raise ValueError(f"{api}: cannot reshape {list(old)} ({total} elements) into {shape}")
    return shape


def _copy_zero_dims(shape, old):
    """`shape` with each 0 replaced by `old`'s dim at its index (Paddle's reshape rule; a 0 past `old`'s rank only
    for a tensor of no elements)."""
    out = list(shape)
    for i, d in enumerate(out):
        if d == 0 and i < len(old):
            out[i] = old[i]
        elif d == 0 and math.prod(old):
            raise ValueError(f"sparse.reshape: a 0 in shape {list(shape)} at index {i} copies a dim of x, which has "
                             f"only {len(old)} dims (shape {list(old)})")
    return out


def _sparse_reshape(xp, x, shape):
    """The sparse dims reshaped (row-major positions kept; the entries keep their order)."""
    _check_sparse("sparse_reshape", x)
    coo = as_coo(xp, x)
    sd = coo.sparse_dim
    dense = list(x.shape[sd:])
    shape = _copy_zero_dims(shape, x.shape)
    if dense and shape[len(shape) - len(dense):] != dense:
        raise ValueError(f"op 'sparse_reshape': the dense dims {dense} must stay last, received shape {shape}")
    new_sparse = reshaped(shape[:len(shape) - len(dense)], x.shape[:sd], "sparse.reshape")
    keys = linear_keys(xp, coo.indices, x.shape[:sd])
    return like_kind(xp, SparseCoo(unravel(xp, keys, new_sparse), coo.values.copy(), new_sparse + dense), x)


def _reshape_back_grad(g):
    if g.needs("X"):
        x = g.input("X")
        back = g.op("sparse_reshape", g.output_grad("Out"), shape=list(g.shape(x)))
        g.set_input_grad("X", g.op("sparse_restrict", back, x))


SPARSE_RESHAPE = sparse_op("sparse_reshape", inputs=("X",), outputs=("Out",), forward=_sparse_reshape,
                           grad=_reshape_back_grad, attrs={"shape": []}, host_sync=DATA_DEPENDENT_SHAPE)


def _slice_ranges(shape, axes, starts, ends):
    """[(axis, start, end)] clipped as Python slices are."""
    out = []
    for a, s, e in zip(axes, starts, ends):
        a = a % len(shape)
        start, end, _ = slice(s, e).indices(shape[a])
        out.append((a, start, max(start, end)))
    return out


def _slice_kept(xp, coo, ranges):
    keep = xp.ones(coo.indices.shape[1], dtype=bool)
    for a, s, e in ranges:
        keep &= (coo.indices[a] >= s) & (coo.indices[a] < e)
    return xp.nonzero(keep)[0]


def _sparse_slice(xp, x, axes, starts, ends):
    _check_sparse("sparse_slice", x)
    coo = as_coo(xp, x)
    ranges = _slice_ranges(x.shape, axes, starts, ends)
    if any(a >= coo.sparse_dim for a, _, _ in ranges):
        raise ValueError("op 'sparse_slice': slices the sparse dims only")
    kept = _slice_kept(xp, coo, ranges)
    indices = coo.indices[:, kept]
    shape = list(x.shape)
    for a, s, e in ranges:
        indices[a] -= s
        shape[a] = e - s
    return like_kind(xp, SparseCoo(indices, coo.values[kept], shape), x)


def _sparse_slice_grad_forward(xp, x, dout, axes, starts, ends):
    """X's pattern: the sliced entries hold their gradients, the others zeros."""
    coo = as_coo(xp, x)
    kept = _slice_kept(xp, coo, _slice_ranges(x.shape, axes, starts, ends))
    values = xp.zeros_like(coo.values, dtype=dout.values.dtype)
    values[kept] = as_coo(xp, dout).values if isinstance(x, SparseCoo) else restrict(
        xp, dout, _sparse_slice(xp, x, axes, starts, ends)).values
    return x.with_values(values)


_SLICE_ATTRS = {"axes": [], "starts": [], "ends": []}
SPARSE_SLICE = sparse_op(
    "sparse_slice", inputs=("X",), outputs=("Out",), forward=_sparse_slice, attrs=_SLICE_ATTRS,
    grad=grad_op_of("sparse_slice_grad", "X"), host_sync=DATA_DEPENDENT_SHAPE)
SPARSE_SLICE_GRAD = sparse_op("sparse_slice_grad", inputs=("X", "DOut"), outputs=("DX",), meta_inputs=("X",),
                              forward=_sparse_slice_grad_forward, attrs=_SLICE_ATTRS, host_sync=DATA_DEPENDENT_SHAPE)


def _sum_groups(xp, coo, axes, keepdim):
    """(group of each entry, the groups' indices, the result's sparse shape) of a sum over sparse axes."""
    sd = coo.sparse_dim
    kept_dims = [d for d in range(sd) if d not in axes]
    dims = [coo.shape[d] for d in kept_dims]
    keys, group = xp.unique(linear_keys(xp, coo.indices[kept_dims], dims), return_inverse=True)
    indices = unravel(xp, keys, dims)
    shape = [1 if d in axes else coo.shape[d] for d in range(sd)] if keepdim else dims
    if keepdim:
        full = xp.zeros((sd, keys.shape[0]), dtype=_INT)
        full[kept_dims] = indices
        indices = full
    return group.ravel(), indices, shape


def _sum_axes(x, axis):
    rank = len(x.shape)
    axes = list(range(rank)) if axis is None or axis == [] else [a % rank for a in (
        [axis] if isinstance(axis, int) else axis)]
    return axes


def _sparse_sum(xp, x, axis, keepdim, dtype):
    """The sum over `axis` (all dims when None): a sparse result whose entries are the groups present (a CSR
    tensor's keeps its dims, and its format)."""
    _check_sparse("sparse_sum", x)
    keepdim = keepdim or isinstance(x, SparseCsr)
    coo = as_coo(xp, x)
    out_dtype = np.dtype(dtype) if dtype is not None else x.values.dtype
    axes = _sum_axes(x, axis)
    values = coo.values.astype(out_dtype, copy=False)
    dense_axes = tuple(a - coo.sparse_dim + 1 for a in axes if a >= coo.sparse_dim)
    if dense_axes:
        values = values.sum(axis=dense_axes, keepdims=keepdim)
    sparse_axes = [a for a in axes if a < coo.sparse_dim]
    if len(sparse_axes) == coo.sparse_dim and not keepdim and len(axes) == len(x.shape):  # everything: one entry
        return SparseCoo(xp.zeros((1,), dtype=_INT), values.sum(), (1,))
    group, indices, shape = _sum_groups(xp, coo, sparse_axes, keepdim)
    dense_shape = [1 if d + coo.sparse_dim in axes else n for d, n in enumerate(x.shape[coo.sparse_dim:])] \
        if keepdim else [n for d, n in enumerate(x.shape[coo.sparse_dim:]) if d + coo.sparse_dim not in axes]
    out = SparseCoo(indices, segment_sum(xp, group, values, indices.shape[1]), shape + dense_shape)
    return like_kind(xp, out, x) if isinstance(x, SparseCsr) and len(out.shape) in (2, 3) else out


def _sparse_sum_grad_forward(xp, x, dout, axis, keepdim, dtype):
    """X's pattern holding the gradient of the group each entry was summed into."""
    coo = as_coo(xp, x)
    keepdim = keepdim or isinstance(x, SparseCsr)
    axes = _sum_axes(x, axis)
    d = as_coo(xp, dout).values
    sparse_axes = [a for a in axes if a < coo.sparse_dim]
    if len(sparse_axes) == coo.sparse_dim and not keepdim and len(axes) == len(x.shape):
        per_entry = xp.broadcast_to(d.reshape(()), coo.values.shape)
    else:
        group, _, _ = _sum_groups(xp, coo, sparse_axes, keepdim)
        per_entry = d[group]
        dense_axes = tuple(a - coo.sparse_dim + 1 for a in axes if a >= coo.sparse_dim)
        if dense_axes and not keepdim:
            per_entry = xp.expand_dims(per_entry, dense_axes)
        per_entry = xp.broadcast_to(per_entry, coo.values.shape)
    return x.with_values(xp.ascontiguousarray(per_entry).astype(x.values.dtype))


_SUM_ATTRS = {"axis": None, "keepdim": False, "dtype": None}
SPARSE_SUM = sparse_op(
    "sparse_sum", inputs=("X",), outputs=("Out",), forward=_sparse_sum, attrs=_SUM_ATTRS,
    grad=grad_op_of("sparse_sum_grad", "X"), host_sync=DATA_DEPENDENT_SHAPE)
SPARSE_SUM_GRAD = sparse_op("sparse_sum_grad", inputs=("X", "DOut"), outputs=("DX",), meta_inputs=("X",),
                            forward=_sparse_sum_grad_forward, attrs=_SUM_ATTRS, host_sync=DATA_DEPENDENT_SHAPE)


# ---- softmax over each row's entries ------------------------------------------------------------------------
def _rows(xp, x):
    """The row (all coordinates but the last) of each entry, numbered 0..rows-1, and the number of rows."""
    coo = as_coo(xp, x)
    keys, row = xp.unique(linear_keys(xp, coo.indices[:-1], x.shape[:coo.sparse_dim - 1]), return_inverse=True)
    return row.ravel(), keys.shape[0]


def _sparse_softmax(xp, x, axis):
    """softmax over the entries of each row (absent entries are not -inf logits but absent)."""
    _check_sparse("sparse_softmax", x)
    if axis not in (-1, len(x.shape) - 1) or x.dense_dim:
        raise ValueError(f"op 'sparse_softmax': a sparse softmax runs over the last axis (-1), received {axis}")
    row, n = _rows(xp, x)
    v = as_coo(xp, x).values
    top = xp.full(n, -np.inf, dtype=v.dtype)
    _scatter_at(xp, top, row, v, "max")
    e = xp.exp(v - top[row])
    return x.with_values(e / segment_sum(xp, row, e, n)[row])


def _sparse_softmax_grad_forward(xp, out, dout, axis):
    """dx = y (dy - sum over the row of dy y)."""
    row, n = _rows(xp, out)
    y, dy = out.values, dout.values
    return out.with_values(y * (dy - segment_sum(xp, row, dy * y, n)[row]))


SPARSE_SOFTMAX = sparse_op("sparse_softmax", inputs=("X",), outputs=("Out",), forward=_sparse_softmax,
                           attrs={"axis": -1}, grad=grad_op_of("sparse_softmax_grad", "Out"),
                           host_sync=DATA_DEPENDENT_SHAPE)
SPARSE_SOFTMAX_GRAD = sparse_op("sparse_softmax_grad", inputs=("Out", "DOut"), outputs=("DX",),
                                forward=_sparse_softmax_grad_forward, attrs={"axis": -1},
                                host_sync=DATA_DEPENDENT_SHAPE)
