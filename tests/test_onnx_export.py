"""paddle.onnx.export: the model zoo (MLP, LeNet, ResNet-18, MobileNetV3, an LSTM / GRU classifier, a Transformer
encoder, a dynamic-batch model, tensor-dependent if / while) written as ONNX passes onnx.checker and ONNX Runtime reproduces paddlelite's outputs,
at more than one batch size; unsupported ops fail once, listing all of them; opset upgrades are announced."""
import warnings

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import nn
from paddlelite.static import InputSpec
from tests import deploy_zoo

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

RNG = np.random.default_rng(5)


class LSTMClassifier(nn.Layer):
    def __init__(self, cell=nn.LSTM):
        super().__init__()
        self.embedding = nn.Embedding(50, 16)
        self.rnn = cell(16, 12, num_layers=2, direction="bidirect")
        self.fc = nn.Linear(24, 3)

    def forward(self, ids):
        out, _ = self.rnn(self.embedding(ids))
        return nn.functional.softmax(self.fc(out[:, -1]))


class Encoder(nn.Layer):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(50, 32)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1), 2)

    def forward(self, ids):
        return self.encoder(self.embedding(ids)).mean(axis=1)


class DynamicBatch(nn.Layer):
    """Shape-dependent ops: a state of the batch's size, reshape by it, expand / concat / slice / split."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 6)

    def forward(self, x):
        n = paddle.shape(x)[0]
        start = paddle.full([n, 2], 0.5, dtype="float32")
        h = paddle.concat([start, self.fc(x)], axis=1).reshape([n, 4, 2])
        left, right = paddle.split(h, 2, axis=-1)
        z = paddle.transpose(left * paddle.nn.functional.sigmoid(right), [0, 2, 1])
        return paddle.flatten(z, 1)[:, 1:] + paddle.arange(3, dtype="float32").unsqueeze(0).tile([1, 1])


def _mlp():
    return nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Dropout(0.2), nn.Linear(16, 4), nn.LogSoftmax())


def _floats(*shape):
    return RNG.standard_normal(shape).astype("float32")


def _ids(*shape):
    return RNG.integers(0, 50, shape).astype("int64")


ZOO = {  # name: (model maker, input spec shape without the batch, dtype, inputs at two batch sizes, opset)
    "mlp": (_mlp, [8], "float32", lambda n: _floats(n, 8), 9),
    "lenet": (lambda: paddle.vision.models.LeNet(), [1, 28, 28], "float32", lambda n: _floats(n, 1, 28, 28), 9),
    "resnet18": (lambda: paddle.vision.models.resnet18(num_classes=10), [3, 32, 32], "float32",
                 lambda n: _floats(n, 3, 32, 32), 11),
    "mobilenet_v3": (lambda: paddle.vision.models.mobilenet_v3_small(num_classes=10), [3, 32, 32], "float32",
                     lambda n: _floats(n, 3, 32, 32), 13),
    "lstm": (LSTMClassifier, [7], "int64", lambda n: _ids(n, 7), 9),
    "gru": (lambda: LSTMClassifier(nn.GRU), [7], "int64", lambda n: _ids(n, 7), 13),
    "transformer_encoder": (Encoder, [7], "int64", lambda n: _ids(n, 7), 9),
    "transformer_encoder_opset17": (Encoder, [7], "int64", lambda n: _ids(n, 7), 17),
    "dynamic_batch": (DynamicBatch, [6], "float32", lambda n: _floats(n, 6), 11),
}


def _export(model, specs, tmp_path, **kwargs):
    path = str(tmp_path / "model")
    paddle.onnx.export(model, path, input_spec=specs, **kwargs)
    proto = onnx.load(path + ".onnx")
    onnx.checker.check_model(proto, full_check=True)
    return proto, ort.InferenceSession(path + ".onnx", providers=["CPUExecutionProvider"])


@pytest.mark.parametrize("name", list(ZOO))
def test_zoo_runs_in_onnxruntime_like_paddlelite(name, tmp_path):
    make, shape, dtype, inputs, opset = ZOO[name]
    paddle.seed(7)
    model = make()
    for p in model.parameters():  # non-trivial batch-norm statistics
        if p.name.endswith(("_mean", "_variance")):
            p.set_value(RNG.uniform(0.5, 1.5, p.shape).astype("float32"))
    model.eval()
    proto, session = _export(model, [InputSpec([None, *shape], dtype)], tmp_path, opset_version=opset)
    assert proto.opset_import[0].version == opset
    assert proto.graph.input[0].name == "ids" if dtype == "int64" else True
    for n in (2, 3):  # the batch dim stays symbolic
        x = inputs(n)
        expect = model(paddle.to_tensor(x)).numpy()
        (got,) = session.run(None, {session.get_inputs()[0].name: x})
        np.testing.assert_allclose(got, expect, rtol=2e-4, atol=2e-5)


def test_sequence_lengths_and_initial_states_of_an_lstm(tmp_path):
    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(4, 5, num_layers=2, direction="bidirect")

        def forward(self, x, lengths, h0, c0):
            out, (h, c) = self.lstm(x, (h0, c0), sequence_length=lengths)
            return out, h, c

    model = Net()
    specs = [InputSpec([None, 6, 4], "float32", "x"), InputSpec([None], "int64", "lengths"),
             InputSpec([4, None, 5], "float32", "h0"), InputSpec([4, None, 5], "float32", "c0")]
    _, session = _export(model, specs, tmp_path)
    feed = {"x": _floats(3, 6, 4), "lengths": np.array([6, 2, 4], "int64"), "h0": _floats(4, 3, 5),
            "c0": _floats(4, 3, 5)}
    expect = [t.numpy() for t in model(*(paddle.to_tensor(v) for v in feed.values()))]
    for got, want in zip(session.run(None, feed), expect):
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_grouped_dilated_transposed_convolutions_pools_and_norms(layout, tmp_path):
    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(4, 8, 3, padding="SAME", dilation=2, groups=2, data_format=layout)
            self.up = nn.Conv2DTranspose(8, 4, 3, stride=2, padding=1, output_padding=1, groups=2,
                                         data_format=layout)
            self.gn = nn.GroupNorm(2, 4, data_format=layout)
            self.pool = nn.AvgPool2D(3, 2, padding=1, ceil_mode=True, exclusive=False, data_format=layout)
            self.adaptive = nn.AdaptiveAvgPool2D(3, data_format=layout)

        def forward(self, x):
            y = self.pool(self.gn(self.up(nn.functional.relu6(self.conv(x)))))
            return self.adaptive(y)

    model = Net()
    model.eval()
    shape = [None, 4, 8, 8] if layout == "NCHW" else [None, 8, 8, 4]
    _, session = _export(model, [InputSpec(shape, "float32", "x")], tmp_path, opset_version=11)
    x = _floats(2, *shape[1:])
    np.testing.assert_allclose(session.run(None, {"x": x})[0], model(paddle.to_tensor(x)).numpy(),
                               rtol=2e-4, atol=2e-5)


def _functions():
    F = paddle.nn.functional
    return {  # name: (function of x, x's shape)
        "attention": (lambda q: F.scaled_dot_product_attention(q, q * 0.5, q, is_causal=True), [2, 5, 2, 8]),
        "activations": (lambda x: F.silu(x) + F.leaky_relu(x) + F.elu(x) + F.softplus(x) + F.hardtanh(x) + F.selu(x)
                        + F.mish(x) + F.gelu(x, approximate=True) + paddle.clip(x, -1, 1) + paddle.pow(x, 2)
                        + F.normalize(x, axis=1), [2, 5]),
        "reductions": (lambda x: x.max(1) + x.prod(1) + paddle.logsumexp(x, 1) + x.std(1) + x.var(1, unbiased=False)
                       + x.norm(p=2, axis=1) + paddle.argmax(x, 1).astype("float32"), [2, 5]),
        "sorting": (lambda x: paddle.argsort(x, 1, descending=True).astype("float32") + paddle.sort(x, 1)
                    + paddle.topk(x, 2, largest=False)[0].sum(1, keepdim=True) + paddle.cumsum(x, 1)
                    + paddle.flip(x, [1]) + paddle.roll(x, [2, -1], [1, 0]), [3, 5]),
        "masks": (lambda x: paddle.where(x > 0, x, paddle.zeros_like(x)) + paddle.masked_fill(x, x < 0, 1.0)
                  + paddle.tril(x, -1) + paddle.triu(x), [5, 5]),
        "bilinear": (lambda x: F.interpolate(x, size=[7, 5], mode="bilinear")
                     + F.interpolate(x, size=[7, 5], mode="bilinear", align_corners=True)
                     + F.interpolate(x, size=[7, 5], mode="bicubic"), [1, 2, 4, 4]),
        "nearest_by_scale": (lambda x: F.interpolate(x, scale_factor=1.7, mode="nearest")
                             + F.interpolate(x, scale_factor=1.7, mode="bilinear", align_mode=1), [1, 2, 4, 4]),
        "channel_last_linear": (lambda x: F.interpolate(x, size=[9], mode="linear", data_format="NWC"), [1, 4, 2]),
        "trilinear": (lambda x: F.interpolate(x, size=[3, 5, 6], mode="trilinear"), [1, 2, 2, 4, 4]),
    }


@pytest.mark.parametrize("name", list(_functions()))
def test_functional_ops_run_in_onnxruntime_like_paddlelite(name, tmp_path):
    fn, shape = _functions()[name]
    static = paddle.jit.to_static(fn)
    _, session = _export(static, [InputSpec(shape, "float32", "x")], tmp_path, opset_version=14)
    x = _floats(*shape)
    np.testing.assert_allclose(session.run(None, {"x": x})[0], fn(paddle.to_tensor(x)).numpy(), rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("name", list(deploy_zoo.ZOO))
def test_the_deployment_zoo_runs_in_onnxruntime(name, tmp_path):
    """Issue 27's zoo (tests/deploy_zoo.py, the models the Paddle-format tests carry), its cond/while model too."""
    model, specs, inputs = deploy_zoo.build(paddle, name)
    _, session = _export(model, specs, tmp_path, opset_version=13)
    feed = {i.name: x for i, x in zip(session.get_inputs(), inputs)}
    np.testing.assert_allclose(session.run(None, feed)[0], model(*map(paddle.to_tensor, inputs)).numpy(),
                               rtol=2e-4, atol=2e-5)


