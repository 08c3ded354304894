"""paddle.distributed.communication.reduce: ReduceOp and `_get_reduce_op` (the reduction a collective op runs)."""
from ..env import ReduceOp

__all__ = ["ReduceOp"]


def _get_reduce_op(reduce_op):
    """The reduction `reduce_op` names (a ReduceOp member): the value paddlelite's collective ops take (Paddle's is
    its core enum); ValueError for anything else, as Paddle's."""
    members = {v for k, v in vars(ReduceOp).items() if k.isupper()}
    if isinstance(reduce_op, bool) or reduce_op not in members:
        raise ValueError(f"Unknown reduce_op type for {reduce_op}.")
    return reduce_op
