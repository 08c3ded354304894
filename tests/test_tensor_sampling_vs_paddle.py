"""bernoulli, poisson and multinomial: shapes, dtypes and errors against real Paddle 3.3.1; the sample
statistics against the distributions (the draws themselves differ between generators)."""
import numpy as np
import pytest

from tests.differential import assert_same, run_both


def _meta(t):
    return (list(t.shape), str(t.dtype))


CASES = {
    "shapes": lambda p: [_meta(p.bernoulli(p.full([2, 3], 0.5))), _meta(p.bernoulli(p.full([4], 0.5, "float64"), p=0.1)),
                         _meta(p.poisson(p.full([2, 2], 3.0))), _meta(p.multinomial(p.to_tensor([0.2, 0.8]))),
                         _meta(p.multinomial(p.to_tensor([[0.2, 0.8], [0.5, 0.5]]), 5, True)),
                         _meta(p.full([3], 0.5).multinomial(2))],
    "bernoulli-p0": lambda p: p.bernoulli(p.full([5], 0.9), p=0.0),
    "multinomial-too-many": lambda p: p.multinomial(p.to_tensor([0.2, 0.8]), 3),
    "multinomial-negative": lambda p: p.multinomial(p.to_tensor([-1.0, 2.0])),
    "multinomial-degenerate": lambda p: p.multinomial(p.to_tensor([0.0, 1.0, 0.0]), 4, True),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_paddle(name):
    pytest.importorskip("paddle")
    ours, theirs = run_both(CASES[name])
    assert_same(ours, theirs)


def test_sample_statistics():
    import paddlelite as paddle
    paddle.seed(3)
    assert abs(float(paddle.bernoulli(paddle.full([20000], 0.3)).mean()) - 0.3) < 0.02
    assert abs(float(paddle.poisson(paddle.full([20000], 4.0)).mean()) - 4.0) < 0.08
    probs = np.array([0.5, 0.3, 0.2], "float32")
    draws = paddle.multinomial(paddle.to_tensor(np.tile(probs, (20000, 1))), 1).numpy().ravel()
    np.testing.assert_allclose(np.bincount(draws, minlength=3) / 20000, probs, atol=0.02)
    with_replacement = paddle.multinomial(paddle.to_tensor(probs * 3), 20000, True).numpy()
    np.testing.assert_allclose(np.bincount(with_replacement, minlength=3) / 20000, probs, atol=0.02)
    rows = paddle.multinomial(paddle.to_tensor(np.tile(probs, (500, 1))), 3).numpy()
    assert all(sorted(r) == [0, 1, 2] for r in rows)  # without replacement: every category once
