"""sequence_mask (mask[..., j] = j < x[...]), temporal_shift and gather_tree (beam search's backtrace)."""
from ... import tensor as T
from ...framework import dtype as _dtype
from ...ops import dispatch
from ...ops.registry import get_op
from ...tensor.math import _check_tensor

__all__ = ["sequence_mask", "temporal_shift", "gather_tree"]


def sequence_mask(x, maxlen=None, dtype="int64", name=None):
    """x holds lengths; the result has a new last dim of size maxlen (x's largest value when None)."""
    _check_tensor(x, "sequence_mask")
    if maxlen is not None and not isinstance(maxlen, int) and hasattr(maxlen, "shape"):
        maxlen = int(maxlen)
    return dispatch.apply(get_op("sequence_mask"), x, maxlen=-1 if maxlen is None else int(maxlen),
                          out_dtype=_dtype.convert_dtype(dtype, "sequence_mask").name)


def temporal_shift(x, seg_num, shift_ratio=0.25, name=None, data_format="NCHW"):
    """TSM's shift along time: x is [N * seg_num, C, H, W]; the first shift_ratio of the channels take the
    previous segment's values, the next shift_ratio the following segment's (zeros past the ends)."""
    api = "temporal_shift"
    _check_tensor(x, api)
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{api}: data_format must be 'NCHW' or 'NHWC', received {data_format!r}")
    if len(x.shape) != 4:
        raise ValueError(f"{api}: x must be 4-D, received shape {x.shape}")
    if isinstance(seg_num, bool) or not isinstance(seg_num, int) or seg_num < 1:
        raise ValueError(f"{api}: seg_num must be a positive int, received {seg_num!r}")
    if not 0 <= shift_ratio < 0.5:
        raise ValueError(f"{api}: shift_ratio must be in [0, 0.5), received {shift_ratio!r}")
    if data_format == "NHWC":
        x = T.transpose(x, [0, 3, 1, 2])
    _, c, h, w = x.shape
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    v = T.reshape(x, [-1, seg_num, c, h, w])
    zero = T.zeros_like(T.slice(v, [1], [0], [1]))

    def channels(t, lo, hi):
        return T.slice(t, [2], [lo], [hi])
    later = T.concat([zero, T.slice(v, [1], [0], [seg_num - 1])], axis=1)      # segment t sees t - 1
    earlier = T.concat([T.slice(v, [1], [1], [seg_num]), zero], axis=1)        # segment t sees t + 1
    out = T.concat([channels(later, 0, c1), channels(earlier, c1, c2), channels(v, c2, c)], axis=2)
    out = T.reshape(out, [-1, c, h, w])
    return T.transpose(out, [0, 2, 3, 1]) if data_format == "NHWC" else out


def gather_tree(ids, parents):
    """Beam search's backtrace: ids and parents are [max_time, batch, beam] (the token and parent beam each
    step chose); out[t, b, k] is the token at step t of the beam that ends as beam k at the last step."""
    api = "gather_tree"
    _check_tensor(ids, api, "ids")
    _check_tensor(parents, api, "parents")
    if len(ids.shape) != 3:
        raise ValueError("The input ids must be a 3D tensor with shape [length, batch_size, beam_size]")
    if list(ids.shape) != list(parents.shape):
        raise ValueError(f"{api}: parents must have ids' shape {list(ids.shape)}, received {list(parents.shape)}")
    for arg, t in (("ids", ids), ("parents", parents)):
        if t.dtype.name not in ("int32", "int64"):
            raise TypeError(f"{api}: {arg} must be an int32 or int64 tensor, received {t.dtype.name}")
    return dispatch.apply(get_op("gather_tree"), ids, parents)
