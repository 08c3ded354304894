"""Paddle's sharding optimizers (optimizer states split across the sharding group): not implemented."""
from ....unsupported import SHARDING, unsupported_class

__all__ = []

DygraphShardingOptimizer, DygraphShardingOptimizerV2 = (
    unsupported_class("paddle.distributed.fleet.meta_optimizers.dygraph_optimizer.dygraph_sharding_optimizer", name,
                      SHARDING) for name in ("DygraphShardingOptimizer", "DygraphShardingOptimizerV2"))
