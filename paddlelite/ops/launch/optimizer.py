"""kernels/optimizer.cu: sgd, momentum, adam(w) per parameter, adam and momentum (sgd) over many parameters in one
launch, and the element-wise adaptive updates (adagrad, rmsprop, adadelta, adamax, nadam, radam, rprop)."""
import collections
import contextlib
import sys
import weakref

import numpy as np

from ...device.kernels import kernel, sm_count
from .common import THREADS, aligned, blocks, f32, i32, i64, ptr, scalar_f32, suffix

ADAM_CHUNK = 16384  # elements per chunk of adam_multi: many equal pieces, blocks stride over them
_in_place = [False]


@contextlib.contextmanager
def updating_in_place():
    """Inside, sgd, momentum and adam write the parameter and its accumulators into their own storage (Paddle's
    in-place optimizer ops) where it is contiguous: for a caller that takes the results into those tensors anyway
    (Optimizer._run), which then copies nothing. Each element is read and then written by one thread, so the
    kernels' input and output may be one array."""
    before, _in_place[0] = _in_place[0], True
    try:
        yield
    finally:
        _in_place[0] = before


def _out(xp, contiguous, given):
    """The output array of an update read from `contiguous` (xp.ascontiguousarray(given)): the storage of `given`
    itself when updating in place and it was contiguous already, else a new array."""
    return given if _in_place[0] and contiguous is given else xp.empty_like(contiguous)


def sgd(xp, param, lr, grad):
    sfx = suffix(param.dtype)
    if sfx is None or grad.dtype != param.dtype or grad.shape != param.shape:
        return None
    p_, g_ = xp.ascontiguousarray(param), xp.ascontiguousarray(grad)
    out = _out(xp, p_, param)
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
    pout, vout = _out(xp, p_, param), _out(xp, v_, velocity)
    n = pout.size
    if n:
        kernel("optimizer", f"momentum_{sfx}")(
            (blocks(n, THREADS * 4),), (THREADS,),
            (p_, g_, v_, scalar_f32(xp, lr), pout, vout, i64(n), f32(mu), f32(rescale_grad),
             f32(l2_coeff), i32(bool(use_nesterov)), i32(aligned(4, p_, g_, v_, pout, vout))))
    return pout, vout


def adam(xp, param, grad, lr, m1, m2, b1p, b2p, beta1, beta2, epsilon, coeff, lr_ratio, write_pows):
    sfx = suffix(param.dtype)
    if sfx is None or any(a.dtype != param.dtype or a.shape != param.shape for a in (grad, m1, m2)) \
            or b1p.dtype != np.float32 or b2p.dtype != np.float32:
        return None
    p_, g_, a_, b_ = (xp.ascontiguousarray(t) for t in (param, grad, m1, m2))
    pout, m1o, m2o = _out(xp, p_, param), _out(xp, a_, m1), _out(xp, b_, m2)
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


def _contiguous(arrays, dt):
    """True when every array is C-contiguous with dtype dt (usable in place, so its address can be cached)."""
    return all(a.dtype == dt and a.flags.c_contiguous for a in arrays)


