"""Executor, Scope and plans: feeds, fetches, caching/invalidation, freeing, errors, training steps."""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import static
from paddlelite.static.executor import Plan
from tests.differential import differential


def _mlp(hidden=4):
    x = static.data("x", [None, 3], "float32")
    y = static.data("y", [None, 1], "float32")
    h = static.nn.fc(x, size=hidden, activation="relu")
    pred = static.nn.fc(h, size=1)
    loss = paddle.mean(paddle.square(pred - y))
    return x, y, pred, loss


def test_startup_initialises_parameters_in_the_scope(prog):
    main, startup = prog
    _mlp()
    scope = static.Scope()
    exe = static.Executor(paddle.CPUPlace())
    exe.run(startup, scope=scope)
    w = np.array(scope.find_var("fc_0.w_0").get_tensor())
    b = np.array(scope.find_var("fc_0.b_0").get_tensor())
    assert w.shape == (3, 4) and w.dtype == np.float32
    limit = np.sqrt(6 / 7)
    assert np.all(np.abs(w) <= limit) and np.any(w != 0)
    np.testing.assert_array_equal(b, np.zeros(4, np.float32))
    assert scope.find_var("nope") is None


def test_global_scope_is_the_default(prog):
    main, startup = prog
    _mlp()
    exe = static.Executor()
    exe.run(startup)
    assert static.global_scope().find_var("fc_1.w_0") is not None
    t = static.global_scope().find_var("fc_1.w_0").get_tensor()
    assert t.shape() == [4, 1] and t._is_initialized()
    t.set(np.full((4, 1), 2.0, np.float32), paddle.CPUPlace())
    np.testing.assert_array_equal(np.array(t), np.full((4, 1), 2.0))


def test_scope_guard():
    s = static.Scope()
    with static.scope_guard(s):
        assert static.global_scope() is s
    assert static.global_scope() is not s


def test_forward_values_and_fetch_by_name_or_variable(prog):
    main, startup = prog
    x, y, pred, loss = _mlp()
    exe = static.Executor()
    scope = static.Scope()
    exe.run(startup, scope=scope)
    xv = np.random.default_rng(0).random((5, 3), dtype=np.float32)
    yv = np.ones((5, 1), np.float32)
    a, b, w = exe.run(main, feed={"x": xv, "y": yv}, fetch_list=[pred, loss.name, "fc_0.w_0"], scope=scope)
    W0, b0, W1, b1 = (np.array(scope.find_var(n).get_tensor()) for n in ["fc_0.w_0", "fc_0.b_0", "fc_1.w_0", "fc_1.b_0"])
    ref = np.maximum(xv @ W0 + b0, 0) @ W1 + b1
    np.testing.assert_allclose(a, ref, rtol=1e-5)
    np.testing.assert_allclose(b, np.mean((ref - yv) ** 2), rtol=1e-5)
    assert b.shape == () and isinstance(b, np.ndarray)
    np.testing.assert_array_equal(w, W0)


def test_fetch_gradients_by_variable_and_name(prog):
    main, startup = prog
    x, y, pred, loss = _mlp()
    pg = static.append_backward(loss)
    exe = static.Executor()
    exe.run(startup)
    xv = np.ones((2, 3), np.float32)
    out1 = exe.run(main, feed={"x": xv, "y": xv[:, :1]}, fetch_list=[g for _, g in pg])
    out2 = exe.run(main, feed={"x": xv, "y": xv[:, :1]}, fetch_list=[g.name for _, g in pg])
    for a, b, (p, _) in zip(out1, out2, pg):
        np.testing.assert_array_equal(a, b)
        assert a.shape == p.shape


def test_return_numpy_false(prog):
    main, startup = prog
    x = static.data("x", [2], "float32")
    y = x * 2.0
    (t,) = static.Executor().run(main, feed={"x": np.ones(2, np.float32)}, fetch_list=[y], return_numpy=False)
    np.testing.assert_array_equal(np.array(t), [2.0, 2.0])
    assert t.shape() == [2]


