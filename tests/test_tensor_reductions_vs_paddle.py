"""Paddle's diagonal, NaN-aware and counting reductions, and random-state APIs against real Paddle 3.3.1."""
import numpy as np
import pytest

from tests.differential import assert_same, differential, run_both
from tests.test_tensor_api_vs_paddle import _grads, _ints, _rand, _values


def _with_nans(*shape, seed=0):
    a = _rand(*shape, seed=seed)
    a[np.random.default_rng(seed + 7).random(shape) < 0.3] = np.nan
    return a


CASES = {
    "diagonal": _grads(lambda p, x: p.diagonal(x) * 2.0, _rand(3, 4)),
    "diagonal-offsets": _values(lambda p, x: [p.diagonal(x, o, a1, a2) for o in (-2, 0, 1, 5)
                                              for a1, a2 in ((0, 1), (-1, 0), (1, 2))], _rand(2, 3, 4)),
    "diagonal-grad-3d": _grads(lambda p, x: p.diagonal(x, 1, -1, 0) * 1.5, _rand(2, 3, 4)),
    "diagonal-int": _values(lambda p, x: x.diagonal(-1), _ints(4, 3)),
    "diag": _grads(lambda p, x, m: p.diag(x, 1).sum() + p.diag(m, -1).sum() * 2.0, _rand(3), _rand(3, 4)),
    "diag-padding": _values(lambda p, x: [p.diag(x, 0, 9), p.diag(x, -2, 5), p.diag(x)], _ints(3)),
    # Paddle 3.3.1 gives diag_embed no gradient; ours is the transposed gather (checked in test_diag_embed_grad)
    "diag_embed": _values(lambda p, x: p.diag_embed(x, -1, 0, 2) * 2.0, _rand(2, 3)),
    "diag_embed-dims": _values(lambda p, x: [p.diag_embed(x), p.diag_embed(x, 1), p.diag_embed(x, 0, 2, 0)],
                               _ints(2, 3)),
    "diagflat": _grads(lambda p, x: p.diagflat(x, 1) * 2.0, _rand(2, 2)),
    "nansum": _grads(lambda p, x: p.nansum(x) + p.nansum(x, axis=1).sum() + p.nansum(x, axis=[0, -1], keepdim=True).sum(),
                     _with_nans(2, 3, 4)),
    "nansum-values": _values(lambda p, x: [p.nansum(x, -1), p.nansum(x, 0, keepdim=True), p.nansum(x, dtype="float64")],
                             _with_nans(3, 4)),
    "nansum-int": _values(lambda p, x: [p.nansum(x), p.nansum(x, 1)], _ints(2, 3)),
    "nanmean": _grads(lambda p, x: p.nanmean(x, axis=-1), _with_nans(3, 5)),
    "nanmean-values": _values(lambda p, x: [p.nanmean(x), p.nanmean(x, [0, 1], keepdim=True), x.nanmean(1)],
                              _with_nans(3, 4)),
    "count_nonzero": _values(lambda p, x: [p.count_nonzero(x), p.count_nonzero(x, 1), p.count_nonzero(x, [0], True),
                                           x.count_nonzero(-1)], _ints(3, 4, low=-1, high=2)),
    "logcumsumexp": _grads(lambda p, x: p.logcumsumexp(x, axis=1), _rand(2, 5)),
    "logcumsumexp-flat": _grads(lambda p, x: p.logcumsumexp(x) * 2.0, _rand(2, 3, seed=3)),
    "logcumsumexp-neg-axis": _values(lambda p, x: [p.logcumsumexp(x, -1), x.logcumsumexp(0)], _rand(3, 4)),
    "cumprod": _grads(lambda p, x: p.cumprod(x, 1), _rand(3, 4)),
    "cumprod-zeros": _grads(lambda p, x: p.cumprod(x, -1) * p.to_tensor(_rand(2, 4, seed=5)),
                            np.array([[2.0, 0.0, 3.0, 1.5], [0.0, -2.0, 0.0, 4.0]], "float32")),
    "cumprod-flat": _grads(lambda p, x: p.cumprod(x), _rand(2, 3)),
    "cumprod-int": _values(lambda p, x: [p.cumprod(x), p.cumprod(x, 0), x.cumprod(-1), p.cumprod(x, 1, dtype="float64")],
                           _ints(2, 3, low=-3, high=4)),
    "cumprod_": _values(lambda p, x: (lambda y: [p.cumprod_(y, 0), y])(x * 1.0), _rand(3, 2)),
    "cummax": _grads(lambda p, x: p.cummax(x, 1)[0], np.array([[1, 3, 3, 2, 5, 5], [0, 0, -1, 4, 4, 1]], "float32")),
    "cummin": _grads(lambda p, x: p.cummin(x, -1)[0] * 2.0, np.array([[1, 3, 1, 2, 0, 0], [0, 0, -1, 4, -1, 1]],
                                                                       "float32")),
    "cummax-values": _values(lambda p, x: [p.cummax(x), p.cummax(x, 0, dtype="int32"), x.cummin(1)], _ints(3, 4)),
    "cummax-nan": _values(lambda p, x: [p.cummax(x, 1), p.cummin(x, 1)], np.array([[1.0, np.nan, 0.0, 2.0]], "float32")),
    "like-shapes": lambda p: [(tuple(t.shape), str(t.dtype)) for t in (
        p.rand_like(p.ones([2, 3])), p.randn_like(p.ones([4], "float64")), p.randint_like(p.ones([2, 2], "int32"), 5),
        p.randint_like(p.ones([3]), 1, 4), p.rand_like(p.ones([2]), dtype="float64"))],
    "randint_like-range": lambda p: bool(((lambda t: (t >= 1).all() and (t < 4).all())(
        p.randint_like(p.ones([200], "int64"), 1, 4))).item()),
}


