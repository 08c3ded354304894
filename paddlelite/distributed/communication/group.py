"""paddle.distributed.communication.group: Group, and `_get_global_group` (the world group)."""
from ..env import Group, _world

__all__ = ["Group"]


def _get_global_group():
    """The world group; a RuntimeError before init_parallel_env, as Paddle's."""
    return _world("communication.group._get_global_group")
