"""paddle.amp's casting, against Paddle's documented semantics (its eager AMP on a GPU: paddle/fluid/eager/
amp_utils.h). Real Paddle turns auto_cast off on the CPU, so these expectations are recorded, not compared;
tests/test_amp_vs_paddle.py compares what Paddle's CPU build does run."""
import warnings

import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.nn.functional as F


def _x(*shape, seed=0):
    return paddle.to_tensor(np.random.RandomState(seed).randn(*shape).astype("float32"))


def _names(*tensors):
    return [t.dtype.name for t in tensors]


@pytest.mark.parametrize("low", ["float16", "bfloat16"])
def test_o1_white_black_and_grey_ops(low):
    x, w = _x(2, 3), _x(3, 3, seed=1)
    img, kernel = _x(1, 2, 5, 5), _x(4, 2, 3, 3, seed=2)
    lin = paddle.nn.Linear(3, 3)
    with paddle.amp.auto_cast(dtype=low):
        white = [paddle.matmul(x, w), lin(x), F.conv2d(img, kernel)]
        black = [paddle.exp(x), paddle.mean(x), F.softmax(x), paddle.sum(white[0]), F.layer_norm(white[0], [3])]
        grey_low = F.relu(white[0])  # its only input is low precision: it stays there
        grey_f32 = white[0] + x  # a float32 input promotes the op to float32
    assert _names(*white) == [low] * 3
    assert _names(*black) == ["float32"] * 5
    assert _names(grey_low, grey_f32) == [low, "float32"]
    assert x.dtype.name == "float32"  # inputs are cast, never changed


def test_o1_matmul_values_are_the_low_precision_product():
    x, w = _x(4, 8), _x(8, 5, seed=1)
    with paddle.amp.auto_cast():
        out = paddle.matmul(x, w)
    expected = x.numpy().astype(np.float16).astype(np.float32) @ w.numpy().astype(np.float16).astype(np.float32)
    np.testing.assert_allclose(out.numpy().astype(np.float32), expected, rtol=2e-3, atol=2e-3)


def test_gradients_return_in_the_parameters_dtype():
    x, w = _x(4, 3), _x(3, 2, seed=1)
    w.stop_gradient = False
    with paddle.amp.auto_cast():
        loss = paddle.mean(paddle.matmul(x, w))
    loss.backward()
    assert loss.dtype.name == "float32" and w.grad.dtype.name == "float32"
    expected = np.repeat(x.numpy().astype(np.float16).astype(np.float32).sum(0, keepdims=True).T / 8, 2, axis=1)
    np.testing.assert_allclose(w.grad.numpy(), expected, rtol=2e-3)


def test_backward_inside_auto_cast_runs_the_grad_ops_as_recorded():
    x, w = _x(4, 3), _x(3, 2, seed=1)
    grads = []
    for inside in (False, True):
        w.clear_gradient()
        w.stop_gradient = False
        with paddle.amp.auto_cast():
            loss = paddle.exp(paddle.matmul(x, w)).sum()
            if inside:
                loss.backward()
        if not inside:
            loss.backward()
        grads.append(w.grad.numpy().copy())
    np.testing.assert_array_equal(grads[0], grads[1])


def test_o2_promotes_grey_ops_and_keeps_its_short_black_list():
    x16 = _x(2, 3).astype("float16")
    x32 = _x(2, 3, seed=1)
    ids = paddle.to_tensor([[0, 2]])
    table = _x(4, 3, seed=2)
    with paddle.amp.auto_cast(level="O2"):
        got = [paddle.exp(x16), paddle.exp(x32), paddle.matmul(x32, x32.T), F.embedding(ids, table),
               F.softmax(x16)]
    # exp and softmax are black at O1 only; embedding (lookup_table_v2) stays float32 at O2 too
    assert _names(*got) == ["float16", "float32", "float16", "float32", "float16"]


def test_od_computes_only_white_ops_in_low_precision():
    x16 = _x(2, 3).astype("float16")
    with paddle.amp.auto_cast(level="OD"):
        got = [F.relu(x16), paddle.matmul(x16, x16.T)]
    assert _names(*got) == ["float32", "float16"]


