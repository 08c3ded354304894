"""paddle.Model, paddle.callbacks, paddle.summary and paddle.flops against real Paddle 3.3.1: the same losses
per step, metrics, predictions and checkpoints for the same weights and data, and the same printed text."""
import contextlib
import io
import re

import numpy as np
import pytest

from tests.differential import differential, raises

_X = np.random.RandomState(0).normal(size=(10, 4)).astype("float32")
_Y = np.random.RandomState(1).randint(0, 3, size=(10, 1)).astype("int64")
_W = np.random.RandomState(2).normal(size=(4, 3)).astype("float32") * 0.5


def _dataset(paddle, with_labels=True):
    class Pairs(paddle.io.Dataset):
        def __len__(self):
            return len(_X)

        def __getitem__(self, i):
            return (_X[i], _Y[i]) if with_labels else (_X[i],)
    return Pairs()


def _model(paddle, lr=0.1, metrics=True):
    net = paddle.nn.Linear(4, 3)
    net.weight.set_value(_W)
    net.bias.set_value(np.array([0.1, -0.2, 0.05], "float32"))
    model = paddle.Model(net)
    optimizer = paddle.optimizer.SGD(learning_rate=lr, parameters=model.parameters())
    model.prepare(optimizer, paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy() if metrics else None)
    return model


def _numbers(logs, names=None):
    """The losses and metrics `names` (default: all) of a step's or an evaluation's logs, as floats. (Paddle's logs
    dict is a mutable default argument: it keeps the keys of earlier models' runs too.)"""
    return {k: [float(x) for x in v] if isinstance(v, (list, tuple)) else float(v) for k, v in logs.items()
            if k in (names or logs)}


