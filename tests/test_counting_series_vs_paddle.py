"""bincount, histogram(_bin_edges, dd), mode, nanmedian, nanquantile, unique_consecutive, range, logspace, vander,
tril/triu_indices, trapezoid, cumulative_trapezoid, combinations, cartesian_prod and block_diag against real
Paddle 3.3.1 (tests/differential.py): values, dtypes, gradients, negative axes, keepdim, 0-D/empty inputs, errors."""
import numpy as np
import pytest

from tests.differential import differential, raises, run_static

RNG = np.random.default_rng(3)
INTS = RNG.integers(0, 7, size=20)
WEIGHTS = RNG.standard_normal(20).astype(np.float32)
DATA = RNG.standard_normal((4, 6)).astype(np.float32)
WITH_NAN = np.where(RNG.random((3, 5)) < 0.3, np.nan, RNG.standard_normal((3, 5)))
WITH_NAN[1] = np.nan  # an all-NaN row
REPEATS = RNG.integers(0, 3, size=(4, 7)).astype(np.float64)
POINTS = RNG.standard_normal((5, 2))


@differential()
def test_bincount(paddle):
    x = paddle.to_tensor(INTS)
    return [paddle.bincount(x), paddle.bincount(x, paddle.to_tensor(WEIGHTS)), x.bincount(minlength=12),
            paddle.bincount(x.astype("int32"), paddle.to_tensor(WEIGHTS.astype(np.float64))),
            paddle.bincount(x, paddle.to_tensor(INTS)), paddle.bincount(paddle.zeros([0], "int64"))]


@pytest.mark.parametrize("kind,error", [("negative", ValueError), ("float", TypeError), ("2d", ValueError),
                                        ("weights", ValueError), ("minlength", ValueError)])
def test_bincount_errors(kind, error):
    @differential(expected=raises(error))
    def body(paddle):
        x = paddle.to_tensor([1, 2])
        {"negative": lambda: paddle.bincount(paddle.to_tensor([1, -1])),
         "float": lambda: paddle.bincount(paddle.to_tensor([1.0])),
         "2d": lambda: paddle.bincount(paddle.to_tensor([[1, 2]])),
         "weights": lambda: paddle.bincount(x, paddle.to_tensor([1.0])),
         "minlength": lambda: paddle.bincount(x, minlength=-1)}[kind]()
    body()


@differential()
def test_histogram(paddle):
    x = paddle.to_tensor(DATA)
    w = paddle.to_tensor(np.abs(DATA))
    return [paddle.histogram(x, bins=5), paddle.histogram(x, 4, -1, 1), x.histogram(3, weight=w),
            paddle.histogram(x, 6, density=True), paddle.histogram(x, 6, weight=w, density=True),
            paddle.histogram(paddle.to_tensor([1, 2, 1, 4]), 4), paddle.histogram(paddle.to_tensor([2.0, 2.0]), 4),
            paddle.histogram(x.astype("float64"), 4)]


@differential(rtol=1e-5, atol=1e-6)
def test_histogram_bin_edges(paddle):
    x = paddle.to_tensor(DATA)
    return [paddle.histogram_bin_edges(x, 5), x.histogram_bin_edges(4, -1, 1),
            paddle.histogram_bin_edges(paddle.to_tensor([1, 2, 1, 4]), 3),
            paddle.histogram_bin_edges(paddle.to_tensor([2.0, 2.0]), 2),
            paddle.histogram_bin_edges(x.astype("float64"), 4, 0, 1)]


@pytest.mark.parametrize("kind", ["max_below_min", "no_bins"])
def test_histogram_errors(kind):
    @differential(expected=raises(ValueError))
    def body(paddle):
        x = paddle.to_tensor([1.0, 2.0])
        paddle.histogram(x, 4, 3, 1) if kind == "max_below_min" else paddle.histogram(x, 0)
    body()


@differential(rtol=1e-5, atol=1e-6)
def test_histogramdd(paddle):
    x = paddle.to_tensor(POINTS)
    out = [paddle.histogramdd(x, bins=[3, 2]), paddle.histogramdd(x, bins=2, ranges=[0.0, 1, -1, 1], density=True),
           paddle.histogramdd(x, bins=2, weights=paddle.to_tensor(np.abs(POINTS[:, 0]))),
           paddle.histogramdd(paddle.to_tensor(POINTS.reshape(5, 1, 2).astype(np.float32)), bins=3)]
    return [[h, list(edges)] for h, edges in out]


