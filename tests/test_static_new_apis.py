"""Static mode for the new tensor APIs (a Program built and run once): against real Paddle's legacy IR where it
runs them, else against paddlelite's own eager results."""
import numpy as np
import pytest

from tests.differential import differential, run_static

RNG = np.random.default_rng(2)
FEED = {"x": RNG.standard_normal((3, 4)).astype(np.float32), "i": np.array([[0, 2, 2, 1], [0, 0, 1, 1]], np.int64),
        "v": RNG.standard_normal((2, 4)).astype(np.float32), "s": np.array([[0, 3], [1, 1], [2, 0]], np.int64),
        "w": np.array([1.0, 2.0, 3.0], np.float32)}
BUILDERS = {
    "put_along_axis": lambda p, x, i, v, s, w: p.put_along_axis(x, i, v, 0, "add"),
    "scatter_reduce": lambda p, x, i, v, s, w: p.scatter_reduce(x, 0, i, v, "amax"),
    "index_sample": lambda p, x, i, v, s, w: p.index_sample(x, s),
    "einsum": lambda p, x, i, v, s, w: p.einsum("ij,kj->ik", x, v),
    "trapezoid": lambda p, x, i, v, s, w: p.trapezoid(x),
    "cumulative_trapezoid": lambda p, x, i, v, s, w: p.cumulative_trapezoid(x, axis=0),
    "mode": lambda p, x, i, v, s, w: p.mode(x, 1)[0],
    "vander": lambda p, x, i, v, s, w: p.vander(w),
    "block_diag": lambda p, x, i, v, s, w: p.block_diag([x, v]),
    "histogram": lambda p, x, i, v, s, w: p.histogram(x, 4, -1, 1),
    "bincount": lambda p, x, i, v, s, w: p.bincount(p.reshape(i, [-1])),
    "nanmedian": lambda p, x, i, v, s, w: p.nanmedian(x, 1),
    "index_put": lambda p, x, i, v, s, w: p.index_put(x, (s[:, 0],), p.full([1], 2.0), True),
    "multiplex": lambda p, x, i, v, s, w: p.multiplex([x, x * 2], p.cast(s[:, :1] % 2, "int32")),
    "unfold": lambda p, x, i, v, s, w: p.unfold(x, 1, 2, 1),
    "cartesian_prod": lambda p, x, i, v, s, w: p.cartesian_prod([w, w]),
    "combinations": lambda p, x, i, v, s, w: p.combinations(w, 2),
    "stft": lambda p, x, i, v, s, w: p.signal.stft(p.reshape(x, [-1]), 4),
}
EAGER_ONLY = {"index_put", "trapezoid", "unfold", "stft"}  # Paddle 3.3.1's legacy IR cannot build these


def _build(paddle, api):
    shapes = {"x": [3, 4], "i": [2, 4], "v": [2, 4], "s": [3, 2], "w": [3]}
    data = {k: paddle.static.data(k, shapes[k], str(FEED[k].dtype)) for k in shapes}
    return [BUILDERS[api](paddle, *(data[k] for k in "xivsw"))]


@pytest.mark.parametrize("api", sorted(set(BUILDERS) - EAGER_ONLY))
def test_static_mode(api):
    @differential(rtol=1e-5, atol=1e-6)
    def body(paddle):
        return run_static(paddle, lambda: _build(paddle, api), FEED)
    body()


@pytest.mark.parametrize("api", sorted(EAGER_ONLY))
def test_static_mode_matches_eager(api):
    import paddlelite as paddle
    try:
        (static,) = run_static(paddle, lambda: _build(paddle, api), FEED)
    finally:
        paddle.disable_static()
    eager = BUILDERS[api](paddle, *(paddle.to_tensor(FEED[k]) for k in "xivsw"))
    np.testing.assert_allclose(static, eager.numpy(), rtol=1e-6, atol=1e-6)
