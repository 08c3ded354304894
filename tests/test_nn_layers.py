"""nn.Layer machinery and the built-in layers: forward values against PyTorch / NumPy references."""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import nn
from paddlelite.utils import unique_name
from tests.references import torch

F = nn.functional


def t(a, stop_gradient=True):
    return paddle.to_tensor(np.asarray(a), stop_gradient=stop_gradient)


def rnd(*shape, seed=0):
    return np.random.default_rng(seed).normal(size=shape).astype(np.float32)


# ---- Layer machinery ---------------------------------------------------------------------------------
class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(8, 2)
        self.register_buffer("steps", t(np.zeros([1], np.float32)))
        self.register_buffer("scratch", t(np.zeros([1], np.float32)), persistable=False)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def test_parameter_names_follow_paddle():
    with unique_name.guard():
        lin = nn.Linear(3, 4)
        emb = nn.Embedding(10, 3)
        conv = nn.Conv2D(1, 2, 3)
        ln = nn.LayerNorm(4)
        lin2 = nn.Linear(4, 4, name="my_fc")  # Paddle's nn.Linear keeps generated names
        named = nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name="custom_w"))
    assert (lin.weight.name, lin.bias.name) == ("linear_0.w_0", "linear_0.b_0")
    assert emb.weight.name == "embedding_0.w_0"
    assert conv.weight.name == "conv2d_0.w_0" and conv.bias.name == "conv2d_0.b_0"
    assert ln.weight.name == "layer_norm_0.w_0" and ln.bias.name == "layer_norm_0.b_0"
    assert lin2.weight.name == "linear_1.w_0"
    assert nn.BatchNorm2D(2).full_name().startswith("batch_norm2d_")
    assert named.weight.name == "custom_w"
    assert lin.full_name() == "linear_0"


def test_parameters_sublayers_and_state_dict():
    m = MLP()
    names = [n for n, _ in m.named_parameters()]
    assert names == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert len(m.parameters()) == 4 and all(not p.stop_gradient for p in m.parameters())
    assert [n for n, _ in m.named_sublayers()] == ["fc1", "act", "fc2"]
    assert m.children() == [m.fc1, m.act, m.fc2]
    assert [n for n, _ in m.named_buffers()] == ["steps", "scratch"]
    sd = m.state_dict()
    # Paddle's order: own parameters and buffers, then sublayers; non-persistable buffers left out
    assert list(sd) == ["steps", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert sd["fc1.weight"] is m.fc1.weight


def test_set_state_dict_round_trip_and_errors():
    a, b = MLP(), MLP()
    x = t(rnd(5, 4))
    missing, unexpected = b.set_state_dict(a.state_dict())
    assert missing == [] and unexpected == []
    np.testing.assert_array_equal(a(x).numpy(), b(x).numpy())
    # numpy values work too, and the loaded arrays are copies
    state = {k: v.numpy() for k, v in a.state_dict().items()}
    state["extra"] = np.zeros(1)
    del state["fc2.bias"]
    missing, unexpected = b.load_dict(state)
    assert missing == ["fc2.bias"] and unexpected == ["extra"]
    with pytest.raises(ValueError, match="shape"):
        b.set_state_dict({"fc1.weight": np.zeros((2, 2), np.float32)})
    with pytest.raises(ValueError, match="dtype"):
        b.set_state_dict({"fc1.weight": np.zeros((4, 8), np.float64)})


def test_forward_hooks_and_removal():
    m = nn.Linear(3, 3)
    calls = []
    h1 = m.register_forward_pre_hook(lambda layer, inp: (inp[0] * 2,))
    h2 = m.register_forward_post_hook(lambda layer, inp, out: calls.append(out.shape) or out + 1)
    x = t(rnd(2, 3))
    ref = F.linear(x * 2, m.weight, m.bias) + 1
    np.testing.assert_allclose(m(x).numpy(), ref.numpy(), rtol=1e-6)
    assert calls == [[2, 3]]
    assert h1.remove() is True and h1.remove() is False
    h2.remove()
    np.testing.assert_allclose(m(x).numpy(), F.linear(x, m.weight, m.bias).numpy(), rtol=1e-6)


def test_train_eval_and_dropout():
    m = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
    assert m.training and m[1].training
    m.eval()
    assert not m.training and not m[1].training
    x = t(rnd(3, 4))
    np.testing.assert_array_equal(m(x).numpy(), m[0](x).numpy())
    m.train()
    paddle.seed(3)
    y = nn.Dropout(0.5)(t(np.ones((200, 50), np.float32))).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0} and 0.4 < (y == 0).mean() < 0.6


