"""Paddle's further tensor APIs (aliases, elementwise, bitwise, ...) against real Paddle 3.3.1:
values, dtypes, shapes, gradients and exception classes over random inputs (broadcasting, 0-D, empty)."""
import numpy as np
import pytest

from tests.differential import Raised, assert_same, differential, raises, run_both


def _rand(*shape, seed=0, low=-3.0, high=3.0, dtype="float32"):
    return np.random.default_rng(seed).uniform(low, high, shape).astype(dtype)


def _ints(*shape, seed=0, low=-8, high=8, dtype="int64"):
    return np.random.default_rng(seed).integers(low, high, shape).astype(dtype)


def _grads(fn, *arrays):
    """A body computing fn on float tensors and returning the value and the inputs' gradients."""
    def body(paddle):
        xs = [paddle.to_tensor(a, stop_gradient=False) for a in arrays]
        out = fn(paddle, *xs)
        out.sum().backward()
        return {"out": out, "grads": [x.grad for x in xs]}
    return body


def _values(fn, *arrays):
    def body(paddle):
        return fn(paddle, *[paddle.to_tensor(a) for a in arrays])
    return body


SHAPES = [((2, 3), (2, 3)), ((2, 1, 3), (4, 1)), ((), (3,)), ((0, 3), (3,))]

CASES = {}
for i, (xs, ys) in enumerate(SHAPES):
    for api in ("copysign", "fmax", "fmin", "hypot", "logaddexp"):
        CASES[f"{api}-{i}"] = _grads(lambda p, x, y, api=api: getattr(p, api)(x, y), _rand(*xs), _rand(*ys, seed=1))
    CASES[f"heaviside-{i}"] = _values(lambda p, x, y: p.heaviside(x, y), _rand(*xs).round(), _rand(*ys, seed=1))
    CASES[f"lerp-{i}"] = _grads(lambda p, x, y: p.lerp(x, y, 0.3), _rand(*xs), _rand(*ys, seed=1))
    CASES[f"lerp-tensor-weight-{i}"] = _grads(lambda p, x, y, w: p.lerp(x, y, w), _rand(*xs), _rand(*ys, seed=1),
                                              _rand(*ys, seed=2, low=0, high=1))
    for api in ("gt", "ge", "lt", "le", "eq", "ne", "greater", "less"):
        CASES[f"{api}-{i}"] = _values(lambda p, x, y, api=api: getattr(p, api)(x, y), _ints(*xs), _ints(*ys, seed=1))
    for api in ("bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm"):
        CASES[f"{api}-{i}"] = _values(lambda p, x, y, api=api: getattr(p, api)(x, y), _ints(*xs), _ints(*ys, seed=1))
    for api in ("bitwise_left_shift", "bitwise_right_shift"):
        for arith in (True, False):
            CASES[f"{api}-{arith}-{i}"] = _values(
                lambda p, x, y, api=api, arith=arith: getattr(p, api)(x, y, is_arithmetic=arith),
                _ints(*xs, low=-100, high=100), _ints(*ys, seed=1, low=0, high=8))
    CASES[f"operators-{i}"] = _values(lambda p, x, y: [x & y, x | y, x ^ y, ~x], _ints(*xs), _ints(*ys, seed=1))
    CASES[f"sub-alpha-{i}"] = _grads(lambda p, x, y: p.sub(x, y, alpha=2.5), _rand(*xs), _rand(*ys, seed=1))
    for mode in (None, "trunc", "floor"):
        CASES[f"div-{mode}-{i}"] = _values(lambda p, x, y, mode=mode: p.div(x, y, rounding_mode=mode),
                                           _rand(*xs), _rand(*ys, seed=1) + 3.5)
        CASES[f"div-int-{mode}-{i}"] = _values(lambda p, x, y, mode=mode: p.div(x, y, rounding_mode=mode),
                                               _ints(*xs), _ints(*ys, seed=1, low=1, high=5))
