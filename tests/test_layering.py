"""Layers point down: no module of paddlelite imports one on a higher floor, at its top or inside a function.

The floors, lowest first (docs/ARCHITECTURE.md, "Layers"):

  0 device, utils      places, the array module, kernel sources/compilation; unique names
  1 framework, _typing dtype, mode, the Tensor data holder (a Tensor holds a Place: device sits below); type aliases
  2 ops                the registry, every op, the dispatcher, the kernels' launch code
  3 autograd | static the eager engine and the static Program/backward/Executor; they never import each other
  4 tensor             the functional API
  5 nn, optimizer, io, metric, amp, distributed, regularizer, linalg, special, geometric, and paddle.static's
                       layer-level APIs
                       (static/nn.py, static/layer_apis.py, static/ema.py, static/metric.py; the top-level package files them under paddle.static)
  6 fluid, base, jit   the fluid-era spellings (base: Paddle 3's name for fluid); paddle.jit (to_static)
    inference          paddle.inference: Config, create_predictor, Predictor over saved inference models
    vision, hapi       paddle.vision (transforms, models, datasets); the high-level API (Model, summary, flops)
    callbacks          paddle.callbacks: re-exports hapi's callbacks
    distribution       paddle.distribution: distributions, KL, transforms over the tensor and nn.functional APIs
    text               paddle.text: viterbi_decode (a Layer too) and the NLP datasets
    incubate           paddle.incubate: the older graph/segment names, softmax_mask_fuse, LookAhead, autograd
    audio              paddle.audio: spectrogram layers over signal.stft, windows, audio files, datasets
  7 paddlelite         the top-level package: re-exports every floor
  8 examples, __main__ programs written against `import paddlelite as paddle`; `python -m paddlelite`

Importing a module runs its packages' __init__ first, so an import of paddlelite.static.framework
counts as one of the paddlelite.static package too. Packages on the same floor may import each other
in one direction only (no cycle between them).
"""
import ast
import os

import pytest

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "paddlelite")

FLOORS = {
    "device": 0, "utils": 0, "version": 0,
    "framework": 1, "_typing": 1, "pir": 1,
    "ops": 2,
    "autograd": 3, "static": 3,
    "tensor": 4,
    "nn": 5, "optimizer": 5, "io": 5, "reader": 5, "metric": 5, "distributed": 5, "regularizer": 5, "linalg": 5, "special": 5, "fft": 5, "signal": 5, "amp": 5,
    "geometric": 5,
    "fluid": 6, "base": 6, "jit": 6, "vision": 6, "distribution": 6, "hapi": 6, "callbacks": 6, "compat": 6,
    "pir_utils": 6, "text": 6, "incubate": 6, "audio": 6, "quantization": 6, "profiler": 6, "inference": 6,
    "sparse": 6, "dataset": 6,
    "onnx": 6,  # paddle.onnx.export (over jit)
    "": 7,
    "examples": 8, "__main__": 8,
}
# modules on another floor than their package: paddle.static's layer-level APIs; autograd.backward_mode (Paddle's module
# path of base.backward's gradients_with_optimizer, which needs static programs and optimizers)
MODULE_FLOORS = {"utils.install_check": 6, "autograd.backward_mode": 6, "static.nn": 5, "static.layer_apis": 5, "static.ema": 5, "static.metric": 5}
NEVER = {("autograd", "static"), ("static", "autograd")}


def _modules():
    """{dotted name below paddlelite ('' for the package itself): (path, is_package)}"""
    found = {}
    for dirpath, _, files in os.walk(ROOT):
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(dirpath, f), ROOT)[:-3].split(os.sep)
                is_pkg = rel[-1] == "__init__"
                name = ".".join(rel[:-1] if is_pkg else rel)
                found[name] = (os.path.join(dirpath, f), is_pkg)
    return found


MODULES = _modules()


def _targets(name, is_pkg, node):
    """The paddlelite modules (dotted, below paddlelite) an import statement loads, packages included."""
    if isinstance(node, ast.Import):
        raw = [a.name for a in node.names]
    elif node.level == 0:
        raw = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    else:
        base = ["paddlelite"] + (name.split(".") if name else [])
        if not is_pkg:
            base = base[:-1]
        base = base[:len(base) - (node.level - 1)]
        mod = ".".join(base + ([node.module] if node.module else []))
        raw = [mod] + [f"{mod}.{a.name}" for a in node.names]
    out = set()
    for full in raw:
        parts = full.split(".")
        if parts[0] != "paddlelite":
            continue
        parts = parts[1:]
        for i in range(len(parts) + 1):  # the module and every package above it
            sub = ".".join(parts[:i])
            if sub in MODULES:
                out.add(sub)
    return out


def floor_of(module):
    if module in MODULE_FLOORS:
        return MODULE_FLOORS[module]
    top = module.split(".")[0]
    if top not in FLOORS:
        raise KeyError(f"paddlelite.{top} has no floor: add it to FLOORS in tests/test_layering.py "
                       "(and to docs/ARCHITECTURE.md)")
    return FLOORS[top]


def _package(module):
    return module.split(".")[0] if module not in MODULE_FLOORS else "static-api"


def imports():
    """[(importer, imported, line)] over every import statement, including those inside functions."""
    edges = []
    for name, (path, is_pkg) in MODULES.items():
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(name, is_pkg, node):
                    if target and target != name and not name.startswith(target + "."):  # own packages: loaded
                        edges.append((name, target, node.lineno))
    return edges


EDGES = imports()


def test_every_package_has_a_floor():
    for name in MODULES:
        floor_of(name)


def test_no_import_points_up():
    up = [f"paddlelite.{a or '__init__'}:{line} imports paddlelite.{b} (floor {floor_of(b)} > {floor_of(a)})"
          for a, b, line in EDGES if floor_of(b) > floor_of(a)]
    assert not up, "imports that point up:\n" + "\n".join(up)


def test_autograd_and_static_do_not_import_each_other():
    bad = [f"paddlelite.{a}:{line} -> paddlelite.{b}" for a, b, line in EDGES
           if (_package(a), _package(b)) in NEVER]
    assert not bad, "\n".join(bad)


def test_packages_on_one_floor_import_each_other_one_way():
    between = {}
    for a, b, line in EDGES:
        pa, pb = _package(a), _package(b)
        if pa != pb and floor_of(a) == floor_of(b):
            between.setdefault((pa, pb), f"paddlelite.{a}:{line} -> paddlelite.{b}")
    both = sorted(f"{between[(pa, pb)]}  and  {between[(pb, pa)]}" for pa, pb in between if (pb, pa) in between
                  and pa < pb)
    assert not both, "packages on one floor import each other:\n" + "\n".join(both)


def test_the_checker_sees_lazy_imports(tmp_path):
    """An import inside a function body counts (guards the AST walk, not just module-level imports)."""
    tree = ast.parse("def f():\n    from ..nn import functional\n")
    node = tree.body[0].body[0]
    assert "nn.functional" in _targets("tensor.math", False, node)


@pytest.mark.parametrize("name", ["ops.fused", "device.kernels", "framework.tensor"])
def test_known_low_modules_import_nothing_above(name):
    assert all(floor_of(b) <= floor_of(name) for a, b, _ in EDGES if a == name)
