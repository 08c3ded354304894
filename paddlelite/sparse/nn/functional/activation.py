"""paddle.sparse.nn.functional's activations: value-wise (the pattern kept), and the softmax over each row's
entries."""
from ....nn import functional as _F
from ....ops import dispatch
from ....ops import sparse as _ops
from ..._kinds import check_sparse, valuewise


def relu(x, name=None):
    return valuewise(x, _F.relu, "sparse.nn.functional.relu")


def relu6(x, name=None):
    return valuewise(x, _F.relu6, "sparse.nn.functional.relu6")


def leaky_relu(x, negative_slope=0.01, name=None):
    return valuewise(x, lambda v: _F.leaky_relu(v, negative_slope), "sparse.nn.functional.leaky_relu")


def softmax(x, axis=-1, name=None):
    """The softmax over each row's entries (the positions without an entry take no part, as if -inf)."""
    return dispatch.apply(_ops.SPARSE_SOFTMAX, check_sparse(x, "sparse.nn.functional.softmax"), axis=int(axis))
