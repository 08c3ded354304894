"""Scaled-dot-product attention through cuDNN's SDPA graphs (flash attention on Ampere and Hopper), forward and
backward, for float16 and bfloat16.

q, k, v [B, S, H, D] are described to cuDNN as [B, H, S, D] with their own strides (no transpose), grouped-query
K/V heads as they are; the additive mask as cuDNN's bias, broadcast over batch and heads by size-1 dims; causal as
cuDNN's top-left causal mask; dropout from the op's [seed, offset] pair through cuDNN's Philox generator -- a
different mask from paddlelite's own kernels and the reference, so with dropout a configuration runs both passes
here or neither (`_both_passes`). The statistics cuDNN keeps are the log-sum-exp of each scaled score row: the op's
softmax_lse.
"""
import math

import numpy as np

from ...device import cudnn as _cudnn
from .common import policy

_FORWARD, _BACKWARD = _cudnn.Graphs("sdpa"), _cudnn.Graphs("sdpa_backward")
_F32, _I64 = np.dtype(np.float32), np.dtype(np.int64)


def _usable(xp, q, k, v, mask):
    d = q.shape[3]
    return (_cudnn.enabled(xp) and q.dtype.name in ("float16", "bfloat16") and q.dtype == k.dtype == v.dtype
            and v.shape[3] == d and d % 8 == 0 and d <= 256 and (mask is None or mask.dtype == q.dtype)
            and all(t.strides[-1] == t.itemsize for t in (q, k, v)))


def _bhsd(shape, strides):
    """(dims, strides) of a [B, S, H, D] array (element strides) as cuDNN's [B, H, S, D]."""
    return [shape[0], shape[2], shape[1], shape[3]], [strides[0], strides[2], strides[1], strides[3]]


def _dense(shape):
    return [int(np.prod(shape[i + 1:])) for i in range(len(shape))]


def _bias(xp, mask, sq):
    """The mask as cuDNN's bias [1|B, 1|H, Sq, Sk]: batch and heads may broadcast (size 1), the rows may not."""
    mask = mask.reshape((1,) * (4 - mask.ndim) + tuple(mask.shape))
    if mask.shape[2] != sq:
        mask = xp.broadcast_to(mask, mask.shape[:2] + (sq, mask.shape[3]))
    return xp.ascontiguousarray(mask)


class _Layout:
    """What a pass's graph depends on: q, k, v (and the bias) as given, everything else dense."""

    def __init__(self, q, k, v, bias, dropout, causal):
        self.dtype, self.d = q.dtype, q.shape[3]
        self.q, self.k, self.v = ((tuple(t.shape), tuple(_cudnn.element_strides(t))) for t in (q, k, v))
        self.bias = None if bias is None else bias.shape
        self.dropout, self.causal = dropout, causal
        b, sq, h, _ = q.shape
        self.lse = [b, h, sq, 1], [h * sq, sq, 1, 1]
        self.key = (self.q, self.k, self.v, self.bias, self.dtype.str, dropout, causal)

    def tensor(self, graph, tensors, name, dims, strides, dtype):
        tensors[name] = graph.tensor(name=name, dim=list(dims), stride=list(strides),
                                     data_type=_cudnn.data_type(dtype))
        return tensors[name]

    def bhsd(self, graph, tensors, name, shape_strides):
        return self.tensor(graph, tensors, name, *_bhsd(*shape_strides), self.dtype)

    def dense_bhsd(self, shape):
        return _bhsd(shape, _dense(shape))

    def options(self, graph, tensors):
        opts = {"attn_scale": 1.0 / math.sqrt(self.d), "use_causal_mask": bool(self.causal)}
        if self.bias is not None:
            opts["bias"] = self.tensor(graph, tensors, "bias", self.bias, _dense(self.bias), self.dtype)
        if self.dropout > 0.0:
            one = [1, 1, 1, 1]
            opts["dropout"] = (float(self.dropout), self.tensor(graph, tensors, "seed", one, one, _I64),
                               self.tensor(graph, tensors, "offset", one, one, _I64))
        return opts

    @staticmethod
    def output(tensors, name, t, dims, strides, dtype):
        t.set_output(True).set_dim(list(dims)).set_stride(list(strides)).set_data_type(_cudnn.data_type(dtype))
        tensors[name] = t