def test_setattr_rules_and_add_sublayer():
    m = nn.Layer()
    p = paddle.create_parameter([2, 2], "float32")
    m.w = p
    assert m.parameters() == [p]
    with pytest.raises(TypeError, match="parameter 'w'"):
        m.w = t(np.zeros((2, 2), np.float32))
    m.w = None
    assert m.parameters() == []
    sub = m.add_sublayer("lin", nn.Linear(2, 2))
    assert m.lin is sub and len(m.parameters()) == 2
    del m.lin
    assert m.parameters() == []
    with pytest.raises(ValueError, match="super"):
        class Bad(nn.Layer):
            def __init__(self):
                self.fc = nn.Linear(2, 2)
        Bad()


def test_layer_to_dtype_and_create_parameter_attrs():
    m = nn.Linear(3, 2)
    m.to(dtype="float64")
    assert m.weight.dtype == paddle.float64 and m.weight.name == "linear_%s.w_0" % m.full_name().split("_")[1]
    x = t(rnd(2, 3).astype(np.float64))
    assert m(x).dtype == paddle.float64
    p = paddle.create_parameter([3], "float32", attr=paddle.ParamAttr(
        name="pp", initializer=nn.initializer.Constant(2.5), learning_rate=0.5, trainable=False))
    assert p.name == "pp" and p.stop_gradient and p.optimize_attr["learning_rate"] == 0.5
    np.testing.assert_array_equal(p.numpy(), np.full(3, 2.5, np.float32))
    assert nn.Linear(2, 2, bias_attr=False).bias is None


def test_containers():
    seq = nn.Sequential(("a", nn.Linear(2, 3)), ("b", nn.ReLU()))
    assert seq["a"] is seq[0] and len(seq) == 2 and isinstance(seq[1:], nn.Sequential)
    ll = nn.LayerList([nn.Linear(2, 2) for _ in range(3)])
    ll.append(nn.Linear(2, 2))
    ll.insert(0, nn.ReLU())
    assert len(ll) == 5 and isinstance(ll[0], nn.ReLU) and len(ll.parameters()) == 8
    assert [n for n, _ in ll.named_children()] == ["0", "1", "2", "3", "4"]
    del ll[0]
    assert isinstance(ll[0], nn.Linear) and len(ll) == 4
    pl = nn.ParameterList([paddle.create_parameter([2], "float32") for _ in range(2)])
    assert len(pl) == 2 and len(pl.parameters()) == 2
    with pytest.raises(TypeError):
        pl.append(t(np.zeros(2, np.float32)))


# ---- initializers ------------------------------------------------------------------------------------
@pytest.mark.parametrize("init,check", [
    (nn.initializer.Constant(0.3), lambda a: np.allclose(a, 0.3)),
    (nn.initializer.Uniform(-0.1, 0.2), lambda a: a.min() >= -0.1 and a.max() <= 0.2 and abs(a.mean() - 0.05) < 0.01),
    (nn.initializer.Normal(1.0, 0.5), lambda a: abs(a.mean() - 1.0) < 0.02 and abs(a.std() - 0.5) < 0.02),
    (nn.initializer.TruncatedNormal(0.0, 1.0), lambda a: np.abs(a).max() <= 2.0 and 0.8 < a.std() < 0.95),
    (nn.initializer.XavierUniform(), lambda a: np.abs(a).max() <= np.sqrt(6 / (200 + 300))),
    (nn.initializer.XavierNormal(), lambda a: abs(a.std() - np.sqrt(2 / 500)) < 0.005),
    (nn.initializer.KaimingNormal(), lambda a: abs(a.std() - np.sqrt(2 / 200)) < 0.005),
    (nn.initializer.KaimingUniform(), lambda a: np.abs(a).max() <= np.sqrt(6 / 200)),
])
def test_initializers(init, check):
    paddle.seed(0)
    p = paddle.create_parameter([200, 300], "float32", default_initializer=init)
    assert check(p.numpy())


def test_assign_initializer_and_seed_reproducibility():
    vals = np.arange(6, dtype=np.float32).reshape(2, 3)
    p = paddle.create_parameter([2, 3], "float32", default_initializer=nn.initializer.Assign(vals))
    np.testing.assert_array_equal(p.numpy(), vals)
    paddle.seed(7)
    a = nn.Linear(5, 5).weight.numpy()
    paddle.seed(7)
    b = nn.Linear(5, 5).weight.numpy()
    np.testing.assert_array_equal(a, b)


