"""reindex_graph / reindex_heter_graph: a sampled subgraph's node ids renumbered from 0 (op graph_reindex)."""
from ..ops import geometric as _geometric
from ..ops.dispatch import apply
from ..tensor.manipulation import concat
from ._checks import INDICES, check_tensor

__all__ = []


def _reindex(x, neighbors, count, value_buffer, index_buffer, api):
    check_tensor(x, api, "x", INDICES)
    check_tensor(neighbors, api, "neighbors", INDICES)
    check_tensor(count, api, "count", ("int32",))
    buffers = (value_buffer, index_buffer) if value_buffer is not None and index_buffer is not None else (None, None)
    return tuple(apply(_geometric.GRAPH_REINDEX, x, neighbors, count, *buffers))


def reindex_graph(x, neighbors, count, value_buffer=None, index_buffer=None, name=None):
    """(reindex_src, reindex_dst, out_nodes): out_nodes is x followed by the neighbours not in x in order of first
    appearance; reindex_src each neighbour's place in out_nodes; reindex_dst, for each neighbour, the place in x of
    the node it belongs to (count[i] neighbours belong to x[i]). The hash-table buffers only speed Paddle's GPU
    kernel: the results do not depend on them."""
    return _reindex(x, neighbors, count, value_buffer, index_buffer, "reindex_graph")


def reindex_heter_graph(x, neighbors, count, value_buffer=None, index_buffer=None, name=None):
    """reindex_graph over several edge types at once: neighbors and count are lists, one entry per edge type, all
    sharing x (and so one out_nodes)."""
    neighbors = concat(list(neighbors) if isinstance(neighbors, (list, tuple)) else [neighbors], axis=0)
    count = concat(list(count) if isinstance(count, (list, tuple)) else [count], axis=0)
    return _reindex(x, neighbors, count, value_buffer, index_buffer, "reindex_heter_graph")
