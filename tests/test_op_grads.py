"""Registry-driven gradient tests: every differentiable op, numeric float64 vs analytic.

Cases live in tests/op_cases/<family>.py. For each case:
  * analytic gradients (eager autograd) match float64 central differences of the op's forward;
  * the same gradients come out when the inputs are non-contiguous views;
  * for ops declaring double_grad, d/dx <first-order grads, V> matches central differences of the
    first-order analytic gradients (so second-order grad makers are checked numerically too);
  * on a GPU (when present) the same case gives the CPU's outputs and gradients.
"""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.ops import apply, get_op
from paddlelite.framework.sparse import is_sparse
from paddlelite.ops.registry import all_ops
from tests.op_cases import diff_outputs as _diff_outputs, grad_slots as _grad_slots, load_cases

CASES = load_cases()
ALL = [c for cs in CASES.values() for c in cs]


def _weights(op, case, outs):
    """Fixed random cotangents, one per differentiable output element."""
    g = np.random.default_rng(1234)
    return [g.uniform(-1, 1, size=np.shape(e._data if isinstance(e, paddle.Tensor) else e))
            for e in _diff_outputs(op, outs, case)]


def _sparse_input(container, differentiated, place, make):
    """A sparse tensor holding `container`'s pattern whose values are a tensor of their own (the leaf the case
    differentiates): (the sparse tensor, the values tensor)."""
    values = paddle.to_tensor(make(np.asarray(container.values)), place=place, stop_gradient=not differentiated)
    pattern = paddle.Tensor(np.zeros(0), place=place)
    pattern._data = container.map_arrays(lambda a: pattern._place.xp.asarray(a))
    return apply(get_op("sparse_with_values"), values, pattern), values


def _to_tensors(case, slots, place, make=lambda a: a):
    tensors = {}
    for slot, v in case.inputs.items():
        if v is None:
            tensors[slot] = None
        elif is_sparse(v):
            tensors[slot] = _sparse_input(v, slot in slots, place, make)
        elif isinstance(v, list):
            tensors[slot] = [paddle.to_tensor(make(np.asarray(e)), place=place, stop_gradient=slot not in slots)
                             for e in v]
        else:
            tensors[slot] = paddle.to_tensor(make(np.asarray(v)), place=place, stop_gradient=slot not in slots)
    return tensors


def _flat_inputs(tensors, slots):
    """The tensors a case differentiates (a sparse input's values)."""
    flat = []
    for s in slots:
        v = tensors[s]
        flat.extend(v if isinstance(v, list) else [v[1]] if isinstance(v, tuple) else [v])
    return flat


def _op_inputs(tensors, op):
    return [v[0] if isinstance(v, tuple) else v for v in (tensors.get(s) for s in op.inputs)]


def _loss(op, case, outs, weights):
    total = None
    for o, w in zip(_diff_outputs(op, outs, case), weights):
        term = paddle.sum(o * paddle.to_tensor(w, dtype=o.dtype, place=o.place))
        if term.dtype.is_complex:  # the loss is real: Re(sum(o * w))
            term = paddle.real(term)
        total = term if total is None else total + term
    return total


def _eager(op, case, place=None, make=lambda a: a, create_graph=False):  # None: the current device
    slots = _grad_slots(op, case)
    tensors = _to_tensors(case, slots, place, make)
    outs = apply(op, *_op_inputs(tensors, op), **case.attrs)
    weights = _weights(op, case, outs)
    loss = _loss(op, case, outs, weights)
    inputs = _flat_inputs(tensors, slots)
    grads = paddle.grad(loss, inputs, create_graph=create_graph, allow_unused=True)
    return outs, inputs, grads, weights


def _numeric_value(op, case, arrays, weights):
    forward = case.surrogate or op.forward
    outs = forward(np, *[arrays.get(s) for s in op.inputs], **op.fill_attrs(case.attrs))
    return sum(float(np.real(np.sum(np.asarray(o) * w))) for o, w in zip(_diff_outputs(op, outs, case), weights))


def _numeric_grads(op, case, weights, value_fn=None):
    slots = _grad_slots(op, case)
    def copy(v, differentiated):
        def dtype(e):  # only differentiated inputs become float64 (complex128 when complex)
            return (np.complex128 if np.iscomplexobj(e) else np.float64) if differentiated else None
        if isinstance(v, list):
            return [np.array(e, dtype=dtype(e)) for e in v]
        if is_sparse(v):  # its values perturbed in place
            return v.with_values(np.array(v.values, dtype=dtype(v.values)))
        return None if v is None else np.array(v, dtype=dtype(v))

    arrays = {s: copy(v, s in slots) for s, v in case.inputs.items()}
    value_fn = value_fn or (lambda a: _numeric_value(op, case, a, weights))
    result = []
    for s in slots:
        targets = arrays[s] if isinstance(arrays[s], list) else [arrays[s].values if is_sparse(arrays[s]) else arrays[s]]
        for arr in targets:
            grad = np.zeros_like(arr)
            flat, gflat = arr.reshape(-1), grad.reshape(-1)
            # a complex input's gradient is dL/d(re) + i dL/d(im) (Paddle's convention)
            steps = (case.eps, 1j * case.eps) if np.iscomplexobj(arr) else (case.eps,)
            for i in range(flat.size):
                orig = flat[i]
                for step in steps:
                    flat[i] = orig + step
                    up = value_fn(arrays)
                    flat[i] = orig - step
                    down = value_fn(arrays)
                    flat[i] = orig
                    gflat[i] += (up - down) / (2 * case.eps) * (step / case.eps)
            result.append(grad)
    return result


