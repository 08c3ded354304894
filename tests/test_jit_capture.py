"""to_static steps ready for CUDA-graph capture: no host synchronisation inside a step (ops that read device
values on the host declare it: OpDef.host_sync, reported by Plan.host_syncs), and fixed input/output arrays
(static/executor.FixedStep) whose results the caller may keep."""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import nn
from paddlelite.framework.sparse import is_sparse
from paddlelite.ops.registry import DATA_DEPENDENT_SHAPE
from paddlelite.static.executor import FixedStep, Plan
from paddlelite.utils import unique_name


def _mlp():
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 10))


def _cnn():
    return nn.Sequential(nn.Conv2D(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2D(2), nn.Conv2D(4, 8, 3, padding=1),
                         nn.ReLU(), nn.MaxPool2D(2), nn.Flatten(), nn.Linear(8 * 2 * 2, 10))


class _Encoder(nn.Layer):
    def __init__(self):
        super().__init__()
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0), 2)
        self.head = nn.Linear(16, 10)

    def forward(self, x):
        return self.head(self.enc(x).mean(axis=1))


def _train_step(make, x):
    with unique_name.guard():
        model = paddle.jit.to_static(make())
    opt = paddle.optimizer.SGD(0.01, parameters=model.parameters())
    xt = paddle.to_tensor(x)
    y = paddle.to_tensor(np.arange(len(x)) % 10)

    def step():
        loss = nn.CrossEntropyLoss()(model(xt), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return model, step


_MODELS = {"mlp": (_mlp, (4, 16)), "cnn": (_cnn, (2, 1, 8, 8)), "encoder": (_Encoder, (2, 5, 16))}


@pytest.mark.parametrize("name", sorted(_MODELS))
def test_training_models_steps_have_no_host_syncs(name):
    make, shape = _MODELS[name]
    model, step = _train_step(make, np.random.default_rng(0).random(shape, dtype=np.float32))
    step()
    assert model.forward.host_syncs() == []
    assert model.forward.concrete_program.backward is not None  # the backward step was checked too


def test_nonzero_and_tensor_while_report_their_syncs():
    @paddle.jit.to_static
    def f(x):
        idx = paddle.nonzero(x > 0)
        i = paddle.zeros([1], "float32")
        while i < x.sum():  # a tensor predicate: the loop's condition is read on the host each step
            i = i + 1
        return idx, i

    f(paddle.to_tensor(np.array([1.0, -1.0, 2.0], dtype=np.float32)))
    syncs = {s.op_type: s for s in f.host_syncs()}
    assert set(syncs) == {"where_index", "while"}
    assert syncs["where_index"].reason == DATA_DEPENDENT_SHAPE
    assert "test_jit_capture.py" in syncs["where_index"].where  # the user's line


def test_attr_dependent_declarations():
    @paddle.jit.to_static
    def f(x, label, soft):
        hard = paddle.nn.functional.cross_entropy(x, label)
        loss = hard + paddle.nn.functional.cross_entropy(x, soft, soft_label=True) + x[:, 1:].sum() + x[x > 0].sum()
        return loss, paddle.histogram(x, bins=4), paddle.histogram(x, bins=4, min=0, max=1)

    x = paddle.to_tensor(np.random.default_rng(0).random((3, 4), dtype=np.float32), stop_gradient=False)
    f(x, paddle.to_tensor(np.array([0, 3, 1])), paddle.full([3, 4], 0.25))
    types = sorted(s.op_type for s in f.host_syncs())
    # hard labels are checked on the device (device.deferred_checks), soft ones need no check; x[mask] (Paddle's
    # masked_select) has a data-dependent size, its gradient has x's; x[:, 1:] is basic indexing; a histogram reads
    # the data's range on the host unless given one
    assert types == ["histogram", "masked_select"]


def test_executor_plan_reports_sub_block_syncs():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [3], "float32")
            out = paddle.static.nn.cond(x.sum() > 0, lambda: paddle.unique(x), lambda: x)
    finally:
        paddle.disable_static()
    plan = Plan(main, ["x"], [out.name], paddle.CPUPlace())
    # both branches' conditional blocks, and the unique inside the true branch's sub-block
    assert [s.op_type for s in plan.host_syncs()] == ["conditional_block", "unique", "conditional_block"]


