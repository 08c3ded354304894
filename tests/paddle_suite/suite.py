"""Runs the files of manifest.py, one process per file, and compares what fails with the recorded lists.

The files are Paddle's (repository PaddlePaddle/Paddle at manifest.COMMIT), copied unchanged into vendored/ with the
helper modules they import (vendor.py); PADDLELITE_PADDLE_SOURCES may name a checkout of that commit to read instead.

    python -m tests.paddle_suite.suite [FILE ...]            # run under paddlelite, print what differs from the lists
    python -m tests.paddle_suite.suite --record [FILE ...]   # run under real Paddle, rewrite paddle_fails.json
"""
import json
import os
import subprocess
import sys
import tempfile

from tests.paddle_suite import manifest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUN_FILE = os.path.join(HERE, "run_file.py")
PADDLE_FAILS = os.path.join(HERE, "paddle_fails.json")
SOURCES_VAR = "PADDLELITE_PADDLE_SOURCES"
VENDORED = os.path.join(HERE, "vendored")
TIMEOUT_S = 120  # one file's cap; the slowest chosen file takes ~15 s on a loaded 2-core machine
FAILED = ("failed", "error")


def sources():
    """Where the files are read from: the checkout $PADDLELITE_PADDLE_SOURCES names, else the copy in this
    repository (vendor.py); None when neither holds them."""
    for root in (os.environ.get(SOURCES_VAR), VENDORED):
        if root and os.path.isdir(os.path.join(root, "test")):
            return root
    return None


def run(path, framework):
    """{'import_error': str or None, 'tests': {Class.method: {'outcome', 'detail', 'seconds'}}} of one file run in its
    own process: under paddlelite through `python -m paddlelite`, or under real Paddle (legacy IR) as `python`."""
    target = os.path.join(sources(), path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               FLAGS_enable_pir_api="0", PADDLELITE_AS_PADDLE="0")
    env.pop("PADDLELITE_DEVICE", None)  # the files choose their places themselves
    prefix = [sys.executable, "-m", "paddlelite"] if framework == "paddlelite" else [sys.executable]
    with tempfile.TemporaryDirectory(prefix="paddle_suite_out_") as scratch:
        out = os.path.join(scratch, "result.json")
        try:
            proc = subprocess.run([*prefix, RUN_FILE, target, out], env=env, capture_output=True, text=True,
                                  timeout=TIMEOUT_S, cwd=scratch)
        except subprocess.TimeoutExpired:
            return {"import_error": f"timed out after {TIMEOUT_S} s", "tests": {}}
        if not os.path.exists(out):  # the process died before writing (a crash, not a Python exception)
            tail = (proc.stdout + proc.stderr)[-2000:]
            return {"import_error": f"exit status {proc.returncode} with no result: {tail}", "tests": {}}
        with open(out) as f:
            result = json.load(f)
    result.pop("file", None)
    return result


def failures(result):
    """{test: detail} of the tests that failed or errored; a file that did not run fails as a whole ('*')."""
    if result["import_error"]:
        return {"*": result["import_error"]}
    return {name: r["detail"] for name, r in result["tests"].items() if r["outcome"] in FAILED}


def load_paddle_fails():
    with open(PADDLE_FAILS) as f:
        return json.load(f)


def expected_failures(path, paddle_fails):
    """{test: why} of the tests of `path` allowed to fail under paddlelite."""
    allowed = {name: "real Paddle 3.3.1 fails it too" for name in paddle_fails.get(path, {})}
    allowed.update(manifest.DIFFERENCES.get(path, {}))
    allowed.update(manifest.KNOWN_BUGS.get(path, {}))
    return allowed


def compare(path, result, paddle_fails):
    """(unexpected failures, listed failures that now pass) of a paddlelite run of `path`. A listed deliberate
    difference or known bug that passes is stale: the list must say what is true."""
    failed = failures(result)
    allowed = expected_failures(path, paddle_fails)
    intermittent = manifest.INTERMITTENT.get(path, {})
    unexpected = {name: detail for name, detail in failed.items()
                  if name not in allowed and "*" not in allowed and name not in intermittent and "*" not in intermittent}
    listed = {**manifest.DIFFERENCES.get(path, {}), **manifest.KNOWN_BUGS.get(path, {})}
    stale = sorted(name for name in listed if name not in failed and (name in result["tests"] or name == "*"))
    return unexpected, stale


def record(paths):
    """Rerun `paths` under real Paddle and write what fails there to paddle_fails.json."""
    recorded = load_paddle_fails() if os.path.exists(PADDLE_FAILS) else {}
    for path in paths:
        failed = failures(run(path, "paddle"))
        if failed:
            recorded[path] = dict(sorted(failed.items()))
        else:
            recorded.pop(path, None)
        print(f"{path}: {len(failed)} failing under Paddle", flush=True)
    with open(PADDLE_FAILS, "w") as f:
        json.dump(dict(sorted(recorded.items())), f, indent=1)
        f.write("\n")


def main(argv):
    if sources() is None:
        print(f"set {SOURCES_VAR} to a checkout of {manifest.REPO} at {manifest.COMMIT}", file=sys.stderr)
        return 2
    recording = "--record" in argv
    paths = [a for a in argv if a != "--record"] or list(manifest.FILES)
    if recording:
        record(paths)
        return 0
    paddle_fails, bad = load_paddle_fails(), 0
    for path in paths:
        unexpected, stale = compare(path, run(path, "paddlelite"), paddle_fails)
        bad += bool(unexpected or stale)
        for name, detail in unexpected.items():
            print(f"FAIL {path}::{name}: {detail}")
        for name in stale:
            print(f"STALE {path}::{name}: listed as failing, passes")
    print(f"{len(paths) - bad} of {len(paths)} files as listed")
    return int(bad > 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
