"""send_u_recv / send_ue_recv / send_uv: messages along a graph's edges (src_index[e] -> dst_index[e]) gathered
from the nodes (and edges), reduced at the destinations (ops send_u_recv, send_ue_recv, send_uv)."""
from ..ops import geometric as _geometric
from ..ops.dispatch import apply
from ..tensor.tensor_args import is_tensor_like
from ..tensor.manipulation import cast, unsqueeze
from ._checks import INDICES, VALUES, check_tensor

__all__ = []

_REDUCES = ("sum", "mean", "max", "min")
_MESSAGES = ("add", "sub", "mul", "div")


def _check_ops(reduce_op=None, message_op=None):
    if message_op is not None and message_op not in _MESSAGES:
        raise ValueError(f"message_op should be `add`, `sub`, `mul`, `div`, but received {message_op}")
    if reduce_op is not None and reduce_op not in _REDUCES:
        raise ValueError(f"reduce_op should be `sum`, `mean`, `max` or `min`, but received {reduce_op}")


def _check_graph(api, x, src_index, dst_index, y=None):
    check_tensor(x, api, "x", VALUES)
    if y is not None:
        check_tensor(y, api, "y", VALUES)
    check_tensor(src_index, api, "src_index", INDICES)
    check_tensor(dst_index, api, "dst_index", INDICES)


def _out_size(out_size, api):
    """(the Out_size tensor or None, the out_size attr): None or 0 gives as many rows as x has."""
    if out_size is None:
        return None, [0]
    if is_tensor_like(out_size):
        check_tensor(out_size, api, "out_size", INDICES)
        return (cast(out_size, "int32") if out_size.dtype.name == "int64" else out_size), [0]
    if isinstance(out_size, bool) or not hasattr(out_size, "__int__"):
        raise TypeError(f"{api}: out_size must be an int or a Tensor, received {type(out_size).__name__}")
    return None, [int(out_size)]


def _messages_of(x, y, message_op):
    """Paddle's reshape_lhs_rhs (1-D operands become columns, the lower rank gains unit dims after the first), and
    sub / div written as add / mul of -y and 1 / (y + 1e-12)."""
    x = unsqueeze(x, 1) if len(x.shape) == 1 else x
    y = unsqueeze(y, 1) if len(y.shape) == 1 else y
    pad = len(x.shape) - len(y.shape)
    if pad > 0:
        y = unsqueeze(y, list(range(1, 1 + pad)))
    elif pad < 0:
        x = unsqueeze(x, list(range(1, 1 - pad)))
    if message_op == "sub":
        return x, -y, "ADD"
    if message_op == "div":
        return x, 1.0 / (y + 1e-12), "MUL"
    return x, y, message_op.upper()


def send_u_recv(x, src_index, dst_index, reduce_op="sum", out_size=None, name=None):
    """out[d] = reduce_op over the edges e with dst_index[e] == d of x[src_index[e]]; out has out_size rows (x's
    row count when None or 0), a row no edge reaches 0."""
    _check_ops(reduce_op)
    _check_graph("send_u_recv", x, src_index, dst_index)
    size, attr = _out_size(out_size, "send_u_recv")
    return apply(_geometric.SEND_U_RECV, x, src_index, dst_index, size, reduce_op=reduce_op.upper(),
                 out_size=attr)[0]


def send_ue_recv(x, y, src_index, dst_index, message_op="add", reduce_op="sum", out_size=None, name=None):
    """As send_u_recv, with the messages x[src_index[e]] combined with the edge features y[e] by message_op
    (broadcast over the feature dims)."""
    _check_ops(reduce_op, message_op)
    _check_graph("send_ue_recv", x, src_index, dst_index, y)
    x, y, message = _messages_of(x, y, message_op)
    size, attr = _out_size(out_size, "send_ue_recv")
    return apply(_geometric.SEND_UE_RECV, x, y, src_index, dst_index, size, message_op=message,
                 reduce_op=reduce_op.upper(), out_size=attr)[0]


def send_uv(x, y, src_index, dst_index, message_op="add", name=None):
    """One message per edge: x[src_index[e]] combined with y[dst_index[e]] by message_op."""
    _check_ops(message_op=message_op)
    _check_graph("send_uv", x, src_index, dst_index, y)
    x, y, message = _messages_of(x, y, message_op)
    return apply(_geometric.SEND_UV, x, y, src_index, dst_index, message_op=message)
