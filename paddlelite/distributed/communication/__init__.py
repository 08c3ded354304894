"""paddle.distributed.communication: the module paths of Paddle's collective internals that Paddle code imports
(group.py, reduce.py); the collectives themselves are distributed/collective.py's."""
from . import group, reduce  # noqa: F401

__all__ = []
