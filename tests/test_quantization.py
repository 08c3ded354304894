"""paddle.quantization (issue 26 item 7): QuantConfig, QAT and PTQ with FakeQuanterWithAbsMaxObserver and the
observers, their conversion into nn.quant.format's layers, and the fake-quantization ops, against real Paddle 3.3.1.
Weights are set from NumPy so both libraries start from the same model."""
import importlib

import numpy as np
import pytest

from tests.differential import differential, raises, run_static

_X = np.linspace(-1.5, 1.2, 24).reshape(2, 3, 2, 2).astype("float32")


def _sub(paddle, name):
    """paddle's submodule `name` (Paddle imports quanters, observers and nn.quant.format only on demand)."""
    return importlib.import_module(f"{paddle.__name__}.{name}")


def _model(paddle, with_stub=False):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = paddle.nn.Conv2D(3, 2, 1)
            self.relu = paddle.nn.ReLU()
            self.stub = paddle.nn.quant.Stub() if with_stub else None
            self.fc = paddle.nn.Linear(8, 3)

        def forward(self, x):
            h = self.relu(self.conv(x))
            if self.stub is not None:
                h = self.stub(h)
            return self.fc(paddle.flatten(h, 1))

    net = Net()
    rng = np.random.default_rng(0)
    for p in net.parameters():
        p.set_value(rng.uniform(-1, 1, p.shape).astype("float32"))
    return net


def _qat_config(paddle, **kwargs):
    quanter = _sub(paddle, "quantization.quanters").FakeQuanterWithAbsMaxObserver(**kwargs)
    return paddle.quantization.QuantConfig(activation=quanter, weight=quanter)


def _state(layer):
    return {k: v for k, v in layer.state_dict().items()}


@pytest.mark.parametrize("kwargs", [{}, {"moving_rate": 0.5, "bit_length": 4}], ids=["default", "rate_bits"])
def test_qat_trains_with_straight_through_gradients(kwargs):
    @differential(rtol=1e-5, atol=1e-6)
    def body(paddle):
        qat = paddle.quantization.QAT(_qat_config(paddle, **kwargs))
        model = qat.quantize(_model(paddle, with_stub=True))
        results = [str(model)]
        for step in range(2):
            x = paddle.to_tensor(_X * (step + 1), stop_gradient=False)
            y = model(x)
            (y * y).sum().backward()
            results += [y, x.grad, model.fc.weight.grad, model.conv.weight.grad]
        model.eval()
        results += [model(paddle.to_tensor(_X)), _state(model)]
        return results
    body()


@differential(expected=["FakeQuanterWithAbsMaxObserver(name=None,moving_rate=0.9,bit_length=8,dtype=float32)",
                        "QuantedLinear", "ObserveWrapper", "QuantedLinear"])
def test_quant_config_precedence(paddle):
    """A name config beats a type config beats the global one; a layer configured with nothing is left alone."""
    quanter = _sub(paddle, "quantization.quanters").FakeQuanterWithAbsMaxObserver()
    config = paddle.quantization.QuantConfig(activation=None, weight=None)
    model = _model(paddle)
    config.add_type_config(paddle.nn.Linear, activation=quanter, weight=quanter)
    config.add_type_config(paddle.nn.ReLU, activation=quanter)
    config.add_layer_config(model.fc, activation=None, weight=None)
    qat = paddle.quantization.QAT(config)
    quantized = qat.quantize(model)
    config2 = paddle.quantization.QuantConfig(activation=None, weight=None)
    config2.add_type_config([paddle.nn.Linear], activation=quanter, weight=quanter)
    other = paddle.quantization.QAT(config2).quantize(_model(paddle))
    return [str(quanter), type(other.fc).__name__, type(quantized.relu).__name__, type(quantized.fc).__name__]


def test_ptq_calibrates_and_converts():
    @differential(rtol=1e-5, atol=1e-6)
    def body(paddle):
        observer = _sub(paddle, "quantization.observers").AbsmaxObserver(quant_bits=8)
        ptq = paddle.quantization.PTQ(paddle.quantization.QuantConfig(activation=observer, weight=observer))
        model = _model(paddle)
        model.eval()
        observed = ptq.quantize(model)
        outs = [observed(paddle.to_tensor(_X * s)) for s in (1.0, 2.0)]
        converted = ptq.convert(observed)
        return [str(observed), outs, str(converted), converted(paddle.to_tensor(_X)), _state(converted),
                _state(ptq.convert(observed, remain_weight=True))]
    body()


