"""paddle.incubate's operators: the graph ops under their pre-paddle.geometric names (graph_send_recv is
send_u_recv, graph_sample_neighbors and graph_reindex the sampling and reindexing ops, each with its older
signature), graph_khop_sampler, softmax with an additive mask (or the causal, upper-triangle mask) and identity_loss."""
import numpy as np

from .. import tensor as T
from ..geometric import message_passing as _mp
from ..geometric import sampling as _sampling
from ..geometric.reindex import reindex_graph
from ..geometric._checks import INDICES, check_tensor
from ..nn import functional as F
from ..ops.dispatch import apply
from ..ops.geometric import GRAPH_KHOP_SAMPLER

__all__ = []


def graph_send_recv(x, src_index, dst_index, pool_type="sum", out_size=None, name=None):
    """paddle.geometric.send_u_recv under its older name: pool_type is the reduction."""
    if pool_type not in ("sum", "mean", "max", "min"):
        raise ValueError(f"pool_type should be `sum`, `mean`, `max` or `min`, but received {pool_type}")
    return _mp.send_u_recv(x, src_index, dst_index, pool_type, out_size)


def graph_sample_neighbors(row, colptr, input_nodes, eids=None, perm_buffer=None, sample_size=-1, return_eids=False,
                           flag_perm_buffer=False, name=None):
    """paddle.geometric.sample_neighbors with the older argument order (perm_buffer is used when
    flag_perm_buffer is set, and only speeds Paddle's GPU kernel)."""
    if flag_perm_buffer and perm_buffer is None:
        raise ValueError("`perm_buffer` should not be None if `flag_perm_buffer` is True.")
    return _sampling.sample_neighbors(row, colptr, input_nodes, sample_size, eids, return_eids,
                                      perm_buffer if flag_perm_buffer else None)


def graph_reindex(x, neighbors, count, value_buffer=None, index_buffer=None, flag_buffer_hashtable=False, name=None):
    """paddle.geometric.reindex_graph with the older flag for the (GPU-only) hash-table buffers."""
    if flag_buffer_hashtable and (value_buffer is None or index_buffer is None):
        raise ValueError("`value_buffer` and `index_buffer` should not be None if `flag_buffer_hashtable` is True.")
    return reindex_graph(x, neighbors, count, value_buffer, index_buffer)


def softmax_mask_fuse(x, mask, name=None):
    """softmax(x + mask) over the last axis; x [B, H, S, S'], mask [B, 1, S, S'] broadcast over the heads."""
    if len(x.shape) != 4 or len(mask.shape) != 4:
        raise ValueError(f"softmax_mask_fuse: x and mask must be 4-D, received shapes {list(x.shape)} and "
                         f"{list(mask.shape)}")
    if mask.shape[1] != 1:
        raise ValueError(f"softmax_mask_fuse: mask's second dim must be 1, received {mask.shape[1]}")
    return F.softmax(x + mask, axis=-1)


def softmax_mask_fuse_upper_triangle(x):
    """softmax over the last axis of x [B, H, S, S] with the entries above the diagonal masked out (causal)."""
    if len(x.shape) != 4:
        raise ValueError(f"softmax_mask_fuse_upper_triangle: x must be 4-D, received shape {list(x.shape)}")
    rows, cols = x.shape[-2], x.shape[-1]
    causal = np.triu(np.full((rows, cols), -np.inf, dtype=np.float32), k=1)
    return F.softmax(x + T.to_tensor(causal, dtype=x.dtype, place=x.place), axis=-1)


_REDUCTIONS = {"sum": 0, "mean": 1, "none": 2}


def identity_loss(x, reduction="none"):
    """x marked as the loss (for IPU graphs), reduced: 'sum' (0), 'mean' (1) or 'none' (2)."""
    code = _REDUCTIONS.get(reduction) if isinstance(reduction, str) else reduction
    if code not in (0, 1, 2):
        raise TypeError("Unsupported reduction type.")
    return T.sum(x) if code == 0 else T.mean(x) if code == 1 else x


def graph_khop_sampler(row, colptr, input_nodes, sample_sizes, sorted_eids=None, return_eids=False, name=None):
    """Sample len(sample_sizes) hops of neighbours of `input_nodes` from the CSC graph (row, colptr) and renumber the
    subgraph: (edge_src [E, 1], edge_dst [E, 1], sample_index, reindex_nodes[, edge_eids]). Paddle 3.3.1's kernel
    fails on repeated input nodes and on more than one hop; here both work (the frontier of each hop is the sampled
    nodes new to the previous one)."""
    if return_eids and sorted_eids is None:
        raise ValueError("`sorted_eid` should not be None if return_eids is True.")
    if not isinstance(sample_sizes, (list, tuple)) or not all(isinstance(k, int) for k in sample_sizes):
        raise TypeError(f"graph_khop_sampler: sample_sizes must be a list or tuple of ints, received {sample_sizes!r}")
    for arg, value in (("row", row), ("colptr", colptr), ("input_nodes", input_nodes)):
        check_tensor(value, "graph_khop_sampler", arg, INDICES)
    outs = apply(GRAPH_KHOP_SAMPLER, row, colptr, input_nodes, sorted_eids if return_eids else None,
                 sample_sizes=list(sample_sizes),
                 return_eids=bool(return_eids))
    return tuple(outs) if return_eids else tuple(outs[:4])