def _check(analytic, numeric, case, what):
    assert len(analytic) == len(numeric)
    for k, (a, n) in enumerate(zip(analytic, numeric)):
        a = np.zeros_like(n) if a is None else a.numpy()
        np.testing.assert_allclose(a, n, rtol=case.rtol, atol=case.atol,
                                   err_msg=f"{case.id}: {what}, input {k}")


def test_every_differentiable_op_has_gradient_cases():
    missing = sorted(t for t, op in all_ops().items() if op.differentiable and t not in CASES)
    assert not missing, f"differentiable ops without gradient cases in tests/op_cases: {missing}"


def test_case_modules_mirror_ops_modules():
    """An op's cases live in tests/op_cases/<m>.py for the paddlelite/ops/<m>.py that declares it."""
    import importlib
    import pkgutil

    import paddlelite.ops
    from paddlelite.ops.registry import OpDef
    home = {}
    for m in pkgutil.iter_modules(paddlelite.ops.__path__):
        for v in vars(importlib.import_module(f"paddlelite.ops.{m.name}")).values():
            if isinstance(v, OpDef):
                home[v.type] = m.name
    misplaced = sorted(f"{c.id} in op_cases/{c.family}.py, op declared in ops/{home.get(op)}.py"
                       for op, cases in CASES.items() for c in cases if home.get(op) != c.family)
    assert not misplaced, misplaced


def test_cases_name_registered_ops():
    unknown = sorted(set(CASES) - set(all_ops()))
    assert not unknown, f"cases for unregistered ops: {unknown}"


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_gradient_matches_finite_differences(case):
    op = get_op(case.op)
    outs, _, grads, weights = _eager(op, case)
    for o in _diff_outputs(op, outs, case):
        assert o.dtype in (paddle.float64, paddle.complex128), f"{case.id}: float64 inputs must give float64 outputs"
    _check(grads, _numeric_grads(op, case, weights), case, "first-order gradient")


@pytest.mark.parametrize("case", [c for c in ALL if c.noncontiguous], ids=[c.id for c in ALL if c.noncontiguous])
def test_gradient_with_noncontiguous_inputs(case):
    op = get_op(case.op)

    def strided(a):
        """The same values as a non-contiguous view (every other element of a bigger buffer)."""
        if a.ndim == 0:
            return a
        buf = np.zeros(a.shape[:-1] + (a.shape[-1] * 2,), dtype=a.dtype)
        buf[..., ::2] = a
        view = buf[..., ::2]
        assert not view.flags.c_contiguous or a.shape[-1] <= 1
        return view

    base_outs, _, base, _ = _eager(op, case)
    outs, _, grads, _ = _eager(op, case, make=strided)
    for o1, o2 in zip(_diff_outputs(op, base_outs, case), _diff_outputs(op, outs, case)):
        np.testing.assert_allclose(o2.numpy(), o1.numpy(), rtol=1e-12, atol=1e-12)
    for a, b in zip(grads, base):
        if a is None or b is None:
            assert a is None and b is None
        else:
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)


DOUBLE = [c for c in ALL if c.double and get_op(c.op).double_grad]


@pytest.mark.parametrize("case", DOUBLE, ids=[c.id for c in DOUBLE])
def test_double_backward_matches_finite_differences(case):
    op = get_op(case.op)
    slots = _grad_slots(op, case)
    _, inputs, grads, weights = _eager(op, case, create_graph=True)
    vg = np.random.default_rng(99)
    vs = [None if g is None else vg.uniform(-1, 1, size=g.shape) for g in grads]
    second_loss = None
    for g, v in zip(grads, vs):
        if g is None or g.stop_gradient:
            continue  # first-order grad constant in the inputs
        term = paddle.sum(g * paddle.to_tensor(v, dtype=g.dtype, place=g.place))
        if term.dtype.is_complex:
            term = paddle.real(term)
        second_loss = term if second_loss is None else second_loss + term
    if second_loss is None:
        pytest.skip("first-order gradients do not depend on the inputs (linear op)")
    analytic = paddle.grad(second_loss, inputs, allow_unused=True)

    def first_order_dot_v(arrays):
        sub = type(case)(op=case.op, inputs=arrays, attrs=case.attrs, grad_inputs=tuple(slots), sign_free=case.sign_free)
        _, _, gs, _ = _eager(op, sub)
        return sum(float(np.real(np.sum(g.numpy() * v))) for g, v in zip(gs, vs) if g is not None)

    numeric = _numeric_grads(op, case, weights, value_fn=first_order_dot_v)
    _check(analytic, numeric, case, "second-order gradient")


@pytest.mark.gpu
@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_gpu_matches_cpu(case):
    op = get_op(case.op)
    cpu_outs, _, cpu_grads, _ = _eager(op, case, "cpu")
    gpu_outs, _, gpu_grads, _ = _eager(op, case, "gpu")
    for c, g in zip(_diff_outputs(op, cpu_outs, case), _diff_outputs(op, gpu_outs, case)):
        assert g.place.is_gpu_place()
        np.testing.assert_allclose(g.numpy(), c.numpy(), rtol=1e-7, atol=1e-9)
    for c, g in zip(cpu_grads, gpu_grads):
        if c is None:
            assert g is None
        else:
            np.testing.assert_allclose(g.numpy(), c.numpy(), rtol=1e-7, atol=1e-9)
