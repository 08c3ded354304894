"""The special functions (lgamma, digamma, polygamma, I0/I1, erfinv, the incomplete gammas, multigammaln), the
float helpers (ldexp, frexp, nextafter, stanh, polar) and trace/kron/diff/renorm/cdist/pdist against real Paddle
3.3.1: values, dtypes, shapes, gradients, errors; in-place variants and Tensor methods."""
import math

import numpy as np
import pytest

from tests.differential import differential, raises, run_static

UNARY = {  # name -> input range (the poles and the domain edges kept out of random draws)
    "lgamma": (-4.5, 12.0), "gammaln": (-4.5, 12.0), "digamma": (-4.5, 12.0), "i0": (-40.0, 40.0),
    "i0e": (-40.0, 40.0), "i1": (-40.0, 40.0), "i1e": (-40.0, 40.0), "erfinv": (-0.999, 0.999),
}


def _draw(shape, low, high, seed=0):
    return np.random.default_rng(seed).uniform(low, high, shape)


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_unary_values_and_gradients(name, dtype):
    low, high = UNARY[name]

    @differential(rtol=1e-5 if dtype == "float32" else 1e-9, atol=1e-6 if dtype == "float32" else 1e-10)
    def body(paddle):
        x = paddle.to_tensor(_draw([3, 40], low, high).astype(dtype), stop_gradient=False)
        out = getattr(paddle, name)(x)
        (dx,) = paddle.grad((out * out).sum(), [x])
        scalar = getattr(paddle, name)(paddle.to_tensor(np.array(0.25, dtype)))
        empty = getattr(paddle, name)(paddle.zeros([0, 3], dtype))
        return {"out": out, "dx": dx, "scalar": scalar, "empty": empty, "method": getattr(x, name)()}
    body()


@pytest.mark.parametrize("name", ["lgamma", "digamma", "i0", "i0e", "i1", "i1e", "erfinv"])
def test_unary_integers_compute_as_float32(name):
    @differential(rtol=1e-6, atol=1e-6)
    def body(paddle):
        return getattr(paddle, name)(paddle.to_tensor([[0, 1, 2], [3, -2, 7]]))
    body()


def test_special_values_at_poles_and_edges():
    @differential(rtol=1e-12, atol=1e-12)
    def body(paddle):
        x = paddle.to_tensor([-3.0, -2.0, -0.0, 0.0, 1.0, 2.0, 1e-8, float("nan"), float("inf"), 1e10], "float64")
        e = paddle.to_tensor([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, float("nan"), 0.999], "float64")
        b = paddle.to_tensor([-700.0, -30.0, 0.0, 1e-8, 30.0, 700.0], "float64")
        return {"lgamma": paddle.lgamma(x), "digamma": paddle.digamma(x), "erfinv": paddle.erfinv(e),
                "i0e": paddle.i0e(b), "i1e": paddle.i1e(b), "i0": paddle.i0(b[1:-1]), "i1": paddle.i1(b[1:-1])}
    body()


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_polygamma(n, dtype):
    @differential(rtol=1e-8 if dtype == "float64" else 2e-6, atol=1e-8)
    def body(paddle):
        x = paddle.to_tensor(np.concatenate([_draw([30], -4.5, 10.0), [0.05, 25.0]]).astype(dtype),
                             stop_gradient=False)
        out = paddle.polygamma(x, n)
        (dx,) = paddle.grad(out.sum(), [x])
        ints = paddle.polygamma(paddle.to_tensor([1, 2, 5]), n) if dtype == "float32" else None
        return {"out": out, "dx": dx, "ints": ints, "method": x.polygamma(n)}
    body()


