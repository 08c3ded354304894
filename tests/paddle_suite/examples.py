"""Paddle's documented examples, run under real Paddle 3.3.1 and under paddlelite, and what they print compared.

The examples are the `>>>` blocks of the docstrings of Paddle's public names (each namespace's `__all__`, the
methods of its public classes and of paddle.Tensor), read from the installed paddlepaddle package. Each example
runs in a fresh namespace of one long-lived process per framework, after the same reset (dynamic mode, CPU,
float32 default, Paddle's and NumPy's and Python's generators seeded); what it prints is compared token by
token, numbers to a relative 1e-4 (BLAS builds differ in the last digits). An example whose output differs is
run by Paddle once more with another seed: if Paddle's own output changes, it prints random draws, which differ
here by design (paddlelite's generator is its own). An example that asks for a GPU or
several processes (`+REQUIRES(env:GPU)`, `env:DISTRIBUTED`, ...) or that Paddle's CPU build cannot run is out
of scope.

    python -m tests.paddle_suite.examples [--only NAME_PREFIX] [--out REPORT.json]   # run both, print the tally
    python -m tests.paddle_suite.examples --show NAME                                # one example's two outputs

A measurement, not a test: the reference is real Paddle, and the full run takes minutes.
"""
import contextlib
import importlib
import inspect
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NAMESPACES = (
    "paddle", "paddle.amp", "paddle.audio", "paddle.audio.features", "paddle.audio.functional", "paddle.autograd",
    "paddle.callbacks", "paddle.device", "paddle.distribution", "paddle.fft", "paddle.geometric", "paddle.incubate",
    "paddle.incubate.autograd", "paddle.incubate.nn", "paddle.incubate.nn.functional", "paddle.io", "paddle.jit",
    "paddle.linalg", "paddle.metric", "paddle.nn", "paddle.nn.functional", "paddle.nn.initializer",
    "paddle.nn.utils", "paddle.optimizer", "paddle.optimizer.lr", "paddle.profiler", "paddle.quantization",
    "paddle.regularizer", "paddle.signal", "paddle.sparse", "paddle.sparse.nn", "paddle.sparse.nn.functional",
    "paddle.special", "paddle.static", "paddle.static.nn", "paddle.text", "paddle.utils", "paddle.utils.dlpack",
    "paddle.utils.unique_name", "paddle.vision", "paddle.vision.datasets", "paddle.vision.models",
    "paddle.vision.ops", "paddle.vision.transforms")
# environments an example may require (xdoctest's +REQUIRES(env:...)) that Paddle's CPU build in one process lacks
OUT_OF_SCOPE_ENV = re.compile(r"REQUIRES\(env\s*:\s*(GPU|XPU|NPU|CUSTOM_DEVICE|DISTRIBUTED|IPU|MLU)", re.I)
EXAMPLE_TIMEOUT_S = 60
RESEEDS = (7, 1000)  # seed shifts of the reruns that tell random draws from other differences
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)\b")
RTOL, ATOL = 1e-4, 1e-5


# ---- collecting ---------------------------------------------------------------------------------------
def _blocks(doc):
    """The code of each `>>>` example block of a docstring (continuation lines `...`), None for one that is
    out of scope."""
    blocks, current, skipped = [], [], False
    for raw in inspect.cleandoc(doc).splitlines():
        line = raw.strip()
        if line.startswith(">>>") or (current and line.startswith("...")):
            code = line[4:] if len(line) > 3 else ""
            if OUT_OF_SCOPE_ENV.search(code) or re.search(r"doctest:\s*\+SKIP\b", code):
                skipped = True
            current.append(code)
        elif current:
            blocks.append(None if skipped else "\n".join(current))
            current, skipped = [], False
    if current:
        blocks.append(None if skipped else "\n".join(current))
    return blocks


def _example_code(doc):
    """A docstring's examples as one script (Paddle's doctests run a docstring's blocks in one namespace)."""
    blocks = _blocks(doc or "")
    if not blocks or None in blocks:
        return None
    code = "\n".join(blocks)
    # xdoctest directives are comments, but a line that is only a directive stays harmless as one
    return code if code.strip() else None


def _public(module):
    names = getattr(module, "__all__", None)
    return sorted(names if names is not None else (n for n in dir(module) if not n.startswith("_")))


