"""sample_neighbors / weighted_sample_neighbors: up to sample_size neighbours of each input node of a graph in CSC
form (row, colptr), drawn without replacement from the global random stream (ops graph_sample_neighbors,
weighted_sample_neighbors)."""
from ..ops import geometric as _geometric
from ..ops.dispatch import apply
from ._checks import INDICES, check_tensor

__all__ = []


def _check(api, row, colptr, input_nodes, eids, return_eids):
    if return_eids and eids is None:
        raise ValueError("`eids` should not be None if `return_eids` is True.")
    check_tensor(row, api, "row", INDICES)
    check_tensor(colptr, api, "colptr", INDICES)
    check_tensor(input_nodes, api, "input_nodes", INDICES)
    if return_eids:
        check_tensor(eids, api, "eids", INDICES)


def _results(out, return_eids):
    return tuple(out) if return_eids else tuple(out[:2])


def sample_neighbors(row, colptr, input_nodes, sample_size=-1, eids=None, return_eids=False, perm_buffer=None,
                     name=None):
    """(out_neighbors, out_count[, out_eids]): each input node's neighbours (all of them when it has at most
    sample_size, or sample_size is -1; else sample_size of them drawn uniformly), node after node, in the graph's
    order; out_count (int32) how many each node got."""
    _check("sample_neighbors", row, colptr, input_nodes, eids, return_eids)
    out = apply(_geometric.GRAPH_SAMPLE_NEIGHBORS, row, colptr, input_nodes, eids if return_eids else None,
                perm_buffer, sample_size=int(sample_size), return_eids=bool(return_eids),
                flag_perm_buffer=perm_buffer is not None)
    return _results(out, return_eids)


def weighted_sample_neighbors(row, colptr, edge_weight, input_nodes, sample_size=-1, eids=None, return_eids=False,
                              name=None):
    """As sample_neighbors, with an edge's chance of being drawn proportional to edge_weight (float32)."""
    _check("weighted_sample_neighbors", row, colptr, input_nodes, eids, return_eids)
    check_tensor(edge_weight, "weighted_sample_neighbors", "edge_weight", ("float32",))
    out = apply(_geometric.WEIGHTED_SAMPLE_NEIGHBORS, row, colptr, edge_weight, input_nodes,
                eids if return_eids else None, sample_size=int(sample_size), return_eids=bool(return_eids))
    return _results(out, return_eids)