def test_feed_errors_name_the_variable(prog):
    main, _ = prog
    x = static.data("x", [None, 3], "float32")
    y = x * 2.0
    exe = static.Executor()
    # a feed the program has no variable for is ignored, as in Paddle
    (out,) = exe.run(main, feed={"x": np.ones((1, 3), np.float32), "nope": np.ones(1)}, fetch_list=[y])
    np.testing.assert_array_equal(out, [[2, 2, 2]])
    with pytest.raises(ValueError, match="'x' should have shape \\[-1, 3\\]"):
        exe.run(main, feed={"x": np.ones((3, 3, 1), np.float32)}, fetch_list=[y])
    with pytest.raises(ValueError, match="'x' should have shape"):
        exe.run(main, feed={"x": np.ones((2, 4), np.float32)}, fetch_list=[y])
    with pytest.raises(ValueError, match="data type of fed variable 'x' must be float32"):
        exe.run(main, feed={"x": np.ones((2, 3), np.float64)}, fetch_list=[y])
    with pytest.raises(ValueError, match="data variable 'x' was not fed"):
        exe.run(main, feed={}, fetch_list=[y])
    with pytest.raises(TypeError, match="feed must be a dict"):
        exe.run(main, feed=[1], fetch_list=[y])
    # python lists are converted to the variable's dtype
    (out,) = exe.run(main, feed={"x": [[1, 2, 3]]}, fetch_list=[y])
    np.testing.assert_array_equal(out, [[2, 4, 6]])


def test_fetch_errors(prog):
    main, _ = prog
    static.data("x", [2], "float32")
    exe = static.Executor()
    with pytest.raises(ValueError, match="'missing' is not in the program"):
        exe.run(main, feed={"x": np.ones(2, np.float32)}, fetch_list=["missing"])
    with pytest.raises(TypeError, match="fetch_list"):
        exe.run(main, feed={"x": np.ones(2, np.float32)}, fetch_list=[3])


def test_uninitialised_parameter_error(prog):
    main, _ = prog
    x, y, pred, loss = _mlp()
    with pytest.raises(RuntimeError, match="run the startup program"):
        static.Executor().run(main, feed={"x": np.ones((1, 3), np.float32), "y": np.ones((1, 1), np.float32)},
                              fetch_list=[loss], scope=static.Scope())


def test_plan_is_cached_and_invalidated(prog):
    main, startup = prog
    x = static.data("x", [2], "float32")
    y = x * 2.0
    exe = static.Executor()
    feed = {"x": np.ones(2, np.float32)}
    exe.run(main, feed=feed, fetch_list=[y])
    plans = dict(exe._plans)
    assert len(plans) == 1
    exe.run(main, feed=feed, fetch_list=[y])
    assert exe._plans == plans                     # reused
    z = y + 1.0                                    # the program changes: a new plan
    (out,) = exe.run(main, feed=feed, fetch_list=[z])
    assert list(exe._plans) != list(plans) and len(exe._plans) == 1
    np.testing.assert_array_equal(out, [3.0, 3.0])
    z.op._set_attr("bias", 5.0)                    # attrs as stored are what runs
    (out,) = exe.run(main, feed=feed, fetch_list=[z])
    np.testing.assert_array_equal(out, [7.0, 7.0])


def test_plan_resolves_slots_and_frees_dead_temporaries(prog):
    main, startup = prog
    x, y, pred, loss = _mlp()
    static.append_backward(loss)
    plan = Plan(main, ["x", "y"], [loss.name], paddle.CPUPlace())
    freed = {plan.names[i] for step in plan.steps for i in step[-1]}
    assert "fc_0.tmp_0" in freed and "fc_0.w_0@GRAD" in freed
    assert loss.name not in freed and "fc_0.w_0" not in freed
    # every freed temporary is freed after its last reader
    for k, step in enumerate(plan.steps):
        for i in step[-1]:
            later = [s for s in plan.steps[k + 1:] if s[0] != 2 and (i in _flat(s[2]))]
            assert not later, plan.names[i]


def _flat(ins):
    out = []
    for i in ins:
        if isinstance(i, int):
            out.append(i)
        elif isinstance(i, list):
            out.extend(i)
    return out


def test_sgd_training_step_with_optimizer(prog):
    main, startup = prog
    x, y, pred, loss = _mlp(hidden=8)
    opt = paddle.optimizer.SGD(learning_rate=0.05)
    ops, pg = opt.minimize(loss)
    assert [op.type for op in ops if op.type == "sgd"] and all(op.attr("op_role") == 2 for op in ops)
    exe = static.Executor()
    scope = static.Scope()
    exe.run(startup, scope=scope)
    rng = np.random.default_rng(0)
    xv = rng.random((16, 3), dtype=np.float32)
    yv = xv.sum(1, keepdims=True)
    first = exe.run(main, feed={"x": xv, "y": yv}, fetch_list=[loss], scope=scope)[0]
    for _ in range(100):
        last = exe.run(main, feed={"x": xv, "y": yv}, fetch_list=[loss], scope=scope)[0]
    assert last < first * 0.2


