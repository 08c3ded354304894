"""Both modes agree: for every registry op case (tests/op_cases), the static gradients (gradients() +
Executor) equal the eager ones on the same float64 inputs, and so do second-order gradients
(gradients of gradients) for ops declaring double_grad."""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import static
from paddlelite.ops import apply, get_op
from paddlelite.ops.registry import all_ops
from tests.op_cases import diff_outputs as _diff_outputs, grad_slots as _grad_slots, load_cases

CASES = load_cases()
ALL = [c for cs in CASES.values() for c in cs if not c.eager_only]
DOUBLE = [c for c in ALL if c.double and get_op(c.op).double_grad]


def _cotangents(shapes, seed):
    g = np.random.default_rng(seed)
    return [g.uniform(-1, 1, size=s) for s in shapes]


def _weighted_sum(values, weights, prefix, feed):
    """sum_k sum(values[k] * w_k) with each weight fed as data '<prefix>_<k>' of the value's dtype."""
    terms = []
    for k, (v, w) in enumerate(zip(values, weights)):
        wv = static.data(f"{prefix}_{k}", list(w.shape), v.dtype.name)
        feed[wv.name] = w.astype(v.dtype.name)
        terms.append(paddle.sum(v * wv))
    return sum(terms[1:], terms[0])


def _eager_outputs(op, case):
    """(the op's differentiable outputs run eagerly on the case, the inputs to differentiate)."""
    paddle.disable_static()
    slots = _grad_slots(op, case)
    tensors, flat = {}, []
    for slot, v in case.inputs.items():
        if v is None:
            tensors[slot] = None
            continue
        group = [paddle.to_tensor(np.asarray(e), stop_gradient=slot not in slots) for e in
                 (v if isinstance(v, list) else [v])]
        tensors[slot] = group if isinstance(v, list) else group[0]
        if slot in slots:
            flat.extend(group)
    return _diff_outputs(op, apply(op, *[tensors.get(s) for s in op.inputs], **case.attrs), case), flat


def _eager(op, case, double):
    douts, flat = _eager_outputs(op, case)
    ws = _cotangents([o.shape for o in douts], 1234)
    loss = sum(paddle.sum(o * paddle.to_tensor(w, dtype=o.dtype)) for o, w in zip(douts, ws))
    grads = paddle.grad(loss, flat, create_graph=double, allow_unused=True)
    first = [None if g is None else g.numpy() for g in grads]
    if not double:
        return first, None
    vs = _cotangents([g.shape for g in first if g is not None], 99)
    terms = [paddle.sum(g * paddle.to_tensor(v, dtype=g.dtype)) for g, v in
             zip([g for g in grads if g is not None], vs) if not g.stop_gradient]
    if not terms:
        return first, []
    second = paddle.grad(sum(terms), flat, allow_unused=True)
    return first, [None if g is None else g.numpy() for g in second]


def _static(op, case, double, place=None):
    shapes = [tuple(o.shape) for o in _eager_outputs(op, case)[0]]  # data-dependent dims are -1 in the program
    paddle.enable_static()
    slots = _grad_slots(op, case)
    main, startup = static.Program(), static.Program()
    feed, flat, vars_ = {}, [], {}
    with static.program_guard(main, startup):
        for slot, v in case.inputs.items():
            if v is None:
                vars_[slot] = None
                continue
            group = []
            for k, e in enumerate(v if isinstance(v, list) else [v]):
                e = np.asarray(e)
                name = f"in_{slot}_{k}"
                var = static.data(name, list(e.shape), e.dtype.name)
                var.stop_gradient = slot not in slots
                feed[name] = e
                group.append(var)
            vars_[slot] = group if isinstance(v, list) else group[0]
            if slot in slots:
                flat.extend(group)
        outs = apply(op, *[vars_.get(s) for s in op.inputs], **case.attrs)
        douts = _diff_outputs(op, outs, case)
        ws = _cotangents(shapes, 1234)
        loss = _weighted_sum(douts, ws, "w", feed)
        grads = static.gradients(loss, flat)
        fetch = [g for g in grads if g is not None]
        second = None
        if double:
            present = [g for g in grads if g is not None]
            vs = _cotangents([tuple(g.shape) for g in present], 99)
            second = static.gradients(_weighted_sum(present, vs, "v", feed), flat) if present else []
            fetch += [g for g in second if g is not None]
    exe = static.Executor(place if place is not None else paddle.CPUPlace())
    values = iter(exe.run(main, feed=feed, fetch_list=fetch, scope=static.Scope()))
    first = [None if g is None else next(values) for g in grads]
    if second is not None:
        second = [None if g is None else next(values) for g in second]
    return first, second


def _same(static_grads, eager_grads, case, what):
    assert len(static_grads) == len(eager_grads)
    for k, (s, e) in enumerate(zip(static_grads, eager_grads)):
        if s is None and e is None:
            continue
        ref = e if e is not None else np.zeros_like(s)
        got = s if s is not None else np.zeros_like(e)
        np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-12, err_msg=f"{case.id}: {what}, input {k}")


def test_every_differentiable_op_has_cases():
    """Static-vs-eager coverage follows the registry: a differentiable op without cases fails here."""
    missing = sorted(t for t, op in all_ops().items() if op.differentiable and t not in CASES)
    assert not missing, f"differentiable ops without cases in tests/op_cases (so unchecked in static mode): {missing}"


def test_there_are_cases():
    assert len(ALL) > 20 and DOUBLE


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_static_gradients_equal_eager(case):
    op = get_op(case.op)
    eager, _ = _eager(op, case, double=False)
    static_grads, _ = _static(op, case, double=False)
    _same(static_grads, eager, case, "first-order gradient")


@pytest.mark.parametrize("case", DOUBLE, ids=[c.id for c in DOUBLE])
def test_static_double_backward_equals_eager(case):
    op = get_op(case.op)
    _, eager2 = _eager(op, case, double=True)
    if not eager2:
        pytest.skip("first-order gradients do not depend on the inputs (linear op)")
    _, static2 = _static(op, case, double=True)
    _same(static2, eager2, case, "second-order gradient")


@pytest.mark.gpu
@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_static_gradients_on_gpu_match_cpu(case):
    """The same static program run by a GPU Executor (CuPy arrays, fused kernels) gives the CPU's gradients."""
    op = get_op(case.op)
    cpu, _ = _static(op, case, False)
    gpu, _ = _static(op, case, False, place=paddle.CUDAPlace(0))
    for k, (c, g) in enumerate(zip(cpu, gpu)):
        if c is None:
            assert g is None
        else:
            np.testing.assert_allclose(g, c, rtol=1e-7, atol=1e-9, err_msg=f"{case.id}: input {k}")
