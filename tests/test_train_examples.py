"""The training examples: digits reaches >= 95% test accuracy, eager and static follow the same loss
curve, outputs are written; the char transformer's loss falls."""
import os

import numpy as np

import paddlelite as paddle
from paddlelite.examples import char_transformer, train
from paddlelite.utils import unique_name


def test_bundled_digits_data():
    x_tr, y_tr, x_te, y_te = train.load_digits()
    assert x_tr.shape == (1438, 64) and x_te.shape == (359, 64)
    assert x_tr.dtype == np.float32 and 0.0 <= x_tr.min() and x_tr.max() <= 1.0
    assert set(np.unique(y_tr)) == set(range(10))


def test_digits_eager_cli_reaches_95_percent(tmp_path, capsys):
    with unique_name.guard():
        res = train.main(["--epochs", "6", "--batch-size", "64", "--lr", "0.005", "--out", str(tmp_path),
                          "--quiet"])
    assert res["accuracy"] >= 0.95
    assert "test accuracy" in capsys.readouterr().out
    assert os.path.exists(tmp_path / "digits_mlp.pdparams") and os.path.exists(tmp_path / "digits_mlp.pdopt")
    losses = np.loadtxt(tmp_path / "loss.csv")
    assert len(losses) == 6 * 23 and losses[-20:].mean() < losses[:5].mean() / 5
    try:
        import matplotlib  # noqa: F401
        assert os.path.exists(tmp_path / "loss.png")
    except ImportError:
        pass
    # the checkpoint restores the trained model
    with unique_name.guard():
        model = train.build_model(paddle)
    model.set_state_dict(paddle.load(str(tmp_path / "digits_mlp.pdparams")))
    model.eval()
    _, _, x_te, y_te = train.load_digits()
    acc = (model(paddle.to_tensor(x_te)).numpy().argmax(-1) == y_te).mean()
    assert abs(acc - res["accuracy"]) < 1e-9


def test_digits_static_follows_eager_curve():
    data = train.load_digits()
    with unique_name.guard():
        eager = train.train_eager(paddle, data, 2, 64, 0.005, 0, True)
    with unique_name.guard():
        static = train.train_static(paddle, data, 2, 64, 0.005, 0, True)
    np.testing.assert_allclose(static["losses"], eager["losses"], rtol=2e-4, atol=1e-5)
    assert abs(static["accuracy"] - eager["accuracy"]) <= 2 / len(data[3])
    for name, p in eager["model"].state_dict().items():
        np.testing.assert_allclose(static["params"][name], p.numpy(), rtol=1e-3, atol=1e-5)


def test_char_transformer_loss_falls():
    with unique_name.guard():
        res = char_transformer.train(paddle, steps=40, batch_size=16, block=16, lr=3e-3, quiet=True)
    losses = res["losses"]
    assert np.mean(losses[-5:]) < np.mean(losses[:5]) - 0.5
    text = char_transformer.sample(paddle, res["model"], res["stoi"], res["itos"], res["block"], "Love ", 20,
                                   0.8, np.random.default_rng(0))
    assert text.startswith("Love ") and len(text) == 25