@pytest.mark.parametrize("n, error", [(-1, ValueError), (1.5, TypeError)])
def test_polygamma_bad_order(n, error):
    @differential(expected=raises(error))
    def body(paddle):
        paddle.polygamma(paddle.to_tensor([1.0, 2.0]), n)
    body()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_incomplete_gammas(dtype):
    @differential(rtol=2e-5 if dtype == "float32" else 1e-9, atol=1e-6 if dtype == "float32" else 1e-11)
    def body(paddle):
        a = paddle.to_tensor(np.concatenate([_draw([40], 0.0, 12.0), [0.0, 3.0, 0.5]]).astype(dtype),
                             stop_gradient=False)
        y = paddle.to_tensor(np.concatenate([_draw([40], 0.0, 20.0, seed=1), [1.0, 0.0, 30.0]]).astype(dtype),
                             stop_gradient=False)
        lower, upper = paddle.gammainc(a, y), paddle.gammaincc(a, y)
        da, dy = paddle.grad((lower * upper).sum() + upper.sum(), [a, y], allow_unused=True)
        return {"lower": lower, "upper": upper, "da": da, "dy": dy, "method": a.gammaincc(y)}
    body()


@pytest.mark.parametrize("name", ["gammainc", "gammaincc"])
@pytest.mark.parametrize("x, y", [([-0.5], [1.0]), ([1.0], [-1.0])])
def test_incomplete_gamma_rejects_negative_inputs(name, x, y):
    @differential(expected=raises(ValueError))
    def body(paddle):
        getattr(paddle, name)(paddle.to_tensor(x), paddle.to_tensor(y))
    body()


def test_incomplete_gamma_broadcasts():  # (Paddle 3.3.1's CPU kernel broadcasts wrongly: checked against loops)
    import paddlelite as paddle
    a, y = np.array([[0.5], [2.0]]), np.array([0.5, 1.0, 3.0])
    out = paddle.gammainc(paddle.to_tensor(a), paddle.to_tensor(y)).numpy()
    one = [[paddle.gammainc(paddle.to_tensor([ai], "float64"), paddle.to_tensor([yj], "float64")).item() for yj in y]
           for ai in a[:, 0]]
    np.testing.assert_allclose(out, one, rtol=1e-14)
    np.testing.assert_allclose(out[0, 1], math.erf(1.0), rtol=1e-14)  # P(1/2, y) = erf(sqrt(y))


@pytest.mark.parametrize("p", [1, 2, 3])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_multigammaln(p, dtype):
    @differential(rtol=1e-10 if dtype == "float64" else 1e-6, atol=1e-10 if dtype == "float64" else 1e-6)
    def body(paddle):
        x = paddle.to_tensor(_draw([2, 5], 1.5, 8.0).astype(dtype), stop_gradient=False)
        out = paddle.multigammaln(x, p)
        (dx,) = paddle.grad(out.sum(), [x])
        return {"out": out, "dx": dx, "method": x.multigammaln(p)}
    body()


def test_multigammaln_bad_order():
    @differential(expected=raises(AssertionError))
    def body(paddle):
        paddle.multigammaln(paddle.to_tensor([2.5]), 0)
    body()


def test_inplace_variants():
    @differential(rtol=1e-6, atol=1e-6)
    def body(paddle):
        out = {}
        for name in ["digamma_", "lgamma_", "gammaln_", "i0_", "erfinv_"]:
            x = paddle.to_tensor([0.3, 0.6, 0.9])
            y = getattr(x, name)()
            out[name] = [x, y is x]
        for name in ["digamma_", "lgamma_", "gammaln_", "i0_"]:
            x = paddle.to_tensor([0.3, 0.6, 0.9])
            getattr(paddle, name)(x)
            out["paddle." + name] = x
        x = paddle.to_tensor([0.3, 1.6, 2.9])
        out["polygamma_"] = [paddle.polygamma_(x, 2), x]
        x = paddle.to_tensor([2.3, 1.6, 2.9])
        out["multigammaln_"] = [x.multigammaln_(2), x]
        a, y = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.5, 3.0])
        out["gammainc_"] = [a.gammainc_(y), a]
        a = paddle.to_tensor([1.0, 2.0])
        out["gammaincc_"] = [paddle.gammaincc_(a, y), a]
        x = paddle.to_tensor([1.0, 3.0])
        out["ldexp_"] = [x.ldexp_(paddle.to_tensor([2.0, -1.0])), x]
        x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        out["renorm_"] = [paddle.renorm_(x, 2.0, 0, 2.5), x]
        return out
    body()


