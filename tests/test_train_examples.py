"""The training examples: digits reaches >= 95% test accuracy, eager and static follow the same loss
curve, outputs are written; the char transformer's loss falls."""
import importlib
import os

import numpy as np
import pytest

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


# ---- the jobs as command-line tools -----------------------------------------------------------------
def _run_job(module, *args):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", f"paddlelite.examples.{module}", *args], capture_output=True,
                          text=True, timeout=120, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("module", ["train", "char_transformer"])
def test_help_lists_every_option_with_its_default_and_a_sentence(module):
    job = importlib.import_module(f"paddlelite.examples.{module}")
    parser, _ = job.parse_args([])
    text = _run_job(module, "--help").stdout
    for action in parser._actions:
        if action.option_strings and action.dest != "help":
            assert action.help, f"{action.option_strings[0]} has no help sentence"
            assert action.option_strings[0] in text
            assert f"(default: {action.default})" in " ".join(text.split()), action.option_strings[0]


@pytest.mark.parametrize("module,args,message", [
    ("train", ["--epochs", "0"], "--epochs: must be greater than 0"),
    ("train", ["--lr", "x"], "--lr: expected a number"),
    ("train", ["--device", "gpu"], "GPU"),
    ("char_transformer", ["--steps", "0"], "--steps: must be greater than 0"),
    ("char_transformer", ["--temperature", "0"], "--temperature: must be greater than 0"),
    ("char_transformer", ["--block", "100000"], "--block: must be less than"),
])
def test_user_errors_are_one_line_and_exit_2(module, args, message):
    if args == ["--device", "gpu"] and paddle.device.cuda.is_available():
        pytest.skip("this machine has a GPU")
    r = _run_job(module, *args)
    assert r.returncode == 2
    assert message in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path):
    r = _run_job("train", "--epochs", "1", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "\r" not in r.stderr and "step/s" not in r.stderr and "it/s" not in r.stderr
    assert "epoch 1/1: mean loss" in r.stdout


def test_an_output_directory_that_cannot_be_written_is_refused_before_training(tmp_path):
    (tmp_path / "file").write_text("")
    r = _run_job("train", "--out", str(tmp_path / "file" / "runs"))
    assert r.returncode == 2 and "--out: cannot write to" in r.stderr and "Traceback" not in r.stderr
    assert r.stdout == ""  # nothing was trained


def test_char_transformer_logs_every_n_steps_without_a_terminal():
    r = _run_job("char_transformer", "--steps", "5", "--log-every", "2", "--batch-size", "2", "--block", "8",
                 "--sample-len", "3")
    assert r.returncode == 0, r.stderr
    steps = [int(line.split()[1]) for line in r.stdout.splitlines() if line.startswith("step ")]
    assert steps == [1, 2, 4] and "\r" not in r.stderr


def test_progress_is_a_bar_on_a_terminal_with_lines_above_it(monkeypatch, capsys):
    pytest.importorskip("tqdm")
    from paddlelite.examples import cli
    monkeypatch.setattr(cli.sys.stderr, "isatty", lambda: True, raising=False)
    progress = cli.Progress(3, "training", quiet=False)
    assert progress.bar is not None
    progress.update(0.5)
    progress.log("step 1 loss 0.5")
    progress.close("done")
    out = capsys.readouterr()
    assert "step 1 loss 0.5" in out.out and "training: done" in out.out and "loss=0.5000" in out.err
    assert cli.Progress(3, "training", quiet=True).bar is None


def test_static_mode_writes_the_optimizer_state_too(tmp_path):
    with unique_name.guard():
        train.main(["--mode", "static", "--epochs", "1", "--out", str(tmp_path), "--quiet"])
    opt_state = paddle.load(str(tmp_path / "digits_mlp.pdopt"), return_numpy=True)
    with unique_name.guard():
        eager = train.train_eager(paddle, train.load_digits(), 1, 64, 0.003, 0, True)
    eager_keys = set(eager["optimizer"].state_dict())
    assert eager_keys and eager_keys <= set(opt_state)  # the moments and beta powers, by the same names
    assert any(np.abs(v).sum() > 0 for k, v in opt_state.items() if "moment1" in k)
