"""paddle.distributed.fleet.layers.mpu: the model-parallel layers at degree 1 (mp_layers), the model-parallel random
states (random) and the model-parallel collectives with gradients (mp_ops)."""
from . import mp_ops  # noqa: F401
from .mp_layers import ColumnParallelLinear, ParallelCrossEntropy, RowParallelLinear, VocabParallelEmbedding  # noqa: F401
from .random import RNGStatesTracker, dropout, get_rng_state_tracker, model_parallel_random_seed  # noqa: F401

__all__ = []
