"""paddle.Model in static graph mode (paddle.enable_static()) against real Paddle 3.3.1's StaticGraphAdapter: the
same losses and metrics per step, predictions, checkpoints and printed text for the same weights and data; and
the same losses as the dynamic-mode Model."""
import contextlib
import os
import tempfile

import numpy as np
import pytest

from tests.differential import assert_same, differential, raises, snapshot
from tests.test_hapi_vs_paddle import _numbers, _printed, _recorder, _timeless, fit_evaluate_predict

_X = np.random.RandomState(0).normal(size=(10, 4)).astype("float32")
_Y = np.random.RandomState(1).randint(0, 3, size=(10, 1)).astype("int64")
_INPUTS = ([None, 4], "float32", "x")
_LABELS = ([None, 1], "int64", "label")


def _dataset(paddle, x=_X, y=_Y):
    class Pairs(paddle.io.Dataset):
        def __len__(self):
            return len(x)

        def __getitem__(self, i):
            return (x[i], y[i]) if y is not None else (x[i],)
    return Pairs()


def _mlp(paddle):
    return paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 3))


def _set_weights(net, seed=5, scale=0.5):
    rs = np.random.RandomState(seed)
    net.set_state_dict({k: (rs.normal(size=v.shape) * scale).astype("float32") for k, v in net.state_dict().items()})


def _weights(paddle, net):
    """The network's values: in static mode its parameters are Variables whose values live in the global scope."""
    if paddle.in_dynamic_mode():
        return {k: v.numpy() for k, v in net.state_dict().items()}
    scope = paddle.static.global_scope()
    return {k: np.array(scope.find_var(v.name).get_tensor()) for k, v in net.state_dict().items()}


@contextlib.contextmanager
def _static(paddle):
    """Static mode under fresh programs and a fresh scope."""
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()), \
            paddle.static.scope_guard(paddle.static.Scope()):
        yield


def _model(paddle, net=None, optimizer="adam", metrics=True, inputs=_INPUTS, labels=_LABELS):
    """A Model around `net` (default: the MLP) prepared with CrossEntropyLoss, weights set after `prepare`
    (static mode: the startup program has run by then)."""
    net = net or _mlp(paddle)
    model = paddle.Model(net, [paddle.static.InputSpec(*inputs)], [paddle.static.InputSpec(*labels)])
    if optimizer == "adam":
        opt = paddle.optimizer.Adam(paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.5),
                                    parameters=model.parameters())
    else:
        opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
    model.prepare(opt, paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy(topk=(1, 2)) if metrics else None)
    _set_weights(net)
    return model


@differential(rtol=1e-5, atol=1e-6)
def test_static_fit_evaluate_predict(paddle):
    with _static(paddle):
        model = _model(paddle)
        result = fit_evaluate_predict(paddle, model, _dataset(paddle), _dataset(paddle, y=None))
        return {**result, "weights": _weights(paddle, model.network), "lr": model._optimizer.get_lr()}


@differential(rtol=1e-5, atol=1e-6)
def test_static_batch_steps(paddle):
    with _static(paddle):
        model = _model(paddle, optimizer="sgd")
        first = model.train_batch([_X[:5]], [_Y[:5]])
        second = model.train_batch([_X[5:]], [_Y[5:]])
        return {"first": first, "second": second, "eval": model.eval_batch([_X], [_Y]),
                "predict": model.predict_batch([_X[:2]]), "mode": model.mode,
                "weights": _weights(paddle, model.network)}


@differential(expected=raises(AssertionError))
def test_static_train_batch_needs_update(paddle):
    with _static(paddle):
        _model(paddle).train_batch([_X[:5]], [_Y[:5]], update=False)


@differential(expected=raises(TypeError))
def test_static_model_needs_inputs(paddle):
    with _static(paddle):
        paddle.Model(_mlp(paddle))


