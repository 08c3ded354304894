"""Sparse tensors as a Tensor kind: their creation (paddle.sparse.sparse_coo_tensor / sparse_csr_tensor), the
conversions to and from dense tensors, and the Tensor methods reading their parts (indices, values, crows, ...).
The ops are ops/sparse.py's; what a sparse tensor is, framework/sparse.py's."""
import numpy as np

from ..device.place import current_place, parse_place
from ..framework import dtype as _dtype
from ..framework.mode import in_dynamic_mode
from ..framework.sparse import SparseCoo, SparseCsr, is_sparse
from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops import sparse as _ops
from .creation import to_tensor
from .manipulation import _check_tensor

_INDEX_DTYPES = ("int8", "int16", "int32", "int64")


def _as_tensor(value, dtype, place, stop_gradient):
    if isinstance(value, Tensor):
        return value._to_place(place)
    return to_tensor(value, dtype=dtype, place=place, stop_gradient=stop_gradient)


def _index_tensor(value, place, what, api):
    t = _as_tensor(value, None, place, True)
    if t.dtype.name not in _INDEX_DTYPES:
        # Paddle's words, for crows and cols too
        raise TypeError("the dtype of indices must be 'int8' or 'int16' or 'int32' or 'int64'")
    # Paddle reads past its buffers on a negative index (and may abort the process); NumPy would wrap it
    if t.size and int(t.numpy().min()) < 0:
        raise ValueError(f"{api}: every entry of '{what}' must be >= 0, received {int(t.numpy().min())}")
    return t


def _values(values, dtype, place, stop_gradient):
    """The values tensor, cast to `dtype`, with the stop_gradient the sparse tensor is to have (Paddle sets it on
    the values: gradients reach them)."""
    v = _as_tensor(values, dtype, place, stop_gradient)
    if dtype is not None and v.dtype != _dtype.convert_dtype(dtype, "sparse tensor"):
        v = v.astype(dtype)
    v.stop_gradient = stop_gradient
    return v


def _place(place):
    return current_place() if place is None else parse_place(place, "sparse tensor")


def check_dynamic_mode(api):
    """paddlelite's static programs have no sparse variables: an AssertionError in static mode (the class Paddle's
    sparse APIs raise under its legacy IR)."""
    if not in_dynamic_mode():
        raise AssertionError(f"{api}: sparse tensors exist in dynamic mode only (paddlelite's static programs have "
                             "no sparse variables); call paddle.disable_static()")


def sparse_coo_tensor(indices, values, shape=None, dtype=None, place=None, stop_gradient=True):
    """A COO tensor: `indices` [sparse_dim, nnz] (integers), `values` [nnz, *dense_dims]; `shape` defaults to
    one past the largest index of each sparse dim, then the values' dense dims."""
    check_dynamic_mode("sparse_coo_tensor")
    place = _place(place)
    indices = _index_tensor(indices, place, "indices", "sparse_coo_tensor")
    values = _values(values, dtype, place, stop_gradient)
    if len(indices.shape) != 2:
        raise ValueError("'indices' must be 2-D.")
    sparse_dim, nnz = indices.shape
    if nnz != values.shape[0]:
        raise ValueError(f"the indices and values must have same number of non-zero, but get {nnz} and "
                         f"{values.shape[0]}")
    least = [int(m) + 1 for m in indices.numpy().max(axis=1)] if nnz else [0] * sparse_dim
    least += list(values.shape[1:])
    if shape is None:
        shape = least
    else:
        shape = [int(d) for d in shape]
        if len(shape) != sparse_dim + len(values.shape) - 1:
            raise ValueError(f"the number of dimensions(len(shape) must be sparse_dim({sparse_dim}) + "
                             f"dense_dim({len(values.shape) - 1}), but get {len(shape)}")
        if any(s < m for s, m in zip(shape, least)):
            raise ValueError(f"the minimum shape required is {least}, but get {shape}")
    return dispatch.apply(_ops.SPARSE_COO_TENSOR, values, indices, shape=shape)


def _csr_shape(crows, cols):
    """Paddle's inferred shape: a batch per descent of crows, rows from crows' length, cols past the largest."""
    c = crows.numpy()
    batches = int(np.sum(c[:-1] > c[1:])) + 1
    if len(c) % batches:
        raise ValueError(f"The calculated original matrix batch size is {batches}, but it cannot correctly split "
                         "the row data. Please carefully check the data or the input shape.")
    rows, width = len(c) // batches - 1, int(cols.numpy().max()) + 1
    return [rows, width] if batches == 1 else [batches, rows, width]


def sparse_csr_tensor(crows, cols, values, shape=None, dtype=None, place=None, stop_gradient=True):
    """A CSR tensor (2-D, or 3-D batched): row pointers `crows` (batch * (rows + 1)), column indices `cols` and
    `values` (1-D, one per column index)."""
    check_dynamic_mode("sparse_csr_tensor")
    place = _place(place)
    crows = _index_tensor(crows, place, "crows", "sparse_csr_tensor")
    cols = _index_tensor(cols, place, "cols", "sparse_csr_tensor")
    values = _values(values, dtype, place, stop_gradient)
    if shape is not None and len(shape) not in (2, 3):
        raise ValueError(f"SparseCsrTensor only support 2-D or 3-D matrix. but get shape {list(shape)}")
    shape = _csr_shape(crows, cols) if shape is None else [int(d) for d in shape]
    if len(crows.shape) != 1 or len(cols.shape) != 1 or len(values.shape) != 1:
        raise ValueError("The 'crows', 'cols' and 'values' must be 1-D.")
    if cols.shape[0] != values.shape[0]:
        raise ValueError("the length of cols must be same as length of values")
    rows = shape[-2]
    c = crows.numpy()
    if len(shape) == 2:
        if c.shape[0] != rows + 1:
            raise ValueError(f"The length({c.shape[0]}) of crows must be equal to the rows({rows})+1 of matrix.")
        if c[0] != 0:
            raise ValueError("the 0th value of crows must be 0")
        if c[-1] != values.shape[0]:
            raise ValueError("the last value of crows must be equal the number of non-zero")
    elif c.shape[0] % (rows + 1):
        raise ValueError(f"The length({c.shape[0]}) of crows must be divisible the rows({rows})+1 of matrix.")
    return dispatch.apply(_ops.SPARSE_CSR_TENSOR, values, crows, cols, shape=shape)