class Gated(nn.Layer):
    """A tensor-dependent `if` and a `while` whose trip count depends on the input, converted by to_static."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = self.fc(x)
        if paddle.mean(x) > 0:
            h = paddle.tanh(h) + 1.0
        else:
            h = h * 0.5 - 1.0
        i = paddle.zeros([1], dtype="int64")
        while paddle.abs(h).sum() < 100.0:
            h = h * 2.0 + self.fc(h) * 0.1
            i = i + 1
        return h, i


@pytest.mark.parametrize("opset", [9, 13])
def test_if_and_while_become_onnx_if_and_loop(opset, tmp_path):
    paddle.seed(3)
    model = Gated()
    model.eval()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        proto, session = _export(model, [InputSpec([None, 4], "float32", "x")], tmp_path, opset_version=opset)
    # each branch writes the cond's output alone: If-11's branches of unlike shapes
    assert proto.opset_import[0].version == max(opset, 11)
    assert any("opset 11" in str(w.message) for w in caught) == (opset < 11)
    assert {"If", "Loop"} <= {n.op_type for n in proto.graph.node}
    trips, branches = set(), set()
    # the then-branch's values lie in (0, 2): the batch size sets the trip count
    for x in (_floats(1, 4) + 2.0, _floats(4, 4) + 2.0, _floats(12, 4) + 2.0, _floats(30, 4) + 2.0, _floats(2, 4) - 2.0):
        h, i = model(paddle.to_tensor(x))
        got_h, got_i = session.run(None, {"x": x})
        np.testing.assert_allclose(got_h, h.numpy(), rtol=2e-4, atol=2e-5)
        np.testing.assert_array_equal(got_i, i.numpy())
        trips.add(int(i.numpy()[0]))
        branches.add(bool(x.mean() > 0))
    assert len(trips) >= 3 and branches == {True, False}, (trips, branches)  # each branch, several trip counts


def test_static_cond_and_while_loop_nested(tmp_path):
    """paddle.static.nn.cond inside a while_loop body, and a cond with several outputs."""
    def f(x):
        def body(i, acc):
            acc = paddle.static.nn.cond(paddle.sum(acc) > 0, lambda: acc - x, lambda: acc + x * 2.0)
            return i + 1, acc

        n = paddle.cast(paddle.sum(paddle.abs(x)) * 2.0, "int64") + 1
        _, acc = paddle.static.nn.while_loop(lambda i, acc: i < n, body,
                                             [paddle.zeros([1], "int64"), paddle.zeros_like(x)])
        lo, hi = paddle.static.nn.cond(paddle.max(acc) > 1.0, lambda: (acc.min(), acc.max()),
                                       lambda: (acc.max(), acc.min()))
        return acc, lo - hi

    static = paddle.jit.to_static(f)
    _, session = _export(static, [InputSpec([None, 3], "float32", "x")], tmp_path, opset_version=11)
    for x in (_floats(2, 3), _floats(4, 3) * 0.1, _floats(1, 3) * 3):
        for got, want in zip(session.run(None, {"x": x}), f(paddle.to_tensor(x))):
            np.testing.assert_allclose(got, want.numpy(), rtol=2e-4, atol=2e-5)


def test_output_spec_keeps_the_outputs_asked_for(tmp_path):
    class TwoHeads(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        @paddle.jit.to_static(input_spec=[InputSpec([None, 4], "float32", "x")])
        def forward(self, x):
            h = self.fc(x)
            return paddle.tanh(h), h.sum(axis=1)

    model = TwoHeads()
    x = _floats(3, 4)
    first, second = model(paddle.to_tensor(x))
    for spec, want in (([1], second), ([second], second), ([first, second], None)):
        path = str(tmp_path / f"m{len(spec)}")
        paddle.onnx.export(model, path, output_spec=spec)
        session = ort.InferenceSession(path + ".onnx", providers=["CPUExecutionProvider"])
        got = session.run(None, {"x": x})
        expected = [first, second] if want is None else [want]
        assert len(got) == len(expected)
        for g, w in zip(got, expected):
            np.testing.assert_allclose(g, w.numpy(), rtol=2e-4, atol=2e-5)
    other = paddle.to_tensor(x)  # not an output of the forward
    with pytest.raises(ValueError, match="does not exists"):
        paddle.onnx.export(model, str(tmp_path / "bad"), output_spec=[other])
    with pytest.raises(ValueError, match="out of range"):
        paddle.onnx.export(model, str(tmp_path / "bad"), output_spec=[2])


def test_unsupported_ops_are_listed_in_one_error(tmp_path):
    def f(x):
        return paddle.linalg.det(x) + paddle.linalg.matrix_rank(x).astype("float32") + paddle.linalg.det(x * 2)

    with pytest.raises(NotImplementedError) as info:
        paddle.onnx.export(paddle.jit.to_static(f), str(tmp_path / "m"), input_spec=[InputSpec([3, 3], "float32")])
    message = str(info.value)
    assert "paddle.onnx.export" in message and "determinant (x2" in message and "svd (x1" in message
    assert not (tmp_path / "m.onnx").exists()


def test_an_op_needing_a_newer_opset_raises_it_with_a_warning(tmp_path):
    def f(x):
        return paddle.cumsum(x, axis=1)

    path = str(tmp_path / "m")
    with pytest.warns(UserWarning, match="opset 11"):
        paddle.onnx.export(paddle.jit.to_static(f), path, input_spec=[InputSpec([None, 4], "float32")])
    assert onnx.load(path + ".onnx").opset_import[0].version == 11
    with pytest.raises(NotImplementedError, match="auto_upgrade_opset=False"):
        paddle.onnx.export(paddle.jit.to_static(f), path, input_spec=[InputSpec([None, 4], "float32")],
                           auto_upgrade_opset=False)


@pytest.mark.parametrize("kwargs,exc,match", [
    ({"opset_version": 3}, ValueError, "opset_version"),
    ({"opset_version": "13"}, ValueError, "opset_version"),
    ({"output_names": ["y"]}, TypeError, "output_names"),
    ({"output_spec": 0}, TypeError, "output_spec"),
])
def test_bad_arguments(kwargs, exc, match, tmp_path):
    with pytest.raises(exc, match=match):
        paddle.onnx.export(_mlp(), str(tmp_path / "m"), input_spec=[InputSpec([None, 8])], **kwargs)
    with pytest.raises(ValueError, match="file_prefix"):
        paddle.onnx.export(_mlp(), str(tmp_path) + "/", input_spec=[InputSpec([None, 8])])