def collect():
    """{name: code} of the examples of real Paddle's public names (needs paddlepaddle installed)."""
    import paddle

    found, seen = {}, set()

    def add(name, obj):
        doc = inspect.getdoc(obj) if obj is not None else None
        code = _example_code(doc)
        if code and id(obj) not in seen:
            seen.add(id(obj))
            found[name] = code

    for namespace in NAMESPACES:
        try:
            module = importlib.import_module(namespace)
        except ImportError:
            continue
        for name in _public(module):
            obj = getattr(module, name, None)
            if obj is None or inspect.ismodule(obj):
                continue
            add(f"{namespace}.{name}", obj)
            if inspect.isclass(obj) and (obj.__module__ or "").startswith("paddle"):
                for attr, member in vars(obj).items():
                    if not attr.startswith("_") and callable(member):
                        add(f"{namespace}.{name}.{attr}", member)
    for attr in sorted(dir(paddle.Tensor)):
        if not attr.startswith("_"):
            add(f"paddle.Tensor.{attr}", getattr(paddle.Tensor, attr, None))
    return found


# ---- running ------------------------------------------------------------------------------------------
def _reset(paddle, seed):
    """The same start for every example; `seed` seeds the framework's generator only (NumPy's and Python's draw
    the same numbers under both frameworks)."""
    import random

    import numpy as np

    if not paddle.in_dynamic_mode():
        paddle.disable_static()
    paddle.set_device("cpu")
    paddle.set_default_dtype("float32")
    paddle.seed(seed)
    np.random.seed(2023)
    random.seed(2023)


@contextlib.contextmanager
def _fresh(paddle):
    """A fresh start for what an example builds: default programs, scope and names (Paddle's doctests run each
    docstring in a process of its own)."""
    with paddle.utils.unique_name.guard(), paddle.static.scope_guard(paddle.static.Scope()), \
            paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        try:
            yield
        finally:
            prim = paddle.incubate.autograd
            if hasattr(prim, "prim_enabled"):  # an example may have turned primitive-op mode on
                paddle.enable_static()  # (Paddle answers and turns it off in static mode only; _reset leaves it)
                if prim.prim_enabled():
                    prim.disable_prim()


def _shift_seeds(paddle, by):
    """Make the example's own paddle.seed(n) calls seed n + by: with its draws changed, an example whose output
    changes prints random draws."""
    for module in (paddle, paddle.framework):
        seed = module.seed
        module.seed = lambda value, _seed=seed: _seed(value + by)


class _Timeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Timeout(f"the example ran longer than {EXAMPLE_TIMEOUT_S} s")


def worker(examples_path, out_path, seed):
    """Run the examples of `examples_path` ({name: code}) in order, appending one JSON line per example to
    `out_path` as it finishes (so a crash loses only the example that crashed). `seed` 2023 is the reference
    run; any other also shifts the seeds the examples set (_shift_seeds)."""
    import signal

    import paddle

    signal.signal(signal.SIGALRM, _on_alarm)
    if seed != 2023:
        _shift_seeds(paddle, seed)
    with open(examples_path) as f:
        examples = json.load(f)
    with open(out_path, "a") as out, tempfile.TemporaryDirectory(prefix="paddle_examples_") as scratch:
        os.chdir(scratch)  # examples save files; they land nowhere else
        for name, code in examples.items():
            stdout, error = io.StringIO(), None
            try:
                _reset(paddle, seed)
                signal.alarm(EXAMPLE_TIMEOUT_S)
                with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(io.StringIO()), _fresh(paddle):
                    exec(compile(code, f"<example {name}>", "exec"), {"__name__": "__main__"})
            except BaseException as exc:  # an example's failure is a result, never the worker's end
                error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:300]
            finally:
                signal.alarm(0)
            out.write(json.dumps({"name": name, "stdout": stdout.getvalue()[-20000:], "error": error}) + "\n")
            out.flush()


