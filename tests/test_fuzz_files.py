"""Every file reader fuzzed (issue 29): tests/fuzz_files.py runs in its own process, so a crash or a hang
fails this test with the input that caused it instead of taking pytest down. The CI budget is a few
hundred derandomized inputs (seconds); PADDLELITE_FUZZ_EXAMPLES=20000 runs a longer, randomized search."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("hypothesis", reason="the fuzz tests need Hypothesis (pip install -e '.[test]')")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_file_reader_loads_or_refuses_any_input(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]),
               PYTHONWARNINGS="ignore")
    proc = subprocess.run([sys.executable, "-m", "tests.fuzz_files", str(tmp_path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=3600)
    reproducers = sorted(p for p in os.listdir(tmp_path) if p.startswith("current"))
    assert proc.returncode == 0, (
        f"the fuzzer exited with {proc.returncode} (negative: killed by that signal -- a crash); the last input "
        f"is {[str(tmp_path / p) for p in reproducers]}\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}")
    for reader in ("paddle pickle", "paddlelite checkpoint", "inference model", "jit.load"):
        assert f"{reader}: " in proc.stdout, proc.stdout
