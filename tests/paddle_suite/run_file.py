"""Runs one of Paddle's unittest files as Paddle's CI does (`python test_x.py`: the file is `__main__` and ends in
`unittest.main()`) and writes each test's outcome to a JSON file.

    python -m paddlelite tests/paddle_suite/run_file.py SOURCES/test/legacy_test/test_x.py OUT.json   # paddlelite
    python tests/paddle_suite/run_file.py SOURCES/test/legacy_test/test_x.py OUT.json                 # real Paddle

This script imports no framework itself: `paddle` is whatever the interpreter gives (paddlelite through its import
alias, or real Paddle). `unittest.main` is replaced by a runner that records every test's outcome ("passed",
"failed", "error", "skipped") and the last line of its traceback, so nothing but the call changes. The file's own
directory and Paddle's test/legacy_test (its helper modules: utils, op_test, decorator_helper, ...) come first on
sys.path; the working directory is a fresh temporary one, so files the tests write go nowhere else. The book tests
read `paddle.dataset`'s files: they get small synthetic ones (nothing is downloaded).
"""
import functools
import gzip
import io
import json
import os
import runpy
import pickle
import sys
import tarfile
import tempfile
import time
import traceback
import unittest

import numpy as np


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


def _learnable_images(rng, count, size, channels):
    """uint8 images whose label (0-9) is the position of a bright block on noise: learnable in a few steps."""
    labels = rng.randint(0, 10, size=count).astype(np.uint8)
    images = rng.randint(0, 96, size=(count, channels, size, size)).astype(np.uint8)
    cell = size // 5
    for image, label in zip(images, labels):
        row, col = divmod(int(label), 5)
        image[:, 2 + 2 * cell * row:2 + 2 * cell * row + cell, col * cell:(col + 1) * cell] = 255
    return images, labels


def _write_mnist(directory, rng):
    for prefix, count in (("train", 600), ("t10k", 100)):
        images, labels = _learnable_images(rng, count, 28, 1)
        for name, blob in ((f"{prefix}-images-idx3-ubyte.gz", np.array([2051, count, 28, 28], ">i4").tobytes()
                            + images.tobytes()),
                           (f"{prefix}-labels-idx1-ubyte.gz", np.array([2049, count], ">i4").tobytes()
                            + labels.tobytes())):
            with gzip.open(os.path.join(directory, name), "wb") as f:
                f.write(blob)
    return {"TRAIN_IMAGE_MD5": "train-images-idx3-ubyte.gz", "TRAIN_LABEL_MD5": "train-labels-idx1-ubyte.gz",
            "TEST_IMAGE_MD5": "t10k-images-idx3-ubyte.gz", "TEST_LABEL_MD5": "t10k-labels-idx1-ubyte.gz"}


def _write_cifar(directory, rng):
    with tarfile.open(os.path.join(directory, "cifar-10-python.tar.gz"), "w:gz") as tar:
        for name, count in (("data_batch_1", 256), ("test_batch", 128)):
            images, labels = _learnable_images(rng, count, 32, 3)
            blob = pickle.dumps({b"data": images.reshape(count, -1), b"labels": labels.tolist()}, protocol=2)
            info = tarfile.TarInfo(f"cifar-10-batches-py/{name}")
            info.size = len(blob)
            tar.addfile(info, io.BytesIO(blob))
    return {"CIFAR10_MD5": "cifar-10-python.tar.gz"}


def _write_uci_housing(directory, rng):
    features = rng.uniform(0, 10, size=(120, 13))
    prices = features @ rng.uniform(0, 1, size=13) + rng.normal(0, 0.1, size=120)
    np.savetxt(os.path.join(directory, "housing.data"), np.column_stack([features, prices]), fmt="%.5f")
    return {"MD5": "housing.data"}


def _supply_datasets(source, home):
    """A file that reads `paddle.dataset.mnist`, `cifar` or `uci_housing` (the book tests) gets small synthetic files
    in a scratch DATA_HOME, their MD5s set as the module's (nothing is downloaded)."""
    import importlib

    writers = {"mnist": _write_mnist, "cifar": _write_cifar, "uci_housing": _write_uci_housing}
    for name, write in writers.items():
        if f"paddle.dataset.{name}" not in source:
            continue
        try:
            common = importlib.import_module("paddle.dataset.common")
            module = importlib.import_module(f"paddle.dataset.{name}")
        except ImportError:
            return
        directory = os.path.join(home, name)
        os.makedirs(directory)
        common.DATA_HOME = home
        for key, file in write(directory, np.random.RandomState(0)).items():
            setattr(module, key, common.md5file(os.path.join(directory, file)))


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
            with open(path, encoding="utf-8") as f:
                _supply_datasets(f.read(), os.path.join(scratch, "dataset"))
            runpy.run_path(path, run_name="__main__")
        except SystemExit:
            pass
        except BaseException as exc:  # the file itself failed to run: every test counts as not run
            payload["import_error"] = "".join(traceback.format_exception_only(type(exc), exc)).strip()[-1000:]
    payload["tests"] = recorded
    _write(out, payload)


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2])