def test_custom_lists_take_paddle_or_paddlelite_names():
    x = _x(3, 3)
    with paddle.amp.auto_cast(custom_white_list=["exp"], custom_black_list={"matmul_v2"}):
        got = [paddle.exp(x), paddle.matmul(x, x)]
    with paddle.amp.auto_cast(custom_black_list=["matmul"]):
        got.append(paddle.matmul(x, x))
    assert _names(*got) == ["float16", "float32", "float32"]


def test_nested_disabled_auto_cast_and_queries():
    x = _x(2, 2)
    with paddle.amp.auto_cast(dtype="bfloat16"):
        outer = [paddle.amp.is_autocast_enabled(), paddle.get_autocast_dtype(), paddle.get_autocast_gpu_dtype()]
        with paddle.amp.auto_cast(enable=False):
            inner = [paddle.is_autocast_enabled(), paddle.matmul(x, x).dtype.name]
        again = paddle.matmul(x, x).dtype.name
    assert outer == [True, "bfloat16", "bfloat16"]
    assert inner == [False, "float32"] and again == "bfloat16"
    assert not paddle.is_autocast_enabled()


def test_autocast_alias_and_level_o0():
    x = _x(2, 2)
    with paddle.autocast("cpu", dtype="bfloat16"):
        a = paddle.matmul(x, x)
    with paddle.amp.auto_cast(level="o0"):
        b = paddle.matmul(x, x)
        enabled = paddle.amp.is_autocast_enabled()
    assert _names(a, b) == ["bfloat16", "float32"] and not enabled


def test_auto_cast_is_also_a_decorator():
    @paddle.amp.auto_cast()
    def f(a):
        return paddle.matmul(a, a)

    assert f(_x(2, 2)).dtype.name == "float16"


def test_norms_cast_x_alone():
    x = _x(4, 3)
    bn = paddle.nn.BatchNorm1D(3)
    with paddle.amp.auto_cast(level="O2"):
        y = bn(x.astype("float16"))
    assert y.dtype.name == "float16" and bn.weight.dtype.name == "float32" and bn._mean.dtype.name == "float32"


# ---- static mode: the same dispatcher inserts cast ops into the program ----------------------------------
def _static_mlp_losses(steps, amp):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            paddle.seed(3)
            x = paddle.static.data("x", [8, 4], "float32")
            y = paddle.static.data("y", [8, 1], "float32")
            l1, l2 = paddle.nn.Linear(4, 16), paddle.nn.Linear(16, 1)
            with paddle.amp.auto_cast(enable=amp):
                h = F.relu(l1(x))
                loss = paddle.mean(paddle.square(l2(h) - y))
            paddle.optimizer.SGD(learning_rate=0.05).minimize(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        rng = np.random.RandomState(0)
        feed = {"x": rng.randn(8, 4).astype("float32"), "y": rng.randn(8, 1).astype("float32")}
        losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(steps)]
        return main, (h, loss), losses
    finally:
        paddle.disable_static()


def test_static_program_holds_the_casts_and_trains():
    main, (h, loss), losses = _static_mlp_losses(20, amp=True)
    types = [op.type for op in main.global_block().ops]
    first_linear = types.index("linear")
    assert types[:first_linear] == ["cast", "cast", "cast"]  # x, weight, bias to float16
    assert "cast" in types[first_linear + 1:types.index("reduce_mean")]  # float16 back to float32 for mean
    assert h.dtype.name == "float16" and loss.dtype.name == "float32"
    _, _, reference = _static_mlp_losses(20, amp=False)
    assert losses[-1] < 0.5 * losses[0]
    np.testing.assert_allclose(losses, reference, rtol=1e-2)


# ---- decorate ------------------------------------------------------------------------------------------
class _Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(3, 4)
        self.ln = paddle.nn.LayerNorm(4)
        self.bn = paddle.nn.BatchNorm1D(4)
        self.head = paddle.nn.Linear(4, 2)

    def forward(self, x):
        return self.head(self.bn(self.ln(self.fc(x))))