def test_ldexp():
    @differential(rtol=1e-7, atol=0)
    def body(paddle):
        x, e = paddle.to_tensor([[1.0, -2.5, 3.0]], stop_gradient=False), paddle.to_tensor([[2], [-1], [0]])
        out = paddle.ldexp(x, e)
        (dx,) = paddle.grad(out.sum(), [x])
        return {"bcast": out, "dx": dx, "ints": paddle.ldexp(paddle.to_tensor([1, 2]), paddle.to_tensor([2, 3])),
                "f64": paddle.ldexp(paddle.to_tensor([1.0]), paddle.to_tensor([3.0], "float64")),
                "method": x.ldexp(paddle.to_tensor([1]))}
    body()


def test_ldexp_needs_tensors():
    @differential(expected=raises(TypeError))
    def body(paddle):
        paddle.ldexp(paddle.to_tensor([1.0]), 2)
    body()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_frexp(dtype):
    @differential(rtol=0, atol=0)
    def body(paddle):
        x = paddle.to_tensor(np.array([0.0, -3.0, 8.0, 0.3, 1e-30, -7.75, 1.0, 0.5], dtype))
        return {"pair": paddle.frexp(x), "method": x.frexp()}
    body()


def test_frexp_rejects_integers():
    @differential(expected=raises(TypeError))
    def body(paddle):
        paddle.frexp(paddle.to_tensor([1, 2]))
    body()


def test_nextafter():
    @differential(rtol=0, atol=0)
    def body(paddle):
        x32, y32 = paddle.to_tensor([[1.0], [2.0]]), paddle.to_tensor([2.0, 1.0, 0.0])
        x64 = paddle.to_tensor([1.0, 0.0, -1.0], "float64")
        return {"bcast": paddle.nextafter(x32, y32), "f64": paddle.nextafter(x64, paddle.zeros([3], "float64") + 5),
                "mixed": paddle.nextafter(x32, y32.astype("float64")), "method": x64.nextafter(-x64)}
    body()


def test_stanh():
    @differential(rtol=1e-6, atol=1e-7)
    def body(paddle):
        x = paddle.to_tensor(_draw([3, 4], -3, 3), stop_gradient=False)
        out = paddle.stanh(x, 0.5, 2.0)
        (dx,) = paddle.grad(out.sum(), [x])
        return {"out": out, "dx": dx, "default": paddle.stanh(x), "ints": paddle.stanh(paddle.to_tensor([1, 2])),
                "method": x.stanh(scale_a=1.5)}
    body()


def test_polar():
    @differential(rtol=1e-7, atol=1e-7)
    def body(paddle):
        r = paddle.to_tensor([1.0, 2.0, 0.5], "float64", stop_gradient=False)
        t = paddle.to_tensor([0.5, -1.0, 3.0], "float64", stop_gradient=False)
        z = paddle.polar(r, t)
        dr, dt = paddle.grad((z.real() * 2.0 + z.imag() * 3.0).sum(), [r, t])
        return {"z": z, "dr": dr, "dt": dt, "f32": paddle.polar(r.astype("float32"), t.astype("float32")),
                "mixed": paddle.polar(r.astype("float32"), t)}
    body()


def test_polar_rejects_integers():
    @differential(expected=raises(TypeError))
    def body(paddle):
        paddle.polar(paddle.to_tensor([1, 2]), paddle.to_tensor([0, 1]))
    body()


@pytest.mark.parametrize("args", [(0, 0, 1), (1, 0, 1), (-1, 1, 0), (1, 1, 2), (-2, -1, -3), (7, 0, 1)])
def test_trace(args):
    @differential(rtol=1e-12, atol=1e-12)
    def body(paddle):
        x = paddle.to_tensor(_draw([3, 4, 5], -1, 1), stop_gradient=False)
        out = paddle.trace(x, *args)
        (dx,) = paddle.grad((out * out).sum() if out.ndim else out * out, [x])
        return {"out": out, "dx": dx, "int": paddle.trace(paddle.arange(9).reshape([3, 3])),
                "method": x.trace(offset=args[0], axis1=args[1], axis2=args[2])}
    body()


@pytest.mark.parametrize("args, error", [((0, 0, 0), ValueError), ((0, 0, 3), IndexError)])
def test_trace_bad_axes(args, error):
    @differential(expected=raises(error))
    def body(paddle):
        paddle.trace(paddle.ones([3, 3, 3]), *args)
    body()


