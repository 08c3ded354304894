"""kernels/optimizer.cu: sgd, momentum, adam(w) per parameter, adam over many parameters in one launch, and the
element-wise adaptive updates (adagrad, rmsprop, adadelta, adamax, nadam, radam, rprop)."""
import numpy as np

from ...device.kernels import kernel
from .common import THREADS, aligned, blocks, f32, i32, i64, ptr, scalar_f32, suffix

ADAM_CHUNK = 65536  # elements one block of adam_multi updates


def sgd(xp, param, lr, grad):
    sfx = suffix(param.dtype)
    if sfx is None or grad.dtype != param.dtype or grad.shape != param.shape:
        return None
    p_, g_ = xp.ascontiguousarray(param), xp.ascontiguousarray(grad)
    out = xp.empty(param.shape, dtype=param.dtype)
    n = out.size
    if n:
        kernel("optimizer", f"sgd_{sfx}")((blocks(n, THREADS * 4),), (THREADS,),
                                          (p_, scalar_f32(xp, lr), g_, out, i64(n), i32(aligned(4, p_, g_, out))))
    return out


def momentum(xp, param, grad, velocity, lr, mu, use_nesterov, l2_coeff, rescale_grad):
    sfx = suffix(param.dtype)
    if sfx is None or grad.dtype != param.dtype or velocity.dtype != param.dtype \
            or not grad.shape == velocity.shape == param.shape:
        return None
    p_, g_, v_ = (xp.ascontiguousarray(a) for a in (param, grad, velocity))
    pout, vout = xp.empty_like(p_), xp.empty_like(v_)
    n = pout.size
    if n:
        kernel("optimizer", f"momentum_{sfx}")(
            (blocks(n, THREADS * 4),), (THREADS,),
            (p_, g_, v_, scalar_f32(xp, lr), pout, vout, i64(n), f32(mu), f32(rescale_grad),
             f32(l2_coeff), i32(bool(use_nesterov)), i32(aligned(4, p_, g_, v_, pout, vout))))
    return pout.reshape(param.shape), vout.reshape(velocity.shape)


def adam(xp, param, grad, lr, m1, m2, b1p, b2p, beta1, beta2, epsilon, coeff, lr_ratio, write_pows):
    sfx = suffix(param.dtype)
    if sfx is None or any(a.dtype != param.dtype or a.shape != param.shape for a in (grad, m1, m2)) \
            or b1p.dtype != np.float32 or b2p.dtype != np.float32:
        return None
    p_, g_, a_, b_ = (xp.ascontiguousarray(t) for t in (param, grad, m1, m2))
    pout, m1o, m2o = xp.empty_like(p_), xp.empty_like(a_), xp.empty_like(b_)
    pows = xp.empty((2,), dtype=np.float32)
    n = pout.size
    vec = aligned(4, p_, g_, a_, b_, pout, m1o, m2o)
    kernel("optimizer", f"adam_{sfx}")(
        (blocks(max(n, 1), THREADS * 4),), (THREADS,),
        (p_, g_, scalar_f32(xp, lr), a_, b_, scalar_f32(xp, b1p), scalar_f32(xp, b2p),
         pout, m1o, m2o, pows[0:1], pows[1:2], i64(n), f32(beta1), f32(beta2), f32(epsilon),
         f32(lr_ratio), f32(coeff), i32(bool(write_pows)), i32(vec)))
    b1o, b2o = (pows[0:1].reshape(b1p.shape), pows[1:2].reshape(b2p.shape)) if write_pows else (b1p, b2p)
    return pout, m1o, m2o, b1o, b2o