@pytest.mark.parametrize("low, ln_dtype", [("float16", "float32"), ("bfloat16", "bfloat16")])
def test_decorate_o2_casts_all_but_the_norms_paddle_keeps(low, ln_dtype):
    net = _Net()
    opt = paddle.optimizer.AdamW(parameters=net.parameters())
    got_net, got_opt = paddle.amp.decorate(net, opt, level="O2", dtype=low)
    assert got_net is net and got_opt is opt and opt._multi_precision
    assert _names(net.fc.weight, net.fc.bias, net.head.weight) == [low] * 3
    assert _names(net.ln.weight, net.ln.bias) == [ln_dtype] * 2
    assert _names(net.bn.weight, net.bn._mean, net.bn._variance) == ["float32"] * 3
    with paddle.amp.auto_cast(level="O2", dtype=low):
        out = net(_x(5, 3))
    assert out.dtype.name == low


def test_decorate_excluded_layers_master_weight_and_lists():
    nets = [_Net(), _Net()]
    opts = [paddle.optimizer.SGD(parameters=n.parameters(), multi_precision=True) for n in nets]
    got_nets, got_opts = paddle.amp.decorate(nets, opts, level="O2", master_weight=False,
                                             excluded_layers=[nets[0].head, paddle.nn.LayerNorm])
    assert got_nets is nets and got_opts is opts
    assert [o._multi_precision for o in opts] == [False, False]
    assert _names(nets[0].fc.weight, nets[0].head.weight, nets[1].head.weight) == ["float16", "float32", "float16"]


def test_decorate_save_dtype_changes_the_state_dict_only():
    net = paddle.amp.decorate(_Net(), level="O2", save_dtype="float32")
    state = net.state_dict()
    assert net.fc.weight.dtype.name == "float16"
    assert state["fc.weight"].dtype.name == "float32" and state["fc.weight"].name == net.fc.weight.name
    np.testing.assert_array_equal(state["fc.weight"].numpy(), net.fc.weight.numpy().astype(np.float32))
    assert state["bn._mean"].dtype.name == "float32"


@pytest.mark.parametrize("models, optimizers, error", [
    ("bad", None, TypeError), (["net", "bad"], None, RuntimeError), ("net", "bad", TypeError),
    ("net", ["bad"], RuntimeError),
])
def test_decorate_o2_rejects_what_is_not_a_layer_or_optimizer(models, optimizers, error):
    subst = {"net": _Net(), "bad": 3, None: None}
    models = [subst[m] for m in models] if isinstance(models, list) else subst[models]
    optimizers = [subst[o] for o in optimizers] if isinstance(optimizers, list) else subst[optimizers]
    with pytest.raises(error, match="model|optimizer"):
        paddle.amp.decorate(models, optimizers, level="O2")


def test_decorate_master_grad_gives_float32_gradients():
    net = _Net()
    opt = paddle.optimizer.Adam(parameters=net.parameters())
    net, opt = paddle.amp.decorate(net, opt, level="O2", master_grad=True)
    x = _x(5, 3)
    grads = []
    for _ in range(2):  # the second pass accumulates into the float32 gradient
        with paddle.amp.auto_cast(level="O2"):
            loss = net(x).astype("float32").mean()
        loss.backward()
        grads.append(net.fc.weight.grad.numpy().copy())
    assert net.fc.weight.dtype.name == "float16" and net.fc.weight.grad.dtype.name == "float32"
    assert net.ln.weight.grad.dtype.name == "float32"
    np.testing.assert_allclose(grads[1], 2 * grads[0], rtol=1e-3)
    opt.step()
    assert net.fc.weight.dtype.name == "float16"


# ---- master weights -----------------------------------------------------------------------------------
@pytest.mark.parametrize("opt_name, kwargs", [("SGD", {}), ("Momentum", {"momentum": 0.9}), ("Adam", {}),
                                              ("AdamW", {"weight_decay": 0.1}), ("Lamb", {})])