# ---- Tensor methods -------------------------------------------------------------------------------------------
def _kind(x):
    return x._data.format if is_sparse(x._data) else "dense"


def _unimplemented(x, name):
    raise NotImplementedError(f"Tensor.{name}: not defined for a {_kind(x)} tensor")


def is_sparse_tensor(x):
    return is_sparse(x._data)


def is_sparse_coo(x):
    return isinstance(x._data, SparseCoo)


def is_sparse_csr(x):
    return isinstance(x._data, SparseCsr)


def is_dense(x):
    return not is_sparse(x._data)


def to_sparse_coo(x, sparse_dim):
    """The COO tensor of x: a dense tensor's nonzero positions over its first `sparse_dim` dims (the rest stay
    dense in the values), a CSR tensor's entries."""
    _check_tensor(x, "to_sparse_coo")
    if isinstance(x._data, SparseCoo):
        return x
    if isinstance(x._data, SparseCsr):
        return dispatch.apply(_ops.SPARSE_TO_COO, x)
    if not 0 < sparse_dim <= len(x.shape):
        raise ValueError(f"to_sparse_coo: sparse_dim must be in [1, {len(x.shape)}] (x's rank), received "
                         f"{sparse_dim}")
    return dispatch.apply(_ops.DENSE_TO_SPARSE_COO, x, sparse_dim=int(sparse_dim))


def to_sparse_csr(x):
    """The CSR tensor of a 2-D or 3-D x (dense: its nonzeros; COO: its entries, coalesced)."""
    _check_tensor(x, "to_sparse_csr")
    if isinstance(x._data, SparseCsr):
        return x
    if len(x.shape) not in (2, 3):
        raise ValueError(f"to_sparse_csr: SparseCsrTensor only support 2-D or 3-D Tensor, received shape "
                         f"{list(x.shape)}")
    if isinstance(x._data, SparseCoo):
        return dispatch.apply(_ops.SPARSE_TO_CSR, x)
    return dispatch.apply(_ops.DENSE_TO_SPARSE_CSR, x)


def to_dense(x):
    """The dense tensor of a sparse x (duplicate entries summed)."""
    if not is_sparse(x._data):
        _unimplemented(x, "to_dense")
    return dispatch.apply(_ops.SPARSE_TO_DENSE, x)


def values(x):
    """The values of a sparse tensor: [nnz, *dense_dims]; gradients reach the sparse tensor."""
    if not is_sparse(x._data):
        _unimplemented(x, "values")
    return dispatch.apply(_ops.SPARSE_VALUES, x)


def _part(x, part, kind):
    if not isinstance(x._data, kind):
        raise SystemError(f"Tensor.{part}: this method is only effective for a Sparse{kind.format.capitalize()}"
                          f"Tensor, x is a {_kind(x)} tensor")
    return dispatch.apply(_ops.SPARSE_STRUCTURE, x, part=part)


def indices(x):
    """A COO tensor's indices, [sparse_dim, nnz]."""
    return _part(x, "indices", SparseCoo)


def crows(x):
    """A CSR tensor's row pointers."""
    return _part(x, "crows", SparseCsr)


def cols(x):
    """A CSR tensor's column indices."""
    return _part(x, "cols", SparseCsr)


def nnz(x):
    """The number of stored entries of a sparse tensor."""
    if not is_sparse(x._data):
        raise SystemError("Tensor.nnz: this method is only effective for SparseCooTensor or SparseCsrTensor")
    return x._data.nnz


def sparse_dim(x):
    """The number of sparse dims (0 for a dense tensor)."""
    return x._data.sparse_dim if is_sparse(x._data) else 0


def dense_dim(x):
    """The number of dense dims (all of a dense tensor's)."""
    return x._data.dense_dim if is_sparse(x._data) else len(x.shape)


def coalesce(x, name=None):
    """A COO tensor with its entries sorted and duplicates summed."""
    if not isinstance(x._data, SparseCoo):
        _unimplemented(x, "coalesce")
    return dispatch.apply(_ops.SPARSE_COALESCE, x)


def is_coalesced(x):
    """Whether a COO tensor is known to be coalesced (a dense tensor's conversion, or coalesce()'s result)."""
    if not isinstance(x._data, SparseCoo):
        raise TypeError("Method is_coalesced only support sparse coo tensor.")
    return bool(x._data.coalesced)


def is_same_shape(x, y):
    """Whether x and y (dense or sparse) have one shape."""
    _check_tensor(y, "is_same_shape", "y")
    return list(x.shape) == list(y.shape)


EAGER_METHODS = ["to_sparse_coo", "to_sparse_csr", "to_dense", "values", "indices", "crows", "cols", "nnz",
                 "sparse_dim", "dense_dim", "coalesce", "is_coalesced", "is_same_shape", "is_sparse_coo",
                 "is_sparse_csr", "is_dense"]
EAGER_ALIASES = {"is_sparse": is_sparse_tensor}
