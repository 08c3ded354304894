"""segment_sum / segment_mean / segment_min / segment_max: rows of data with the same (sorted) segment id pooled
into one output row (op segment_pool)."""
from ..ops import geometric as _geometric
from ..ops.dispatch import apply
from ._checks import INDICES, VALUES, check_tensor

__all__ = []


def _segment_pool(data, segment_ids, pooltype, api):
    check_tensor(data, api, "data", (*VALUES, "bfloat16"))
    check_tensor(segment_ids, api, "segment_ids", INDICES)
    return apply(_geometric.SEGMENT_POOL, data, segment_ids, pooltype=pooltype)[0]


def segment_sum(data, segment_ids, name=None):
    """out[i] = the sum of the rows j of data with segment_ids[j] == i (0 where there are none)."""
    return _segment_pool(data, segment_ids, "SUM", "segment_sum")


def segment_mean(data, segment_ids, name=None):
    """out[i] = the mean of the rows j of data with segment_ids[j] == i (0 where there are none)."""
    return _segment_pool(data, segment_ids, "MEAN", "segment_mean")


def segment_min(data, segment_ids, name=None):
    """out[i] = the elementwise minimum of the rows j of data with segment_ids[j] == i (0 where there are none)."""
    return _segment_pool(data, segment_ids, "MIN", "segment_min")


def segment_max(data, segment_ids, name=None):
    """out[i] = the elementwise maximum of the rows j of data with segment_ids[j] == i (0 where there are none)."""
    return _segment_pool(data, segment_ids, "MAX", "segment_max")
