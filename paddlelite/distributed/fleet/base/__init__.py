"""paddle.distributed.fleet.base: topology, the module Paddle code imports fleet's parallel topology from."""
from . import topology  # noqa: F401

__all__ = []
