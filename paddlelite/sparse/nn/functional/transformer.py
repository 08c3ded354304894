"""paddle.sparse.nn.functional.attention: attention computed at the entries of a sparse (CSR) mask only."""
import math

from .... import tensor as _t
from ....ops import dispatch
from ....ops import sparse as _ops
from ....tensor.sparse import is_sparse_csr
from ..._kinds import check_sparse, valuewise
from .activation import softmax


def attention(query, key, value, sparse_mask, key_padding_mask=None, attn_mask=None, name=None):
    """softmax(Q K^T / sqrt(d) + masks) V over the entries of `sparse_mask` (a CSR tensor
    [batch * heads, seq, seq]); query, key, value are [batch, heads, seq, d]. key_padding_mask [batch, seq] and
    attn_mask [seq, seq] hold 0 where attention is forbidden."""
    api = "sparse.nn.functional.attention"
    check_sparse(sparse_mask, api, "sparse_mask")
    if not is_sparse_csr(sparse_mask):
        raise TypeError(f"{api}: sparse_mask must be a CSR tensor")
    if len(query.shape) != 4:
        raise ValueError(f"{api}: query, key and value must be 4-D [batch, heads, seq, dim], received "
                         f"{list(query.shape)}")
    batch, heads, seq, dim = query.shape
    flat = [_t.reshape(t, [batch * heads, seq, dim]) for t in (query, key, value)]
    scores = dispatch.apply(_ops.SPARSE_MASKED_MATMUL, flat[0], flat[1], sparse_mask, transpose_y=True)
    scores = valuewise(scores, lambda v: _t.scale(v, 1.0 / math.sqrt(dim)), api)
    coo_mask = dispatch.apply(_ops.SPARSE_TO_COO, sparse_mask).indices()
    rows, cols = coo_mask[1], coo_mask[2]
    allowed = None
    if key_padding_mask is not None:  # [batch, seq]: per batch element and key
        allowed = _t.gather_nd(_t.reshape(_t.tile(_t.unsqueeze(key_padding_mask, 1), [1, heads, 1]),
                                          [batch * heads, seq]), _t.stack([coo_mask[0], cols], -1))
    if attn_mask is not None:  # [seq, seq]: per query and key
        by_position = _t.gather_nd(attn_mask, _t.stack([rows, cols], -1))
        allowed = by_position if allowed is None else allowed * by_position
    if allowed is not None:
        scores = valuewise(scores, lambda v: _t.where(allowed != 0, v, _t.full_like(v, -math.inf)), api)
    out = dispatch.apply(_ops.SPARSE_MATMUL, softmax(scores), flat[2])
    return _t.reshape(out, [batch, heads, seq, dim])