@pytest.mark.parametrize("low", ["float16", "bfloat16"])
def test_multi_precision_updates_a_float32_master(opt_name, kwargs, low):
    """The master follows exactly the float32 trajectory of the same gradients; the parameter is the master
    rounded to its dtype."""
    cls = getattr(paddle.optimizer, opt_name)
    init = paddle.to_tensor(np.random.RandomState(0).randn(4, 3).astype(np.float32)).astype(low)
    p = paddle.create_parameter([4, 3], low)
    p.set_value(init)
    ref = paddle.create_parameter([4, 3], "float32")
    ref.set_value(init.astype("float32"))
    opt = cls(learning_rate=0.01, parameters=[p], multi_precision=True, **kwargs)
    ref_opt = cls(learning_rate=0.01, parameters=[ref], **kwargs)
    for step in range(3):
        g = np.random.RandomState(step + 1).randn(4, 3).astype(low)
        p.grad = paddle.to_tensor(g)
        ref.grad = paddle.to_tensor(g.astype(np.float32))
        opt.step()
        ref_opt.step()
    master = opt.state_dict()["master_weights"][p.name]
    assert master.dtype.name == "float32" and p.dtype.name == low
    np.testing.assert_allclose(master.numpy(), ref.numpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(p.astype("float32").numpy(), master.astype(low).astype("float32").numpy())
    accumulators = [v for k, v in opt.state_dict().items() if k != "master_weights"]
    assert all(a.dtype.name == "float32" for a in accumulators)


def test_master_weights_survive_state_dict_round_trip():
    def make():  # the same parameter name each time: optimizer states are keyed by it
        with paddle.utils.unique_name.guard():
            p = paddle.create_parameter([3], "float16", default_initializer=paddle.nn.initializer.Constant(1.0))
        return p, paddle.optimizer.Adam(learning_rate=0.1, parameters=[p], multi_precision=True)

    p, opt = make()
    for _ in range(2):
        p.grad = paddle.to_tensor(np.array([1e-3, -1e-3, 5e-4], np.float16))
        opt.step()
    q, opt2 = make()
    q.set_value(p)
    opt2.set_state_dict(opt.state_dict())
    p.grad = q.grad = paddle.to_tensor(np.array([1e-3, -1e-3, 5e-4], np.float16))
    opt2.step()  # first: accumulators not created yet read the loaded state when they are (as Paddle's)
    opt.step()
    np.testing.assert_array_equal(opt.state_dict()["master_weights"][p.name].numpy(),
                                  opt2.state_dict()["master_weights"][q.name].numpy())


def test_without_multi_precision_low_precision_parameters_update_in_place():
    p = paddle.create_parameter([2], "float16", default_initializer=paddle.nn.initializer.Constant(1.0))
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[p])
    p.grad = paddle.to_tensor(np.array([1.0, 2.0], np.float16))
    opt.step()
    assert "master_weights" not in opt.state_dict()
    np.testing.assert_array_equal(p.numpy(), np.array([0.5, 0.0], np.float16))


# ---- training follows float32 ---------------------------------------------------------------------------
def _train_mlp(level=None, dtype="float16", scaler=False, steps=20):
    paddle.seed(7)
    rng = np.random.RandomState(0)
    x = paddle.to_tensor(rng.randn(64, 16).astype("float32"))
    y = paddle.to_tensor((rng.randn(64) > 0).astype("int64"))
    model = paddle.nn.Sequential(paddle.nn.Linear(16, 32), paddle.nn.ReLU(), paddle.nn.LayerNorm(32),
                                 paddle.nn.Linear(32, 2))
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    if level == "O2":
        model, opt = paddle.amp.decorate(model, opt, level="O2", dtype=dtype)
    grad_scaler = paddle.amp.GradScaler(init_loss_scaling=1024) if scaler else None
    losses = []
    for _ in range(steps):
        with paddle.amp.auto_cast(enable=level is not None, level=level or "O1", dtype=dtype):
            loss = F.cross_entropy(model(x), y)
        losses.append(float(loss))
        if grad_scaler:
            grad_scaler.scale(loss).backward()
            grad_scaler.step(opt)
            grad_scaler.update()
        else:
            loss.backward()
            opt.step()
        opt.clear_grad()
    return np.array(losses), model