def test_manual_sgd_step_matches_numpy(prog):
    main, startup = prog
    x = static.data("x", [4, 3], "float64")
    w = static.create_parameter([3, 1], "float64")
    loss = paddle.mean(paddle.matmul(x, w))
    ((p, g),) = static.append_backward(loss)
    lr = main.global_block().create_var(name="lr", shape=[1], dtype="float64", persistable=True)
    with main._optimized_guard():
        op = main.global_block().append_op(type="sgd", inputs={"Param": [p], "LearningRate": [lr], "Grad": [g]},
                                           outputs={"ParamOut": [p]})
    assert op.attr("op_role") == 2
    scope = static.Scope()
    exe = static.Executor()
    exe.run(startup, scope=scope)
    scope.var("lr").get_tensor().set(np.array([0.5]), paddle.CPUPlace())
    w0 = np.array(scope.find_var(w.name).get_tensor())
    xv = np.arange(12, dtype=np.float64).reshape(4, 3)
    exe.run(main, feed={"x": xv}, scope=scope)
    w1 = np.array(scope.find_var(w.name).get_tensor())
    np.testing.assert_allclose(w1, w0 - 0.5 * xv.mean(0, keepdims=True).T)


def test_backward_op_failure_names_forward_op_and_user_line(prog):
    main, startup = prog
    x = static.data("x", [None, 3], "float32")
    w = static.create_parameter([3, 2], "float32")
    out = paddle.matmul(x, w)   # <- the line the error must point at
    line = __import__("inspect").currentframe().f_lineno - 1
    loss = paddle.mean(out)
    static.append_backward(loss)
    grad_op = [op for op in main.global_block().ops if op.type == "matmul_v2_grad"][0]
    step = [op for op in grad_op.body() if op.attr("transpose_x")][0]
    step._set_attr("transpose_x", False)        # break it: shapes no longer contract
    exe = static.Executor()
    exe.run(startup)
    with pytest.raises(Exception) as info:
        exe.run(main, feed={"x": np.ones((5, 3), np.float32)}, fetch_list=[loss])
    msg = str(info.value)
    assert "gradient of op 'matmul_v2'" in msg and f"test_static_executor.py:{line}" in msg


def test_forward_op_failure_names_op_and_line(prog):
    main, _ = prog
    x = static.data("x", [None, 3], "float32")
    y = paddle.reshape(x, [-1, 3])
    line = __import__("inspect").currentframe().f_lineno - 1
    y.op._set_attr("shape", [7, 5])
    with pytest.raises(ValueError) as info:
        static.Executor().run(main, feed={"x": np.ones((2, 3), np.float32)}, fetch_list=[y])
    assert "op 'reshape'" in str(info.value) and f"test_static_executor.py:{line}" in str(info.value)


def test_cpu_places():
    assert static.cpu_places(2) == [paddle.CPUPlace(), paddle.CPUPlace()]


@pytest.mark.gpu
def test_gpu_executor_matches_cpu(prog):
    main, startup = prog
    x, y, pred, loss = _mlp()
    pg = static.append_backward(loss)
    cpu, gpu = static.Executor(paddle.CPUPlace()), static.Executor(paddle.CUDAPlace(0))
    s_cpu, s_gpu = static.Scope(), static.Scope()
    cpu.run(startup, scope=s_cpu)
    for p in main.global_block().all_parameters():
        s_gpu.var(p.name).get_tensor().set(np.array(s_cpu.find_var(p.name).get_tensor()), paddle.CUDAPlace(0))
    feed = {"x": np.random.rand(4, 3).astype(np.float32), "y": np.ones((4, 1), np.float32)}
    fetch = [loss] + [g for _, g in pg]
    for a, b in zip(cpu.run(main, feed=feed, fetch_list=fetch, scope=s_cpu),
                    gpu.run(main, feed=feed, fetch_list=fetch, scope=s_gpu)):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


@pytest.mark.gpu
def test_scope_values_move_to_the_executors_place(prog):
    """Scope values set on one device run under an executor of the other (the learning rate and parameters set
    on the CPU, then trained on the GPU, then on the CPU again): each is moved to the executor's place, as Paddle
    transfers a kernel's inputs."""
    main, startup = prog
    x, y, pred, loss = _mlp()
    paddle.optimizer.SGD(0.1).minimize(loss)
    cpu, gpu = static.Executor(paddle.CPUPlace()), static.Executor(paddle.CUDAPlace(0))
    ref, moved = static.Scope(), static.Scope()
    cpu.run(startup, scope=ref)
    for name in ref.local_var_names():
        moved.var(name).get_tensor().set(np.array(ref.find_var(name).get_tensor()), paddle.CPUPlace())
    feed = {"x": np.random.default_rng(0).random((4, 3), np.float32), "y": np.ones((4, 1), np.float32)}
    expected = [cpu.run(main, feed=feed, fetch_list=[loss], scope=ref)[0] for _ in range(3)]
    got = [exe.run(main, feed=feed, fetch_list=[loss], scope=moved)[0] for exe in (gpu, gpu, cpu)]
    np.testing.assert_allclose(got, expected, rtol=1e-5)