def _forward_graph(lay, buffers):
    def build(graph):
        ts = {}
        o, stats = graph.sdpa(lay.bhsd(graph, ts, "q", lay.q), lay.bhsd(graph, ts, "k", lay.k),
                              lay.bhsd(graph, ts, "v", lay.v), is_inference=False, **lay.options(graph, ts))
        lay.output(ts, "out", o, *lay.dense_bhsd(lay.q[0]), lay.dtype)
        lay.output(ts, "lse", stats, *lay.lse, _F32)
        return ts

    return _FORWARD.get(lay.key, build, policy(), buffers)


def _backward_graph(lay, buffers):
    def build(graph):
        ts = {}
        q, k, v = (lay.bhsd(graph, ts, n, sh) for n, sh in (("q", lay.q), ("k", lay.k), ("v", lay.v)))
        o = lay.tensor(graph, ts, "out", *lay.dense_bhsd(lay.q[0]), lay.dtype)
        do = lay.tensor(graph, ts, "dout", *lay.dense_bhsd(lay.q[0]), lay.dtype)
        stats = lay.tensor(graph, ts, "lse", *lay.lse, _F32)
        dq, dk, dv = graph.sdpa_backward(q, k, v, o, do, stats, use_deterministic_algorithm=policy().deterministic,
                                         **lay.options(graph, ts))
        for name, t, (shape, _) in (("dq", dq, lay.q), ("dk", dk, lay.k), ("dv", dv, lay.v)):
            lay.output(ts, name, t, *lay.dense_bhsd(shape), lay.dtype)
        return ts

    return _BACKWARD.get(lay.key, build, policy(), buffers)


def _both_passes(lay):
    """With dropout: whether cuDNN runs both passes of this configuration (built once, then cached)."""
    return _forward_graph(lay, None) is not None and _backward_graph(lay, None) is not None


def _extras(buffers, bias, seed_offset, dropout):
    if bias is not None:
        buffers["bias"] = bias
    if dropout > 0.0:
        buffers.update(seed=seed_offset[0:1], offset=seed_offset[1:2])
    return buffers


def sdpa_forward(xp, q, k, v, mask, seed_offset, dropout, causal):
    """(out [B, Sq, H, D], lse [B, H, Sq] float32) through cuDNN; None when cuDNN cannot run it."""
    if not _usable(xp, q, k, v, mask):
        return None
    b, sq, h, _ = q.shape
    bias = None if mask is None else _bias(xp, mask, sq)
    lay = _Layout(q, k, v, bias, dropout, causal)
    if dropout > 0.0 and not _both_passes(lay):
        return None
    out, lse = xp.empty(q.shape, dtype=q.dtype), xp.empty((b, h, sq), dtype=_F32)
    buffers = _extras({"q": q, "k": k, "v": v, "out": out, "lse": lse}, bias, seed_offset, dropout)
    graph = _forward_graph(lay, buffers)
    if graph is None:
        return None
    graph.run(buffers)
    return out, lse


def sdpa_backward(xp, q, k, v, out, lse, seed_offset, mask, dout, dropout, causal):
    """(dq, dk, dv) through cuDNN; None when cuDNN cannot run it."""
    if not _usable(xp, q, k, v, mask) or out.dtype != q.dtype or dout.dtype != q.dtype:
        return None
    bias = None if mask is None else _bias(xp, mask, q.shape[1])
    lay = _Layout(q, k, v, bias, dropout, causal)
    if dropout > 0.0 and not _both_passes(lay):
        return None
    dq, dk, dv = xp.empty(q.shape, q.dtype), xp.empty(k.shape, k.dtype), xp.empty(v.shape, v.dtype)
    buffers = _extras({"q": q, "k": k, "v": v, "out": xp.ascontiguousarray(out), "dout": xp.ascontiguousarray(dout),
                       "lse": xp.ascontiguousarray(lse, dtype=_F32), "dq": dq, "dk": dk, "dv": dv},
                      bias, seed_offset, dropout)
    graph = _backward_graph(lay, buffers)
    if graph is None:
        return None
    graph.run(buffers)
    return dq, dk, dv
