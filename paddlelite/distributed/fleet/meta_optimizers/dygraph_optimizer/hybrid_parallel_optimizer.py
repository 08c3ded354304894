"""Paddle's HybridParallelOptimizer (an optimizer over a hybrid topology's groups): not implemented; data-parallel
training uses fleet.distributed_optimizer, which paddlelite implements."""
from ....unsupported import HYBRID, unsupported_class

__all__ = []

HybridParallelOptimizer = unsupported_class(
    "paddle.distributed.fleet.meta_optimizers.dygraph_optimizer.hybrid_parallel_optimizer", "HybridParallelOptimizer",
    HYBRID)
