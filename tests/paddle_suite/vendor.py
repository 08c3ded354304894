"""Copies the material the suites read from checkouts of Paddle's repositories into this repository, so that CI (no
network) runs them: the manifest's test files with the helper modules they import (tests/paddle_suite/vendored), and
the tutorials' notebooks with their outputs removed (tests/paddle_tutorials/vendored; the code cells are untouched).

    python -m tests.paddle_suite.vendor PADDLE_CHECKOUT DOCS_CHECKOUT

Run it again after adding a file to manifest.FILES or a notebook to tutorials.TUTORIALS. The checkouts must be at
manifest.COMMIT and tutorials.DOCS_COMMIT (both Apache-2.0: each copy keeps the license beside it).
"""
import ast
import json
import os
import shutil
import sys

from tests.paddle_suite import manifest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TESTS_COPY = os.path.join(HERE, "vendored")
NOTEBOOKS_COPY = os.path.join(ROOT, "tests", "paddle_tutorials", "vendored")
HELPERS = "test/legacy_test"  # run_file.py puts it on sys.path after the file's own folder


def _imported_helpers(path, checkout):
    """The files of `checkout` that `path` imports as top-level modules from its folder or HELPERS."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    for name in sorted(names):
        for folder in (os.path.dirname(path), os.path.join(checkout, HELPERS)):
            module = os.path.join(folder, name + ".py")
            if os.path.exists(module):
                yield module
                break


def test_files(checkout):
    """The manifest's files and, transitively, the helper modules they import (paths relative to `checkout`)."""
    seen, pending = set(), [os.path.join(checkout, path) for path in manifest.FILES]
    while pending:
        path = pending.pop()
        if path not in seen:
            seen.add(path)
            pending.extend(_imported_helpers(path, checkout))
    return sorted(os.path.relpath(path, checkout) for path in seen)


def _origin(target, repo, commit, paths):
    with open(os.path.join(target, "ORIGIN.md"), "w") as f:
        f.write(f"Copied unchanged from https://github.com/{repo} at commit {commit} (Apache-2.0, LICENSE here) by\n"
                f"tests/paddle_suite/vendor.py{' (notebook outputs removed)' if repo.endswith('docs') else ''}:\n\n")
        f.writelines(f"- {path}\n" for path in paths)


def _fresh(target, checkout):
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    shutil.copy(os.path.join(checkout, "LICENSE"), os.path.join(target, "LICENSE"))


def vendor_tests(checkout):
    paths = test_files(checkout)
    _fresh(TESTS_COPY, checkout)
    for path in paths:
        os.makedirs(os.path.join(TESTS_COPY, os.path.dirname(path)), exist_ok=True)
        shutil.copy(os.path.join(checkout, path), os.path.join(TESTS_COPY, path))
    _origin(TESTS_COPY, manifest.REPO, manifest.COMMIT, paths)


def without_outputs(notebook):
    """The notebook with its code cells' outputs and execution counts removed (images make them megabytes)."""
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    return notebook


def vendor_notebooks(checkout, license_from):
    from tests.paddle_tutorials import tutorials

    paths = sorted({tutorial.notebook for tutorial in tutorials.TUTORIALS.values()})
    _fresh(NOTEBOOKS_COPY, license_from)
    for path in paths:
        with open(os.path.join(checkout, path), encoding="utf-8") as f:
            notebook = without_outputs(json.load(f))
        os.makedirs(os.path.join(NOTEBOOKS_COPY, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(NOTEBOOKS_COPY, path), "w", encoding="utf-8") as f:
            json.dump(notebook, f, ensure_ascii=False, indent=1)
            f.write("\n")
    _origin(NOTEBOOKS_COPY, tutorials.DOCS_REPO, tutorials.DOCS_COMMIT, paths)


if __name__ == "__main__":
    paddle_checkout, docs_checkout = sys.argv[1:3]
    vendor_tests(paddle_checkout)
    # PaddlePaddle/docs is Apache-2.0 like Paddle; a checkout without its LICENSE file takes Paddle's copy
    vendor_notebooks(docs_checkout, docs_checkout if os.path.exists(os.path.join(docs_checkout, "LICENSE"))
                     else paddle_checkout)