# ---- LR schedulers: the executor writes the current rate into the scope each run uses -------------
def _sched_net():
    x = static.data("x", [None, 2], "float32")
    lin = paddle.nn.Linear(2, 1, bias_attr=False)
    loss = paddle.mean(lin(x))
    sched = paddle.optimizer.lr.StepDecay(1.0, 1, 0.5)
    paddle.optimizer.SGD(sched).minimize(loss)
    return lin.weight.name, sched


@pytest.mark.parametrize("how", ["scope_arg", "scope_guard"])
def test_lr_scheduler_reaches_a_non_global_scope(prog, how):
    main, startup = prog
    wname, sched = _sched_net()
    assert main.lr_scheduler is sched
    scope = static.Scope()
    exe = static.Executor(paddle.CPUPlace())
    feed = {"x": np.ones((1, 2), np.float32)}   # d(loss)/dw = [1, 1]

    def run(p, **kw):
        if how == "scope_arg":
            return exe.run(p, scope=scope, **kw)
        with static.scope_guard(scope):
            return exe.run(p, **kw)

    run(startup)
    w0 = np.array(scope.find_var(wname).get_tensor())
    lr_name = sched._var_name
    glob = static.global_scope()
    before = {n: glob._values.get(n) for n in (wname, lr_name)}
    rates = []
    for _ in range(3):
        run(main, feed=feed)
        rates.append(float(np.array(scope.find_var(lr_name).get_tensor())))  # 0-D, as Paddle
        sched.step()
    assert rates == [1.0, 0.5, 0.25]
    w = np.array(scope.find_var(wname).get_tensor())
    np.testing.assert_allclose(w, w0 - 1.75, rtol=1e-6)
    # neither the runs nor the scheduler touched the global scope
    assert glob is not scope and all(glob._values.get(n) is v for n, v in before.items())


def test_lr_scheduler_survives_clone_and_set_state_dict(prog):
    main, startup = prog
    wname, sched = _sched_net()
    train = main.clone()
    assert train.lr_scheduler is sched and not hasattr(main.clone(for_test=True), "lr_scheduler")
    scope = static.Scope()
    exe = static.Executor(paddle.CPUPlace())
    exe.run(startup, scope=scope)
    sched.set_state_dict({"last_epoch": 3, "last_lr": 0.125})
    w0 = np.array(scope.find_var(wname).get_tensor())
    exe.run(train, feed={"x": np.ones((1, 2), np.float32)}, scope=scope)
    np.testing.assert_allclose(np.array(scope.find_var(wname).get_tensor()), w0 - 0.125, rtol=1e-6)


def test_bad_lr_scheduler_attribute_is_refused(prog):
    main, startup = prog
    _mlp()
    main.lr_scheduler = 0.1
    with pytest.raises(TypeError, match="lr_scheduler"):
        static.Executor().run(main, feed={"x": np.ones((1, 3), np.float32), "y": np.ones((1, 1), np.float32)},
                              scope=static.Scope())


@differential(rtol=1e-5, atol=1e-5)
def test_batch_norm_running_statistics_after_several_runs(paddle):
    """batch_norm writes MeanOut/VarianceOut in place into the running statistics (no assign ops); after three
    training steps the statistics and losses are Paddle's."""
    paddle.enable_static()
    rng = np.random.RandomState(0)
    main, startup = paddle.static.Program(), paddle.static.Program()

    def init(a):
        return paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(a.astype("float32")))
    with paddle.static.program_guard(main, startup):
        F = paddle.nn.functional
        x = paddle.static.data("x", [None, 1, 8, 8], "float32")
        y = paddle.static.data("y", [None, 1], "int64")
        conv = paddle.nn.Conv2D(1, 4, 3, padding=1, weight_attr=init(rng.randn(4, 1, 3, 3)),
                                bias_attr=init(rng.randn(4)))
        bn = paddle.nn.BatchNorm2D(4)
        h = paddle.flatten(F.max_pool2d(F.relu(bn(conv(x))), 2), 1)
        loss = F.cross_entropy(paddle.nn.Linear(64, 3, weight_attr=init(rng.randn(64, 3) * 0.1))(h), y)
        paddle.optimizer.SGD(0.1).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    runs = []
    for _ in range(3):
        feed = {"x": rng.randn(5, 1, 8, 8).astype("float32"), "y": rng.randint(0, 3, (5, 1)).astype("int64")}
        runs.append(exe.run(main, feed=feed, fetch_list=[loss, bn._mean, bn._variance]))
    return {"runs": runs, "assigns": sum(op.type == "assign" for op in main.global_block().ops)}