def _recorder(paddle):
    """A callback recording the losses and metrics of each train step and evaluation, and the epoch ends."""
    class Record(paddle.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.seen = []

        def on_train_batch_end(self, step, logs=None):
            self.seen.append(("train", step, _numbers(logs, self.model._metrics_name()), logs["batch_size"]))

        def on_epoch_end(self, epoch, logs=None):
            self.seen.append(("epoch", epoch))

        def on_eval_end(self, logs=None):
            self.seen.append(("eval", _numbers(logs, self.model._metrics_name())))
    return Record()


def fit_evaluate_predict(paddle, model, labelled, unlabelled):
    """Fit 2 epochs with evaluation, evaluate, predict (stacked and per batch): what each step and call gave."""
    record = _recorder(paddle)
    model.fit(labelled, labelled, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[record])
    evaluated = model.evaluate(labelled, batch_size=3, verbose=0)
    predicted = model.predict(unlabelled, batch_size=4, stack_outputs=True, verbose=0)
    batches = model.predict(unlabelled, batch_size=4, verbose=0)
    return {"steps": record.seen, "evaluated": _numbers(evaluated), "predicted": predicted, "batches": batches}


@differential(rtol=1e-5, atol=1e-6)
def test_fit_evaluate_predict(paddle):
    model = _model(paddle)
    result = fit_evaluate_predict(paddle, model, _dataset(paddle), _dataset(paddle, with_labels=False))
    return {**result, "weight": model.network.weight}


@differential(rtol=1e-5, atol=1e-6)
def test_batch_steps_and_accumulation(paddle):
    model = _model(paddle, metrics=False)
    first = model.train_batch([_X[:5]], [_Y[:5]])
    accumulated = model.train_batch([_X[5:]], [_Y[5:]], update=False)
    applied = model.train_batch([_X[:5]], [_Y[:5]])
    return {"first": first, "accumulated": accumulated, "applied": applied,
            "eval": model.eval_batch([_X], [_Y]), "predict": model.predict_batch([_X[:2]]),
            "weight": model.network.weight}


@differential(rtol=1e-5, atol=1e-6)
def test_lr_schedule_steps_per_batch(paddle):
    net = paddle.nn.Linear(4, 3)
    net.weight.set_value(_W)
    model = paddle.Model(net)
    schedule = paddle.optimizer.lr.StepDecay(0.5, step_size=2, gamma=0.5)
    model.prepare(paddle.optimizer.SGD(learning_rate=schedule, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss())
    model.fit(_dataset(paddle), batch_size=2, epochs=1, shuffle=False, verbose=0)
    return {"lr": schedule.get_lr(), "weight": net.weight}


@differential(rtol=1e-5, atol=1e-6)
def test_save_load_roundtrip(paddle):
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        model = _model(paddle)
        model.fit(_dataset(paddle), batch_size=5, epochs=1, shuffle=False, verbose=0, save_dir=d)
        fresh = _model(paddle)
        fresh.load(d + "/final")
        return {"weight": fresh.network.weight, "bias": fresh.network.bias,
                "same_prediction": np.allclose(fresh.predict_batch([_X])[0], model.predict_batch([_X])[0])}


def _printed(fn):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn()
    return out.getvalue(), result


def _timeless(text):
    return re.sub(r" - \d+(s|ms|us)/step", " - <t>/step", text)


@differential()
def test_progress_log_text(paddle):
    model = _model(paddle)
    text, _ = _printed(lambda: model.fit(_dataset(paddle), _dataset(paddle), batch_size=4, epochs=2, shuffle=False,
                                         verbose=2, log_freq=1))
    evaluated, _ = _printed(lambda: model.evaluate(_dataset(paddle), batch_size=5, verbose=2, log_freq=1))
    return _timeless(text) + _timeless(evaluated)


@differential()
def test_summary_text(paddle):
    net = paddle.nn.Sequential(paddle.nn.Conv2D(3, 4, 3), paddle.nn.BatchNorm2D(4), paddle.nn.ReLU(),
                               paddle.nn.Flatten(), paddle.nn.Linear(4 * 6 * 6, 5))
    text, info = _printed(lambda: paddle.summary(net, (2, 3, 8, 8)))
    lenet_text, lenet_info = _printed(lambda: paddle.summary(paddle.vision.models.LeNet(), (1, 1, 28, 28)))
    return {"text": text, "info": {k: int(v) for k, v in info.items()}, "lenet": lenet_text,
            "lenet_info": {k: int(v) for k, v in lenet_info.items()}}


def test_flops_counts():
    import paddlelite as paddle
    text, total = _printed(lambda: paddle.flops(paddle.vision.models.LeNet(), [1, 1, 28, 28], print_detail=True))
    # conv: out elements x (in_channels x kernel + bias); linear: in_features x out elements
    expected = 6 * 28 * 28 * (9 + 1) + 16 * 10 * 10 * (6 * 25 + 1) + 400 * 120 + 120 * 84 + 84 * 10
    assert total == expected
    assert "Total Flops: 347560     Total Params: 61610" in text
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in text.splitlines() if line.startswith("|")]
    assert rows[0] == ["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"]
    assert rows[1][1:] == ["[1, 1, 28, 28]", "[1, 6, 28, 28]", "60", "47040"] and rows[1][0].startswith("conv2d_")


def test_visualdl_without_visualdl_writes_csv(tmp_path):
    import paddlelite as paddle
    pytest.importorskip("csv")
    try:
        import visualdl  # noqa: F401
        pytest.skip("visualdl is installed: the CSV fallback is not used")
    except ImportError:
        pass
    model = _model(paddle)
    model.fit(_dataset(paddle), _dataset(paddle), batch_size=5, epochs=1, shuffle=False, verbose=0,
              callbacks=[paddle.callbacks.VisualDL(str(tmp_path))])
    rows = (tmp_path / "scalars.csv").read_text().splitlines()
    assert rows[0] == "tag,step,value" and rows[1].startswith("train/loss,1,") and any(r.startswith("eval/acc,0,")
                                                                                       for r in rows)


def test_wandb_needs_wandb():
    import paddlelite as paddle
    try:
        import wandb  # noqa: F401
        pytest.skip("wandb is installed")
    except ImportError:
        pass
    with pytest.raises(ImportError, match="pip install wandb"):
        paddle.callbacks.WandbCallback(project="x")


def test_early_stopping_and_reduce_lr(capsys):
    import paddlelite as paddle
    model = _model(paddle, lr=0.2)  # no improvement is as large as min_delta: both fire on the second evaluation
    stop = paddle.callbacks.EarlyStopping(monitor="loss", patience=1, verbose=1, min_delta=10, save_best_model=False)
    reduce = paddle.callbacks.ReduceLROnPlateau(monitor="loss", patience=1, factor=0.5, verbose=1, min_delta=10)
    model.fit(_dataset(paddle), _dataset(paddle), batch_size=5, epochs=5, shuffle=False, verbose=0,
              callbacks=[stop, reduce])
    out = capsys.readouterr().out
    assert "Early stopping." in out and "ReduceLROnPlateau reducing learning rate to 0.1." in out


def test_inference_export(tmp_path):
    import paddlelite as paddle
    model = _model(paddle)
    with pytest.raises(RuntimeError, match="Saving inference model needs 'inputs'"):
        model.save(str(tmp_path / "never_run"), training=False)
    expected = model.predict_batch([_X])[0]
    with pytest.warns(UserWarning, match="derived from the user's actual inputs"):
        model.save(str(tmp_path / "infer"), training=False)
    loaded = paddle.jit.load(str(tmp_path / "infer"))
    np.testing.assert_allclose(loaded(paddle.to_tensor(_X)).numpy(), expected, rtol=1e-6)


@differential(rtol=1e-5, atol=1e-6)
def test_fit_shuffled_drop_last_two_batch_sizes(paddle):
    model = _model(paddle)
    record = _recorder(paddle)
    model.fit(_dataset(paddle), _dataset(paddle), batch_size=[3, 4], epochs=2, shuffle=True, drop_last=True,
              eval_freq=2, verbose=0, callbacks=[record])
    return {"steps": record.seen, "weight": model.network.weight}


def test_amp_configs_train_as_auto_cast_and_grad_scaler():
    # Paddle's CPU build switches auto_cast off (it only casts on GPU/XPU), paddlelite's casts on CPU too; so
    # Model's amp path is checked against the same steps written by hand with paddle.amp
    import paddlelite as paddle

    def linear():
        net = paddle.nn.Linear(4, 3)
        net.weight.set_value(_W)
        return net

    model = paddle.Model(linear())
    model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()), paddle.nn.CrossEntropyLoss(),
                  amp_configs={"level": "O1", "init_loss_scaling": 128.0, "custom_black_list": ["softmax"]})
    losses = [model.train_batch([_X], [_Y])[0] for _ in range(3)]
    net = linear()
    optimizer = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    scaler = paddle.amp.GradScaler(init_loss_scaling=128.0)
    expected = []
    for _ in range(3):
        with paddle.amp.auto_cast(level="O1", custom_black_list=["softmax"]):
            out = net(paddle.to_tensor(_X))
        loss = paddle.nn.CrossEntropyLoss()(out, paddle.to_tensor(_Y))
        scaled = scaler.scale(loss)
        scaled.backward()
        scaler.minimize(optimizer, scaled)
        net.clear_gradients()
        expected.append(loss.numpy())
    np.testing.assert_array_equal(np.array(losses), np.array(expected))
    np.testing.assert_array_equal(model.network.weight.numpy(), net.weight.numpy())
    assert str(losses[0].dtype) == "float16"