# ---- layers against PyTorch --------------------------------------------------------------------------
def test_linear_matches_torch():
    m = nn.Linear(5, 3)
    x = rnd(4, 5)
    ref = torch.from_numpy(x) @ torch.from_numpy(m.weight.numpy()) + torch.from_numpy(m.bias.numpy())
    np.testing.assert_allclose(m(t(x)).numpy(), ref.numpy(), rtol=1e-5, atol=1e-6)


def test_embedding_padding_idx():
    m = nn.Embedding(6, 4, padding_idx=-1)
    assert m._padding_idx == -1  # kept as given, as Paddle keeps it (the lookup counts it from the end)
    np.testing.assert_array_equal(m.weight.numpy()[5], np.zeros(4, np.float32))
    ids = t(np.array([[0, 5], [2, 5]]))
    out = m(ids)
    np.testing.assert_array_equal(out.numpy(), m.weight.numpy()[[[0, 5], [2, 5]]])
    out.sum().backward()
    np.testing.assert_array_equal(m.weight.grad.numpy()[5], np.zeros(4, np.float32))
    np.testing.assert_array_equal(m.weight.grad.numpy()[0], np.ones(4, np.float32))


def test_conv_pool_match_torch():
    conv = nn.Conv2D(3, 4, 3, stride=1, padding=1)
    x = rnd(2, 3, 8, 8)
    tconv = torch.nn.Conv2d(3, 4, 3, padding=1)
    with torch.no_grad():
        tconv.weight.copy_(torch.from_numpy(conv.weight.numpy()))
        tconv.bias.copy_(torch.from_numpy(conv.bias.numpy()))
        ref = tconv(torch.from_numpy(x))
    np.testing.assert_allclose(conv(t(x)).numpy(), ref.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(nn.MaxPool2D(2, 2)(t(x)).numpy(),
                               torch.nn.functional.max_pool2d(torch.from_numpy(x), 2, 2).numpy())
    np.testing.assert_allclose(nn.AvgPool2D(2, 2)(t(x)).numpy(),
                               torch.nn.functional.avg_pool2d(torch.from_numpy(x), 2, 2).numpy(), rtol=1e-6)
    np.testing.assert_allclose(nn.AdaptiveAvgPool2D(1)(t(x)).numpy(), x.mean(axis=(2, 3), keepdims=True),
                               rtol=1e-5)
    # default init: Normal(0, sqrt(2 / fan_in))
    paddle.seed(1)
    big = nn.Conv2D(16, 64, 3)
    assert abs(big.weight.numpy().std() - np.sqrt(2 / (16 * 9))) < 0.01


def test_batchnorm_train_eval_and_running_stats():
    bn = nn.BatchNorm2D(3, momentum=0.9)
    assert [n for n in bn.state_dict()] == ["weight", "bias", "_mean", "_variance"]
    assert bn._mean.stop_gradient and not bn.weight.stop_gradient
    x = rnd(4, 3, 5, 5) * 2 + 1
    y = bn(t(x)).numpy()
    mean, var = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
    ref = (x - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-5)
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(bn._mean.numpy(), 0.1 * mean, rtol=1e-5)
    bn.eval()
    y2 = bn(t(x)).numpy()
    rm, rv = bn._mean.numpy(), bn._variance.numpy()
    ref2 = (x - rm[None, :, None, None]) / np.sqrt(rv[None, :, None, None] + 1e-5)
    np.testing.assert_allclose(y2, ref2, rtol=1e-4, atol=1e-4)
    bn1 = nn.BatchNorm1D(4)
    assert bn1(t(rnd(8, 4))).shape == [8, 4]
    with pytest.raises(ValueError, match="2 or 3-D"):
        bn1(t(rnd(2, 4, 3, 3)))


def test_layernorm_matches_torch():
    ln = nn.LayerNorm([4, 6])
    assert ln.weight.shape == [24]
    x = rnd(3, 4, 6)
    ref = torch.nn.functional.layer_norm(torch.from_numpy(x), [4, 6])
    np.testing.assert_allclose(ln(t(x)).numpy(), ref.numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("layer,ref", [
    (nn.ReLU(), torch.relu), (nn.Sigmoid(), torch.sigmoid), (nn.Tanh(), torch.tanh),
    (nn.GELU(), torch.nn.functional.gelu), (nn.Softmax(axis=-1), lambda x: torch.softmax(x, -1)),
    (nn.GELU(approximate=True), lambda x: torch.nn.functional.gelu(x, approximate="tanh")),
])
def test_activation_layers(layer, ref):
    x = rnd(3, 7)
    np.testing.assert_allclose(layer(t(x)).numpy(), ref(torch.from_numpy(x)).numpy(), rtol=1e-5, atol=1e-6)


def test_flatten_and_losses():
    x = rnd(2, 3, 4)
    assert nn.Flatten()(t(x)).shape == [2, 12]
    logits, labels = rnd(6, 5), np.array([0, 4, 2, 1, 3, 3])
    ce = nn.CrossEntropyLoss()(t(logits), t(labels))
    ref = torch.nn.functional.cross_entropy(torch.from_numpy(logits), torch.from_numpy(labels))
    np.testing.assert_allclose(float(ce), ref.item(), rtol=1e-5)
    a, b = rnd(4, 3), rnd(4, 3, seed=1)
    np.testing.assert_allclose(float(nn.MSELoss()(t(a), t(b))), ((a - b) ** 2).mean(), rtol=1e-5)
    np.testing.assert_allclose(nn.MSELoss("sum")(t(a), t(b)).numpy(), ((a - b) ** 2).sum(), rtol=1e-5)
    with pytest.raises(ValueError, match="reduction"):
        nn.MSELoss("avg")


def _torch_mha(m):
    E = m.embed_dim
    tm = torch.nn.MultiheadAttention(E, m.num_heads, batch_first=True)
    with torch.no_grad():
        w = np.concatenate([m.q_proj.weight.numpy().T, m.k_proj.weight.numpy().T, m.v_proj.weight.numpy().T])
        tm.in_proj_weight.copy_(torch.from_numpy(w))
        tm.in_proj_bias.copy_(torch.from_numpy(np.concatenate(
            [m.q_proj.bias.numpy(), m.k_proj.bias.numpy(), m.v_proj.bias.numpy()])))
        tm.out_proj.weight.copy_(torch.from_numpy(m.out_proj.weight.numpy().T))
        tm.out_proj.bias.copy_(torch.from_numpy(m.out_proj.bias.numpy()))
    return tm


def test_multihead_attention_matches_torch():
    m = nn.MultiHeadAttention(8, 2)
    q, kv = rnd(2, 5, 8), rnd(2, 7, 8, seed=1)
    tm = _torch_mha(m)
    ref, _ = tm(torch.from_numpy(q), torch.from_numpy(kv), torch.from_numpy(kv))
    np.testing.assert_allclose(m(t(q), t(kv), t(kv)).numpy(), ref.detach().numpy(), rtol=1e-4, atol=1e-5)
    # bool mask (True = attend) and the equivalent additive mask
    mask = np.tril(np.ones((5, 5), bool))
    ref_m, _ = tm(torch.from_numpy(q), torch.from_numpy(q), torch.from_numpy(q),
                  attn_mask=torch.from_numpy(~mask))
    np.testing.assert_allclose(m(t(q), attn_mask=t(mask)).numpy(), ref_m.detach().numpy(), rtol=1e-4, atol=1e-5)
    add = np.where(mask, 0.0, -1e9).astype(np.float32)
    np.testing.assert_allclose(m(t(q), attn_mask=t(add)).numpy(), ref_m.detach().numpy(), rtol=1e-4, atol=1e-5)


def test_multihead_attention_incremental_cache():
    m = nn.MultiHeadAttention(8, 2)
    x = rnd(1, 4, 8)
    causal = np.tril(np.ones((4, 4), bool))
    full = m(t(x), attn_mask=t(causal)).numpy()
    cache = m.gen_cache(t(x[:, :0]))
    outs = []
    for i in range(4):
        out, cache = m(t(x[:, i:i + 1]), cache=cache)
        outs.append(out.numpy())
    np.testing.assert_allclose(np.concatenate(outs, 1), full, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("normalize_before", [False, True])
def test_transformer_encoder_layer_matches_torch(normalize_before):
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, normalize_before=normalize_before)
    tl = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True, norm_first=normalize_before)
    tl.self_attn = _torch_mha(layer.self_attn)
    with torch.no_grad():
        for tname, lin in (("linear1", layer.linear1), ("linear2", layer.linear2)):
            getattr(tl, tname).weight.copy_(torch.from_numpy(lin.weight.numpy().T))
            getattr(tl, tname).bias.copy_(torch.from_numpy(lin.bias.numpy()))
    x = rnd(2, 5, 8)
    ref = tl(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(layer(t(x)).numpy(), ref, rtol=1e-4, atol=1e-5)
    enc = nn.TransformerEncoder(layer, 3)
    assert len(enc.layers) == 3 and enc.layers[0] is layer
    assert len(enc.parameters()) == 3 * len(layer.parameters())
    assert enc(t(x)).shape == [2, 5, 8]


def test_layers_backward_reaches_every_parameter():
    m = nn.Sequential(nn.Conv2D(1, 2, 3, padding=1), nn.BatchNorm2D(2), nn.ReLU(), nn.MaxPool2D(2),
                      nn.Flatten(), nn.Linear(2 * 4 * 4, 3))
    loss = nn.CrossEntropyLoss()(m(t(rnd(4, 1, 8, 8))), t(np.array([0, 1, 2, 1])))
    loss.backward()
    for name, p in m.named_parameters():
        if p.trainable:
            assert p.grad is not None and p.grad.shape == p.shape, name
            assert np.abs(p.grad.numpy()).sum() > 0, name


# ---- static mode -------------------------------------------------------------------------------------
def test_layers_build_static_programs():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), unique_name.guard():
            x = paddle.static.data("x", [None, 4], "float32")
            m = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.LayerNorm(3))
            y = m(x)
        params = main.global_block().all_parameters()
        assert [p.name for p in params] == ["linear_0.w_0", "linear_0.b_0", "layer_norm_0.w_0", "layer_norm_0.b_0"]
        assert [op.type for op in startup.global_block().ops] == \
            ["uniform_random", "fill_constant", "fill_constant", "fill_constant"]
        assert m[0].weight is params[0]
        exe = paddle.static.Executor("cpu")
        exe.run(startup)
        xv = rnd(2, 4)
        out, = exe.run(main, feed={"x": xv}, fetch_list=[y])
        w = np.asarray(paddle.static.global_scope().find_var("linear_0.w_0").get_tensor())
        h = np.maximum(xv @ w, 0)
        ref = (h - h.mean(-1, keepdims=True)) / np.sqrt(h.var(-1, keepdims=True) + 1e-5)
        np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-4)
    finally:
        paddle.disable_static()


