"""paddle.distributed.fleet.utils: recompute (activation recomputation, fleet/recompute.py), the data-parallel
gradient helpers (hybrid_parallel_util), fleet's logger (log_util), and the module paths of the hybrid-parallel
utilities Paddle code imports -- sequence parallelism and main-grad mixed precision -- whose classes raise
NotImplementedError when created (unsupported.py)."""
from . import hybrid_parallel_util, log_util, mix_precision_utils, sequence_parallel_utils  # noqa: F401
from ..recompute import recompute

__all__ = ["recompute"]