def test_trace_of_a_vector_fails():
    @differential(expected=raises(IndexError))
    def body(paddle):
        paddle.trace(paddle.ones([3]))
    body()


@pytest.mark.parametrize("xs, ys", [([2, 3], [3, 2]), ([2], [2, 3, 1]), ([], [2]), ([2, 1, 3], [2, 2]),
                                    ([0, 2], [2, 3])])
def test_kron(xs, ys):
    @differential(rtol=1e-12, atol=1e-12)
    def body(paddle):
        x = paddle.to_tensor(_draw(xs, -1, 1), stop_gradient=False)
        y = paddle.to_tensor(_draw(ys, -1, 1, seed=1), stop_gradient=False)
        out = paddle.kron(x, y)
        w = paddle.to_tensor(_draw(out.shape, -1, 1, seed=2))
        dx, dy = paddle.grad((out * w).sum(), [x, y])
        return {"out": out, "dx": dx, "dy": dy, "method": x.kron(y),
                "ints": paddle.kron(paddle.to_tensor([[1, 2], [3, 4]]), paddle.to_tensor([[0, 1], [1, 0]]))}
    body()


def test_kron_mixed_dtypes():
    @differential(expected=raises(ValueError))
    def body(paddle):
        paddle.kron(paddle.ones([2]), paddle.ones([2], "float64"))
    body()


@pytest.mark.parametrize("n, axis, pend", [(1, -1, False), (2, 0, False), (1, 1, True), (3, -1, True)])
def test_diff(n, axis, pend):
    @differential(rtol=1e-12, atol=1e-12)
    def body(paddle):
        x = paddle.to_tensor(_draw([4, 5], -1, 1), stop_gradient=False)
        kwargs = {}
        if pend:
            shape = [4, 2] if axis in (1, -1) else [2, 5]
            kwargs = {"prepend": paddle.to_tensor(_draw(shape, -1, 1, seed=1)),
                      "append": paddle.to_tensor(_draw(shape, -1, 1, seed=2))}
        out = paddle.diff(x, n=n, axis=axis, **kwargs)
        (dx,) = paddle.grad((out * out).sum(), [x])
        return {"out": out, "dx": dx, "method": x.diff(n=n, axis=axis, **kwargs),
                "ints": paddle.diff(paddle.to_tensor([1, 4, 9, 16]), n=n),
                "bool": paddle.diff(paddle.to_tensor([True, False, False, True, True]), n=n)}
    body()


@pytest.mark.parametrize("x, n, error", [([1.0, 2.0], 0, ValueError), (1.0, 1, IndexError)])
def test_diff_errors(x, n, error):
    @differential(expected=raises(error))
    def body(paddle):
        paddle.diff(paddle.to_tensor(x), n=n)
    body()


@pytest.mark.parametrize("p, axis, max_norm", [(2.0, 0, 2.5), (1.0, 1, 3.0), (3.0, -1, 0.5), (2.0, 2, 1.0)])
def test_renorm(p, axis, max_norm):  # (Paddle's float64 norms round 1/p to float32: 1e-8 apart)
    @differential(rtol=1e-6, atol=1e-8)
    def body(paddle):
        x = paddle.to_tensor(_draw([3, 4, 2], -2, 2), stop_gradient=False)
        out = paddle.renorm(x, p, axis, max_norm)
        (dx,) = paddle.grad((out * paddle.to_tensor(_draw([3, 4, 2], -1, 1, seed=3))).sum(), [x])
        return {"out": out, "dx": dx, "method": x.renorm(p, axis, max_norm),
                "f32": paddle.renorm(x.astype("float32"), p, axis, max_norm)}
    body()


@pytest.mark.parametrize("axis", [3, -4])
def test_renorm_bad_axis(axis):
    @differential(expected=raises(ValueError))
    def body(paddle):
        paddle.renorm(paddle.ones([2, 3, 4]), 2.0, axis, 1.0)
    body()


