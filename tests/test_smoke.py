"""The `smoke` subset (tests/conftest.py: SMOKE) names tests that exist: a renamed test must not drop out of it."""
import ast
import os

from tests.conftest import SMOKE

HERE = os.path.dirname(os.path.abspath(__file__))


def _functions(path):
    return {node.name for node in ast.parse(open(path).read()).body if isinstance(node, ast.FunctionDef)}


def _names(entry, nodeid):
    """Whether SMOKE's `entry` selects the collected test `nodeid` (conftest.in_smoke's rule, for one entry)."""
    name = nodeid.split("tests/", 1)[-1]
    return name == entry or name.split("[", 1)[0] == entry


def test_each_smoke_entry_names_a_test(request):
    collected = [item.nodeid for item in request.session.items]
    for entry in SMOKE:
        path, function = entry.split("::")
        assert function.split("[")[0] in _functions(os.path.join(HERE, path)), f"{entry}: no such test function"
        if any(nodeid.startswith(f"tests/{path}::") for nodeid in collected):  # its file ran: the case must be there
            assert any(_names(entry, nodeid) for nodeid in collected), f"{entry}: no such test case"
