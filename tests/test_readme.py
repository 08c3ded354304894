"""The README's promises stay true: its commands name real entry points and its Python runs."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = open(os.path.join(ROOT, "README.md")).read()


def test_readme_starts_with_train_and_test_commands():
    commands = re.findall(r"```bash\n(.*?)\n```", README, re.S)[:2]
    assert "python -m paddlelite.examples.train" in commands[0]
    assert "pytest tests" in commands[1]
    # .ci/run executes that second bash block verbatim
    r = subprocess.run(["bash", "-c", "awk '/^```bash/{n++; next} /^```/{next} n==2 {print; exit}' README.md"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.stdout.strip() == commands[1].strip()
    assert "awk" in open(os.path.join(ROOT, ".ci", "run")).read()


@pytest.mark.parametrize("k", range(len(re.findall(r"```python\n", README))))
def test_readme_python_blocks_run(k, tmp_path):
    block = re.findall(r"```python\n(.*?)```", README, re.S)[k]
    for module in re.findall(r"^import (onnx\w*)", block, re.M):  # the optional extras a block shows
        pytest.importorskip(module)
    # -W error: a snippet that warns (the AMP one mixing float16 and float32) does not do what its text says
    r = subprocess.run([sys.executable, "-W", "error", "-c", block], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120,
                       env=dict(os.environ, PYTHONPATH=ROOT, PADDLELITE_DEVICE="cpu"))
    assert r.returncode == 0, r.stderr[-2000:]
