"""paddle.distributed.fleet.meta_optimizers.dygraph_optimizer: the eager optimizers of hybrid parallelism (sharded
states, hybrid gradient clipping): not implemented (unsupported.py)."""
from .dygraph_sharding_optimizer import DygraphShardingOptimizer  # noqa: F401
from .hybrid_parallel_optimizer import HybridParallelOptimizer  # noqa: F401

__all__ = []
