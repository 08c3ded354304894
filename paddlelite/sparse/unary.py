"""paddle.sparse's functions of one sparse tensor: value-wise math (its pattern kept; f(0) = 0 for each, so the
absent entries stay zeros), casts, and the rearrangements (coalesce, transpose, reshape, slice, sum)."""
import numpy as np

from ..framework import dtype as _dtype
from ..ops import dispatch
from ..ops import sparse as _ops
from .. import tensor as _math
from ..tensor import manipulation as _manip
from ..tensor.sparse import coalesce as _coalesce, is_sparse_coo
from ._kinds import check_sparse, valuewise

_INT_KINDS = "biu"


def _valuewise_api(name, fn):
    def api(x, name=None):
        return valuewise(x, fn, f"sparse.{api.__name__}")
    api.__name__ = api.__qualname__ = name
    api.__doc__ = f"{name} of the values of a sparse tensor (its pattern kept)."
    return api


sin, tan, asin, atan, sinh, tanh, asinh, atanh, sqrt, square, log1p, abs, expm1 = (
    _valuewise_api(n, getattr(_math, n)) for n in
    ("sin", "tan", "asin", "atan", "sinh", "tanh", "asinh", "atanh", "sqrt", "square", "log1p", "abs", "expm1"))


def pow(x, factor, name=None):
    """The values raised to `factor`."""
    return valuewise(x, lambda v: _math.pow(v, float(factor)), "sparse.pow")


def scale_values(x, factor):
    """x's values times `factor`."""
    return valuewise(x, lambda v: _math.scale(v, float(factor)), "sparse.scale")


def neg(x, name=None):
    return scale_values(x, -1.0)


def _float_values(x, api):
    """Integer values become float32 first (deg2rad/rad2deg), as Paddle's."""
    return cast(x, value_dtype="float32") if check_sparse(x, api).dtype.np.kind in _INT_KINDS else x


def deg2rad(x, name=None):
    return scale_values(_float_values(x, "sparse.deg2rad"), np.pi / 180.0)


def rad2deg(x, name=None):
    return scale_values(_float_values(x, "sparse.rad2deg"), 180.0 / np.pi)


def isnan(x, name=None):
    """True where a value is NaN (bool values on x's pattern)."""
    return valuewise(x, _math.isnan, "sparse.isnan")


def cast(x, index_dtype=None, value_dtype=None, name=None):
    """x with its indices (COO: indices; CSR: crows and cols) in `index_dtype` and values in `value_dtype`."""
    check_sparse(x, "sparse.cast")
    out = x if value_dtype is None else valuewise(x, lambda v: _manip.cast(v, value_dtype), "sparse.cast")
    if index_dtype is None:
        return out
    index_dtype = _dtype.convert_dtype(index_dtype, "sparse.cast")
    values = out.values()
    if is_sparse_coo(x):
        return dispatch.apply(_ops.SPARSE_COO_TENSOR, values, out.indices().astype(index_dtype), shape=list(x.shape))
    return dispatch.apply(_ops.SPARSE_CSR_TENSOR, values, out.crows().astype(index_dtype),
                          out.cols().astype(index_dtype), shape=list(x.shape))


def coalesce(x, name=None):
    """A COO tensor with its entries sorted row-major and duplicates summed."""
    return _coalesce(check_sparse(x, "sparse.coalesce"))


def transpose(x, perm, name=None):
    """x with its dims permuted by `perm` (a CSR tensor stays CSR, rows sorted)."""
    return dispatch.apply(_ops.SPARSE_TRANSPOSE, check_sparse(x, "sparse.transpose"), perm=[int(p) for p in perm])


def reshape(x, shape, name=None):
    """x's sparse dims reshaped (0 copies a dim, one -1 takes what is left)."""
    return dispatch.apply(_ops.SPARSE_RESHAPE, check_sparse(x, "sparse.reshape"), shape=[int(d) for d in shape])


def slice(x, axes, starts, ends, name=None):
    """The entries of x inside [starts, ends) along `axes` (Python's clipping of negative and large bounds)."""
    check_sparse(x, "sparse.slice")
    if not len(axes) == len(starts) == len(ends):
        raise ValueError(f"sparse.slice: axes, starts and ends must have one length, received {len(axes)}, "
                         f"{len(starts)}, {len(ends)}")
    as_ints = lambda v: [int(e) for e in v]  # noqa: E731
    return dispatch.apply(_ops.SPARSE_SLICE, x, axes=as_ints(axes), starts=as_ints(starts), ends=as_ints(ends))


def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    """The sum over `axis` (every dim when None) as a sparse tensor holding the sums present."""
    check_sparse(x, "sparse.sum")
    if dtype is not None:
        dtype = _dtype.convert_dtype(dtype, "sparse.sum").np.name
    if axis is not None and not isinstance(axis, int):
        axis = [int(a) for a in axis]
    return dispatch.apply(_ops.SPARSE_SUM, x, axis=axis, keepdim=bool(keepdim), dtype=dtype)
