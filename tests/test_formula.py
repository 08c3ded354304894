"""The formula vocabulary of grad makers (paddlelite/ops/formula.py): which registered op each Python
operator and formula function records. The gradients themselves are checked by tests/test_op_grads.py."""
import pytest

from paddlelite.ops.formula import Sym, exp, reduce_sum, where, zeros_like
from paddlelite.ops.registry import GradBuilder


class Recorder(GradBuilder):
    """A builder that records (type, attrs) of each op instead of running it."""

    def __init__(self):
        self.ops = []

    def record(self, type, inputs, attrs):
        self.ops.append((type, dict(attrs)))
        return Sym(self, f"t{len(self.ops)}")

    def shape(self, ref):
        return (2, 3)


@pytest.fixture
def g():
    return Recorder()


def types(g):
    return [t for t, _ in g.ops]


def test_binary_operators_record_the_elementwise_ops(g):
    x, y = Sym(g, "x"), Sym(g, "y")
    x + y, x - y, x * y, x / y, x ** y, x @ y
    assert types(g) == ["add", "subtract", "multiply", "divide", "elementwise_pow", "matmul"]


def test_scalars_become_scale_attrs_not_constant_tensors(g):
    x = Sym(g, "x")
    -x, x * 2, 3 * x, x / 4, x + 1, 1 + x, x - 1, 1 - x
    assert types(g) == ["scale"] * 8
    assert [(a["scale"], a["bias"]) for _, a in g.ops] == [
        (-1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (0.25, 0.0), (1.0, 1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, 1.0)]


def test_powers_and_scalar_division(g):
    x = Sym(g, "x")
    x ** 2, x ** 3, 2 / x
    assert g.ops == [("square", {}), ("pow", {"factor": 3.0}), ("reciprocal", {}),
                     ("scale", {"scale": 2.0, "bias": 0.0})]


def test_comparisons_with_a_scalar_fill_it_in_like_the_reference(g):
    x = Sym(g, "x")
    _ = x > 0, x <= 1.5  # recorded for their side effect on g
    assert g.ops == [("fill_any_like", {"value": 0.0}), ("greater_than", {}),
                     ("fill_any_like", {"value": 1.5}), ("less_equal", {})]


def test_functions_record_their_ops(g):
    x, m = Sym(g, "x"), Sym(g, "m")
    exp(x), reduce_sum(x, axis=1, keepdim=True), where(m, x, 0), zeros_like(x)
    assert g.ops == [("exp", {}), ("reduce_sum", {"axis": 1, "keepdim": True}), ("fill_any_like", {"value": 0.0}),
                     ("where", {}), ("fill_any_like", {"value": 0.0})]


def test_reduce_as_is_free_when_shapes_match(g):
    x = Sym(g, "x")
    assert g.reduce_as(x, Sym(g, "y")) is x and g.ops == []


def test_a_symbolic_reference_has_no_truth_value(g):
    with pytest.raises(TypeError, match="symbolic"):
        if Sym(g, "x") > 0:
            pass


def test_a_function_needs_a_symbolic_input():
    with pytest.raises(TypeError, match="symbolic reference"):
        exp(1.0)