for dtype in ("int32", "int64", "float32", "float64"):
    CASES[f"unary-{dtype}"] = _values(lambda p, x: [p.deg2rad(x), p.rad2deg(x), p.frac(x), p.signbit(x),
                                                    p.negative(x), p.positive(x), x.ravel()],
                                      _rand(2, 3, low=-5, high=5).astype(dtype))
CASES["bool-bitwise"] = _values(lambda p, x, y: [p.bitwise_and(x, y), x | y, x ^ y, ~x, p.bitwise_invert(x)],
                                np.array([True, False, True]), np.array([True, True, False]))
for i, shape in enumerate([(2, 3), (), (0,)]):
    CASES[f"unary-grads-{i}"] = _grads(lambda p, x: p.deg2rad(x) + p.rad2deg(x) + p.frac(x) + p.sinc(x)
                                       + p.logit(p.sigmoid(x)) + p.logit(p.sigmoid(x), eps=0.2), _rand(*shape))
CASES["sinc-zero"] = _grads(lambda p, x: p.sinc(x), np.array([0.0, 0.5, -1.0, 2.0], "float64"))
CASES["logit-int"] = _values(lambda p, x: p.logit(x), np.array([0, 1, 2], "int64"))
CASES["nan_to_num"] = _grads(lambda p, x: p.nan_to_num(x) + p.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-2.0),
                             np.array([np.nan, np.inf, -np.inf, 0.5], "float32"))
CASES["nan_to_num-float64"] = _values(lambda p, x: p.nan_to_num(x), np.array([np.nan, np.inf, -np.inf], "float64"))
CASES["add_n"] = _grads(lambda p, x, y, z: p.add_n([x, y, z]), _rand(2, 3), _rand(2, 3, seed=1), _rand(2, 3, seed=2))
CASES["add_n-single"] = _grads(lambda p, x: p.add_n(x), _rand(2, 3))
CASES["add_n-int"] = _values(lambda p, x, y: p.add_n([x, y]), _ints(4), _ints(4, seed=1))
CASES["cat"] = _grads(lambda p, x, y: p.cat([x, y], axis=-1) * 2.0, _rand(2, 3), _rand(2, 1, seed=1))
CASES["concatenate"] = _values(lambda p, x, y: p.concatenate([x, y]), _ints(2, 3), _ints(1, 3, seed=1))
CASES["permute"] = _grads(lambda p, x: p.permute(x, [2, 0, 1]) * 3.0, _rand(2, 3, 4))
CASES["swapaxes"] = _values(lambda p, x: [p.swapaxes(x, [1, 0, 2]), p.swapdims(x, [2, 1, 0])], _rand(2, 3, 4))
CASES["reverse"] = _values(lambda p, x: [p.reverse(x, 0), p.reverse(x, [-1, 0])], _rand(2, 3))
CASES["clamp"] = _grads(lambda p, x: p.clamp(x, -1.0, 1.5), _rand(3, 4))
CASES["true_divide"] = _values(lambda p, x, y: p.true_divide(x, y), _ints(3), _ints(3, seed=1, low=1, high=4))
CASES["mul"] = _grads(lambda p, x, y: p.mul(x, y), _rand(2, 3), _rand(3, seed=1))
CASES["methods"] = _values(lambda p, x, y: [x.gt(y), x.clamp(min=0.0), x.sub(y), x.mul(y), x.true_divide(y),
                                           x.copysign(y), x.fmax(y), x.hypot(y), x.logaddexp(y)],
                           _rand(2, 3), _rand(2, 3, seed=1))
CASES["out"] = _values(lambda p, x, y: [p.gt(x, y, out=p.zeros([2, 3], "bool")), p.cat([x, y], out=p.zeros([4, 3]))],
                       _rand(2, 3), _rand(2, 3, seed=1))
