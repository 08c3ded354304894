"""paddle.sparse.nn.functional.max_pool3d."""
from ....nn.functional.conv import int_tuple, padding_attrs
from ....ops import dispatch
from ....ops import sparse_conv as _ops
from ....ops.conv import resolve_pads
from ....tensor.sparse import is_sparse_coo
from ..._kinds import check_sparse


def max_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, data_format="NDHWC", name=None):
    """The channel-wise maximum of x's entries in each window (windows holding no entry have no output)."""
    api = "sparse.nn.functional.max_pool3d"
    check_sparse(x, api)
    if not is_sparse_coo(x):
        raise TypeError(f"{api}: only supports a COO tensor, received a CSR one")
    if data_format != "NDHWC":
        raise ValueError(f"{api}: only supports data_format 'NDHWC', received {data_format!r}")
    ksize = int_tuple(kernel_size, 3, api, "kernel_size")
    strides = ksize if stride is None else int_tuple(stride, 3, api, "stride")
    paddings, algorithm = padding_attrs(padding, 3, api, True)
    pads, _ = resolve_pads(api, paddings, algorithm, list(x.shape[1:-1]), ksize, strides, [1, 1, 1])
    return dispatch.apply(_ops.SPARSE_MAX_POOL, x, ksize=ksize, strides=strides, paddings=[p for p, _ in pads])