def test_ptq_copies_outside_an_initialized_fleet(monkeypatch):
    """A world size in the environment alone (fleet.init not called) is not parallel training, as in Paddle."""
    monkeypatch.setenv("PADDLE_TRAINERS_NUM", "4")

    @differential()
    def body(paddle):
        observer = _sub(paddle, "quantization.observers").AbsmaxObserver()
        model = _model(paddle)
        model.eval()
        quantized = paddle.quantization.PTQ(paddle.quantization.QuantConfig(activation=observer, weight=None)).quantize(
            model)
        return [type(quantized.fc).__name__, type(model.fc).__name__]
    body()


@differential(expected=raises(AssertionError))
def test_qat_needs_a_training_model(paddle):
    model = _model(paddle)
    model.eval()
    paddle.quantization.QAT(_qat_config(paddle)).quantize(model)


@differential(expected=raises(AssertionError))
def test_ptq_needs_an_evaluation_model(paddle):
    observer = _sub(paddle, "quantization.observers").AbsmaxObserver()
    paddle.quantization.PTQ(paddle.quantization.QuantConfig(activation=observer, weight=None)).quantize(
        _model(paddle), inplace=True)


def test_qat_convert_quantizes_weights():
    """Paddle 3.3.1's convert fails here (a TypeError building the zero point of a quanter without zero points):
    the converted layers hold zero points 0, the weight its integer levels, the activation a quanter-dequanter."""
    import paddlelite as paddle
    qat = paddle.quantization.QAT(_qat_config(paddle))
    model = qat.quantize(_model(paddle))
    model(paddle.to_tensor(_X))
    scale = float(model.fc.weight_quanter.scales())
    weight = model.fc.weight.numpy().copy()
    converted = qat.convert(model)
    levels = np.round(np.clip(weight / scale * 127, -128, 127))
    np.testing.assert_array_equal(converted.fc.weight.numpy(), levels)
    assert converted.fc.weight_quanter._quanter is None
    np.testing.assert_allclose(converted.fc.weight_quanter(converted.fc.weight).numpy(), levels * scale / 127,
                               rtol=1e-6)
    assert float(converted.fc.activation_quanter._quanter._zero_point) == 0.0
    np.testing.assert_array_equal(model.fc.weight.numpy(), weight)  # not in place: the trained model is unchanged
    y = converted(paddle.to_tensor(_X))
    assert y.shape == [2, 3]


def test_qat_static_program():
    """The quanter in a static program: the op updates scale, state and accumulator in place, run after run."""
    w = np.random.default_rng(1).uniform(-1, 1, (8, 3)).astype("float32")

    @differential(rtol=1e-5, atol=1e-6)
    def body(paddle):
        def build():
            x = paddle.static.data("x", [2, 8], "float32")
            fc = paddle.nn.Linear(8, 3, weight_attr=paddle.nn.initializer.Assign(w))
            # in place: Paddle cannot deep-copy a layer built in static mode
            model = paddle.quantization.QAT(_qat_config(paddle)).quantize(paddle.nn.Sequential(fc), inplace=True)
            y = model(x)
            return [y] + [p for p in model.parameters() if "quant" in p.name]
        return run_static(paddle, build, {"x": _X.reshape(2, 12)[:, :8]})
    body()


def test_custom_quanter_factory():
    @differential()
    def body(paddle):
        class Halve(paddle.quantization.BaseQuanter):
            def __init__(self, layer, factor=2.0):
                super().__init__()
                self._factor = factor

            def forward(self, input):
                return input / self._factor

            def scales(self):
                return paddle.to_tensor([self._factor])

            def zero_points(self):
                return None

            def quant_axis(self):
                return -1

            def bit_length(self):
                return 8

        globals()["Halve"] = Halve  # Paddle's factories look their class up in its module
        assert paddle.quantization.quanter("HalveFactory")(Halve) is Halve  # defines HalveFactory in this module
        factory = globals().pop("HalveFactory")(factor=4.0)
        model = paddle.quantization.QAT(paddle.quantization.QuantConfig(activation=factory, weight=None)).quantize(
            _model(paddle))
        return [str(factory), model(paddle.to_tensor(_X)), isinstance(factory, _sub(paddle, "quantization.factory").QuanterFactory)]
    body()


def test_linear_quanter_dequanter():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 4)).astype("float32") * 2
    x[0, :2] = [0.5, -2.5]

    @differential()
    def body(paddle):
        results = []
        for scale in ([0.8], [1.2, 0.3, 2.0]):
            axis = -1 if len(scale) == 1 else 0
            s = paddle.to_tensor(np.array(scale, "float32"))
            zero = paddle.zeros_like(s)
            q = _sub(paddle, "nn.quant.format").LinearQuanter(s, zero, quant_axis=axis)
            d = _sub(paddle, "nn.quant.format").LinearDequanter(s, zero, quant_axis=axis)
            results += [q(paddle.to_tensor(x)), d(q(paddle.to_tensor(x)))]
        return results
    body()
