"""paddle.distributed.fleet.base.topology: the parallel modes, and the hybrid topology of Paddle's fleet -- process
groups per parallel dimension (data, tensor model, pipeline, sharding, segment), which paddlelite does not implement:
its fleet is data-parallel only, so `_HYBRID_PARALLEL_GROUP` (the topology fleet.init builds in Paddle for hybrid
configurations) stays None, and the topology classes raise NotImplementedError when created (unsupported.py)."""
from ...unsupported import HYBRID, unsupported_class

__all__ = ["CommunicateTopology", "HybridCommunicateGroup"]

_HYBRID_PARALLEL_GROUP = None


class ParallelMode:
    """The parallel dimensions of a hybrid topology (paddle.distributed.ParallelMode)."""
    DATA_PARALLEL = 0
    TENSOR_PARALLEL = 1
    PIPELINE_PARALLEL = 2
    SHARDING_PARALLEL = 3
    SEGMENT_PARALLEL = 4

CommunicateTopology, HybridCommunicateGroup = (unsupported_class("paddle.distributed.fleet.base.topology", name, HYBRID)
                                               for name in ("CommunicateTopology", "HybridCommunicateGroup"))
