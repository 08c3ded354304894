"""Fused CUDA kernels: source loading, lazy compilation through CuPy, and the GPU implementations
of registry ops.

The kernels live in kernels/*.cu (one file per op family, `#include "common.cuh"` inlined here so
CuPy's source-keyed binary cache sees every byte that is compiled). `Kernels` holds the host-side
launch code of every fused op -- output allocation, shape collapsing, grid sizing, dtype choice --
written against an array module `xp` and a *backend* that hands out kernels:

- `CupyModules`: CuPy RawModule per family, compiled on first use and cached per process (CuPy
  also caches the binaries on disk);
- the CPU emulator in tests/cuda_emu (same interface), which runs the same launch code with NumPy
  arrays, so CI without a GPU exercises both the kernels and this file.

`attach_all()` registers each `Kernels` method as the 'gpu' implementation of its registry op
(`register_impl`). It runs the first time a GPU place is used (see paddlelite.device.place) or at
import of paddlelite.ops.fused when CuPy already sees a device; importing paddlelite never imports
CuPy. Configurations a kernel does not cover (float64, unusual layouts) run the op's reference
forward on CuPy arrays instead.
"""
import os
import re
import threading

import numpy as np

from . import cuda

FAMILIES = ("softmax_ce", "layer_norm", "activation", "dropout", "embedding", "reduce", "optimizer")
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"[ \t]*$', re.M)


def kernel_dir():
    """Where kernels/*.cu live: $PADDLELITE_KERNEL_DIR, else the repository's kernels/ folder."""
    env = os.environ.get("PADDLELITE_KERNEL_DIR")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, "..", "..", "kernels"), os.path.join(here, "..", "_kernels")):
        if os.path.isfile(os.path.join(cand, "common.cuh")):
            return os.path.normpath(cand)
    raise FileNotFoundError("paddlelite: the CUDA kernel sources (kernels/*.cu) were not found; "
                            "install paddlelite from a source checkout or set PADDLELITE_KERNEL_DIR")


def kernel_source(family, directory=None):
    """The full source of kernels/<family>.cu with its quoted includes inlined (each once)."""
    directory = directory or kernel_dir()
    seen = set()

    def expand(name):
        if name in seen:
            return ""
        seen.add(name)
        with open(os.path.join(directory, name)) as f:
            text = f.read().replace("#pragma once\n", "")
        return _INCLUDE.sub(lambda m: expand(m.group(1)), text)

    return expand(family + ".cu")


class CupyModules:
    """Kernel families compiled through CuPy's RawModule, once per process and device."""

    OPTIONS = ("--std=c++17",)

    def __init__(self):
        self._mods = {}
        self._lock = threading.Lock()
        self._sm = None

    @property
    def sm_count(self):
        if self._sm is None:
            cp = cuda.cupy()
            self._sm = cp.cuda.Device().attributes["MultiProcessorCount"]
        return self._sm

    def module(self, family):
        cp = cuda.cupy()
        key = (family, cp.cuda.Device().id)
        mod = self._mods.get(key)
        if mod is None:
            with self._lock:
                mod = self._mods.get(key)
                if mod is None:
                    mod = cp.RawModule(code=kernel_source(family), options=self.OPTIONS)
                    self._mods[key] = mod
        return mod


_SUFFIX = {"float32": "f32", "float16": "f16", "bfloat16": "bf16"}
ACT_CODES = {"identity": 0, "relu": 1, "sigmoid": 2, "tanh": 3, "gelu": 4, "gelu_tanh": 5, "silu": 6,
             "relu_x": 7}
THREADS = 256


def _i64(v):
    return np.int64(v)


def _i32(v):
    return np.int32(v)


def _f32(v):
    return np.float32(v)


def _ptr(a):
    """Device (or host) address of an array's first element."""
    return a.data.ptr if hasattr(a.data, "ptr") else a.ctypes.data


def _aligned(width, *arrays):
    """True when every array's address is a multiple of `width` elements (for vector loads)."""
    return all(_ptr(a) % (width * a.dtype.itemsize) == 0 for a in arrays)


def _prod(shape):
    n = 1
    for d in shape:
        n *= int(d)
    return n


def suffix(dtype):
    return _SUFFIX.get(np.dtype(dtype).name)


