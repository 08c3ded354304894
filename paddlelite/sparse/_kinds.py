"""What paddle.sparse's functions share: checks of their sparse arguments and the value-wise map of a sparse
tensor (a dense function of its values on the same pattern: gradients through the dense op)."""
from ..framework.sparse import is_sparse
from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops import sparse as _ops
from ..tensor.sparse import check_dynamic_mode


def check_sparse(x, api, arg="x"):
    check_dynamic_mode(api)
    if not isinstance(x, Tensor) or not is_sparse(x._data):
        kind = "dense tensor" if isinstance(x, Tensor) else type(x).__name__
        raise TypeError(f"{api}: {arg} must be a sparse (COO or CSR) tensor, received a {kind}")
    return x


def check_same_format(x, y, api):
    check_sparse(x, api)
    check_sparse(y, api, "y")
    if type(x._data) is not type(y._data):
        raise TypeError(f"{api}: x and y must both be COO or both CSR tensors, received {x._data.format.upper()} and "
                        f"{y._data.format.upper()}")
    if list(x.shape) != list(y.shape):
        raise ValueError(f"{api}: x and y must have one shape, received {list(x.shape)} and {list(y.shape)}")


def valuewise(x, fn, api):
    """x's pattern holding fn(x's values)."""
    check_sparse(x, api)
    return dispatch.apply(_ops.SPARSE_WITH_VALUES, fn(dispatch.apply(_ops.SPARSE_VALUES, x)), x)
