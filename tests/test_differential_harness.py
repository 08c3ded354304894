"""The differential harness itself: it must catch differences, not just pass."""
import pytest

from tests.differential import assert_same, differential, raises, run_both, snapshot


@differential(expected={"grad": [2.0, 4.0], "shape": [2]})
def test_square_grad_matches_paddle(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * x).sum().backward()
    return {"grad": x.grad, "shape": list(x.shape)}


@differential(expected=raises(ValueError))
def test_matmul_shape_error_class(paddle):
    paddle.matmul(paddle.ones([2, 3]), paddle.ones([4, 5]))


def test_harness_reports_value_dtype_shape_and_exception_differences():
    import numpy as np
    base = snapshot(np.array([1.0, 2.0], np.float32))
    with pytest.raises(pytest.fail.Exception, match="values differ"):
        assert_same(base, snapshot(np.array([1.0, 2.5], np.float32)))
    with pytest.raises(pytest.fail.Exception, match="dtype"):
        assert_same(base, snapshot(np.array([1.0, 2.0], np.float64)))
    with pytest.raises(pytest.fail.Exception, match="shape"):
        assert_same(base, snapshot(np.array([[1.0, 2.0]], np.float32)))
    with pytest.raises(pytest.fail.Exception, match="expected raises"):
        assert_same(snapshot(base), raises(ValueError))
    with pytest.raises(pytest.fail.Exception, match=r"1 \(int\) != expected 2"):
        assert_same({"a": 1}, {"a": 2})


def test_run_both_runs_the_body_under_each_library():
    seen = []
    ours, theirs = run_both(lambda paddle: seen.append(paddle.__name__) or 1)
    assert ours == 1 and seen[0] == "paddlelite"
    if theirs is not None:
        assert theirs == 1 and seen[1] == "paddle"