def _linear_step():
    """A plan computing (x @ w, x * 2) with x fed by copy and w read in place."""
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [2, 2], "float32")
            w = paddle.static.data("w", [2, 2], "float32")
            outs = [paddle.matmul(x, w), x * 2.0]
    finally:
        paddle.disable_static()
    plan = Plan(main, ["x", "w"], [o.name for o in outs], paddle.CPUPlace())
    return FixedStep(plan, [True, False], fixed=True)


def test_fixed_step_keeps_its_addresses_and_results_do_not_alias():
    step = _linear_step()
    w = np.eye(2, dtype=np.float32)
    x1 = np.ones((2, 2), np.float32)
    first = step.run([x1, w])
    feed_buf, fetch_bufs = step.feed_buffers[0], list(step.fetch_buffers)
    assert feed_buf is not x1 and not np.shares_memory(feed_buf, x1)
    second = step.run([np.full((2, 2), 3.0, np.float32), w])
    # same arrays, same addresses: what a captured graph reads and writes
    assert step.feed_buffers[0] is feed_buf
    assert all(a is b for a, b in zip(step.fetch_buffers, fetch_bufs))
    np.testing.assert_array_equal(first[0], x1)  # the first results kept their values
    np.testing.assert_array_equal(first[1], 2 * x1)
    np.testing.assert_array_equal(second[1], np.full((2, 2), 6.0))
    for r in first + second:
        assert not any(np.shares_memory(r, b) for b in step.fetch_buffers + step.feed_buffers)
    x1[...] = 7  # the caller's input is not read after the call
    np.testing.assert_array_equal(step.feed_buffers[0], np.full((2, 2), 3.0))


def test_fixed_step_new_shape_gets_new_buffers():
    step = _linear_step()
    step.run([np.ones((2, 2), np.float32), np.eye(2, dtype=np.float32)])
    buf = step.feed_buffers[0]
    out = step.run([np.ones((3, 2), np.float32), np.eye(2, dtype=np.float32)])
    assert step.feed_buffers[0] is not buf and step.feed_buffers[0].shape == (3, 2)
    assert out[0].shape == (3, 2)


@pytest.fixture(params=[True, False], ids=["fixed_io", "cpu_default"])
def fixed_io(request, monkeypatch):
    """to_static steps traced with owned input/output arrays (as on a GPU), and with the CPU's default."""
    from paddlelite.jit import program
    monkeypatch.setattr(program, "fixed_io", [request.param])
    return request.param


def test_cpu_default_step_returns_the_fresh_results():
    step = _linear_step()
    step.fixed = False
    x = np.ones((2, 2), np.float32)
    out = step.run([x, np.eye(2, dtype=np.float32)])
    assert step.feed_buffers == [None, None] and step.fetch_buffers == [None, None]
    np.testing.assert_array_equal(out[1], 2 * x)


def test_to_static_results_survive_the_next_call(fixed_io):
    layer = paddle.jit.to_static(_mlp())
    a = paddle.to_tensor(np.ones((2, 16), np.float32), stop_gradient=False)
    b = paddle.to_tensor(np.zeros((2, 16), np.float32), stop_gradient=False)
    out_a = layer(a)
    kept = out_a.numpy().copy()
    out_b = layer(b)
    assert layer.forward.concrete_program.steps_at(a.place)[0].fixed is fixed_io
    np.testing.assert_array_equal(out_a.numpy(), kept)
    # both calls' saved intermediates are intact: each backward gives its own eager gradient
    (out_a.sum() + 2 * out_b.sum()).backward()
    ga, gb = a.grad.numpy(), b.grad.numpy()
    eager = _mlp()
    eager.set_state_dict(layer.state_dict())
    a2 = paddle.to_tensor(np.ones((2, 16), np.float32), stop_gradient=False)
    b2 = paddle.to_tensor(np.zeros((2, 16), np.float32), stop_gradient=False)
    (eager(a2).sum() + 2 * eager(b2).sum()).backward()
    np.testing.assert_allclose(ga, a2.grad.numpy(), rtol=1e-6)
    np.testing.assert_allclose(gb, b2.grad.numpy(), rtol=1e-6)