CASES5 = {
    "acosh": lambda: _grads(lambda p, x: p.acosh(x), _rand(2, 3, low=1.2, high=4)),
    "asinh-atanh": lambda: _grads(lambda p, x: p.asinh(x) + p.atanh(x), _rand(2, 3, low=-0.9, high=0.9)),
    "inverse-hyperbolic-int": lambda: _values(lambda p, x: [p.acosh(x), p.asinh(x), p.atanh(x), x.asinh()],
                                              _ints(4, low=-2, high=3)),
    "atan2": lambda: _grads(lambda p, x, y: p.atan2(x, y), _rand(2, 3), _rand(3, seed=1)),
    "atan2-int": lambda: _values(lambda p, x, y: p.atan2(x, y), _ints(4), _ints(4, seed=1)),
    "sgn": lambda: _values(lambda p, x: [p.sgn(x), x.sgn()], np.array([1.5, -2.0, 0.0], "float32")),
    "sgn-complex": lambda: _values(lambda p, z: [p.sgn(z), p.isreal(z)], np.array([3 + 4j, 0j, -2j, 1.5], "complex64")),
    "sgn-int": lambda: _values(lambda p, i: p.sgn(i), _ints(4)),
    "isposinf-isneginf-isreal": lambda: _values(lambda p, x, i: [p.isposinf(x), p.isneginf(x), p.isreal(x),
                                                                 p.isposinf(i), p.isreal(i), x.isneginf()],
                                                np.array([np.inf, -np.inf, np.nan, 1.0], "float32"), _ints(3)),
    "isin": lambda: _values(lambda p, x, t: [p.isin(x, t), p.isin(x, t, invert=True), x.isin(t)],
                            _ints(3, 4, low=0, high=6), _ints(2, 2, seed=1, low=0, high=6)),
}
for _name, _make in CASES5.items():
    CASES[_name] = _make()

# errors: same exception class as Paddle
CASES["sinc-int"] = _values(lambda p, x: p.sinc(x), _ints(3))
CASES["positive-bool"] = _values(lambda p, x: p.positive(x), np.array([True]))
CASES["div-bad-mode"] = _values(lambda p, x, y: p.div(x, y, rounding_mode="round"), _rand(3), _rand(3, seed=1))
# Paddle raises RuntimeError (no kernel for the dtype); ours is the TypeError of every dtype check
DTYPE_ERRORS = {
    "bitwise-float": _values(lambda p, x, y: p.bitwise_and(x, y), _rand(3), _rand(3, seed=1)),
    "operator-float": _values(lambda p, x, y: x & y, _rand(3), _rand(3, seed=1)),
    "shift-bool": _values(lambda p, x, y: p.bitwise_left_shift(x, y), np.array([True]), np.array([True])),
}


@pytest.mark.parametrize("name", sorted(DTYPE_ERRORS))
def test_dtype_errors(name):
    ours, theirs = run_both(DTYPE_ERRORS[name])
    assert_same(ours, raises(TypeError))
    if theirs is not None:
        assert isinstance(theirs, Raised)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_paddle(name):
    pytest.importorskip("paddle")
    ours, theirs = run_both(CASES[name])
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_clip_gradient_passes_at_the_bounds(dtype):
    # Paddle's clip_grad mask is min <= x <= max: values sitting on a bound (clip(x, 0, 1) of a 0 or 1) get gradient
    @differential(expected={"out": [np.nan, -1.0, 0.5, 1.0, 1.0, -1.0], "grad": [0.0, 0.0, 1.0, 1.0, 0.0, 1.0]})
    def body(paddle):
        x = paddle.to_tensor(np.array([np.nan, -np.inf, 0.5, 1.0, 2.0, -1.0], dtype), stop_gradient=False)
        out = paddle.clip(x, -1.0, 1.0)
        out.sum().backward()
        return {"out": out, "grad": x.grad}
    body()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_clip_missing_bound_is_the_dtypes_finite_extreme(dtype):
    # Paddle fills a missing min/max with finfo(dtype).min/max: an infinite value clips to the largest float
    big = float(np.finfo(dtype).max)
    @differential(expected={"min_only": [big, 0.0, 1.0], "max_only": [0.0, -big, 0.0], "neither": [big, -big, 1.0]})
    def body(paddle):
        x = paddle.to_tensor(np.array([np.inf, -np.inf, 1.0], dtype))
        return {"min_only": paddle.clip(x, min=0.0), "max_only": x.clip(max=0.0), "neither": paddle.clip(x)}
    body()
