"""GroupShardedOptimizerStage2 (ZeRO stage 2): sharded data parallelism, not implemented (unsupported.py)."""
from ....unsupported import SHARDING, unsupported_class

__all__ = []

GroupShardedOptimizerStage2 = unsupported_class(__name__.replace("paddlelite", "paddle", 1),
                                                "GroupShardedOptimizerStage2", SHARDING)