def adam_multi(xp, params, grads, lrs, m1s, m2s, b1ps, b2ps, beta1, beta2, epsilon, coeff, write_pows, chunk=None):
    """All parameters in one launch; outputs are views into one flat buffer per output slot."""
    n_t = len(params)
    if n_t == 0:
        return None
    dt = params[0].dtype
    sfx = suffix(dt)
    if sfx is None:
        return None
    for i in range(n_t):
        if any(a.dtype != dt or a.shape != params[i].shape for a in (params[i], grads[i], m1s[i], m2s[i])):
            return None
        if b1ps[i].dtype != np.float32 or b2ps[i].dtype != np.float32:
            return None
    chunk = chunk or ADAM_CHUNK
    sizes = [int(p.size) for p in params]
    offs, total = [], 0
    for s in sizes:
        offs.append(total)
        total += -(-s // 4) * 4  # 16-byte aligned slices
    flat = [xp.empty((max(total, 1),), dtype=dt) for _ in range(3)]
    pows = xp.empty((2 * n_t,), dtype=np.float32)
    keep = []  # inputs made contiguous / float32 must live until the launch is queued
    table = np.zeros((n_t, 13), dtype=np.int64)
    chunk_t, chunk_f = [], []
    for i in range(n_t):
        ins = [xp.ascontiguousarray(a) for a in (params[i], grads[i], m1s[i], m2s[i])]
        lr = scalar_f32(xp, lrs[i] if len(lrs) == n_t else lrs[0])
        bp = (scalar_f32(xp, b1ps[i]), scalar_f32(xp, b2ps[i]))
        keep += ins + [lr, *bp]
        outs = [f[offs[i]:offs[i] + sizes[i]] for f in flat]
        table[i] = [*(ptr(a) for a in ins), *(ptr(o) for o in outs), ptr(lr), ptr(bp[0]), ptr(bp[1]),
                    ptr(pows[2 * i:2 * i + 1]), ptr(pows[2 * i + 1:2 * i + 2]), sizes[i]]
        for c in range(max(1, -(-sizes[i] // chunk))):
            chunk_t.append(i)
            chunk_f.append(c * chunk)
    host = np.concatenate([table.reshape(-1), np.asarray(chunk_t, np.int64), np.asarray(chunk_f, np.int64)])
    dev_table = xp.asarray(host)
    nchunks = len(chunk_t)
    kernel("optimizer", f"adam_multi_{sfx}")(
        (blocks(nchunks, 1),), (THREADS,),
        (dev_table, i64(n_t), i64(nchunks), i64(chunk), f32(beta1), f32(beta2), f32(epsilon), f32(coeff),
         i32(bool(write_pows))))
    del keep
    outs = ([], [], [], [], [])
    for i in range(n_t):
        for k in range(3):
            outs[k].append(flat[k][offs[i]:offs[i] + sizes[i]].reshape(params[i].shape))
        if write_pows:
            outs[3].append(pows[2 * i:2 * i + 1].reshape(b1ps[i].shape))
            outs[4].append(pows[2 * i + 1:2 * i + 2].reshape(b2ps[i].shape))
        else:
            outs[3].append(b1ps[i])
            outs[4].append(b2ps[i])
    return outs


def elementwise(xp, name, param, arrays, scalars, n_out, attrs):
    """Launch the one-thread-per-element update `name`: `arrays` (parameter-shaped, the parameter's dtype)
    and the one-element float32 `scalars` (learning rate, powers) in, `n_out` parameter-shaped arrays out;
    None (the reference runs) when a dtype or shape differs."""
    sfx = suffix(param.dtype)
    if sfx is None or any(a.dtype != param.dtype or a.shape != param.shape for a in arrays):
        return None
    ins = [xp.ascontiguousarray(a) for a in arrays]
    outs = [xp.empty(param.shape, dtype=param.dtype) for _ in range(n_out)]
    n = param.size
    if n:
        attrs = [i32(a) if isinstance(a, (bool, int)) else f32(a) for a in attrs]
        kernel("optimizer", f"{name}_{sfx}")((blocks(n, THREADS),), (THREADS,),
                                             (*ins, *(scalar_f32(xp, s) for s in scalars), *outs, i64(n), *attrs))
    return tuple(outs)