@pytest.mark.parametrize("optimizer", ["adam", "sgd"])
def test_static_matches_dynamic(optimizer):
    """The same network, weights and data give the same per-step losses and metrics in both graph modes (with
    SGD, ReduceLROnPlateau lowers the learning rate after evaluations: in static mode too)."""
    import paddlelite as paddle

    def run():
        model = _model(paddle, optimizer=optimizer)
        record = _recorder(paddle)
        callbacks = [record]
        if optimizer == "sgd":
            callbacks.append(paddle.callbacks.ReduceLROnPlateau(patience=0, min_delta=10, verbose=0))
        model.fit(_dataset(paddle), _dataset(paddle), batch_size=4, epochs=3, shuffle=False, verbose=0,
                  callbacks=callbacks)
        return record.seen, _weights(paddle, model.network), model.predict_batch([_X]), model._optimizer.get_lr()

    with paddle.utils.unique_name.guard():
        dynamic = run()
    try:
        with paddle.utils.unique_name.guard(), _static(paddle):
            static = run()
    finally:
        paddle.disable_static()
    assert len(static[0]) == 3 * (3 + 2)  # per epoch: 3 steps, its end, an evaluation
    assert_same(snapshot(static), snapshot(dynamic), rtol=1e-5, atol=1e-6)
    # sgd: the first evaluation sets the best loss, the next two reduce (factor 0.1); adam: StepDecay after 9 steps
    assert static[3] == dynamic[3] == pytest.approx(0.1 * 0.1 ** 2 if optimizer == "sgd" else 0.1 * 0.5 ** 4)


def _files(d):
    return sorted(os.path.relpath(os.path.join(root, f), d) for root, _, fs in os.walk(d) for f in fs)


@differential(rtol=1e-5, atol=1e-6)
def test_static_save_load_roundtrip(paddle):
    with _static(paddle), tempfile.TemporaryDirectory() as d:
        model = _model(paddle)
        model.fit(_dataset(paddle), batch_size=5, epochs=1, shuffle=False, verbose=0)
        model.save(d + "/ckpt/m")
        saved = _weights(paddle, model.network)
        optim = paddle.load(d + "/ckpt/m.pdopt")
        step = model.train_batch([_X[:5]], [_Y[:5]])
        moved = _weights(paddle, model.network)
        model.load(d + "/ckpt/m.pdparams")  # parameters and the optimizer's moments: the same step again
        restored = _weights(paddle, model.network)
        again = model.train_batch([_X[:5]], [_Y[:5]])
        # another network of the same structure (other parameter names) takes the parameters by structured name
        other = _model(paddle, _mlp(paddle))
        other.load(d + "/ckpt/m", reset_optimizer=True)
        return {"files": _files(d), "optim": {k: list(np.array(v).shape) for k, v in optim.items()},
                "restored": [np.array_equal(restored[k], saved[k]) for k in saved], "step": step, "again": again,
                "moved_again": [np.allclose(moved[k], v) for k, v in _weights(paddle, model.network).items()],
                "other": other.predict_batch([_X]), "predicted": model.predict_batch([_X])}


def test_static_save_inference_model(tmp_path):
    """save(training=False) writes the test program's inference model at `path` (Paddle 3.3.1 passes the
    path's directory as the prefix and writes `<dirname>.pdmodel` instead; its docs say `path`)."""
    import paddlelite as paddle
    try:
        with _static(paddle):
            model = _model(paddle)
            model.fit(_dataset(paddle), batch_size=5, epochs=1, shuffle=False, verbose=0)
            model.save(str(tmp_path / "infer" / "net"), training=False)
            assert sorted(os.listdir(tmp_path / "infer")) == ["net.pdiparams", "net.pdmodel"]
            exe = paddle.static.Executor()
            program, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / "infer" / "net"), exe)
            assert feeds == ["x"]
            out = exe.run(program, feed={"x": _X}, fetch_list=fetches)[0]
            np.testing.assert_allclose(out, model.predict_batch([_X])[0], rtol=1e-6, atol=1e-6)
            with pytest.raises(ValueError):
                model.save(str(tmp_path) + "/", training=False)
    finally:
        paddle.disable_static()