@differential(expected=raises(ValueError))
def test_amp_configs_unknown_key(paddle):
    model = paddle.Model(paddle.nn.Linear(4, 3))
    model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()), paddle.nn.CrossEntropyLoss(),
                  amp_configs={"level": "O1", "loss_scale": 2.0})


@differential(rtol=1e-5, atol=1e-6)
def test_two_inputs_topk_metric_and_early_stopping_checkpoints(paddle):
    import os
    import tempfile

    class TwoInputs(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.a, self.b = paddle.nn.Linear(4, 3), paddle.nn.Linear(4, 3)
            self.a.weight.set_value(_W)
            self.b.weight.set_value(_W[::-1].copy())

        def forward(self, x, y):
            return self.a(x) + self.b(y)

    class Data(paddle.io.Dataset):
        def __len__(self):
            return len(_X)

        def __getitem__(self, i):
            return _X[i], _X[::-1][i], _Y[i]

    model = paddle.Model(TwoInputs())
    model.prepare(paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy(topk=(1, 2)))
    with tempfile.TemporaryDirectory() as d:
        stop = paddle.callbacks.EarlyStopping("acc_top2", mode="max", patience=1, verbose=0, min_delta=0.5)
        model.fit(Data(), Data(), batch_size=4, epochs=4, shuffle=False, verbose=0, save_dir=d, callbacks=[stop])
        saved = sorted(os.listdir(d))
    evaluated = model.evaluate(Data(), batch_size=4, verbose=0)
    return {"saved": saved, "stopped_at": stop.stopped_epoch, "evaluated": {k: float(v) if not isinstance(v, list)
                                                                            else [float(x) for x in v]
                                                                            for k, v in evaluated.items()},
            "predicted": model.predict(Data(), batch_size=5, stack_outputs=True, verbose=0)}


def test_flops_custom_ops_use_paddles_protocol():
    import paddlelite as paddle

    def count_maxpool(m, x, y):  # written for Paddle: adds to m.total_ops
        m.total_ops += int(np.prod(y.shape)) * 4

    net = paddle.vision.models.LeNet()
    text, total = _printed(lambda: paddle.flops(net, [1, 1, 28, 28], custom_ops={paddle.nn.MaxPool2D: count_maxpool}))
    assert total == 347560 + (6 * 14 * 14 + 16 * 5 * 5) * 4
    assert "Customize Function has been applied to" in text
    assert not any(k.endswith("total_ops") for k in net.state_dict()) and not hasattr(net.features[0], "total_ops")
