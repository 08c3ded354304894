"""kernels/softmax_ce.cu: softmax and its gradient over rows, softmax_with_cross_entropy (hard labels) forward, and\nits logits gradient, each in one pass."""
import numpy as np

from ...device.kernels import kernel, sm_count
from .common import RESIDENT, THREADS, aligned, blocks, f32, i32, i64, prod, suffix


def softmax_ce_grad(xp, label, softmax, dloss, soft_label, ignore_index, axis, scale=1.0):
    """d logits of softmax_with_cross_entropy (times `scale`, which a fused mean uses)."""
    sfx = suffix(softmax.dtype)
    nd = softmax.ndim
    if sfx is None or nd == 0 or dloss.dtype != softmax.dtype:
        return None
    axis = axis + nd if axis < 0 else axis
    shape = softmax.shape
    C, outer, inner = int(shape[axis]), prod(shape[:axis]), prod(shape[axis + 1:])
    if dloss.size == outer * inner:
        stride = 1
    elif dloss.size == 1:
        stride = 0
    else:
        return None
    sm = xp.ascontiguousarray(softmax)
    dl = xp.ascontiguousarray(dloss)
    n = sm.size
    dx = xp.empty(shape, dtype=sm.dtype)
    if n == 0:
        return dx
    if soft_label:
        if label.shape != shape or label.dtype != sm.dtype:
            return None
        lab = xp.ascontiguousarray(label)
        vec = int(aligned(4, sm, lab, dx))
        args = (sm, lab, dl, dx, i64(n), i64(C), i64(inner), i32(stride), f32(scale), i32(vec))
        name = f"sce_grad_soft_{sfx}"
    else:
        if label.size != outer * inner or label.dtype.kind not in "iu":
            return None
        lab = xp.ascontiguousarray(label)
        if lab.dtype not in (np.int32, np.int64):
            lab = lab.astype(np.int64)
        vec = int(aligned(4, sm, dx) and (inner > 1 or C % 4 == 0))
        args = (sm, lab, dl, dx, i64(n), i64(C), i64(inner), i32(stride), f32(scale), i64(ignore_index), i32(vec))
        name = f"sce_grad_hard_{'i32' if lab.dtype == np.int32 else 'i64'}_{sfx}"
        if inner == 1:  # rows along the grid's y axis, classes along x
            per_row = -(-C // (4 if vec else 1))
            threads = min(THREADS, -(-per_row // 32) * 32)
            gx = -(-per_row // (threads * 4))  # up to 4 vectors of a row per thread
            kernel("softmax_ce", name)((gx, max(1, min(outer, 65535, sm_count() * RESIDENT // gx))), (threads,),
                                       args)
            return dx
    kernel("softmax_ce", name)((blocks(n, THREADS * 4),), (THREADS,), args)
    return dx


ROWS_PER_BLOCK = THREADS // 32  # one warp per row


def _rows(x, axis):
    """(rows, classes) of `x` when `axis` is its last dim (the row kernels' layout), else None."""
    nd = x.ndim
    if nd == 0 or axis not in (-1, nd - 1) or x.shape[-1] == 0:
        return None
    return x.size // x.shape[-1], x.shape[-1]


def _row_grid(rows):
    return (max(1, min(-(-rows // ROWS_PER_BLOCK), sm_count() * RESIDENT * 2)),)


def softmax(xp, x, axis):
    """softmax over the last axis, one warp per row."""
    sfx, layout = suffix(x.dtype), _rows(x, axis)
    if sfx is None or layout is None:
        return None
    rows, C = layout
    x_ = xp.ascontiguousarray(x)
    out = xp.empty(x.shape, x.dtype)
    if rows:
        kernel("softmax_ce", f"softmax_rows_{sfx}")(_row_grid(rows), (THREADS,), (x_, out, i64(rows), i64(C)))
    return out


def softmax_grad(xp, out, dout, axis):
    """(dout - sum(dout * out)) * out over the last axis."""
    sfx, layout = suffix(out.dtype), _rows(out, axis)
    if sfx is None or layout is None or dout.dtype != out.dtype or dout.shape != out.shape:
        return None
    rows, C = layout
    o, d = xp.ascontiguousarray(out), xp.ascontiguousarray(dout)
    dx = xp.empty(out.shape, out.dtype)
    if rows:
        kernel("softmax_ce", f"softmax_grad_rows_{sfx}")(_row_grid(rows), (THREADS,), (o, d, dx, i64(rows), i64(C)))
    return dx


def softmax_ce_hard(xp, logits, label, ignore_index, axis):
    """(softmax, loss, bad) of softmax_with_cross_entropy with hard labels over the last axis; `bad` a 1-element
    int32 device array, nonzero when a label lies outside [0, C) (not ignore_index). None where not covered."""
    sfx, layout = suffix(logits.dtype), _rows(logits, axis)
    if sfx is None or layout is None or label.dtype not in (np.int32, np.int64):
        return None
    rows, C = layout
    if label.size != rows:
        return None
    x = xp.ascontiguousarray(logits)
    lab = xp.ascontiguousarray(label)
    softmax = xp.empty(logits.shape, logits.dtype)
    loss = xp.empty(logits.shape[:-1] + (1,), logits.dtype)
    bad = xp.zeros((1,), np.int32)
    if rows:
        kernel("softmax_ce", f"sce_fwd_hard_{'i32' if lab.dtype == np.int32 else 'i64'}_{sfx}")(
            _row_grid(rows), (THREADS,), (x, lab, softmax, loss, bad, i64(rows), i64(C), i64(ignore_index)))
    return softmax, loss, bad
