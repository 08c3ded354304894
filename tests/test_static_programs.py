"""Realistic static programs written the way Paddle's 1.x/2.x docs write them, each checked against an
independent reference (NumPy formulas or PyTorch CPU with the same weights)."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.fluid as fluid
from paddlelite import static
from tests.references import torch


@pytest.fixture(autouse=True)
def _fresh_default_programs():
    paddle.enable_static()
    with static.program_guard(static.Program(), static.Program()), static.scope_guard(static.Scope()):
        yield


def _value(name):
    return np.array(static.global_scope().find_var(name).get_tensor())


def test_fit_a_line_sgd_matches_numpy_gradient_descent():
    rng = np.random.default_rng(0)
    X = rng.random((32, 13), dtype=np.float32)
    Y = (X @ rng.random((13, 1), dtype=np.float32) + 0.5).astype(np.float32)
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name="x", shape=[13], dtype="float32")
        y = fluid.layers.data(name="y", shape=[1], dtype="float32")
        y_predict = fluid.layers.fc(input=x, size=1, act=None)
        avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=y_predict, label=y))
        test_program = main.clone(for_test=True)
        fluid.optimizer.SGDOptimizer(learning_rate=0.05).minimize(avg_cost)
    assert [p.name for p in main.global_block().all_parameters()] == ["fc_0.w_0", "fc_0.b_0"]
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    w, b = _value("fc_0.w_0").astype(np.float64), _value("fc_0.b_0").astype(np.float64)
    for _ in range(20):
        loss, = exe.run(main, feed={"x": X, "y": Y}, fetch_list=[avg_cost])
        r = X @ w + b - Y
        np.testing.assert_allclose(loss, np.mean(r ** 2), rtol=1e-4)
        w, b = w - 0.05 * 2 * X.T @ r / len(X), b - 0.05 * 2 * r.mean(0)
    np.testing.assert_allclose(_value("fc_0.w_0"), w, rtol=1e-4, atol=1e-6)
    assert not any(op.type in ("sgd", "fill_constant") for op in test_program.global_block().ops)
    t, = exe.run(test_program, feed={"x": X, "y": Y}, fetch_list=[avg_cost])
    np.testing.assert_allclose(t, np.mean((X @ w + b - Y) ** 2), rtol=1e-4)


def _digits_net():
    img = fluid.layers.data(name="img", shape=[1, 12, 12], dtype="float32")
    label = fluid.layers.data(name="label", shape=[1], dtype="int64")
    conv = fluid.layers.conv2d(input=img, num_filters=4, filter_size=3, act="relu")
    pool = fluid.layers.pool2d(input=conv, pool_size=2, pool_stride=2, pool_type="max")
    bn = fluid.layers.batch_norm(pool, momentum=0.8)
    prediction = fluid.layers.fc(input=bn, size=5, act="softmax")
    loss = fluid.layers.cross_entropy(input=prediction, label=label)
    avg_loss = fluid.layers.mean(loss)
    acc = fluid.layers.accuracy(input=prediction, label=label)
    return loss, avg_loss, acc, prediction


def test_recognize_digits_conv_pool_bn_matches_torch():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((6, 1, 12, 12)).astype(np.float32)
    L = rng.integers(0, 5, (6, 1)).astype(np.int64)
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        loss, avg_loss, acc, prediction = _digits_net()
        test_program = main.clone(for_test=True)
        fluid.optimizer.SGD(learning_rate=0.1).minimize(avg_loss)
    assert loss.shape == (-1, 1)
    names = [p.name for p in main.global_block().all_parameters()]
    assert names == ["conv2d_0.w_0", "conv2d_0.b_0", "batch_norm_0.w_0", "batch_norm_0.b_0", "batch_norm_0.w_1",
                     "batch_norm_0.w_2", "fc_0.w_0", "fc_0.b_0"]
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    t = {n: torch.tensor(_value(n), dtype=torch.float64, requires_grad=True) for n in names}
    l, a, pred = exe.run(main, feed={"img": X, "label": L}, fetch_list=[avg_loss, acc, prediction])

    h = torch.relu(torch.nn.functional.conv2d(torch.tensor(X, dtype=torch.float64), t["conv2d_0.w_0"],
                                              t["conv2d_0.b_0"]))
    h = torch.nn.functional.max_pool2d(h, 2, 2)
    mu, var = h.mean((0, 2, 3)), h.var((0, 2, 3), unbiased=False)
    h = (h - mu[None, :, None, None]) / torch.sqrt(var[None, :, None, None] + 1e-5)
    h = h * t["batch_norm_0.w_0"][None, :, None, None] + t["batch_norm_0.b_0"][None, :, None, None]
    p = torch.softmax(h.reshape(6, -1) @ t["fc_0.w_0"] + t["fc_0.b_0"], -1)
    ref = -torch.log(p[torch.arange(6), torch.tensor(L[:, 0])]).mean()
    ref.backward()
    np.testing.assert_allclose(l, ref.item(), rtol=1e-4)
    np.testing.assert_allclose(pred, p.detach().numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(a, np.mean(pred.argmax(1) == L[:, 0]), rtol=1e-6)
    for n in ["conv2d_0.w_0", "batch_norm_0.w_0", "fc_0.w_0", "fc_0.b_0"]:
        np.testing.assert_allclose(_value(n), (t[n] - 0.1 * t[n].grad).detach().numpy(), rtol=1e-3, atol=1e-5)
    # the running statistics were updated (momentum 0.8) and are not trained
    np.testing.assert_allclose(_value("batch_norm_0.w_1"), 0.2 * mu.detach().numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(_value("batch_norm_0.w_2"), 0.8 + 0.2 * var.detach().numpy(), rtol=1e-4)
    # the test program normalises with the running statistics
    m, v = _value("batch_norm_0.w_1"), _value("batch_norm_0.w_2")
    tp, = exe.run(test_program, feed={"img": X, "label": L}, fetch_list=[prediction])
    with torch.no_grad():
        h = torch.relu(torch.nn.functional.conv2d(torch.tensor(X, dtype=torch.float64),
                                                  torch.tensor(_value("conv2d_0.w_0"), dtype=torch.float64),
                                                  torch.tensor(_value("conv2d_0.b_0"), dtype=torch.float64)))
        h = torch.nn.functional.batch_norm(torch.nn.functional.max_pool2d(h, 2, 2), torch.tensor(m, dtype=torch.float64),
                                           torch.tensor(v, dtype=torch.float64),
                                           torch.tensor(_value("batch_norm_0.w_0"), dtype=torch.float64),
                                           torch.tensor(_value("batch_norm_0.b_0"), dtype=torch.float64), eps=1e-5)
        ref_p = torch.softmax(h.reshape(6, -1) @ torch.tensor(_value("fc_0.w_0"), dtype=torch.float64)
                              + torch.tensor(_value("fc_0.b_0"), dtype=torch.float64), -1)
    np.testing.assert_allclose(tp, ref_p.numpy(), rtol=1e-4, atol=1e-6)


def test_word2vec_shared_embedding_loss_and_grad_match_torch():
    rng = np.random.default_rng(2)
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        words = [fluid.layers.data(name=f"w{i}", shape=[1], dtype="int64") for i in range(4)]
        nxt = fluid.layers.data(name="nxt", shape=[1], dtype="int64")
        embs = [fluid.layers.embedding(input=w, size=[30, 6], param_attr="shared_w") for w in words]
        hidden = fluid.layers.fc(input=fluid.layers.concat(input=embs, axis=1), size=8, act="sigmoid")
        predict = fluid.layers.fc(input=hidden, size=30, act="softmax")
        avg_cost = fluid.layers.mean(fluid.layers.cross_entropy(input=predict, label=nxt))
        pg = fluid.backward.append_backward(avg_cost)
    assert [(p.name, g.name) for p, g in pg][0] == ("shared_w", "shared_w@GRAD")
    assert sum(p.name == "shared_w" for p in main.global_block().all_parameters()) == 1
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    feed = {f"w{i}": rng.integers(0, 30, (5, 1)) for i in range(4)}
    feed["nxt"] = rng.integers(0, 30, (5, 1))
    l, g = exe.run(main, feed=feed, fetch_list=[avg_cost, "shared_w@GRAD"])
    t = {n: torch.tensor(_value(n), requires_grad=n == "shared_w")
         for n in ["shared_w", "fc_0.w_0", "fc_0.b_0", "fc_1.w_0", "fc_1.b_0"]}
    e = torch.cat([t["shared_w"][torch.tensor(feed[f"w{i}"][:, 0])] for i in range(4)], 1)
    p = torch.softmax(torch.sigmoid(e @ t["fc_0.w_0"] + t["fc_0.b_0"]) @ t["fc_1.w_0"] + t["fc_1.b_0"], -1)
    ref = -torch.log(p[torch.arange(5), torch.tensor(feed["nxt"][:, 0])]).mean()
    ref.backward()
    np.testing.assert_allclose(l, ref.item(), rtol=1e-5)
    np.testing.assert_allclose(g, t["shared_w"].grad.numpy(), rtol=1e-4, atol=1e-7)
    with fluid.program_guard(main, startup), pytest.raises(ValueError, match="shared_w.*same shape"):
        fluid.layers.embedding(input=words[0], size=[31, 6], param_attr="shared_w")


def test_static_nn_fc_adam_dropout_topk_accuracy_and_test_clone():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((16, 4)).astype(np.float32)
    Y = rng.integers(0, 3, (16, 1))
    x = static.data("x", [None, 4], "float32")
    lab = static.data("lab", [None, 1], "int64")
    h = paddle.nn.functional.dropout(static.nn.fc(x, 8, activation="relu"), 0.5)
    logits = static.nn.fc(h, 3)
    loss = paddle.nn.functional.cross_entropy(logits, lab)
    acc2 = static.accuracy(paddle.nn.functional.softmax(logits), lab, k=2)
    test = static.default_main_program().clone(for_test=True)
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    exe = static.Executor(paddle.CPUPlace())
    exe.run(static.default_startup_program())
    for _ in range(3):
        exe.run(feed={"x": X, "lab": Y}, fetch_list=[loss])
    out, a = exe.run(test, feed={"x": X, "lab": Y}, fetch_list=[logits, acc2])
    ref = np.maximum(X @ _value("fc_0.w_0") + _value("fc_0.b_0"), 0) @ _value("fc_1.w_0") + _value("fc_1.b_0")
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-6)  # dropout is the identity in the test clone
    top2 = np.argsort(-ref, axis=1)[:, :2]
    np.testing.assert_allclose(a, np.mean([Y[i, 0] in top2[i] for i in range(16)]))


def test_static_save_load_restores_parameters_and_optimizer_state(tmp_path):
    rng = np.random.default_rng(4)
    X, Y = rng.standard_normal((8, 3)).astype(np.float32), rng.standard_normal((8, 1)).astype(np.float32)
    x, y = static.data("x", [None, 3]), static.data("y", [None, 1])
    loss = paddle.mean(paddle.square(static.nn.fc(x, 1) - y))
    paddle.optimizer.Adam(0.1).minimize(loss)
    main = static.default_main_program()
    exe = static.Executor()
    exe.run(static.default_startup_program())
    for _ in range(2):
        exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])
    static.save(main, str(tmp_path / "ckpt" / "model"))
    assert (tmp_path / "ckpt" / "model.pdparams").exists() and (tmp_path / "ckpt" / "model.pdopt").exists()
    after_save = [exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])[0] for _ in range(3)]
    exe.run(static.default_startup_program())  # fresh weights, optimizer state reset
    static.load(main, str(tmp_path / "ckpt" / "model"), exe)
    after_load = [exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])[0] for _ in range(3)]
    np.testing.assert_allclose(after_load, after_save, rtol=1e-6)
    state = static.load_program_state(str(tmp_path / "ckpt" / "model"))
    assert "fc_0.w_0" in state and state["fc_0.w_0"].shape == (3, 1)
    state["fc_0.w_0"] = np.zeros((3, 1), np.float32)
    static.set_program_state(main, state)
    np.testing.assert_array_equal(_value("fc_0.w_0"), 0)
    with pytest.raises(ValueError, match="fc_0.w_0.*float32\\[3, 1\\]"):
        static.set_program_state(main, {"fc_0.w_0": np.zeros((2, 1), np.float32)})
    with pytest.raises(FileNotFoundError, match="pdparams"):
        static.load(main, str(tmp_path / "nothing"), exe)


def test_fluid_io_inference_model_round_trip_from_a_test_clone(tmp_path):
    rng = np.random.default_rng(5)
    X = rng.standard_normal((4, 6)).astype(np.float32)
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name="x", shape=[6], dtype="float32")
        label = fluid.layers.data(name="label", shape=[1], dtype="int64")
        h = fluid.layers.dropout(fluid.layers.fc(input=x, size=5, act="tanh"), dropout_prob=0.4)
        pred = fluid.layers.fc(input=h, size=3, act="softmax")
        loss = fluid.layers.mean(fluid.layers.cross_entropy(input=pred, label=label))
        test = main.clone(for_test=True)
        fluid.optimizer.Adam(learning_rate=0.01).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    exe.run(main, feed={"x": X, "label": np.zeros((4, 1), np.int64)}, fetch_list=[loss])
    # variables of the training program name the clone's variables (Paddle matches by name)
    static.save_inference_model(str(tmp_path / "a" / "m"), [x], [pred], exe, program=test)
    assert fluid.io.save_inference_model(str(tmp_path / "b"), ["x"], [pred], exe, main_program=test) == [pred.name]
    want = np.tanh(X @ _value("fc_0.w_0") + _value("fc_0.b_0")) * 0.6  # downgrade_in_infer scales by 1-p
    z = want @ _value("fc_1.w_0") + _value("fc_1.b_0")
    want = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    for prog, feeds, fetches in (static.load_inference_model(str(tmp_path / "a" / "m"), exe),
                                 fluid.io.load_inference_model(str(tmp_path / "b"), exe)):
        assert feeds == ["x"]
        out, = exe.run(prog, feed={"x": X}, fetch_list=fetches)
        np.testing.assert_allclose(out, want, rtol=1e-5)
    fluid.io.save_persistables(exe, str(tmp_path / "p"), main)
    w = _value("fc_0.w_0")
    exe.run(startup)
    fluid.io.load_persistables(exe, str(tmp_path / "p"), main)
    np.testing.assert_array_equal(_value("fc_0.w_0"), w)


def test_while_loop_with_fluid_increment_and_gradients():
    x = static.data("x", [3], "float32")
    x.stop_gradient = False
    ten = fluid.layers.fill_constant(shape=[1], dtype="int64", value=6)
    i0 = fluid.layers.fill_constant(shape=[1], dtype="int64", value=0)

    def body(i, s):
        s = fluid.layers.elementwise_mul(s, x)
        fluid.layers.increment(i, 1, in_place=True)
        return [i, s]

    s0 = paddle.ones([3], "float32")
    s0.stop_gradient = False  # the loop works on s0 itself (in place, as Paddle's): its gradient flows where s0's does
    i_out, s_out = fluid.layers.while_loop(lambda i, s: fluid.layers.less_than(i, ten), body, [i0, s0])
    gx, = static.gradients([paddle.sum(s_out)], [x])
    a = static.data("a", [1], "float32")
    out = static.nn.cond(paddle.sum(a) < 0.5, lambda: a * 2.0, lambda: a - 1.0)
    exe = static.Executor()
    X = np.array([1.1, 0.9, -1.2], np.float32)
    i_v, s_v, g_v, o1 = exe.run(feed={"x": X, "a": np.array([0.2], np.float32)}, fetch_list=[i_out, s_out, gx, out])
    assert i_v.tolist() == [6]
    np.testing.assert_allclose(s_v, X ** 6, rtol=1e-5)
    np.testing.assert_allclose(g_v, 6 * X ** 5, rtol=1e-5)
    np.testing.assert_allclose(o1, [0.4], rtol=1e-6)
    o2, = exe.run(feed={"x": X, "a": np.array([0.9], np.float32)}, fetch_list=[out])
    np.testing.assert_allclose(o2, [-0.1], rtol=1e-5)


def test_fluid_layers_neighbours_match_numpy():
    rng = np.random.default_rng(6)
    X = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    B = rng.standard_normal((3,)).astype(np.float32)
    M = rng.standard_normal((3, 4)).astype(np.float32)
    ids = np.array([[2], [0]], np.int64)
    x = fluid.layers.data(name="x", shape=[3, 4, 5], dtype="float32")
    b = fluid.layers.data(name="b", shape=[3], dtype="float32", append_batch_size=False)
    m = fluid.layers.data(name="m", shape=[3, 4], dtype="float32", append_batch_size=False)
    i = fluid.layers.data(name="i", shape=[1], dtype="int64")
    outs = [fluid.layers.elementwise_add(x, b, axis=1), fluid.layers.elementwise_mul(x, m, axis=1, act="relu"),
            fluid.layers.elementwise_max(x, b, axis=1),
            fluid.layers.pool2d(x, pool_type="avg", global_pooling=True),
            fluid.layers.pool2d(x, pool_size=2, pool_stride=2, pool_type="avg"),
            fluid.layers.flatten(x, axis=2), fluid.layers.reduce_max(x, dim=[2, 3]),
            fluid.layers.one_hot(i, depth=4), fluid.layers.expand(m, [2, 1]), fluid.layers.reduce_prod(m, dim=1),
            fluid.layers.sums([m, m, m])]
    z = fluid.layers.fill_constant(shape=[2], dtype="float32", value=0.0)
    fluid.layers.assign(np.array([1.5, -2.0], np.float32), output=z)
    y = fluid.layers.fill_constant(shape=[3, 4], dtype="float32", value=1.0)
    fluid.layers.assign(m, output=y)
    r = fluid.Executor().run(feed={"x": X, "b": B, "m": M, "i": ids}, fetch_list=outs + [z, y])
    want = [X + B[:, None, None], np.maximum(X * M[:, :, None], 0), np.maximum(X, B[:, None, None]),
            X.mean((2, 3), keepdims=True), X[:, :, :4, :4].reshape(2, 3, 2, 2, 2, 2).mean((3, 5)),
            X.reshape(6, 20), X.max((2, 3)), np.eye(4, dtype=np.float32)[[2, 0]], np.tile(M, (2, 1)),
            M.prod(1), 3 * M, np.array([1.5, -2.0], np.float32), M]
    for got, ref in zip(r, want):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="elementwise_add: axis"):
        fluid.layers.elementwise_add(x, b, axis=4)
    with pytest.raises(ValueError, match=r"elementwise_add: y of shape \[3\] does not match.*axis=2"):
        fluid.layers.elementwise_add(x, b, axis=2)


def test_fluid_mul_flattens_like_fluid():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((2, 3, 4)).astype(np.float32)
    W = rng.standard_normal((12, 5)).astype(np.float32)
    x = fluid.layers.data(name="x", shape=[3, 4], dtype="float32")
    w = fluid.layers.data(name="w", shape=[12, 5], dtype="float32", append_batch_size=False)
    out = fluid.layers.mul(x, w)
    assert out.shape == (-1, 5)
    r, = fluid.Executor().run(feed={"x": X, "w": W}, fetch_list=[out])
    np.testing.assert_allclose(r, X.reshape(2, 12) @ W, rtol=1e-5)


def test_fluid_accuracy_fills_correct_and_total():
    import paddlelite.fluid as fluid
    scores = np.array([[0.1, 0.9, 0.0], [0.8, 0.1, 0.1], [0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], "float32")
    labels = np.array([[1], [0], [1], [2]], "int64")
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("s", [None, 3], "float32")
            y = paddle.static.data("l", [None, 1], "int64")
            correct = paddle.static.create_parameter([1], "int64", name="correct")
            total = paddle.static.create_parameter([1], "int64", name="total")
            acc = fluid.layers.accuracy(x, y, k=2, correct=correct, total=total)
        got = paddle.static.Executor("cpu").run(main, feed={"s": scores, "l": labels},
                                                fetch_list=[acc, "correct", "total"], scope=paddle.static.Scope())
    finally:
        paddle.disable_static()
    # top-2 sets: {1,0} {0,1} {2,1} {0,1}: rows 0, 1, 2 hit
    np.testing.assert_allclose(got[0], 0.75)
    assert int(got[1].reshape(-1)[0]) == 3 and int(got[2].reshape(-1)[0]) == 4