def test_batchnorm_running_stats_update_in_static_mode_too():
    """The same BatchNorm2D layer writes its running mean back in eager and in static training."""
    x = np.random.default_rng(3).standard_normal((4, 2, 3, 3)).astype("float32")
    batch_mean = x.mean(axis=(0, 2, 3))
    eager = nn.BatchNorm2D(2)
    eager(paddle.to_tensor(x))
    np.testing.assert_allclose(eager._mean.numpy(), 0.1 * batch_mean, rtol=1e-5, atol=1e-7)
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            xv = paddle.static.data("x", [None, 2, 3, 3], "float32")
            bn = nn.BatchNorm2D(2)
            paddle.mean(bn(xv))
        exe = paddle.static.Executor(paddle.CPUPlace())
        scope = paddle.static.Scope()
        exe.run(startup, scope=scope)
        exe.run(main, feed={"x": x}, scope=scope)
        running = np.array(scope.find_var(bn._mean.name).get_tensor())
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(running, 0.1 * batch_mean, rtol=1e-5, atol=1e-7)


def test_assign_writes_into_output_in_both_modes():
    out = paddle.zeros([2])
    paddle.assign(paddle.to_tensor([1.0, 2.0]), output=out)
    np.testing.assert_allclose(out.numpy(), [1, 2])
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            const = paddle.assign(np.array([3.0, 4.0], "float32"))
            target = paddle.static.create_parameter([2], "float32", name="target")
            paddle.assign(const, output=target)
        assert [op.type for op in main.global_block().ops][-2:] == ["assign_value", "assign"]
        scope = paddle.static.Scope()
        (got,) = paddle.static.Executor("cpu").run(main, fetch_list=["target"], scope=scope)
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, [3, 4])


def test_reassigned_members_keep_their_place_and_none_sublayers_print():
    from tests.differential import differential

    @differential()
    def body(paddle):
        layer = paddle.nn.Sequential(paddle.nn.ReLU(), paddle.nn.Tanh())
        layer.extra = paddle.nn.Sigmoid()
        setattr(layer, "0", paddle.nn.ELU())  # replaced where it was
        setattr(layer, "1", None)
        return [list(layer._sub_layers), repr(layer)]
    body()
