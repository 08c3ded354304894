"""Optimizers against PyTorch's update math, clipping, regularization, schedulers, state, static mode."""
import math

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import nn
from paddlelite.optimizer import lr as lr_sched
from paddlelite.utils import unique_name
from tests.references import torch


def _problem(seed=0):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(6, 4)).astype(np.float32), rng.normal(size=(4, 3)).astype(np.float32),
            rng.normal(size=(3,)).astype(np.float32), rng.normal(size=(6, 3)).astype(np.float32))


def _run_paddle(make_opt, steps=4, clip=None, seed=0):
    x, w0, b0, y = _problem(seed)
    w = paddle.create_parameter([4, 3], "float32", default_initializer=nn.initializer.Assign(w0))
    b = paddle.create_parameter([3], "float32", default_initializer=nn.initializer.Assign(b0))
    opt = make_opt([w, b])
    xt, yt = paddle.to_tensor(x), paddle.to_tensor(y)
    for _ in range(steps):
        loss = ((paddle.matmul(xt, w) + b - yt) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    return w.numpy(), b.numpy(), opt


def _run_torch(make_opt, steps=4, clip=None, seed=0):
    x, w0, b0, y = _problem(seed)
    w = torch.tensor(w0, requires_grad=True)
    b = torch.tensor(b0, requires_grad=True)
    opt = make_opt([w, b])
    for _ in range(steps):
        loss = ((torch.from_numpy(x) @ w + b - torch.from_numpy(y)) ** 2).mean()
        loss.backward()
        if clip is not None:
            torch.nn.utils.clip_grad_norm_([w, b], clip)
        opt.step()
        opt.zero_grad()
    return w.detach().numpy(), b.detach().numpy()


CASES = {
    "sgd": (lambda p: paddle.optimizer.SGD(0.1, parameters=p), lambda p: torch.optim.SGD(p, 0.1)),
    "sgd_l2": (lambda p: paddle.optimizer.SGD(0.1, parameters=p, weight_decay=0.05),
               lambda p: torch.optim.SGD(p, 0.1, weight_decay=0.05)),
    "momentum": (lambda p: paddle.optimizer.Momentum(0.05, 0.9, parameters=p),
                 lambda p: torch.optim.SGD(p, 0.05, momentum=0.9)),
    "nesterov": (lambda p: paddle.optimizer.Momentum(0.05, 0.8, parameters=p, use_nesterov=True),
                 lambda p: torch.optim.SGD(p, 0.05, momentum=0.8, nesterov=True)),
    "momentum_l2": (lambda p: paddle.optimizer.Momentum(0.05, 0.9, parameters=p,
                                                        weight_decay=paddle.regularizer.L2Decay(0.1)),
                    lambda p: torch.optim.SGD(p, 0.05, momentum=0.9, weight_decay=0.1)),
    "adam": (lambda p: paddle.optimizer.Adam(0.01, parameters=p), lambda p: torch.optim.Adam(p, 0.01)),
    "adam_betas": (lambda p: paddle.optimizer.Adam(0.02, beta1=0.8, beta2=0.99, epsilon=1e-6, parameters=p),
                   lambda p: torch.optim.Adam(p, 0.02, betas=(0.8, 0.99), eps=1e-6)),
    "adam_l2": (lambda p: paddle.optimizer.Adam(0.01, parameters=p, weight_decay=0.1),
                lambda p: torch.optim.Adam(p, 0.01, weight_decay=0.1)),
    "adamw": (lambda p: paddle.optimizer.AdamW(0.01, parameters=p, weight_decay=0.1),
              lambda p: torch.optim.AdamW(p, 0.01, weight_decay=0.1)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_updates_match_torch(name):
    mk_p, mk_t = CASES[name]
    pw, pb, _ = _run_paddle(mk_p)
    tw, tb = _run_torch(mk_t)
    np.testing.assert_allclose(pw, tw, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(pb, tb, rtol=1e-5, atol=1e-6)


def test_global_norm_clip_matches_torch():
    pw, pb, _ = _run_paddle(lambda p: paddle.optimizer.SGD(0.1, parameters=p,
                                                           grad_clip=nn.ClipGradByGlobalNorm(0.5)))
    tw, tb = _run_torch(lambda p: torch.optim.SGD(p, 0.1), clip=0.5)
    np.testing.assert_allclose(pw, tw, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(pb, tb, rtol=1e-5, atol=1e-6)


def test_clip_by_norm_and_value():
    g = paddle.to_tensor(np.array([3.0, 4.0], np.float32))
    p = paddle.create_parameter([2], "float32")
    (_, out), = nn.ClipGradByNorm(1.0)([(p, g)])
    np.testing.assert_allclose(out.numpy(), [0.6, 0.8], rtol=1e-6)
    (_, out), = nn.ClipGradByValue(3.5, -1.0)([(p, g)])
    np.testing.assert_allclose(out.numpy(), [3.0, 3.5])
    p.need_clip = False
    (_, out), = nn.ClipGradByGlobalNorm(1.0)([(p, g)])
    assert out is g
    with pytest.raises(TypeError, match="grad_clip"):
        paddle.optimizer.SGD(0.1, parameters=[p], grad_clip=1.0)


def test_adam_is_one_merged_op_per_group(monkeypatch):
    from paddlelite.ops import dispatch
    seen = []
    orig = dispatch.apply

    def spy(op, *a, **k):
        seen.append(op.type)
        return orig(op, *a, **k)
    monkeypatch.setattr(dispatch, "apply", spy)
    _run_paddle(lambda p: paddle.optimizer.Adam(0.01, parameters=p), steps=1)
    assert seen.count("merged_adam") == 1 and "adam" not in seen


def test_param_lr_ratio_and_groups():
    x, w0, b0, y = _problem()
    w = paddle.create_parameter([4, 3], "float32", default_initializer=nn.initializer.Assign(w0),
                                attr=paddle.ParamAttr(learning_rate=0.5))
    w.grad = paddle.to_tensor(np.ones((4, 3), np.float32))
    paddle.optimizer.SGD(0.1, parameters=[w]).step()
    np.testing.assert_allclose(w.numpy(), w0 - 0.05, rtol=1e-6)
    a = paddle.create_parameter([2], "float32", default_initializer=nn.initializer.Constant(1.0))
    b = paddle.create_parameter([2], "float32", default_initializer=nn.initializer.Constant(1.0))
    for p in (a, b):
        p.grad = paddle.to_tensor(np.ones(2, np.float32))
    opt = paddle.optimizer.SGD(0.1, parameters=[{"params": [a]}, {"params": [b], "learning_rate": 2.0,
                                                                 "weight_decay": 0.5}])
    opt.step()
    np.testing.assert_allclose(a.numpy(), [0.9, 0.9], rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), [1 - 0.2 * 1.5] * 2, rtol=1e-6)
    with pytest.raises(ValueError, match="more than one"):
        paddle.optimizer.SGD(0.1, parameters=[{"params": [a]}, {"params": [a]}])


def test_argument_errors():
    p = paddle.create_parameter([2], "float32")
    with pytest.raises(AttributeError, match="parameters"):
        paddle.optimizer.Adam(0.1)
    with pytest.raises(TypeError, match="learning_rate"):
        paddle.optimizer.SGD("0.1", parameters=[p])
    with pytest.raises(TypeError, match="list"):
        paddle.optimizer.SGD(0.1, parameters=p)
    with pytest.raises(ValueError, match="beta1"):
        paddle.optimizer.Adam(0.1, beta1=1.5, parameters=[p])


def test_step_writes_into_storage_and_bumps_version():
    p = paddle.create_parameter([3], "float32", default_initializer=nn.initializer.Constant(1.0))
    before = p._data
    alias = p.detach()
    p.grad = paddle.to_tensor(np.ones(3, np.float32))
    v0 = p.inplace_version
    paddle.optimizer.SGD(0.5, parameters=[p]).step()
    assert p._data is before  # updated in place: a detached alias sees the new values, as in Paddle
    np.testing.assert_allclose(alias.numpy(), [0.5] * 3)
    assert p.inplace_version == alias.inplace_version == v0 + 1
    np.testing.assert_allclose(p.numpy(), [0.5] * 3)


def test_clear_grad_and_lr_get_set():
    pw, pb, opt = _run_paddle(lambda p: paddle.optimizer.SGD(0.1, parameters=p), steps=1)
    params = opt._parameter_list
    assert all(np.all(p.grad.numpy() == 0) for p in params)
    opt.clear_gradients(set_to_zero=False)
    assert all(p.grad is None for p in params)
    assert opt.get_lr() == 0.1
    opt.set_lr(0.2)
    assert opt.get_lr() == 0.2
    sched = lr_sched.StepDecay(0.1, 2)
    opt2 = paddle.optimizer.SGD(sched, parameters=params)
    with pytest.raises(RuntimeError, match="LRScheduler"):
        opt2.set_lr(0.3)


def test_minimize_uses_existing_gradients():
    x, w0, b0, y = _problem()
    w = paddle.create_parameter([4, 3], "float32", default_initializer=nn.initializer.Assign(w0))
    opt = paddle.optimizer.SGD(0.1, parameters=[w])
    loss = (paddle.matmul(paddle.to_tensor(x), w) ** 2).mean()
    loss.backward()
    g = w.grad.numpy()
    _, params_grads = opt.minimize(loss)
    assert params_grads[0][0] is w
    np.testing.assert_allclose(w.numpy(), w0 - 0.1 * g, rtol=1e-6)


def test_state_dict_round_trip_resumes_exactly(tmp_path):
    mk = lambda p: paddle.optimizer.Adam(lr_sched.StepDecay(0.01, 1, 0.5), parameters=p)  # noqa: E731
    x, w0, b0, y = _problem()

    def make():
        w = paddle.create_parameter([4, 3], "float32", default_initializer=nn.initializer.Assign(w0))
        return w, mk([w])

    def step(w, opt):
        loss = (paddle.matmul(paddle.to_tensor(x), w) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        opt._learning_rate.step()

    w1, o1 = make()
    step(w1, o1)
    step(w1, o1)
    state = o1.state_dict()
    assert "LR_Scheduler" in state and state["LR_Scheduler"]["last_epoch"] == 2
    assert any(k.endswith("_moment1_0") for k in state) and any(k.endswith("_beta1_pow_acc_0") for k in state)
    paddle.save(state, str(tmp_path / "opt.pdopt"))
    w2, o2 = make()
    w2._data = w1._data.copy()
    loaded = paddle.load(str(tmp_path / "opt.pdopt"))
    # accumulators are named after the parameter: rename to the new parameter's name
    renamed = {k.replace(w1.name, w2.name): v for k, v in loaded.items()}
    o2.set_state_dict(renamed)
    assert o2.get_lr() == o1.get_lr()
    step(w1, o1)
    step(w2, o2)
    np.testing.assert_array_equal(w1.numpy(), w2.numpy())


# ---- schedulers --------------------------------------------------------------------------------------
def _trace(s, n):
    out = []
    for _ in range(n):
        out.append(s())
        s.step()
    return out


def _torch_trace(make, n):
    p = torch.zeros(1, requires_grad=True)
    o = torch.optim.SGD([p], 0.1)
    s = make(o)
    out = []
    for _ in range(n):
        out.append(o.param_groups[0]["lr"])
        o.step()
        s.step()
    return out


@pytest.mark.parametrize("ours,theirs", [
    (lambda: lr_sched.StepDecay(0.1, 3, 0.5), lambda o: torch.optim.lr_scheduler.StepLR(o, 3, 0.5)),
    (lambda: lr_sched.MultiStepDecay(0.1, [2, 5], 0.1),
     lambda o: torch.optim.lr_scheduler.MultiStepLR(o, [2, 5], 0.1)),
    (lambda: lr_sched.ExponentialDecay(0.1, 0.9), lambda o: torch.optim.lr_scheduler.ExponentialLR(o, 0.9)),
    (lambda: lr_sched.CosineAnnealingDecay(0.1, 5, 0.01),
     lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, 5, 0.01)),
])
def test_schedulers_match_torch(ours, theirs):
    np.testing.assert_allclose(_trace(ours(), 14), _torch_trace(theirs, 14), rtol=1e-9, atol=1e-12)


def test_linear_warmup_and_state():
    s = lr_sched.LinearWarmup(lr_sched.StepDecay(0.1, 2, 0.5), warmup_steps=4, start_lr=0.0, end_lr=0.1)
    got = _trace(s, 8)
    np.testing.assert_allclose(got[:4], [0.0, 0.025, 0.05, 0.075])
    np.testing.assert_allclose(got[4:], [0.1, 0.1, 0.05, 0.05])
    state = s.state_dict()
    s2 = lr_sched.LinearWarmup(lr_sched.StepDecay(0.1, 2, 0.5), warmup_steps=4, start_lr=0.0, end_lr=0.1)
    s2.set_state_dict(state)
    assert s2.last_epoch == s.last_epoch and s2() == s()
    assert _trace(s2, 3) == _trace(s, 3)
    c = lr_sched.CosineAnnealingDecay(1.0, 10)
    c.step(5)
    assert abs(c() - 0.5) < 1e-12
    with pytest.raises(ValueError):
        lr_sched.StepDecay(0.1, 0)
    with pytest.raises(TypeError):
        lr_sched.ExponentialDecay("x", 0.5)


def test_scheduler_drives_optimizer_lr():
    p = paddle.create_parameter([1], "float32", default_initializer=nn.initializer.Constant(0.0))
    s = lr_sched.MultiStepDecay(1.0, [1], 0.1)
    opt = paddle.optimizer.SGD(s, parameters=[p])
    for expected in (-1.0, -1.1):
        p.grad = paddle.to_tensor(np.ones(1, np.float32))
        opt.step()
        s.step()
        np.testing.assert_allclose(p.numpy(), [expected], rtol=1e-6)


def test_noam_polynomial_piecewise():
    n = lr_sched.NoamDecay(64, 10)
    assert n() == 0.0  # Paddle: step 0 gives min(1, 0 * warmup^-1.5) = 0
    n.step()
    assert math.isclose(n(), 64 ** -0.5 * 10 ** -1.5)
    pw = lr_sched.PiecewiseDecay([2, 4], [1.0, 0.5, 0.1])
    assert _trace(pw, 6) == [1.0, 1.0, 0.5, 0.5, 0.1, 0.1]
    pd = lr_sched.PolynomialDecay(1.0, 4, end_lr=0.0, power=1.0)
    np.testing.assert_allclose(_trace(pd, 6), [1.0, 0.75, 0.5, 0.25, 0.0, 0.0])
    r = lr_sched.ReduceOnPlateau(1.0, patience=1, factor=0.5)
    for m in (1.0, 1.0, 1.0, 1.0):
        r.step(m)
    assert r() == 0.5


# ---- static mode: the same training as eager ---------------------------------------------------------
def _train(mode, make_opt, steps=5):
    x, _, _, y = _problem()
    with unique_name.guard():
        if mode == "eager":
            paddle.seed(11)
            model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
            opt = make_opt(model.parameters())
            losses = []
            for _ in range(steps):
                loss = nn.functional.mse_loss(model(paddle.to_tensor(x)), paddle.to_tensor(y))
                loss.backward()
                opt.step()
                opt.clear_grad()
                losses.append(float(loss))
            return losses
        paddle.enable_static()
        try:
            main, startup = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, startup):
                xv = paddle.static.data("x", [None, 4], "float32")
                yv = paddle.static.data("y", [None, 3], "float32")
                model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
                loss = nn.functional.mse_loss(model(xv), yv)
                opt = make_opt(None)
                ops, params_grads = opt.minimize(loss)
            assert all(op.attr("op_role") == 2 for op in ops)
            exe = paddle.static.Executor()  # on the device eager mode trains on: the same initialisation
            paddle.seed(11)
            exe.run(startup)
            return [float(exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss])[0]) for _ in range(steps)]
        finally:
            paddle.disable_static()


@pytest.mark.parametrize("make_opt", [
    lambda p: paddle.optimizer.SGD(0.1, parameters=p),
    lambda p: paddle.optimizer.Momentum(0.05, 0.9, parameters=p, weight_decay=0.01),
    lambda p: paddle.optimizer.Adam(0.01, parameters=p, grad_clip=nn.ClipGradByGlobalNorm(0.5)),
    lambda p: paddle.optimizer.AdamW(0.01, parameters=p, weight_decay=0.1),
    lambda p: paddle.optimizer.Adagrad(0.1, parameters=p, weight_decay=paddle.regularizer.L1Decay(0.01)),
    lambda p: paddle.optimizer.RMSProp(0.01, parameters=p, momentum=0.5, centered=True),
    lambda p: paddle.optimizer.Adamax(0.05, parameters=p),
    lambda p: paddle.optimizer.Adadelta(1.0, parameters=p, grad_clip=nn.ClipGradByValue(0.5)),
    lambda p: paddle.optimizer.Lamb(0.02, parameters=p),
    lambda p: paddle.optimizer.NAdam(0.02, parameters=p),
    lambda p: paddle.optimizer.RAdam(0.05, beta2=0.9, parameters=p),
    lambda p: paddle.optimizer.Rprop(0.01, parameters=p),
    lambda p: paddle.optimizer.ASGD(0.1, batch_num=3, parameters=p),
], ids=["sgd", "momentum", "adam_clip", "adamw", "adagrad_l1", "rmsprop", "adamax", "adadelta_clip", "lamb", "nadam",
        "radam", "rprop", "asgd"])
def test_static_matches_eager(make_opt):
    eager = _train("eager", make_opt)
    static = _train("static", make_opt)
    assert eager[-1] < eager[0]
    np.testing.assert_allclose(static, eager, rtol=1e-5)


def test_static_scheduler_updates_lr_var():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 2], "float32")
            lin = nn.Linear(2, 1, bias_attr=False)
            loss = paddle.mean(lin(x))
            sched = lr_sched.StepDecay(1.0, 1, 0.5)
            paddle.optimizer.SGD(sched).minimize(loss)
        exe = paddle.static.Executor("cpu")
        exe.run(startup)
        scope = paddle.static.global_scope()
        w0 = np.asarray(scope.find_var(lin.weight.name).get_tensor()).copy()
        feed = {"x": np.ones((1, 2), np.float32)}
        exe.run(main, feed=feed)
        sched.step()
        exe.run(main, feed=feed)
        w2 = np.asarray(scope.find_var(lin.weight.name).get_tensor())
        np.testing.assert_allclose(w2, w0 - 1.0 - 0.5, rtol=1e-6)
    finally:
        paddle.disable_static()