@differential()
def test_mode(paddle):
    x = paddle.to_tensor(REPEATS, stop_gradient=False)
    v1, i1 = paddle.mode(x)
    v2, i2 = x.mode(axis=0, keepdim=True)
    v3, i3 = paddle.mode(x, -2)
    (v1.sum() + (v2 * v2).sum() + v3.sum()).backward()
    return {"values": [v1, v2, v3], "indices": [i1, i2, i3], "grad": x.grad,
            "int": list(paddle.mode(paddle.to_tensor([3, 1, 3, 1, 2]))), "0d": list(paddle.mode(paddle.to_tensor(3.0)))}


@differential()
def test_nanmedian(paddle):
    x = paddle.to_tensor(WITH_NAN, stop_gradient=False)
    avg = paddle.nanmedian(x, 1)
    low, idx = x.nanmedian(-1, keepdim=True, mode="min")
    outs = [avg, low, idx, paddle.nanmedian(x), paddle.nanmedian(x, keepdim=True), paddle.nanmedian(x, [0, 1]),
            paddle.nanmedian(x, 0), paddle.nanmedian(paddle.to_tensor([1, 2, 3, 4])),
            paddle.nanmedian(paddle.to_tensor(2.5))]
    paddle.nansum(avg * paddle.to_tensor([1.0, 2.0, 3.0], "float64")).backward()
    return {"outs": outs, "grad": x.grad}


@differential(expected=raises(ValueError))
def test_nanmedian_bad_mode(paddle):
    paddle.nanmedian(paddle.ones([2, 2]), mode="max")


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_nanquantile(interpolation):
    @differential()
    def body(paddle):
        x = paddle.to_tensor(WITH_NAN, stop_gradient=False)
        a = paddle.nanquantile(x, 0.3, 1, interpolation=interpolation)
        b = x.nanquantile([0.25, 0.9], axis=-1, keepdim=True, interpolation=interpolation)
        c = paddle.nanquantile(x, 0.5)
        paddle.nansum(a).backward()
        return {"outs": [a, b, c], "grad": x.grad}
    body()


@differential(expected=raises(ValueError))
def test_nanquantile_bad_q(paddle):
    paddle.nanquantile(paddle.ones([2, 2]), 1.5)


@differential()
def test_unique_consecutive(paddle):
    x = paddle.to_tensor([1, 1, 2, 2, 3, 1, 1, 2])
    m = paddle.to_tensor([[2, 1, 3], [2, 1, 3], [3, 1, 1]])
    return [paddle.unique_consecutive(x), list(x.unique_consecutive(True, True)),
            list(paddle.unique_consecutive(m, True, True, axis=0)), list(paddle.unique_consecutive(m, True, axis=-1)),
            list(paddle.unique_consecutive(paddle.to_tensor([1.0, 1, 2]), True, True, dtype="int32")),
            list(paddle.unique_consecutive(paddle.to_tensor([[1, 1], [2, 2]]), True, True))]


@differential()
def test_range_and_logspace(paddle):
    return [paddle.range(0, 3), paddle.range(0, 1, 0.25), paddle.range(4), paddle.range(1, 4, 2, dtype="int64"),
            paddle.range(5, 0, -2), paddle.range(1.0, 4, requires_grad=True).stop_gradient,
            paddle.logspace(0, 2, 3), paddle.logspace(0, 3, 4, base=2, dtype="int32"),
            paddle.logspace(0.0, 1, 5, dtype="float64"), paddle.logspace(1.0, 1, 1), paddle.logspace(2, 0, 2)]


@differential(expected=raises(ValueError))
def test_logspace_needs_a_value(paddle):
    paddle.logspace(0, 1, 0)


@differential()
def test_vander(paddle):
    x = paddle.to_tensor([0.0, 2.0, -1.5], "float64", stop_gradient=False)
    a = paddle.vander(x)
    b = x.vander(2, increasing=True)
    (a * a).sum().backward()
    return {"outs": [a, b, paddle.vander(paddle.to_tensor([1, 2, 3]), 4), paddle.vander(x, 0)], "grad": x.grad}


@differential(expected=raises(ValueError))
def test_vander_needs_1d(paddle):
    paddle.vander(paddle.ones([2, 2]))