def run(examples, framework, seed=2023):
    """{name: {'stdout', 'error'}} of running `examples` under `framework` ('paddle' or 'paddlelite') with the
    generators seeded by `seed`, one worker process at a time; a worker that dies is restarted after the
    example that killed it."""
    results = {}
    env = dict(os.environ, FLAGS_enable_pir_api="0", PADDLELITE_AS_PADDLE="0", MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    prefix = [sys.executable, "-m", "paddlelite"] if framework == "paddlelite" else [sys.executable]
    with tempfile.TemporaryDirectory(prefix="paddle_examples_run_") as scratch:
        while len(results) < len(examples):
            todo = {n: c for n, c in examples.items() if n not in results}
            src, out = os.path.join(scratch, "todo.json"), os.path.join(scratch, "out.jsonl")
            with open(src, "w") as f:
                json.dump(todo, f)
            open(out, "w").close()
            subprocess.run([*prefix, os.path.abspath(__file__), "--worker", src, out, str(seed)], env=env,
                           capture_output=True, text=True)
            with open(out) as f:
                done = [json.loads(line) for line in f if line.strip()]
            for r in done:
                results[r["name"]] = {"stdout": r["stdout"], "error": r["error"]}
            if len(done) < len(todo):  # the worker died inside the next example
                crashed = next(iter(n for n in todo if n not in results))
                results[crashed] = {"stdout": "", "error": "the process died (a crash, not an exception)"}
    return results


# ---- comparing ----------------------------------------------------------------------------------------
def _tokens(text):
    text = re.sub(r"0x[0-9a-fA-F]+", "0x", text)
    return [t for t in re.split(f"({NUMBER.pattern})|\\s+", text) if t]


def same_output(a, b):
    ta, tb = _tokens(a), _tokens(b)
    if len(ta) != len(tb):
        return False
    for x, y in zip(ta, tb):
        if x == y:
            continue
        if not (NUMBER.fullmatch(x) and NUMBER.fullmatch(y)):
            return False
        fx, fy = float(x), float(y)
        if not (math.isclose(fx, fy, rel_tol=RTOL, abs_tol=ATOL) or (math.isnan(fx) and math.isnan(fy))):
            return False
    return True


def verdict(ours, theirs, theirs_reseeded):
    """`theirs_reseeded`: Paddle's runs with the seeds shifted (RESEEDS), where ours differs; more than one, as a
    few draws (AlphaDropout's four coin flips) can come out the same under another seed."""
    if theirs["error"]:
        return "out of scope (Paddle's CPU build fails it)"
    if ours["error"]:
        return "fails here"
    if same_output(ours["stdout"], theirs["stdout"]):
        return "prints the same"
    if not all(same_output(theirs["stdout"], r["stdout"]) for r in theirs_reseeded):
        # paddlelite's generator is its own (framework/random.py), so such an example prints other draws
        return "prints other random draws (what Paddle prints changes with the seed)"
    return "prints something else"


def main(argv):
    if argv[:1] == ["--worker"]:
        worker(argv[1], argv[2], int(argv[3]))
        return 0
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    show = argv[argv.index("--show") + 1] if "--show" in argv else None
    examples = {n: c for n, c in collect().items() if n.startswith(show or only)}
    if show:
        examples = {show: examples[show]}
    theirs, ours = run(examples, "paddle"), run(examples, "paddlelite")
    differing = {n: c for n, c in examples.items() if not same_output(ours[n]["stdout"], theirs[n]["stdout"])}
    reseeded = [run(differing, "paddle", seed=seed) for seed in RESEEDS]
    report = {n: {"verdict": verdict(ours[n], theirs[n], [r[n] for r in reseeded] if n in differing else []),
                  "paddle": theirs[n],
                  "paddlelite": ours[n]} for n in examples}
    if show:
        print(examples[show], "\n---- Paddle:\n", theirs[show], "\n---- paddlelite:\n", ours[show], sep="")
        return 0
    if "--out" in argv:
        with open(argv[argv.index("--out") + 1], "w") as f:
            json.dump(report, f, indent=1, ensure_ascii=False)
    tally = {}
    for r in report.values():
        tally[r["verdict"]] = tally.get(r["verdict"], 0) + 1
    for v, n in sorted(tally.items(), key=lambda kv: -kv[1]):
        print(f"{n:5d}  {v}")
    in_scope = len(report) - tally.get("out of scope (Paddle's CPU build fails it)", 0)
    print(f"{tally.get('prints the same', 0)} of {in_scope} examples Paddle runs print what it prints")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
