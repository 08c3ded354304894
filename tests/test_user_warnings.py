"""Warnings name the user's line (framework/user_warnings.py): NumPy's warnings in an op's forward, eager and
static, AMP's overflowing casts, and paddlelite's own warnings. Run as a program in a subprocess: a
`warnings.catch_warnings` block around the import of paddlelite (pytest's collection is one) removes the
filter when it ends."""
import os
import subprocess
import sys
import warnings

import numpy as np

from paddlelite.framework import user_warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROGRAM = """\
import warnings
import numpy as np
import paddlelite as paddle
x = paddle.to_tensor([0.0, 1.0])
y = paddle.log(x)
h = paddle.to_tensor([70000.0]).astype("float16")
s = paddle.to_tensor([1.0], dtype="float16") * paddle.to_tensor([2.0])
paddle.enable_static()
a = paddle.static.data("a", [2], "float32")
b = paddle.sqrt(a)
exe = paddle.static.Executor(paddle.CPUPlace())
(root,) = exe.run(feed={"a": np.array([-1.0, 4.0], "float32")}, fetch_list=[b])
paddle.disable_static()
print(y.numpy().tolist(), h.numpy().tolist(), root.tolist())
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    paddle.log(x)
warnings.simplefilter("error")
paddle.log(x)
"""


def test_warnings_name_the_users_line(tmp_path):
    (tmp_path / "prog.py").write_text(PROGRAM)
    r = subprocess.run([sys.executable, "prog.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=ROOT, PADDLELITE_DEVICE="cpu"))
    # each op computed what it computes without the filter
    assert r.stdout.splitlines() == ["[-inf, 0.0] [inf] [nan, 2.0]"], r.stderr
    assert "prog.py:5: RuntimeWarning: divide by zero encountered in log" in r.stderr
    assert "prog.py:6: RuntimeWarning: overflow encountered in cast" in r.stderr
    assert "prog.py:7: UserWarning: multiply: Got different data type" in r.stderr
    assert "prog.py:12: RuntimeWarning: invalid value encountered in sqrt" in r.stderr  # the static run
    assert "paddlelite" + os.sep not in r.stderr.split("Traceback")[0]  # no warning names a paddlelite line
    # under simplefilter("error") the warning is raised at the user's line, the ignored one never shows
    traceback = r.stderr.split("Traceback (most recent call last):")[1]
    assert 'prog.py", line 19' in traceback and traceback.strip().endswith(
        "RuntimeWarning: divide by zero encountered in log")
    assert r.returncode == 1 and r.stderr.count("divide by zero") == 2


def test_paddlelites_own_warnings_name_the_callers_line():
    def api():  # stands for a paddlelite API: its frames are skipped, the test's are not
        user_warnings.warn("careful")
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        api()
    assert log[0].filename == __file__ and log[0].lineno == api.__code__.co_firstlineno + 1


def test_rerun_issues_the_forwards_warnings_at_the_callers_line():
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        out = user_warnings.rerun(np.log, np.array([0.0, 1.0]))
    assert out.tolist() == [-np.inf, 0.0]
    assert [(w.category, str(w.message), w.filename) for w in log] == \
        [(RuntimeWarning, "divide by zero encountered in log", __file__)]