class Kernels:
    """Host launch code of every fused kernel over a backend (CupyModules or the CPU emulator)."""

    def __init__(self, backend):
        self.backend = backend
        self._cache = {}

    def fn(self, family, name):
        k = self._cache.get(name)
        if k is None:
            k = self._cache[name] = self.backend.module(family).get_function(name)
        return k

    def blocks(self, n, per_block):
        """Blocks for a grid-stride loop over n items: enough to fill the device, at least one."""
        return max(1, min(-(-int(n) // per_block), self.backend.sm_count * 16))

    # ---- softmax + cross-entropy backward ---------------------------------------------------------
    def softmax_ce_grad(self, xp, label, softmax, dloss, soft_label=False, ignore_index=-100, axis=-1,
                        scale=1.0):
        """d logits of softmax_with_cross_entropy; None when this layout is not covered by the kernel."""
        sfx = suffix(softmax.dtype)
        nd = softmax.ndim
        if sfx is None or nd == 0 or dloss.dtype != softmax.dtype:
            return None
        axis = axis + nd if axis < 0 else axis
        shape = softmax.shape
        C, outer, inner = int(shape[axis]), _prod(shape[:axis]), _prod(shape[axis + 1:])
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
            vec = int(inner == 1 and C % 4 == 0 and _aligned(4, sm, lab, dx))  # whole rows in vectors
            args = (sm, lab, dl, dx, _i64(n), _i64(C), _i64(inner), _i32(stride), _f32(scale), _i32(vec))
            name = f"sce_grad_soft_{sfx}"
        else:
            if label.size != outer * inner or label.dtype.kind not in "iu":
                return None
            lab = xp.ascontiguousarray(label)
            if lab.dtype not in (np.int32, np.int64):
                lab = lab.astype(np.int64)
            vec = int(_aligned(4, sm, dx))
            args = (sm, lab, dl, dx, _i64(n), _i64(C), _i64(inner), _i32(stride), _f32(scale),
                    _i64(ignore_index), _i32(vec))
            name = f"sce_grad_hard_{'i32' if lab.dtype == np.int32 else 'i64'}_{sfx}"
        self.fn("softmax_ce", name)((self.blocks(n, THREADS * 4),), (THREADS,), args)
        return dx

    # ---- reduce_as: sum over broadcast dims --------------------------------------------------------
    def reduce_as(self, xp, x, target):
        """x summed to target's shape (target: broadcastable to x, as in ops/grad_support.py)."""
        tshape = tuple(target.shape)
        if x.shape == tshape:
            return x
        sfx = suffix(x.dtype)
        if sfx is None:
            return None
        lead = x.ndim - len(tshape)
        full_t = (1,) * lead + tshape
        dims = []  # merged (size, reduced) groups; size-1 dims dropped
        for xs, ts in zip(x.shape, full_t):
            if xs == 1:
                continue
            red = ts == 1
            if dims and dims[-1][1] == red:
                dims[-1][0] *= int(xs)
            else:
                dims.append([int(xs), red])
        if x.size == 0:
            return xp.zeros(tshape, dtype=x.dtype)
        cur = xp.ascontiguousarray(x)
        if not any(r for _, r in dims):  # only size-1 dims differ
            return cur.reshape(tshape)
        while True:
            k = max(i for i, (_, r) in enumerate(dims) if r)
            last_pass = sum(1 for _, r in dims if r) == 1
            out_dtype = x.dtype if last_pass else np.dtype(np.float32)
            A, R, B = _prod(s for s, _ in dims[:k]), dims[k][0], _prod(s for s, _ in dims[k + 1:])
            cur = self._reduce_mid(xp, cur, A, R, B, out_dtype) if B > 1 else \
                self._reduce_last(xp, cur, A, R, out_dtype)
            del dims[k]
            merged = []
            for s, r in dims:
                if merged and merged[-1][1] == r:
                    merged[-1][0] *= s
                else:
                    merged.append([s, r])
            dims = merged
            if last_pass:
                return cur.reshape(tshape)

    def _reduce_mid(self, xp, x, A, R, B, out_dtype, grid_y=None):
        """[A, R, B] -> [A, B] in out_dtype (via float32 partials when the rows are split over blocks)."""
        gx, gz = -(-B // 32), min(A, 65535)
        if grid_y is None:
            want = -(-self.backend.sm_count * 4 // (gx * gz))
            grid_y = max(1, min(want, -(-R // 32), 1024))
        name_in = suffix(x.dtype)
        if grid_y == 1:
            out = xp.empty((A, B), dtype=out_dtype)
            self.fn("reduce", f"reduce_mid_{name_in}_{suffix(out_dtype)}")(
                (gx, 1, gz), (32, 8), (x, out, _i64(A), _i64(R), _i64(B)))
            return out
        part = xp.empty((A, grid_y, B), dtype=np.float32)
        self.fn("reduce", f"reduce_mid_{name_in}_f32")((gx, grid_y, gz), (32, 8), (x, part, _i64(A), _i64(R), _i64(B)))
        return self._reduce_mid(xp, part, A, grid_y, B, out_dtype, grid_y=1)

    def _reduce_last(self, xp, x, A, R, out_dtype):
        """[A, R] -> [A] in out_dtype; rows by warps when many, split over blocks when few."""
        vec = _i32(R % 4 == 0 and _aligned(4, x))
        name_in = suffix(x.dtype)
        sm = self.backend.sm_count
        if A >= sm * 8 or R <= 1024:
            out = xp.empty((A,), dtype=out_dtype)
            self.fn("reduce", f"reduce_last_warp_{name_in}_{suffix(out_dtype)}")(
                (self.blocks(A, 8),), (THREADS,), (x, out, _i64(A), _i64(R), vec))
            return out
        g = max(1, min(-(-sm * 4 // A), -(-R // (THREADS * 16)), 1024))
        if g == 1:
            out = xp.empty((A,), dtype=out_dtype)
            self.fn("reduce", f"reduce_last_block_{name_in}_{suffix(out_dtype)}")(
                (1, min(A, 65535)), (THREADS,), (x, out, _i64(A), _i64(R), vec))
            return out
        part = xp.empty((A, g), dtype=np.float32)
        self.fn("reduce", f"reduce_last_block_{name_in}_f32")((g, min(A, 65535)), (THREADS,),
                                                              (x, part, _i64(A), _i64(R), vec))
        return self._reduce_last(xp, part, A, g, out_dtype)

    # ---- layer_norm backward ---------------------------------------------------------------------
    LN_MAXK = 8

    def layer_norm_grad(self, xp, x, scale, mean, var, dy, epsilon=1e-5, begin_norm_axis=1):
        sfx = suffix(x.dtype)
        if sfx is None or dy.dtype != x.dtype or not 0 < begin_norm_axis < max(x.ndim, 1) + 1:
            return None
        M, N = _prod(x.shape[:begin_norm_axis]), _prod(x.shape[begin_norm_axis:])
        if M == 0 or N == 0:
            return None
        if scale is not None:
            ssfx = suffix(scale.dtype)
            if scale.size != N or ssfx not in (sfx, "f32"):
                return None
        else:
            ssfx = sfx
        x2 = xp.ascontiguousarray(x).reshape(M, N)
        dy2 = xp.ascontiguousarray(dy).reshape(M, N)
        mu = xp.ascontiguousarray(mean.reshape(-1), dtype=np.float32)
        vr = xp.ascontiguousarray(var.reshape(-1), dtype=np.float32)
        sc = xp.ascontiguousarray(scale.reshape(-1)) if scale is not None else x2
        threads = min(1024, max(32, -(-(-(-N // self.LN_MAXK)) // 32) * 32))
        grid = max(1, min(M, self.backend.sm_count * 4))
        dx = xp.empty((M, N), dtype=x.dtype)
        pg = xp.empty((grid, N), dtype=np.float32)
        pb = xp.empty((grid, N), dtype=np.float32)
        self.fn("layer_norm", f"ln_bwd_{sfx}_{ssfx}")(
            (grid,), (threads,), (x2, sc, mu, vr, dy2, dx, pg, pb, _i64(M), _i64(N), _f32(epsilon),
                                  _i32(scale is not None)))
        pdt = scale.dtype if scale is not None else x.dtype
        pshape = scale.shape if scale is not None else (N,)
        dscale = self._reduce_mid(xp, pg, 1, grid, N, pdt, grid_y=1).reshape(pshape)
        dbias = self._reduce_mid(xp, pb, 1, grid, N, pdt, grid_y=1).reshape(pshape)
        return dx.reshape(x.shape), dscale, dbias

    # ---- activations ------------------------------------------------------------------------------
    def act_grad(self, xp, a, dout, act):
        """dout * act'(a) with a the saved output or input (ACT_CODES)."""
        sfx = suffix(a.dtype)
        if sfx is None or dout.dtype != a.dtype or a.shape != dout.shape:
            return None
        a_, d_ = xp.ascontiguousarray(a), xp.ascontiguousarray(dout)
        dx = xp.empty(a.shape, dtype=a.dtype)
        n = dx.size
        if n:
            self.fn("activation", f"act_grad_{sfx}")(
                (self.blocks(n, THREADS * 4),), (THREADS,),
                (a_, d_, dx, _i64(n), _i32(ACT_CODES[act]), _i32(_aligned(4, a_, d_, dx))))
        return dx

    def bias_act(self, xp, x, bias, act):
        sfx = suffix(x.dtype)
        if sfx is None or bias.dtype != x.dtype or x.ndim == 0 or bias.size != x.shape[-1]:
            return None
        x_, b_ = xp.ascontiguousarray(x), xp.ascontiguousarray(bias.reshape(-1))
        out = xp.empty(x.shape, dtype=x.dtype)
        n, B = out.size, b_.size
        if n:
            vec = B % 4 == 0 and _aligned(4, x_, b_, out)
            self.fn("activation", f"bias_act_{sfx}")((self.blocks(n, THREADS * 4),), (THREADS,),
                                                     (x_, b_, out, _i64(n), _i64(B), _i32(ACT_CODES[act]), _i32(vec)))
        return out

    def bias_act_grad(self, xp, x, bias, dout, act):
        """(dx, dbias) of out = act(x + bias): dx written and its column sums taken in one pass."""
        sfx = suffix(x.dtype)
        if sfx is None or bias.dtype != x.dtype or dout.dtype != x.dtype or x.shape != dout.shape \
                or x.ndim == 0 or bias.size != x.shape[-1] or x.size == 0:
            return None
        x_, b_, d_ = xp.ascontiguousarray(x), xp.ascontiguousarray(bias.reshape(-1)), xp.ascontiguousarray(dout)
        B = b_.size
        R = x_.size // B
        dx = xp.empty(x.shape, dtype=x.dtype)
        dbias = xp.empty((B,), dtype=x.dtype)
        gx = -(-B // 32)
        gy = max(1, min(-(-self.backend.sm_count * 4 // gx), -(-R // 32), 1024))
        part = xp.empty((gy, B), dtype=np.float32) if gy > 1 else dbias
        self.fn("activation", f"bias_act_grad_{sfx}")(
            (gx, gy), (32, 8), (x_, b_, d_, dx, dbias, part, _i64(R), _i64(B), _i32(ACT_CODES[act])))
        if gy > 1:
            dbias = self._reduce_mid(xp, part, 1, gy, B, x.dtype, grid_y=1)
        return dx, dbias.reshape(bias.shape)

    # ---- dropout -----------------------------------------------------------------------------------
    def dropout_act_grad(self, xp, mask, a, dout, scale, act="identity"):
        sfx = suffix(dout.dtype)
        if sfx is None or mask.shape != dout.shape or mask.dtype.itemsize != 1 or mask.dtype.kind not in "bu" \
                or (a is not None and (a.dtype != dout.dtype or a.shape != dout.shape)):
            return None
        m_ = xp.ascontiguousarray(mask).view(np.uint8)
        d_ = xp.ascontiguousarray(dout)
        dx = xp.empty(dout.shape, dtype=dout.dtype)
        n = dx.size
        if n == 0:
            return dx
        grid = (self.blocks(n, THREADS * 4),)
        if act == "identity":
            vec = _aligned(4, m_, d_, dx)
            self.fn("dropout", f"dropout_grad_{sfx}")(grid, (THREADS,), (m_, d_, dx, _i64(n), _f32(scale), _i32(vec)))
        else:
            a_ = xp.ascontiguousarray(a)
            vec = _aligned(4, m_, a_, d_, dx)
            self.fn("dropout", f"dropout_act_grad_{sfx}")(
                grid, (THREADS,), (m_, a_, d_, dx, _i64(n), _f32(scale), _i32(ACT_CODES[act]), _i32(vec)))
        return dx

    # ---- embedding backward ------------------------------------------------------------------------
    def embedding_grad(self, xp, ids, w, dout, padding_row=None, deterministic=None):
        sfx = suffix(dout.dtype)
        if sfx is None or w.ndim != 2 or ids.dtype.kind not in "iu":
            return None
        V, D = int(w.shape[0]), int(w.shape[1])
        ids_ = xp.ascontiguousarray(ids.reshape(-1), dtype=np.int64)
        ntok = ids_.size
        if dout.size != ntok * D:
            return None
        d_ = xp.ascontiguousarray(dout).reshape(ntok, D)
        pad = _i64(-1 if padding_row is None else padding_row)
        threads = min(THREADS, max(32, -(-D // 32) * 32))
        det = is_deterministic() if deterministic is None else deterministic
        if det:
            dw = xp.zeros((V, D), dtype=dout.dtype)
            if ntok and D:
                order = xp.argsort(ids_, kind="stable")
                sorted_ids = xp.ascontiguousarray(ids_[order])
                self.fn("embedding", f"embedding_grad_sorted_{sfx}")(
                    (self.blocks(ntok, 1),), (threads,), (sorted_ids, order, _i64(ntok), d_, dw, _i64(V), _i64(D), pad))
            return dw
        acc = xp.zeros((V, D), dtype=np.float32)
        if ntok and D:
            self.fn("embedding", f"embedding_grad_atomic_{sfx}")(
                (self.blocks(ntok, 1),), (threads,), (ids_, d_, acc, _i64(ntok), _i64(V), _i64(D), pad))
        return acc if dout.dtype == np.float32 else acc.astype(dout.dtype)

    # ---- optimizers --------------------------------------------------------------------------------
    @staticmethod
    def _scalar_f32(xp, a):
        return xp.ascontiguousarray(a.reshape(-1)[:1], dtype=np.float32)

    def sgd(self, xp, param, lr, grad):
        sfx = suffix(param.dtype)
        if sfx is None or grad.dtype != param.dtype or grad.shape != param.shape:
            return None
        p_, g_ = xp.ascontiguousarray(param), xp.ascontiguousarray(grad)
        out = xp.empty(param.shape, dtype=param.dtype)
        n = out.size
        if n:
            self.fn("optimizer", f"sgd_{sfx}")((self.blocks(n, THREADS * 4),), (THREADS,),
                                               (p_, self._scalar_f32(xp, lr), g_, out, _i64(n), _i32(_aligned(4, p_, g_, out))))
        return out

    def momentum(self, xp, param, grad, velocity, lr, mu, use_nesterov, l2_coeff, rescale_grad):
        sfx = suffix(param.dtype)
        if sfx is None or grad.dtype != param.dtype or velocity.dtype != param.dtype \
                or not grad.shape == velocity.shape == param.shape:
            return None
        p_, g_, v_ = (xp.ascontiguousarray(a) for a in (param, grad, velocity))
        pout, vout = xp.empty_like(p_), xp.empty_like(v_)
        n = pout.size
        if n:
            self.fn("optimizer", f"momentum_{sfx}")(
                (self.blocks(n, THREADS * 4),), (THREADS,),
                (p_, g_, v_, self._scalar_f32(xp, lr), pout, vout, _i64(n), _f32(mu), _f32(rescale_grad),
                 _f32(l2_coeff), _i32(bool(use_nesterov)), _i32(_aligned(4, p_, g_, v_, pout, vout))))
        return pout.reshape(param.shape), vout.reshape(velocity.shape)

    def adam(self, xp, param, grad, lr, m1, m2, b1p, b2p, beta1, beta2, epsilon, coeff=0.0, lr_ratio=1.0,
             write_pows=True):
        sfx = suffix(param.dtype)
        if sfx is None or any(a.dtype != param.dtype or a.shape != param.shape for a in (grad, m1, m2)) \
                or b1p.dtype != np.float32 or b2p.dtype != np.float32:
            return None
        p_, g_, a_, b_ = (xp.ascontiguousarray(t) for t in (param, grad, m1, m2))
        pout, m1o, m2o = xp.empty_like(p_), xp.empty_like(a_), xp.empty_like(b_)
        pows = xp.empty((2,), dtype=np.float32)
        n = pout.size
        vec = _aligned(4, p_, g_, a_, b_, pout, m1o, m2o)
        self.fn("optimizer", f"adam_{sfx}")(
            (self.blocks(max(n, 1), THREADS * 4),), (THREADS,),
            (p_, g_, self._scalar_f32(xp, lr), a_, b_, self._scalar_f32(xp, b1p), self._scalar_f32(xp, b2p),
             pout, m1o, m2o, pows[0:1], pows[1:2], _i64(n), _f32(beta1), _f32(beta2), _f32(epsilon),
             _f32(lr_ratio), _f32(coeff), _i32(bool(write_pows)), _i32(vec)))
        b1o, b2o = (pows[0:1].reshape(b1p.shape), pows[1:2].reshape(b2p.shape)) if write_pows else (b1p, b2p)
        return pout, m1o, m2o, b1o, b2o

    ADAM_CHUNK = 65536

    def adam_multi(self, xp, params, grads, lrs, m1s, m2s, b1ps, b2ps, beta1, beta2, epsilon, coeff=0.0,
                   write_pows=True, chunk=None):
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
        chunk = chunk or self.ADAM_CHUNK
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
            lr = self._scalar_f32(xp, lrs[i] if len(lrs) == n_t else lrs[0])
            bp = (self._scalar_f32(xp, b1ps[i]), self._scalar_f32(xp, b2ps[i]))
            keep += ins + [lr, *bp]
            outs = [f[offs[i]:offs[i] + sizes[i]] for f in flat]
            table[i] = [*(_ptr(a) for a in ins), *(_ptr(o) for o in outs), _ptr(lr), _ptr(bp[0]), _ptr(bp[1]),
                        _ptr(pows[2 * i:2 * i + 1]), _ptr(pows[2 * i + 1:2 * i + 2]), sizes[i]]
            for c in range(max(1, -(-sizes[i] // chunk))):
                chunk_t.append(i)
                chunk_f.append(c * chunk)
        host = np.concatenate([table.reshape(-1), np.asarray(chunk_t, np.int64), np.asarray(chunk_f, np.int64)])
        dev_table = xp.asarray(host)
        nchunks = len(chunk_t)
        self.fn("optimizer", f"adam_multi_{sfx}")(
            (self.blocks(nchunks, 1),), (THREADS,),
            (dev_table, _i64(n_t), _i64(nchunks), _i64(chunk), _f32(beta1), _f32(beta2), _f32(epsilon), _f32(coeff),
             _i32(bool(write_pows))))
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


# ---- the registry attachment -------------------------------------------------------------------------
def _keep_scale(p, mode, is_test):
    """Dropout's factor on kept elements; the same rule as the reference (paddlelite/ops/nn.py)."""
    from ..ops.nn import _keep_scale as ref
    return float(ref(np.dtype(np.float32), p, mode, is_test))


def gpu_impls(k):
    """{op type: fn(xp, *arrays, **attrs)} running `k`'s kernels, each with the op's forward signature.

    A kernel method returning None means "not covered" (float64, an odd layout): the op's own
    reference forward runs instead, on the same arrays.
    """
    from ..ops.registry import get_op

    def with_fallback(op_type, run):
        def impl(xp, *arrays, **attrs):
            out = run(xp, *arrays, **attrs)
            if out is None:
                return get_op(op_type).forward(xp, *arrays, **attrs)
            return out
        impl.__name__ = f"{op_type}_gpu"
        impl.__qualname__ = impl.__name__
        return impl

    def act(code):
        return lambda xp, a, dout, **attrs: k.act_grad(xp, a, dout, code)

    def gelu_grad(xp, x, dout, approximate=False):
        return k.act_grad(xp, x, dout, "gelu_tanh" if approximate else "gelu")

    def swce_grad(xp, label, softmax, dloss, soft_label=False, ignore_index=-100, axis=-1, numeric_stable_mode=True):
        return k.softmax_ce_grad(xp, label, softmax, dloss, soft_label, ignore_index, axis)

    def layer_norm_grad(xp, x, scale, mean, var, dy, epsilon=1e-5, begin_norm_axis=1):
        return k.layer_norm_grad(xp, x, scale, mean, var, dy, epsilon, begin_norm_axis)

    def dropout_grad(xp, mask, dout, dropout_prob=0.5, is_test=False, dropout_implementation="upscale_in_train"):
        return k.dropout_act_grad(xp, mask, None, dout, _keep_scale(dropout_prob, dropout_implementation, is_test))

    def fused_dropout_act_grad(xp, mask, a, dout, act="relu", dropout_prob=0.5, is_test=False,
                               dropout_implementation="upscale_in_train"):
        return k.dropout_act_grad(xp, mask, a, dout, _keep_scale(dropout_prob, dropout_implementation, is_test),
                                  act)

    def embedding_grad(xp, ids, w, dout, padding_idx=-1):
        from ..ops.nn import padding_row
        return k.embedding_grad(xp, ids, w, dout, padding_row(padding_idx, w.shape[0]))

    def sgd(xp, param, lr, grad, master_param=None, multi_precision=False):
        return k.sgd(xp, param, lr, grad)

    def momentum(xp, param, grad, velocity, lr, master_param=None, mu=0.9, use_nesterov=False,
                 regularization_method="", regularization_coeff=0.0, multi_precision=False, rescale_grad=1.0):
        l2 = regularization_coeff if regularization_method == "l2_decay" else 0.0
        return k.momentum(xp, param, grad, velocity, lr, mu, use_nesterov, l2, rescale_grad)

    def adam(xp, param, grad, lr, m1, m2, b1p, b2p, master_param=None, beta1=0.9, beta2=0.999, epsilon=1e-8,
             lazy_mode=False, min_row_size_to_use_multithread=1000, multi_precision=False,
             use_global_beta_pow=False, coeff=0.0, lr_ratio=1.0, with_decay=True):
        return k.adam(xp, param, grad, lr, m1, m2, b1p, b2p, beta1, beta2, epsilon,
                      coeff if with_decay else 0.0, lr_ratio, not use_global_beta_pow)

    def merged_adam(xp, params, grads, lrs, m1s, m2s, b1ps, b2ps, master_params=None, beta1=0.9, beta2=0.999,
                    epsilon=1e-8, multi_precision=False, use_global_beta_pow=False, weight_decay=0.0,
                    use_adamw=False):
        n = len(params)
        if any(len(g) != n for g in (grads, m1s, m2s, b1ps, b2ps)) or len(lrs) not in (1, n):
            return None  # the reference raises the explanatory error
        outs = k.adam_multi(xp, params, grads, lrs, m1s, m2s, b1ps, b2ps, beta1, beta2, epsilon,
                            weight_decay if use_adamw else 0.0, not use_global_beta_pow)
        if outs is None:
            return None
        return tuple(outs) + ([] if master_params is None else list(master_params),)

    def fused_bias_act(xp, x, bias, act="relu"):
        return k.bias_act(xp, x, bias, act)

    def fused_bias_act_grad(xp, x, bias, dout, act="relu"):
        return k.bias_act_grad(xp, x, bias, dout, act)

    table = {
        "softmax_with_cross_entropy_grad": swce_grad,
        "layer_norm_grad": layer_norm_grad,
        "relu_grad": act("relu"), "sigmoid_grad": act("sigmoid"), "tanh_grad": act("tanh"),
        "gelu_grad": gelu_grad, "silu_grad": act("silu"),
        "dropout_grad": dropout_grad, "fused_dropout_act_grad": fused_dropout_act_grad,
        "embedding_grad": embedding_grad,
        "reduce_as": lambda xp, x, target: k.reduce_as(xp, x, target),
        "sgd": sgd, "momentum": momentum, "adam": adam, "adamw": adam, "merged_adam": merged_adam,
        "fused_bias_act": fused_bias_act, "fused_bias_act_grad": fused_bias_act_grad,
    }
    return {name: with_fallback(name, run) for name, run in table.items()}


_attached = {}


def attach_all():
    """Register the fused kernels as the 'gpu' implementation of their registry ops (idempotent).

    Returns {op type: impl} for the ops that are registered (an op not registered is skipped).
    """
    if _attached:
        return dict(_attached)
    from ..ops.registry import all_ops, register_impl
    ops = all_ops()
    for name, impl in gpu_impls(Kernels(CupyModules())).items():
        if name in ops:
            register_impl(name, "gpu", impl)
            _attached[name] = impl
    return dict(_attached)
