"""paddle.distributed.fleet.meta_optimizers: in Paddle, the static-graph rewrites behind DistributedStrategy's switches
(AMP, recompute, sharding, pipeline, gradient merge, LARS/LAMB, DGC, local SGD, ...), applied by
fleet.distributed_optimizer, and (dygraph_optimizer) the eager optimizers of hybrid parallelism.

paddlelite's fleet implements the collective data-parallel path only (the gradient all-reduce, fleet/__init__.py):
DistributedStrategy reads every other switch as False and raises NotImplementedError when one is turned on, so this
package, which Paddle code imports alongside fleet, holds none of Paddle's static meta-optimizer classes, and
dygraph_optimizer's classes raise NotImplementedError when created.
"""
from . import dygraph_optimizer  # noqa: F401

__all__ = []
