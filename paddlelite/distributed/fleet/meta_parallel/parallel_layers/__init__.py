"""paddle.distributed.fleet.meta_parallel.parallel_layers: the model-parallel layers at degree 1 and random states
(fleet.layers.mpu's), and the pipeline layer descriptions (pp_layers)."""
from ...layers.mpu import (ColumnParallelLinear, ParallelCrossEntropy, RNGStatesTracker, RowParallelLinear,  # noqa: F401
                           VocabParallelEmbedding, get_rng_state_tracker, model_parallel_random_seed)
from .pp_layers import LayerDesc, LocalSharedLayerDesc, PipelineLayer, SharedLayerDesc  # noqa: F401

__all__ = []