# measured: largest relative deviation over 20 steps 5e-4 (O1 fp16), 1.6e-3 (O2 fp16), 1.5e-2 (O1 bf16),
# 1.8e-2 (O2 bf16); the loss falls from 1.13 to 0.17
@pytest.mark.parametrize("level, dtype, scaler, rtol", [
    ("O1", "float16", True, 5e-3), ("O2", "float16", True, 1e-2), ("O1", "bfloat16", False, 5e-2),
    ("O2", "bfloat16", False, 5e-2),
])
def test_mixed_precision_training_follows_float32(level, dtype, scaler, rtol):
    reference, _ = _train_mlp()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        losses, model = _train_mlp(level, dtype, scaler)
    assert reference[-1] < 0.2 * reference[0]
    np.testing.assert_allclose(losses, reference, rtol=rtol)
    expected_weight = dtype if level == "O2" else "float32"
    assert model[0].weight.dtype.name == expected_weight


def test_state_dict_hooks():
    net = paddle.nn.Linear(2, 2)
    handle = net.register_state_dict_hook(lambda sd: {k: v for k, v in sd.items() if k != "bias"})
    assert list(net.state_dict()) == ["weight"] and list(net.state_dict(use_hook=False)) == ["weight", "bias"]
    handle.remove()
    assert list(net.state_dict()) == ["weight", "bias"]


@pytest.mark.parametrize("opt_name", ["SGD", "Momentum", "Adam", "AdamW"])
def test_static_multi_precision_matches_eager(opt_name):
    """A static program keeps '<param>_fp32_master_0' (cast from the parameter by the startup program),
    updates it, casts it into the parameter: the same numbers as eager mode, accumulators named as Paddle's."""
    grads = [np.random.RandomState(i).randn(3).astype(np.float16) for i in range(3)]

    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            w = paddle.static.create_parameter([3], "float16", name="w",
                                               default_initializer=paddle.nn.initializer.Constant(0.5))
            g = paddle.static.data("g", [3], "float16")
            opt = getattr(paddle.optimizer, opt_name)(learning_rate=0.1, multi_precision=True)
            opt.minimize((w * g).astype("float32").sum())
        assert [op.type for op in startup.global_block().ops][:2] == ["fill_constant", "cast"]
        assert [op.type for op in main.global_block().ops][-1] == "cast"
        persistable = [v.name for v in main.global_block().vars.values() if v.persistable]
        assert "w_fp32_master_0" in persistable and not [n for n in persistable if "master_0_" in n]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        for gr in grads:
            static_w, static_master = exe.run(main, feed={"g": gr}, fetch_list=[w, "w_fp32_master_0"])
    finally:
        paddle.disable_static()
    w = paddle.create_parameter([3], "float16", name="w", default_initializer=paddle.nn.initializer.Constant(0.5))
    opt = getattr(paddle.optimizer, opt_name)(learning_rate=0.1, parameters=[w], multi_precision=True)
    for gr in grads:
        (w * paddle.to_tensor(gr)).astype("float32").sum().backward()
        opt.step()
        opt.clear_grad()
    assert static_w.dtype == np.float16 and static_master.dtype == np.float32
    np.testing.assert_array_equal(static_w, w.numpy())
    np.testing.assert_allclose(static_master, opt.state_dict()["master_weights"]["w"].numpy(), rtol=1e-6)


def test_to_static_traces_one_program_per_autocast_rule():
    lin = paddle.nn.Linear(3, 2)

    @paddle.jit.to_static
    def f(x):
        return F.relu(lin(x))

    x = _x(4, 3)
    plain = f(x)
    with paddle.amp.auto_cast():
        low = f(x)
    with paddle.amp.auto_cast(dtype="bfloat16"):
        bf = f(x)
    assert _names(plain, low, bf, f(x)) == ["float32", "float16", "bfloat16", "float32"]
    low.astype("float32").sum().backward()
    assert lin.weight.grad.dtype.name == "float32"