def _rng_replay(p):
    p.manual_seed(7)
    state = p.get_rng_state()
    a = p.rand([5])
    p.set_rng_state(state)
    b = p.rand([5])
    return bool((a == b).all().item())


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_paddle(name):
    pytest.importorskip("paddle")
    ours, theirs = run_both(CASES[name])
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


def test_rng_state_replays():
    import paddlelite
    assert _rng_replay(paddlelite)


def test_diag_embed_grad():
    import paddlelite as paddle
    x = paddle.to_tensor(_rand(2, 3), stop_gradient=False)
    w = paddle.to_tensor(_rand(4, 2, 4, seed=1))
    (paddle.diag_embed(x, -1, 0, 2) * w).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.stack([np.diagonal(w.numpy()[:, b], -1) for b in range(2)]))


@differential(expected={"embed": [[[np.inf, 0.0], [0.0, np.nan]]], "flat": [[0.0, 0.0, 0.0], [-np.inf, 0.0, 0.0],
                                                                           [0.0, 2.0, 0.0]]})
def test_diag_embed_keeps_inf_and_nan_on_the_diagonal(paddle):
    # placed, not multiplied in: inf * 0 would turn the whole matrix NaN
    return {"embed": paddle.diag_embed(paddle.to_tensor([[np.inf, np.nan]])),
            "flat": paddle.diagflat(paddle.to_tensor([-np.inf, 2.0]), offset=-1)}


@pytest.mark.parametrize("p", ["fro", 3.0])
def test_norm_gradient_of_a_nan_row_is_nan(p):
    # a NaN norm is differentiated (NaN over its row, as Paddle), not passed through as if it were 0; a zero row
    # still gets gradient 0
    @differential(expected={"norm": [np.nan, 0.0, 5.0 if p == "fro" else 4.4979415],
                            "grad_rows_0_1": [np.nan] * 3 + [0.0] * 3})
    def body(paddle):
        x = paddle.to_tensor([[3.0, np.nan, 4.0], [0.0, 0.0, 0.0], [3.0, 4.0, 0.0]], stop_gradient=False)
        y = paddle.norm(x, p=p, axis=1)
        y.sum().backward()
        return {"norm": y, "grad_rows_0_1": x.grad[:2].flatten()}
    body()