@differential()
def test_static_progress_log_text(paddle):
    with _static(paddle):
        model = _model(paddle)
        text, _ = _printed(lambda: model.fit(_dataset(paddle), _dataset(paddle), batch_size=4, epochs=2,
                                             shuffle=False, verbose=2, log_freq=1))
        evaluated, _ = _printed(lambda: model.evaluate(_dataset(paddle), batch_size=5, verbose=2, log_freq=1))
        bar, _ = _printed(lambda: model.evaluate(_dataset(paddle), batch_size=5, verbose=1))
        return _timeless(text) + _timeless(evaluated) + _timeless(bar)


@differential(rtol=1e-5, atol=1e-6)
def test_static_precision_recall_auc(paddle):
    x = np.random.RandomState(3).normal(size=(12, 4)).astype("float32")
    y = (x[:, :1] + 0.3 * x[:, 1:2] > 0).astype("float32")
    with _static(paddle):
        class Logistic(paddle.nn.Layer):  # Paddle 3.3.1's legacy static sigmoid/exp want PIR Values: softmax
            def __init__(self):
                super().__init__()
                self.fc = paddle.nn.Linear(4, 2)

            def forward(self, x):
                return paddle.nn.functional.softmax(self.fc(x))[:, 1:]

        net = Logistic()
        model = paddle.Model(net, [paddle.static.InputSpec([None, 4], "float32", "x")],
                             [paddle.static.InputSpec([None, 1], "float32", "label")])
        model.prepare(paddle.optimizer.SGD(0.5, parameters=model.parameters()), paddle.nn.BCELoss(),
                      [paddle.metric.Precision(), paddle.metric.Recall()])
        _set_weights(net)
        record = []

        class Record(paddle.callbacks.Callback):
            def on_train_batch_end(self, step, logs=None):
                record.append((float(logs["loss"][0]), float(logs["precision"]), float(logs["recall"])))

        model.fit(_dataset(paddle, x, y), batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[Record()])
        evaluated = model.evaluate(_dataset(paddle, x, y), batch_size=6, verbose=0)
        return {"steps": record, "evaluated": _numbers(evaluated)}


@differential(rtol=1e-5, atol=1e-6)
def test_static_checkpoints_and_early_stopping(paddle):
    with _static(paddle), tempfile.TemporaryDirectory() as d:
        model = _model(paddle, optimizer="sgd")
        stop = paddle.callbacks.EarlyStopping("acc_top1", mode="max", patience=1, save_best_model=True)
        text, _ = _printed(lambda: model.fit(_dataset(paddle), _dataset(paddle), batch_size=4, epochs=6,
                                             shuffle=False, verbose=0, save_dir=d, save_freq=2, callbacks=[stop]))
        best = _model(paddle, _mlp(paddle), optimizer="sgd")
        best.load(d + "/best_model")
        return {"files": _files(d), "stopped": model.stop_training, "best": stop.best_value,
                "text": text.replace(d, "<dir>"), "best_eval": _numbers(best.evaluate(_dataset(paddle), batch_size=4, verbose=0))}


@differential(rtol=1e-4, atol=1e-5)
def test_static_lenet(paddle):
    images = np.random.RandomState(4).uniform(size=(6, 1, 28, 28)).astype("float32")
    digits = np.random.RandomState(6).randint(0, 10, size=(6, 1)).astype("int64")
    with _static(paddle):
        net = paddle.vision.models.LeNet()
        model = _model(paddle, net, optimizer="sgd", metrics=False, inputs=([None, 1, 28, 28], "float32", "image"))
        _set_weights(net, scale=0.05)
        losses = []

        class Record(paddle.callbacks.Callback):
            def on_train_batch_end(self, step, logs=None):
                losses.append(float(logs["loss"][0]))

        model.fit(_dataset(paddle, images, digits), batch_size=3, epochs=2, shuffle=False, verbose=0,
                  callbacks=[Record()])
        return {"losses": losses, "predicted": model.predict_batch([images[:2]])}


