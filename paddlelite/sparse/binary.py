"""paddle.sparse's functions of two tensors: elementwise arithmetic of sparse tensors and the products.

Elementwise results live on the union of both patterns (Paddle's): each operand is read there (restricted:
zeros where it has no entry) and the dense op runs on the values, so gradients flow through the dense op and the
restrictions. Two operands of one pattern skip the union and keep it. Division reads every position, as
Paddle's does (0/0 and x/0 are entries: NaN, inf)."""
import numbers

from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops import sparse as _ops
from ..tensor import creation as _creation
from ..tensor import manipulation as _manip
from ..tensor import math as _math
from ..tensor.manipulation import _check_tensor
from ..tensor.sparse import is_sparse_csr
from ._kinds import check_same_format, check_sparse, valuewise
from .unary import scale_values


def _values(x):
    return dispatch.apply(_ops.SPARSE_VALUES, x)


def _elementwise(x, y, fn, api):
    check_same_format(x, y, api)
    if x._data.same_pattern(y._data):
        return dispatch.apply(_ops.SPARSE_WITH_VALUES, fn(_values(x), _values(y)), x)
    union = dispatch.apply(_ops.SPARSE_UNION, x, y)
    xs, ys = (dispatch.apply(_ops.SPARSE_RESTRICT, t, union) for t in (x, y))
    return dispatch.apply(_ops.SPARSE_WITH_VALUES, fn(_values(xs), _values(ys)), union)


def add(x, y, name=None):
    """x + y of two sparse tensors of one format and shape; a dense y that broadcasts against x's values (a
    bias [C] of a channels-last tensor) adds to each entry's values."""
    if isinstance(y, Tensor) and not y.is_sparse():
        check_sparse(x, "sparse.add")
        if not is_broadcastable(list(y.shape), list(x._data.values.shape)):
            raise NotImplementedError(f"sparse.add: a dense y adds to a sparse x's values [nnz, *dense_dims] "
                                      f"({list(x._data.values.shape)}) only, received shape {list(y.shape)}")
        return valuewise(x, lambda v: _math.add(v, y), "sparse.add")
    return _elementwise(x, y, _math.add, "sparse.add")


def is_broadcastable(small, big):
    return len(small) <= len(big) and all(s in (1, b) for s, b in zip(small[::-1], big[::-1]))


def subtract(x, y, name=None):
    """x - y of two sparse tensors of one format and shape."""
    return _elementwise(x, y, _math.subtract, "sparse.subtract")


def multiply(x, y, name=None):
    """x * y of two sparse tensors (on the union of their entries), or x times a Python number."""
    if isinstance(y, numbers.Number) and not isinstance(y, bool):
        return scale_values(x, y)
    return _elementwise(x, y, _math.multiply, "sparse.multiply")


def divide(x, y, name=None):
    """x / y of two sparse tensors (at every position), or x divided by a Python number (on x's entries)."""
    if isinstance(y, numbers.Number) and not isinstance(y, bool):
        return valuewise(x, lambda v: _math.divide(v, _creation.full_like(v, float(y))), "sparse.divide")
    check_same_format(x, y, "sparse.divide")
    dense = _math.divide(x.to_dense(), y.to_dense())
    everywhere = _creation.ones(list(x.shape), "bool")
    everywhere = everywhere.to_sparse_csr() if is_sparse_csr(x) else everywhere.to_sparse_coo(x.sparse_dim())
    return dispatch.apply(_ops.SPARSE_MASK_AS, dense, everywhere)


def is_same_shape(x, y):
    """Whether x and y (dense or sparse) have one shape."""
    return list(x.shape) == list(y.shape)


def mask_as(x, mask, name=None):
    """The values of dense x at the entries of sparse `mask`, as a sparse tensor of mask's pattern."""
    _check_tensor(x, "sparse.mask_as")
    check_sparse(mask, "sparse.mask_as", "mask")
    return dispatch.apply(_ops.SPARSE_MASK_AS, x, mask)


def matmul(x, y, name=None):
    """x @ y with x sparse (2-D, or 3-D batched): a dense result for dense y, a sparse one (x's format) for sparse y."""
    check_sparse(x, "sparse.matmul")
    _check_tensor(y, "sparse.matmul", "y")
    if y.is_sparse():
        return dispatch.apply(_ops.SPARSE_SPGEMM, x, y)
    return dispatch.apply(_ops.SPARSE_MATMUL, x, y)


def masked_matmul(x, y, mask, name=None):
    """(x @ y) at the entries of `mask` only (dense x and y), as a sparse tensor of mask's pattern."""
    _check_tensor(x, "sparse.masked_matmul")
    _check_tensor(y, "sparse.masked_matmul", "y")
    check_sparse(mask, "sparse.masked_matmul", "mask")
    return dispatch.apply(_ops.SPARSE_MASKED_MATMUL, x, y, mask)


def mv(x, vec, name=None):
    """x @ vec for a sparse 2-D x and a dense vector."""
    check_sparse(x, "sparse.mv")
    _check_tensor(vec, "sparse.mv", "vec")
    if len(x.shape) != 2 or len(vec.shape) != 1:
        raise ValueError(f"sparse.mv: x must be 2-D and vec 1-D, received {list(x.shape)} and {list(vec.shape)}")
    return _manip.squeeze(dispatch.apply(_ops.SPARSE_MATMUL, x, _manip.unsqueeze(vec, -1)), -1)
