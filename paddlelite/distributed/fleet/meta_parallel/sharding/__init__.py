"""paddle.distributed.fleet.meta_parallel.sharding: Paddle's sharded optimizers, which split optimizer states across
ranks -- not implemented in paddlelite (group_sharded_optimizer_stage2 names the class Paddle code imports)."""
from . import group_sharded_optimizer_stage2  # noqa: F401

__all__ = []