class _TablePlan:
    """A multi-tensor update's host work for one list of parameters, done once and kept while the list is unchanged:
    the device table and the output buffers with their per-parameter views.

    The table holds per tensor one row: the addresses of its parameter-shaped arrays (`tensors`: the parameter and
    its accumulators, each updated into an output), of its one-element float32 values (`scalars`: learning rate,
    beta powers; a list of one is every tensor's), its own integer `columns`, then its element count and the offset
    of its slice in the flat outputs (4-element aligned); after the rows, the chunk -> tensor map and each chunk's
    first element. The table holds addresses, so a plan is only kept when every cached input is used in place
    (contiguous, right dtype), and it dies with the first of those arrays (weak references: the plan keeps none of
    them alive). The outputs are handed out again only while nothing outside holds them or a view of them
    (reference counts as when they were made), else fresh ones are made."""

    def __init__(self, xp, dt, tensors, scalars, columns, chunk, key):
        state = (*tensors, *scalars)
        params = tensors[0]
        n_t = len(params)
        self.key, self.ids = key, [tuple(map(id, lst)) for lst in state]
        self.shapes = [p.shape for p in params]
        self.sizes = [int(p.size) for p in params]
        offs, total = [], 0
        for s in self.sizes:
            offs.append(total)
            total += -(-s // 4) * 4  # 4-element aligned slices
        self.offs, self.total, self.n_state = offs, max(total, 1), len(tensors)
        ins = [[xp.ascontiguousarray(a, dtype=dt) for a in lst] for lst in tensors]
        ones = [[scalar_f32(xp, lst[i] if len(lst) == n_t else lst[0]) for i in range(n_t)] for lst in scalars]
        table = np.array([[*(ptr(a[i]) for a in ins), *(ptr(s[i]) for s in ones), *(c[i] for c in columns),
                           self.sizes[i], offs[i]] for i in range(n_t)], dtype=np.int64)
        chunk_t, chunk_f = [], []
        for i, s in enumerate(self.sizes):
            for c in range(max(1, -(-s // chunk))):
                chunk_t.append(i)
                chunk_f.append(c * chunk)
        self.nchunks = len(chunk_t)
        self.table = xp.asarray(np.concatenate([table.reshape(-1), np.asarray(chunk_t, np.int64),
                                                np.asarray(chunk_f, np.int64)]))
        self.cacheable = all(_contiguous(lst, dt) for lst in tensors) and \
            all(_contiguous(lst, np.float32) for lst in scalars)
        if self.cacheable:
            try:
                self._refs = [weakref.ref(a, self._died) for lst in state for a in lst]
            except TypeError:  # an array type without weak references: not cached
                self.cacheable = False
        self.alive = self.cacheable
        if not self.cacheable:  # used for this launch only: the converted copies live as long as the plan
            self._keep = (ins, ones)
        self.out = None

    def _died(self, _ref):
        self.alive, self.out = False, None
        if _PLANS.get(self.key) is self:
            del _PLANS[self.key]

    def matches(self, state):
        return self.alive and all(tuple(map(id, lst)) == ids for lst, ids in zip(state, self.ids))

    def _refcounts(self):
        return [sys.getrefcount(a) for a in self.out[2]]

    def _new_outputs(self, xp, dt):
        """(flat buffers, extra buffer or None, every array made, per-parameter output lists)."""
        flat = [xp.empty((self.total,), dtype=dt) for _ in range(self.n_state)]
        views = [[f[o:o + s].reshape(shape) for o, s, shape in zip(self.offs, self.sizes, self.shapes)]
                 for f in flat]
        return flat, None, [*flat, *(v for lst in views for v in lst)], views

    def outputs(self, xp, dt):
        """(the flat output buffers, the extra buffer, the per-parameter output lists)."""
        if self.out is None or self._refcounts() != self.counts:
            self.out = self._new_outputs(xp, dt)
            self.counts = self._refcounts()  # with no local names bound to the outputs, as when checked
        flat, extra, _, views = self.out
        return flat, extra, [list(v) for v in views]


class _AdamPlan(_TablePlan):
    """adam_multi's plan: rows (p, m1, m2, lr, b1^t, b2^t, n, offset); its extra output the new beta powers."""

    def __init__(self, xp, dt, state, write_pows, chunk, key):
        params, m1s, m2s, lrs, b1ps, b2ps = state
        super().__init__(xp, dt, (params, m1s, m2s), (lrs, b1ps, b2ps), (), chunk, key)
        self.write_pows, self.b1ps, self.b2ps = write_pows, list(b1ps), list(b2ps)
        # each tensor's beta powers its own (updating_in_place writes them there)
        self.distinct_pows = len({id(b) for b in (*b1ps, *b2ps)}) == 2 * len(params)

    def _new_outputs(self, xp, dt):
        flat, _, made, views = super()._new_outputs(xp, dt)
        pows = xp.empty((2 * len(self.sizes),), dtype=np.float32)
        if self.write_pows:
            views += [[pows[2 * i:2 * i + 1].reshape(b.shape) for i, b in enumerate(self.b1ps)],
                      [pows[2 * i + 1:2 * i + 2].reshape(b.shape) for i, b in enumerate(self.b2ps)]]
            made += [pows, *(v for lst in views[3:] for v in lst)]
        else:
            views += [self.b1ps, self.b2ps]
            made.append(pows)
        return flat, pows, made, views


_PLANS = collections.OrderedDict()  # (kernel, array module, parameter ids, dtype, flags, chunk) -> _TablePlan
_MAX_PLANS = 4  # parameter groups alive at once (an optimizer with decayed and undecayed groups uses two)


def _plan(key, state, usable, make):
    """The kept plan of `key` for arrays `state`, else a new one made by `make()` (kept when cacheable) if
    `usable()` (the arrays' dtypes and shapes, checked once per plan); None when not."""
    plan = _PLANS.get(key)
    if plan is not None and plan.matches(state):
        _PLANS.move_to_end(key)
        return plan
    if not usable():
        return None
    plan = make()
    if plan.cacheable:
        _PLANS[key] = plan
        while len(_PLANS) > _MAX_PLANS:
            _PLANS.popitem(last=False)
    return plan


def _list_types(params):
    """(dtype, kernel suffix) of a list update's parameters; suffix None when there are none or no kernel takes
    their dtype."""
    return (None, None) if not params else (params[0].dtype, suffix(params[0].dtype))


def _grad_pointers(xp, grads, dt, shapes):
    """The gradients' addresses as a device array (they change every step), with the arrays they point into;
    None when a gradient's dtype or shape is not its parameter's."""
    if any(g.dtype != dt or g.shape != s for g, s in zip(grads, shapes)):
        return None
    grads = [xp.ascontiguousarray(g) for g in grads]
    return xp.asarray(np.fromiter(map(ptr, grads), np.int64, len(grads))), grads


def adam_multi(xp, params, grads, lrs, m1s, m2s, b1ps, b2ps, beta1, beta2, epsilon, coeff, write_pows, chunk=None):
    """All parameters in one launch; outputs are views into one flat buffer per output slot."""
    n_t, (dt, sfx) = len(params), _list_types(params)
    if sfx is None:
        return None
    chunk = chunk or ADAM_CHUNK
    state = (params, m1s, m2s, lrs, b1ps, b2ps)

    def usable():
        return all(a.dtype == dt and a.shape == params[i].shape for i in range(n_t) for a in (m1s[i], m2s[i])) \
            and all(b.dtype == np.float32 for b in (*b1ps, *b2ps))

    key = ("adam", xp.__name__, tuple(map(id, params)), sfx, bool(write_pows), chunk)
    plan = _plan(key, state, usable, lambda: _AdamPlan(xp, dt, state, bool(write_pows), chunk, key))
    got = None if plan is None else _grad_pointers(xp, grads, dt, plan.shapes)
    if got is None:
        return None
    gptrs, grads = got
    in_place = _in_place[0] and plan.cacheable  # cacheable: the table points at the given arrays themselves
    flat, pows, outs = plan.outputs(xp, dt)
    kernel("optimizer", f"adam_multi_{sfx}")(
        (max(1, min(plan.nchunks, sm_count() * 4)),), (THREADS,),
        (plan.table, gptrs, *flat, pows, i64(n_t), i64(plan.nchunks), i64(chunk), f32(beta1), f32(beta2),
         f32(epsilon), f32(coeff), i32(bool(write_pows)), i32(in_place)))
    if not in_place:
        return outs
    outs[:3] = [list(params), list(m1s), list(m2s)]
    if write_pows and plan.distinct_pows:
        kernel("optimizer", "adam_pows_in_place")((1,), (THREADS,), (plan.table, pows, i64(n_t)))
        outs[3:] = [list(b1ps), list(b2ps)]
    return outs


def momentum_multi(xp, params, grads, velocities, lrs, l2_coeffs, mu, use_nesterov, rescale_grad, chunk=None):
    """Momentum (velocities given) or SGD (velocities None: p' = p - lr g) over every parameter in one launch; the
    outputs ([p'], and [v'] with velocities) are views into one flat buffer per output slot, or the given arrays
    themselves when updating in place."""
    n_t, (dt, sfx) = len(params), _list_types(params)
    if sfx is None:
        return None
    tensors = (params,) if velocities is None else (params, velocities)

    def usable():
        return all(a.dtype == dt and a.shape == params[i].shape for lst in tensors for i, a in enumerate(lst)) \
            and all(lr.dtype == np.float32 for lr in lrs)

    chunk = chunk or ADAM_CHUNK
    # a row: p, [v,] lr, [l2 coefficient's float32 bits,] n, offset
    columns = () if velocities is None else ([int(np.float32(c).view(np.int32)) for c in l2_coeffs],)
    key = ("momentum", xp.__name__, tuple(map(id, params)), sfx, velocities is None, tuple(map(tuple, columns)), chunk)
    plan = _plan(key, (*tensors, lrs), usable, lambda: _TablePlan(xp, dt, tensors, (lrs,), columns, chunk, key))
    got = None if plan is None else _grad_pointers(xp, grads, dt, plan.shapes)
    if got is None:
        return None
    gptrs, grads = got
    in_place = _in_place[0] and plan.cacheable
    # in place the kernel writes where the table points: the output arguments are unused, no buffers are made
    flat, _, outs = ([params[0]], None, None) if in_place else plan.outputs(xp, dt)
    kernel("optimizer", f"momentum_multi_{sfx}")(
        (max(1, min(plan.nchunks, sm_count() * 4)),), (THREADS,),
        (plan.table, gptrs, flat[0], flat[-1], i64(n_t), i64(plan.nchunks), i64(chunk), i32(velocities is not None),
         f32(mu), f32(rescale_grad), i32(bool(use_nesterov)), i32(in_place)))
    return [list(lst) for lst in tensors] if in_place else outs


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
        # one element per thread and step: more blocks than one wave, for the loads in flight
        kernel("optimizer", f"{name}_{sfx}")((blocks(n, THREADS, per_sm=16),), (THREADS,),
                                             (*ins, *(scalar_f32(xp, s) for s in scalars), *outs, i64(n), *attrs))
    return tuple(outs)