@differential()
def test_static_summary(paddle):
    with _static(paddle):
        model = paddle.Model(_mlp(paddle), [paddle.static.InputSpec(*_INPUTS)])
        with pytest.warns(UserWarning, match="static graph mode"):
            text, info = _printed(model.summary)
        return {"text": text, "info": {k: int(v) for k, v in info.items()}}


def _two_input_net(paddle, p):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc, self.bn = paddle.nn.Linear(6, 8), paddle.nn.BatchNorm1D(8)
            self.drop, self.out = paddle.nn.Dropout(p), paddle.nn.Linear(8, 3)

        def forward(self, a, b):
            h = paddle.nn.functional.relu(self.bn(self.fc(paddle.concat([a, b], axis=1))))
            return self.out(self.drop(h))
    return Net()


@differential(rtol=1e-5, atol=1e-6)
def test_static_two_inputs_batch_norm_dropout(paddle):
    """Weights loaded before `prepare` survive the startup program; the eval/test programs run dropout and batch
    norm in test mode; training updates batch norm's running statistics; a model without loss predicts."""
    z = np.random.RandomState(2).normal(size=(10, 2)).astype("float32")

    class Triples(paddle.io.Dataset):
        def __len__(self):
            return len(_X)

        def __getitem__(self, i):
            return _X[i], z[i], _Y[i]

    specs = [paddle.static.InputSpec([None, 4], "float32", "a"), paddle.static.InputSpec([None, 2], "float32", "b")]
    with _static(paddle), tempfile.TemporaryDirectory() as d:
        results = {}
        for name, p in (("dropped", 0.5), ("kept", 0.0)):  # 0.5: only test-mode runs (dropout is random)
            net = _two_input_net(paddle, p)
            rs = np.random.RandomState(5)
            paddle.save({k: (rs.normal(size=v.shape) * 0.5 + ("variance" in k)).astype("float32")
                         for k, v in net.state_dict().items()}, f"{d}/{name}.pdparams")
            model = paddle.Model(net, specs, paddle.static.InputSpec([None, 1], "int64", "y"))
            model.load(f"{d}/{name}")
            model.prepare(paddle.optimizer.Momentum(0.05, parameters=model.parameters()),
                          paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
            results[name] = {"predicted": model.predict_batch([_X[:3], z[:3]]), "eval": model.eval_batch([_X, z], [_Y])}
        model.fit(Triples(), batch_size=5, epochs=1, shuffle=False, verbose=0)
        stats = {k: v for k, v in _weights(paddle, model.network).items() if k.startswith("bn._")}
        predictor = paddle.Model(_two_input_net(paddle, 0.5), specs)
        predictor.prepare()
        shapes = [o.shape for o in predictor.predict(Triples(), batch_size=4, verbose=0, stack_outputs=True)]
        return {"before": results, "stats": stats, "evaluated": _numbers(model.evaluate(Triples(), verbose=0)),
                "predictor": shapes}


def test_checkpoints_cross_graph_modes(tmp_path):
    """A dynamic-mode checkpoint (parameters and Adam's moments) resumes in static mode and the reverse: the next
    steps match the run that never stopped."""
    import paddlelite as paddle

    def build():
        with paddle.utils.unique_name.guard():  # the same parameter (and so accumulator) names in both modes
            return _model(paddle)

    def steps(model):
        return [model.train_batch([_X[i:i + 5]], [_Y[i:i + 5]]) for i in (0, 5)]

    for first_static in (False, True):
        path = str(tmp_path / f"from_static_{first_static}")
        try:
            with contextlib.ExitStack() as stack:
                if first_static:
                    stack.enter_context(_static(paddle))
                model = build()
                steps(model)
                model.save(path)
                expected = steps(model) + [model.predict_batch([_X])]
        finally:
            paddle.disable_static()
        try:
            with contextlib.ExitStack() as stack:
                if not first_static:
                    stack.enter_context(_static(paddle))
                resumed = build()
                resumed.load(path)
                assert_same(snapshot(steps(resumed) + [resumed.predict_batch([_X])]), snapshot(expected),
                            rtol=1e-5, atol=1e-6)
        finally:
            paddle.disable_static()
