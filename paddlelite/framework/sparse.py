"""The sparse tensor kinds: a Tensor whose `_data` is a SparseCoo or a SparseCsr instead of an ndarray.

A container holds its component arrays (NumPy or CuPy, all of one device) and the dense shape, and answers the
few questions every tensor answers (shape, dtype, ndim, size), so the dispatcher, the grad nodes and the engine
carry it as they carry an ndarray. Only ops written for the kind (ops/sparse.py) read its components. Autograd
sees gradients with respect to the values: the gradient of a sparse tensor is a sparse tensor of the same
pattern (the same indices in the same order), so two of them sum by their values (`+`, what op `add` and the
engine's accumulation use) and a seed of ones keeps the pattern (op fill_any_like).

  COO: indices [sparse_dim, nnz] int64, values [nnz, *dense_dims]; `coalesced` when the indices are sorted
       (row-major) and unique -- Paddle's is_coalesced(), True only after coalesce().
  CSR: crows [batch * (rows + 1)], cols [nnz], values [nnz]; 2-D [rows, cols] or batched 3-D [batch, rows, cols].
"""
import math


class SparseArray:
    """What the COO and CSR containers share: the dense shape, the values' dtype, derived sizes."""

    __slots__ = ("values", "shape")
    format = None

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def nnz(self):
        return int(self.values.shape[0])

    def arrays(self):
        """The component arrays, values last."""
        raise NotImplementedError

    def with_values(self, values):
        """The same pattern holding `values`."""
        raise NotImplementedError

    def map_arrays(self, fn):
        """A container of the same pattern whose every component array is fn(array) (a copy to another device)."""
        raise NotImplementedError

    def same_pattern(self, other):
        return type(other) is type(self) and other.shape == self.shape and all(
            a is b or (a.shape == b.shape and bool((a == b).all())) for a, b in zip(self.arrays()[:-1],
                                                                                   other.arrays()[:-1]))

    def __add__(self, other):
        """Two of one pattern summed by their values (gradients of one sparse tensor)."""
        if not self.same_pattern(other):
            raise ValueError("only sparse tensors of one pattern (the same indices) add with '+'; use "
                             "paddle.sparse.add")
        return self.with_values(self.values + other.values)

    def filled(self, xp, value, dtype=None):
        """The same pattern with every value `value` (in `dtype`, else the values' dtype)."""
        return self.with_values(xp.full(self.values.shape, value, dtype=dtype or self.values.dtype))


class SparseCoo(SparseArray):
    __slots__ = ("indices", "coalesced")
    format = "coo"

    def __init__(self, indices, values, shape, coalesced=False):
        self.indices, self.values, self.shape, self.coalesced = indices, values, tuple(shape), coalesced

    @property
    def sparse_dim(self):
        return int(self.indices.shape[0])

    @property
    def dense_dim(self):
        return self.values.ndim - 1

    def arrays(self):
        return self.indices, self.values

    def with_values(self, values):
        return SparseCoo(self.indices, values, self.shape[:self.sparse_dim] + tuple(values.shape[1:]),
                         self.coalesced)

    def map_arrays(self, fn):
        return SparseCoo(fn(self.indices), fn(self.values), self.shape, self.coalesced)


class SparseCsr(SparseArray):
    __slots__ = ("crows", "cols")
    format = "csr"

    def __init__(self, crows, cols, values, shape):
        self.crows, self.cols, self.values, self.shape = crows, cols, values, tuple(shape)

    sparse_dim = property(lambda self: len(self.shape))
    dense_dim = property(lambda self: 0)

    def arrays(self):
        return self.crows, self.cols, self.values

    def with_values(self, values):
        return SparseCsr(self.crows, self.cols, values, self.shape)

    def map_arrays(self, fn):
        return SparseCsr(fn(self.crows), fn(self.cols), fn(self.values), self.shape)


def is_sparse(array):
    return isinstance(array, SparseArray)
