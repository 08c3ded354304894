"""Runs one of Paddle's unittest files as Paddle's CI does (`python test_x.py`: the file is `__main__` and ends in
`unittest.main()`) and writes each test's outcome to a JSON file.

    python -m paddlelite tests/paddle_suite/run_file.py SOURCES/test/legacy_test/test_x.py OUT.json   # paddlelite
    python tests/paddle_suite/run_file.py SOURCES/test/legacy_test/test_x.py OUT.json                 # real Paddle

This script imports no framework itself: `paddle` is whatever the interpreter gives (paddlelite through its import
alias, or real Paddle). `unittest.main` is replaced by a runner that records every test's outcome ("passed",
"failed", "error", "skipped") and the last line of its traceback, so nothing but the call changes. The file's own
directory and Paddle's test/legacy_test (its helper modules: utils, op_test, decorator_helper, ...) come first on
sys.path; the working directory is a fresh temporary one, so files the tests write go nowhere else.
"""
import functools
import json
import os
import runpy
import sys
import tempfile
import time
import traceback
import unittest


class _RecordingResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.outcomes = {}
        self._started = {}

    @staticmethod
    def _key(test):
        test_id = test.id()  # module.Class.method, or a description for class/module fixtures
        parts = test_id.split(".")
        return ".".join(parts[-2:]) if len(parts) >= 2 and not test_id.startswith(("setUp", "tearDown")) else test_id

    def startTest(self, test):
        super().startTest(test)
        self._started[self._key(test)] = time.perf_counter()

    def _record(self, test, outcome, detail=""):
        key = self._key(test)
        seconds = time.perf_counter() - self._started.get(key, time.perf_counter())
        previous = self.outcomes.get(key)
        if previous is not None and previous["outcome"] in ("failed", "error"):
            return  # a subTest or tearDown failure already decided it
        self.outcomes[key] = {"outcome": outcome, "detail": detail, "seconds": round(seconds, 3)}

    @staticmethod
    def _last_line(err):
        text = "".join(traceback.format_exception(*err)).strip().splitlines()
        return text[-1][:500] if text else ""

    def addSuccess(self, test):
        self._record(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, "failed", self._last_line(err))

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, "error", self._last_line(err))

    def addSkip(self, test, reason):
        self._record(test, "skipped", str(reason)[:200])

    def addExpectedFailure(self, test, err):
        self._record(test, "passed", "expected failure")

    def addUnexpectedSuccess(self, test):
        self._record(test, "failed", "unexpected success")

    def addSubTest(self, test, subtest, err):
        if err is not None:
            kind = "failed" if issubclass(err[0], test.failureException) else "error"
            self._record(test, kind, self._last_line(err))


def _supply_era_helpers():
    """The files come from Paddle's tree of May 2024, whose tests are decorated with pir_utils.test_with_pir_api
    (and test_with_dygraph_pir): run the test under the legacy IR, then under PIR. Paddle 3.3.1 removed both.
    Where the framework lacks them they are supplied running the test once, in the IR this process runs (the
    legacy IR: FLAGS_enable_pir_api=0 for real Paddle, the only one in paddlelite)."""
    try:
        import paddle.pir_utils as pir_utils
    except ImportError:
        return

    def run_once(func):
        @functools.wraps(func)
        def test(*args, **kwargs):
            return func(*args, **kwargs)
        return test

    for name in ("test_with_pir_api", "test_with_dygraph_pir"):
        if not hasattr(pir_utils, name):
            setattr(pir_utils, name, run_once)


def _write(out, payload):
    with open(out, "w") as f:
        json.dump(payload, f, indent=1, sort_keys=True)


def run(path, out):
    path = os.path.abspath(path)
    legacy = os.path.join(path.split(os.sep + "test" + os.sep)[0], "test", "legacy_test")
    sys.path[:0] = [os.path.dirname(path), legacy]
    sys.argv = [path]
    recorded = {}

    def main(module="__main__", *args, **kwargs):  # unittest.main's stand-in: run the file's tests, record them
        namespace = sys.modules[module] if isinstance(module, str) else module
        suite = unittest.defaultTestLoader.loadTestsFromModule(namespace)
        result = _RecordingResult()
        suite.run(result)
        recorded.update(result.outcomes)
        raise SystemExit(0)

    unittest.main = main
    payload = {"file": path, "import_error": None}
    with tempfile.TemporaryDirectory(prefix="paddle_suite_") as scratch:
        os.chdir(scratch)
        try:
            _supply_era_helpers()
            runpy.run_path(path, run_name="__main__")
        except SystemExit:
            pass
        except BaseException as exc:  # the file itself failed to run: every test counts as not run
            payload["import_error"] = "".join(traceback.format_exception_only(type(exc), exc)).strip()[-1000:]
    payload["tests"] = recorded
    _write(out, payload)


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2])
