"""paddle.distributed.fleet.meta_optimizers: in Paddle, the static-graph rewrites behind DistributedStrategy's switches
(AMP, recompute, sharding, pipeline, gradient merge, LARS/LAMB, DGC, local SGD, ...), applied by
fleet.distributed_optimizer.

paddlelite's fleet implements the collective data-parallel path only (the gradient all-reduce, fleet/__init__.py):
DistributedStrategy reads every other switch as False and raises NotImplementedError when one is turned on, so this
module, which Paddle code imports alongside fleet, holds none of Paddle's meta-optimizer classes.
"""
__all__ = []
