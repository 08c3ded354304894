"""kernels/embedding.cu: the embedding table's gradient, by atomics or (deterministic) by sorted ids."""
import os

import numpy as np

from ...device.kernels import kernel
from .common import THREADS, blocks, i64, suffix

_DETERMINISTIC = []


def is_deterministic():
    """Deterministic kernels (embedding grad without atomics): set_deterministic() or the env flags
    PADDLELITE_DETERMINISTIC / FLAGS_cudnn_deterministic."""
    if _DETERMINISTIC:
        return _DETERMINISTIC[-1]
    return any(os.environ.get(v, "").lower() in ("1", "true", "yes")
               for v in ("PADDLELITE_DETERMINISTIC", "FLAGS_cudnn_deterministic"))


def set_deterministic(flag):
    _DETERMINISTIC[:] = [bool(flag)]


def embedding_grad(xp, ids, w, dout, padding_row=None, deterministic=None):
    """d table [V, D] from ids and dout [..., D]; rows of `padding_row` get no gradient."""
    sfx = suffix(dout.dtype)
    if sfx is None or w.ndim != 2 or ids.dtype.kind not in "iu":
        return None
    V, D = int(w.shape[0]), int(w.shape[1])
    ids_ = xp.ascontiguousarray(ids.reshape(-1), dtype=np.int64)
    ntok = ids_.size
    if dout.size != ntok * D:
        return None
    d_ = xp.ascontiguousarray(dout).reshape(ntok, D)
    pad = i64(-1 if padding_row is None else padding_row)
    threads = min(THREADS, max(32, -(-D // 32) * 32))  # 16 blocks per SM: 2 full waves of 256 threads at D >= 256
    det = is_deterministic() if deterministic is None else deterministic
    if det:
        dw = xp.zeros((V, D), dtype=dout.dtype)
        if ntok and D:
            order = xp.argsort(ids_, kind="stable")
            sorted_ids = xp.ascontiguousarray(ids_[order])
            kernel("embedding", f"embedding_grad_sorted_{sfx}")(
                (blocks(ntok, 1, per_sm=16),), (threads,), (sorted_ids, order, i64(ntok), d_, dw, i64(V), i64(D), pad))
        return dw
    acc = xp.zeros((V, D), dtype=np.float32)
    if ntok and D:
        kernel("embedding", f"embedding_grad_atomic_{sfx}")(
            (blocks(ntok, 1, per_sm=16),), (threads,), (ids_, d_, acc, i64(ntok), i64(V), i64(D), pad))
    return acc if dout.dtype == np.float32 else acc.astype(dout.dtype)
