"""`import paddle` gives paddlelite when the user asks (import_alias.install_as_paddle): `python -m paddlelite script.py`,
`paddlelite.install_as_paddle()`, PADDLELITE_AS_PADDLE=1 through paddlelite-as-paddle.pth. Unchanged Paddle
tutorial-style programs (tests/paddle_scripts) run in subprocesses; every `paddle.X` is the one `paddlelite.X`.

Only test_real_paddle_is_never_shadowed needs real Paddle (importorskip); the others import `paddle` through the
alias, so they run without it. The programs are text (tests/paddle_scripts/*.txt, strings below), never imported
by pytest itself."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(ROOT, "tests", "paddle_scripts")


def _run(args, cwd, **env):
    full = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), PADDLELITE_DEVICE="cpu")
    full.pop("PADDLELITE_AS_PADDLE", None)
    full.update(env)
    r = subprocess.run([sys.executable, *args], cwd=cwd, env=full, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


def _script(name, folder):
    """Paddle program `name` as the user has it: a .py file (kept as text here so pytest never imports it)."""
    path = folder / f"{name}.py"
    with open(os.path.join(SCRIPTS, f"{name}.txt")) as f:
        path.write_text(f.read())
    return str(path)


# Each `paddle...` name a Paddle program imports is the paddlelite module object itself, loaded once.
IDENTITY = textwrap.dedent("""
    import sys
    import paddle
    import paddle.nn.functional as F
    from paddle.io import Dataset
    from paddle.vision.models import resnet18
    import paddle.base, paddle.fluid, paddle.base.dygraph
    import paddlelite
    assert paddle is paddlelite and F is paddlelite.nn.functional and Dataset is paddlelite.io.Dataset
    assert resnet18 is paddlelite.vision.models.resnet18
    assert paddle.base is paddlelite.base and paddle.fluid is paddlelite.fluid
    assert paddle.base.dygraph is paddlelite.fluid.dygraph
    assert isinstance(paddle.to_tensor([1.0]), paddlelite.Tensor)
    assert isinstance(paddle.nn.Linear(2, 2), paddlelite.nn.Layer)
    import pickle
    blob = pickle.dumps(paddle.nn.Linear(2, 2))  # pickles name paddlelite's classes, whatever the program calls it
    assert b"paddlelite.nn.layer" in blob and isinstance(pickle.loads(blob), paddlelite.nn.Linear)
    for name, module in list(sys.modules.items()):
        if name.startswith("paddle."):
            assert module is sys.modules["paddlelite" + name[len("paddle"):]], name
            assert module.__spec__.name.startswith("paddlelite"), name  # each module keeps its own spec
    print("identical", sys.argv[1:])
""")


def test_python_m_paddlelite_runs_a_script_as_main_with_its_arguments(tmp_path):
    (tmp_path / "identity.py").write_text(IDENTITY)
    assert _run(["-m", "paddlelite", "identity.py", "--flag", "x"], tmp_path).split() == \
        ["identical", "['--flag',", "'x']"]
    assert _run(["-m", "paddlelite", "-m", "identity", "--flag"], tmp_path).split() == ["identical", "['--flag']"]


def test_python_m_paddlelite_usage(tmp_path):
    full = dict(os.environ, PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-m", "paddlelite"], cwd=tmp_path, env=full, capture_output=True, text=True)
    assert r.returncode == 2 and "usage: python -m paddlelite script.py" in r.stderr
    r = subprocess.run([sys.executable, "-m", "paddlelite", "missing.py"], cwd=tmp_path, env=full,
                       capture_output=True, text=True)
    assert r.returncode == 2 and "missing.py" in r.stderr


def test_install_as_paddle_in_a_running_program(tmp_path):
    assert "identical" in _run(["-c", "import paddlelite; paddlelite.install_as_paddle()\n" + IDENTITY], tmp_path)


def test_environment_variable_through_the_startup_hook(tmp_path):
    """The .pth a regular install puts in site-packages (setup.py): off by default, lazy when on."""
    site_dir = tmp_path / "site"
    site_dir.mkdir()
    (site_dir / "paddlelite-as-paddle.pth").write_text(open(os.path.join(ROOT, "paddlelite-as-paddle.pth")).read())
    start = f"import site, sys; site.addsitedir({str(site_dir)!r})\n"
    lazy = "assert 'paddlelite' not in sys.modules  # nothing is imported before `import paddle`\n"
    assert "identical" in _run(["-c", start + lazy + IDENTITY], tmp_path, PADDLELITE_AS_PADDLE="1")
    off = "import importlib.util; spec = importlib.util.find_spec('paddle'); print(spec and spec.name)"
    assert _run(["-c", start + off], tmp_path, PADDLELITE_AS_PADDLE="0").strip() in ("paddle", "None")


def test_real_paddle_is_never_shadowed(tmp_path):
    pytest.importorskip("paddle")  # real Paddle, which the program below imports beside paddlelite
    real = textwrap.dedent("""
    import paddlelite, paddle
    assert paddle is not paddlelite and 'site-packages' in paddle.__file__  # importing paddlelite aliases nothing
    try:
        paddlelite.install_as_paddle()
    except RuntimeError as e:
        print("refused:", "already imported" in str(e))
""")
    assert _run(["-c", real], tmp_path).strip().endswith("refused: True")


def test_lenet_with_paddle_model_saves_files_naming_paddlelite(tmp_path):
    out = _run(["-m", "paddlelite", _script("lenet_model", tmp_path), str(tmp_path)], tmp_path)
    assert float(out.split()[-1]) >= 0.9, out
    import paddlelite
    # written under the alias, read back by a process where paddle is not paddlelite (this one)
    net = paddlelite.jit.load(str(tmp_path / "lenet"))
    state = paddlelite.load(str(tmp_path / "lenet.pdparams"))
    image = paddlelite.to_tensor(np.zeros((2, 1, 28, 28), "float32"))
    assert net(image).shape == [2, 2] and "conv1.weight" in state


@pytest.mark.parametrize("script", ["dataset_loader", "static_program", "static_model_fit"])
def test_paddle_tutorial_scripts_run_unchanged(script, tmp_path):
    out = _run(["-m", "paddlelite", _script(script, tmp_path)], tmp_path)
    assert "loss" in out, out