@differential()
def test_tril_triu_indices(paddle):
    return [paddle.tril_indices(3, 4, 1), paddle.tril_indices(4, 3, -1, "int32"), paddle.triu_indices(3, 4, 1),
            paddle.triu_indices(3), paddle.tril_indices(0, 0), paddle.triu_indices(2, 5, -3)]


@differential(expected=raises(TypeError))
def test_tril_indices_negative_row(paddle):
    paddle.tril_indices(-1, 3)


@differential()
def test_trapezoid(paddle):
    y = paddle.to_tensor(DATA.astype(np.float64), stop_gradient=False)
    x = paddle.to_tensor(np.cumsum(np.abs(DATA.astype(np.float64)), 1), stop_gradient=False)
    outs = [paddle.trapezoid(y), y.trapezoid(x=x), paddle.trapezoid(y, dx=0.5, axis=0),
            paddle.trapezoid(y, x=paddle.to_tensor([0.0, 1, 3, 4], "float64"), axis=-2),
            paddle.cumulative_trapezoid(y), y.cumulative_trapezoid(x=x, axis=1),
            paddle.cumulative_trapezoid(y, dx=2.0, axis=0)]
    sum(o.sum() for o in outs).backward()
    return {"outs": outs, "dy": y.grad, "dx": x.grad}


@pytest.mark.parametrize("kind,error", [("both", ValueError), ("int", TypeError)])
def test_trapezoid_errors(kind, error):
    @differential(expected=raises(error))
    def body(paddle):
        if kind == "both":
            paddle.trapezoid(paddle.ones([3]), x=paddle.ones([3]), dx=2.0)
        else:
            paddle.trapezoid(paddle.to_tensor([1, 2, 3]))
    body()


@differential()
def test_combinations_and_cartesian_prod(paddle):
    x = paddle.to_tensor([1.0, 2, 3, 4], stop_gradient=False)
    pairs = paddle.combinations(x)
    triples = x.detach().combinations(3, with_replacement=True)  # Paddle's backward of this one segfaults
    y = paddle.to_tensor([5.0, 6], stop_gradient=False)  # (Paddle's meshgrid backward segfaults without it)
    prod = paddle.cartesian_prod([x, y])
    (pairs.prod(1).sum() + (prod * prod).sum()).backward()
    return {"outs": [pairs, triples, prod, paddle.combinations(x, 0), paddle.combinations(x, 5),
                     paddle.cartesian_prod([paddle.to_tensor([1, 2])])], "dx": x.grad, "dy": y.grad}


@pytest.mark.parametrize("kind,error", [("comb_2d", TypeError), ("prod_dtype", ValueError),
                                        ("block_dtype", ValueError), ("block_3d", ValueError)])
def test_combination_errors(kind, error):
    @differential(expected=raises(error))
    def body(paddle):
        {"comb_2d": lambda: paddle.combinations(paddle.ones([1, 2])),
         "prod_dtype": lambda: paddle.cartesian_prod([paddle.to_tensor([1, 2]), paddle.to_tensor([3.0])]),
         "block_dtype": lambda: paddle.block_diag([paddle.ones([1]), paddle.ones([1], "float64")]),
         "block_3d": lambda: paddle.block_diag([paddle.ones([1, 1, 1])])}[kind]()
    body()


@differential()
def test_block_diag(paddle):
    a = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
    b = paddle.to_tensor([[5.0, 6.0], [7.0, 8.0]], stop_gradient=False)
    out = paddle.block_diag([a, paddle.to_tensor([3.0]), paddle.to_tensor(4.0), b])
    (out * out).sum().backward()
    return {"out": out, "da": a.grad, "db": b.grad,
            "int": paddle.block_diag([paddle.to_tensor([[1, 2]]), paddle.to_tensor([3])])}


@differential(expected={"out": [[9.0, 27.0], [12.0, 33.0]]})
def test_cumulative_trapezoid_spacing_fed_to_a_static_program(paddle):  # dx a 0-D Variable, fed at run time
    # (Paddle's static trapezoid itself calls a PIR-only sum under the legacy IR: only the cumulative one compares)
    def build():
        y = paddle.static.data("y", [2, 3], "float32")
        dx = paddle.static.data("dx", [], "float32")
        return [paddle.cumulative_trapezoid(y, dx=dx)]
    feed = {"y": np.array([[2.0, 4.0, 8.0], [3.0, 5.0, 9.0]], dtype="float32"), "dx": np.array(3.0, dtype="float32")}
    return {"out": run_static(paddle, build, feed)[0]}
