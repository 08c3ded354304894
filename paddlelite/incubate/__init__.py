"""paddle.incubate: the graph and segment operators under their older names, fused softmax-with-mask,
identity_loss, LookAhead and ModelAverage, the inference decorator (jit.inference), and the autograd and nn
subpackages."""
from . import autograd, autotune, jit, nn  # noqa: F401
from .jit import inference
from .operators import (graph_khop_sampler, graph_reindex, graph_sample_neighbors, graph_send_recv, identity_loss,
                        softmax_mask_fuse, softmax_mask_fuse_upper_triangle)
from .optimizer import LookAhead, ModelAverage
from ..geometric import segment_max, segment_mean, segment_min, segment_sum

__all__ = ["LookAhead", "ModelAverage", "inference", "graph_send_recv", "graph_sample_neighbors", "graph_reindex", "graph_khop_sampler",
           "segment_sum", "segment_mean", "segment_max", "segment_min", "identity_loss", "softmax_mask_fuse",
           "softmax_mask_fuse_upper_triangle"]