def test_views_of_inputs_survive_the_next_call(fixed_io):
    """A result or saved intermediate that is a view of an input must not see the next call's input."""
    w = paddle.to_tensor(np.arange(4, dtype=np.float32).reshape(2, 2), stop_gradient=False)

    @paddle.jit.to_static
    def f(x):
        flat = x.reshape([2, 2])  # a view of x, saved for matmul's backward
        return x.reshape([-1]), paddle.matmul(flat, w)

    x1 = paddle.to_tensor(np.ones(4, np.float32), stop_gradient=False)
    x2 = paddle.to_tensor(np.full(4, 5.0, np.float32), stop_gradient=False)
    r1, m1 = f(x1)
    f(x2)
    np.testing.assert_array_equal(r1.numpy(), np.ones(4))
    m1.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.full((2, 2), 2.0))  # x1's rows, not x2's


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(_MODELS))
def test_to_static_step_runs_without_host_sync_on_gpu(name):
    """The whole model step (forward, backward, SGD update) queues work without waiting for the device;
    the loss itself (hard labels, checked on the host) is computed outside the guarded region."""
    cupyx = pytest.importorskip("cupyx")
    make, shape = _MODELS[name]
    paddle.set_device("gpu")
    try:
        with unique_name.guard():
            model = paddle.jit.to_static(make())
        opt = paddle.optimizer.SGD(0.01, parameters=model.parameters())
        x = paddle.to_tensor(np.random.default_rng(0).random(shape, dtype=np.float32))
        for k in range(3):  # the first call traces (host work allowed); the later ones must not synchronise
            if k:
                with cupyx.allow_synchronize(False):
                    out = model(x)
                    out.sum().backward()
                    opt.step()
                    opt.clear_grad()
            else:
                model(x).sum().backward()
                opt.step()
                opt.clear_grad()
        assert np.isfinite(out.numpy()).all()
    finally:
        paddle.set_device("cpu")


def test_learning_rate_is_fed_in_place():
    """A scheduler's new rate is written into the one learning-rate array a step reads (a fixed address)."""
    layer = nn.Linear(2, 2)
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    opt = paddle.optimizer.SGD(sched, parameters=layer.parameters())
    rates = []
    for _ in range(2):
        layer(paddle.ones([1, 2])).sum().backward()
        opt.step()
        opt.clear_grad()
        (lr,) = [t for _, t in opt._lr_cache.values()]
        rates.append((lr, float(lr.numpy()[0])))
        sched.step()
    assert rates[0][0] is rates[1][0] and rates[0][0].data_ptr() == rates[1][0].data_ptr()
    np.testing.assert_allclose([r for _, r in rates], [0.1, 0.05], rtol=1e-6)


class _HostReadSpy(np.ndarray):
    """A NumPy array that records every read of its values by the host (bool(), int(), float(), an index,
    .item(), .tolist()); results of NumPy functions on it (0-D reductions included) are spies too."""

    reads = []

    def __array_wrap__(self, arr, context=None, return_scalar=False):
        return np.asarray(arr).view(_HostReadSpy)

    def _read(self, how):
        _HostReadSpy.reads.append(how)
        return np.asarray(self)

    def __bool__(self):
        return bool(self._read("bool"))

    def __int__(self):
        return int(self._read("int"))

    def __float__(self):
        return float(self._read("float"))

    def __index__(self):
        return self._read("index").__index__()

    def item(self, *args):
        return self._read("item").item(*args)

    def tolist(self):
        return self._read("tolist").tolist()


