"""paddle.distributed.fleet.meta_parallel: of Paddle's hybrid-parallel building blocks, those with a meaning in
one process -- the model-parallel layers at degree 1, the model-parallel random states, the pipeline layer
descriptions -- and, as classes whose creation raises NotImplementedError (unsupported.py), the wrappers that run a
model over a multi-rank topology (pipeline, tensor, sharding and segment parallelism)."""
from ..layers.mpu import mp_ops  # noqa: F401
from ...unsupported import HYBRID, PIPELINE, SHARDING, unsupported_class
from . import parallel_layers, sharding  # noqa: F401
from .parallel_layers import (ColumnParallelLinear, LayerDesc, LocalSharedLayerDesc, ParallelCrossEntropy,  # noqa: F401
                              PipelineLayer, RNGStatesTracker, RowParallelLinear, SharedLayerDesc,
                              VocabParallelEmbedding, get_rng_state_tracker, model_parallel_random_seed)

__all__ = []

_PATH = "paddle.distributed.fleet.meta_parallel"
PipelineParallel = unsupported_class(_PATH, "PipelineParallel", PIPELINE)
PipelineParallelWithInterleave = unsupported_class(_PATH, "PipelineParallelWithInterleave", PIPELINE)
TensorParallel = unsupported_class(_PATH, "TensorParallel", HYBRID)
SegmentParallel = unsupported_class(_PATH, "SegmentParallel", HYBRID)
ShardingParallel = unsupported_class(_PATH, "ShardingParallel", SHARDING)