@pytest.mark.parametrize("p", [2.0, 1.0, 0.0, 3.0, float("inf")])
@pytest.mark.parametrize("rows", [(3, 4), (30, 2)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cdist(p, rows, dtype):  # (Paddle's float64 norms round 1/p to float32: 1e-8 apart for p = 3)
    @differential(rtol=1e-6 if dtype == "float64" else 1e-5, atol=1e-9 if dtype == "float64" else 1e-5)
    def body(paddle):
        x = paddle.to_tensor(_draw([2, rows[0], 3], -1, 1).astype(dtype), stop_gradient=False)
        y = paddle.to_tensor(_draw([2, rows[1], 3], -1, 1, seed=1).astype(dtype), stop_gradient=False)
        out = paddle.cdist(x, y, p=p)
        result = {"out": out, "method": x.cdist(y, p), "mm": paddle.cdist(x, y, compute_mode="use_mm_for_euclid_dist")}
        if p != 0.0:  # (the 0-"norm" counts nonzeros: Paddle differentiates it to zeros, paddlelite not at all)
            result["dx"], result["dy"] = paddle.grad(out.sum(), [x, y])
        return result
    body()


def test_cdist_empty():
    @differential()
    def body(paddle):
        return {"rows": paddle.cdist(paddle.ones([0, 3]), paddle.ones([2, 3])).shape,
                "cols": paddle.cdist(paddle.ones([2, 0]), paddle.ones([3, 0]))}
    body()


@pytest.mark.parametrize("kwargs, error", [({"p": -1.0}, AssertionError), ({"compute_mode": "fast"}, ValueError),
                                           ({"p": "2"}, TypeError)])
def test_cdist_errors(kwargs, error):
    @differential(expected=raises(error))
    def body(paddle):
        paddle.cdist(paddle.ones([2, 3]), paddle.ones([4, 3]), **kwargs)
    body()


def test_cdist_mismatched_columns():
    @differential(expected=raises(AssertionError))
    def body(paddle):
        paddle.cdist(paddle.ones([2, 3]), paddle.ones([4, 2]))
    body()


@pytest.mark.parametrize("p", [2.0, 1.0, 0.5])
def test_pdist(p):
    @differential(rtol=1e-7, atol=1e-9)
    def body(paddle):
        x = paddle.to_tensor(_draw([5, 3], -1, 1), stop_gradient=False)
        out = paddle.pdist(x, p)
        # (for p < 1 Paddle's gradient is NaN, from the zero self-distances it computes and then drops)
        dx = paddle.grad(out.sum(), [x])[0] if p >= 1 else None
        return {"out": out, "dx": dx}
    body()


def test_pdist_needs_a_matrix():
    @differential(expected=raises(AssertionError))
    def body(paddle):
        paddle.pdist(paddle.ones([2, 3, 4]))
    body()


def test_static_programs():
    feed = {"x": _draw([3, 4], 0.2, 0.9).astype("float32"), "y": _draw([3, 4], 0.5, 2.0, seed=1).astype("float32")}

    @differential(rtol=1e-5, atol=1e-6)
    def body(paddle):
        def build():
            x = paddle.static.data("x", [3, 4], "float32")
            y = paddle.static.data("y", [3, 4], "float32")
            return [paddle.lgamma(x), paddle.digamma(x), paddle.polygamma(x, 2), paddle.i0(x), paddle.i1e(x),
                    paddle.erfinv(x), paddle.trace(x), paddle.kron(x, y),
                    paddle.diff(x, axis=0), paddle.stanh(x)]
        return run_static(paddle, build, feed)
    body()


@pytest.mark.parametrize("p", [2.0, 3.0, 1.0])
def test_zero_distances_have_zero_gradients(p):  # (Paddle's p_norm grad is 0 at a zero norm, not NaN)
    @differential(rtol=1e-6, atol=1e-7)
    def body(paddle):
        x = paddle.to_tensor([[1.0, 2.0], [1.0, 2.0], [0.0, -1.0]], "float64", stop_gradient=False)
        z = paddle.to_tensor([[0.0, 0.0], [3.0, 4.0]], "float64", stop_gradient=False)
        v = paddle.zeros([3], "float64")
        v.stop_gradient = False
        grads = paddle.grad([paddle.cdist(x, x, p=p).sum(), paddle.renorm(z, p, 0, 2.5).sum(),
                             paddle.linalg.norm(v, p=p)], [x, z, v])
        return {"grads": grads, "pdist": paddle.grad(paddle.pdist(x, p).sum(), [x])}
    body()
