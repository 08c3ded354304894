"""paddle.distributed.fleet.model: distributed_model (fleet's, data-parallel) and the pipeline wrapper Paddle code
imports from here (PipelineParallel: not implemented)."""
from . import distributed_model  # noqa: F401
from .meta_parallel import PipelineParallel  # noqa: F401

__all__ = []
