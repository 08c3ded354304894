"""kernels/softmax_ce.cu: the logits gradient of softmax_with_cross_entropy in one pass."""
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
        vec = int(inner == 1 and C % 4 == 0 and aligned(4, sm, lab, dx))  # whole rows in vectors
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