def _spy(v):
    if v is None:
        return None
    if is_sparse(v):  # a sparse container's arrays
        return v.map_arrays(_spy)
    return [_spy(e) for e in v] if isinstance(v, list) else np.asarray(v).view(_HostReadSpy)


# their NumPy series loop until converged (reading a flag each round); on CuPy cupyx.scipy.special runs.
# bce_loss checks its input range on the CPU only, as Paddle's CPU kernel (its GPU kernel asserts on the device).
_READS_ON_NUMPY_ONLY = {"i0", "i0e", "i1", "i1e", "bce_loss"}


def test_ops_that_read_values_on_the_host_declare_it():
    """Every op case's forward, run on arrays that record host reads: an op that reads declares host_sync."""
    from paddlelite.ops.registry import get_op
    from tests.op_cases import load_cases
    undeclared, ran = {}, 0
    for op_type, cases in load_cases().items():
        op = get_op(op_type)
        if op.forward is None or op_type in _READS_ON_NUMPY_ONLY:
            continue
        for case in cases:
            attrs = op.fill_attrs(case.attrs)
            _HostReadSpy.reads = []
            try:
                op.forward(np, *[_spy(case.inputs.get(s)) for s in op.inputs], **attrs)
            except RuntimeError:  # collective ops without a process group
                continue
            ran += 1
            if _HostReadSpy.reads and not op.host_sync_reason(attrs):
                undeclared.setdefault(op_type, set()).update(_HostReadSpy.reads)
    assert ran > 300
    assert undeclared == {}


def test_host_read_spy_sees_the_reads():
    x = _spy(np.array([1.0, -2.0]))
    _HostReadSpy.reads = []
    bool((x < 0).any()), float(x.sum()), int(x.max())
    assert _HostReadSpy.reads == ["bool", "float", "int"]
    _HostReadSpy.reads = []
    (x * 2 + np.exp(x)).reshape(2, 1) @ x.reshape(1, 2)
    assert _HostReadSpy.reads == []



class _SpyExecutor:
    """An Executor stand-in: runs a program's plan one op at a time on recording arrays, and collects the
    op types that read values on the host without declaring it."""

    undeclared = set()

    def __init__(self, place=None):
        self.place = paddle.CPUPlace()

    def run(self, program, feed=None, fetch_list=None, scope=None, **kwargs):
        plan = Plan(program, sorted(feed), [v.name for v in fetch_list], self.place)
        declared = {s.op_type for s in plan.host_syncs()}
        env = [None] * len(plan.names)
        for name, value in feed.items():
            env[plan.feed_idx[name]] = _spy(value)
        for step in plan.steps:
            _HostReadSpy.reads = []
            plan.run_steps([step], env)
            if _HostReadSpy.reads and step[5].type not in declared:
                _SpyExecutor.undeclared.add(step[5].type)
        return [np.asarray(env[i]) for i in plan.fetch_idx]


def test_grad_ops_that_read_values_on_the_host_declare_it(monkeypatch):
    """Each op case's static forward and backward program, run op by op on recording arrays: every op that
    reads values on the host (grad ops included) declares host_sync. On the CPU: the recording arrays are NumPy's."""
    from paddlelite import static
    from paddlelite.ops.registry import get_op
    from tests import test_static_vs_eager as both_modes
    paddle.set_device("cpu")
    monkeypatch.setattr(static, "Executor", _SpyExecutor)
    monkeypatch.setattr(_SpyExecutor, "undeclared", set())
    ran = 0
    for case in both_modes.ALL:
        if case.op in _READS_ON_NUMPY_ONLY:
            continue
        try:
            both_modes._static(get_op(case.op), case, double=False)
            ran += 1
        except RuntimeError:  # collective ops without a process group
            continue
        finally:
            paddle.disable_static()
    assert ran > 300
    assert _SpyExecutor.undeclared == set()
