"""Property-based fuzzing (Hypothesis) of the public creation, elementwise, reduction and manipulation
APIs with random shapes, dtypes and axes. Every call either matches NumPy (shape and values; Paddle's
documented differences from NumPy are spelled out in the oracles) or raises ValueError / TypeError /
IndexError naming the API -- never another exception type, never a silently wrong shape.
Derandomized and bounded, so it runs in seconds and the same way every time."""
import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis", reason="the fuzz tests need Hypothesis (pip install -e '.[test]')")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import paddlelite as paddle  # noqa: E402

FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
USER_ERRORS = (ValueError, TypeError, IndexError)
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
UNSUPPORTED = ["uint32", "uint64"]  # no Paddle dtype has these names: TypeError naming the API
UNSUPPORTED_ARRAYS = ["uint32"]  # (a uint16 array is read as bfloat16 bits, as Paddle reads it)

dims = st.integers(0, 3)
shapes = st.lists(dims, min_size=0, max_size=4)
axes = st.integers(-5, 5)


def _array(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith("int"):
        return rng.integers(-5, 6, size=shape).astype(dtype)
    return rng.normal(size=shape).astype(dtype)


arrays = st.builds(_array, shapes, st.sampled_from(DTYPES), st.integers(0, 2**16))
float_arrays = st.builds(_array, shapes, st.sampled_from(["float32", "float64"]), st.integers(0, 2**16))


def check(api, names, ours, oracle, rtol=1e-5):
    """Run `ours()` and `oracle()` (NumPy, with Paddle's semantics where they differ); see the module doc."""
    try:
        expected = oracle()
    except (ValueError, TypeError, IndexError, ZeroDivisionError):
        expected = None
    try:
        got = ours()
    except USER_ERRORS as e:
        assert any(n in str(e) for n in names), f"{api}: the error does not name the API: {e!r}"
        return
    except Exception as e:  # noqa: BLE001 -- the property: no other exception type escapes
        pytest.fail(f"{api}: raised {type(e).__name__} (expected a result or ValueError/TypeError/IndexError): {e}")
    assert expected is not None, f"{api}: returned a result of shape {list(got.shape)} where NumPy raises"
    got = got.numpy()
    expected = np.asarray(expected)
    assert list(got.shape) == list(expected.shape), f"{api}: shape {list(got.shape)}, NumPy {list(expected.shape)}"
    if expected.dtype.kind in "fc" or got.dtype.kind in "fc":
        np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=rtol, atol=1e-6,
                                   err_msg=api)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=api)


def _axes_of(axis, ndim):
    """Normalized axes, as Paddle checks them: each in [-ndim, ndim) (a 0-D tensor also takes 0 and -1)."""
    listed = axis if isinstance(axis, list) else [axis]
    bound = max(ndim, 1)
    if any(not -bound <= a < bound for a in listed):
        raise IndexError("axis out of range")
    out = [a % bound for a in listed]
    if len(set(out)) != len(out):
        raise ValueError("repeated axis")
    return out


# ---- creation ---------------------------------------------------------------------------------------
@FUZZ
@given(st.lists(st.integers(-2, 3), max_size=4), st.sampled_from(DTYPES + UNSUPPORTED), st.integers(-3, 3))
def test_full_zeros_ones(shape, dtype, value):
    def oracle(fill):
        if any(d < 0 for d in shape) or dtype in UNSUPPORTED:
            raise ValueError("negative dim or unsupported dtype")
        with np.errstate(over="ignore"):  # Paddle casts an out-of-range fill like C: -1 -> 255 for uint8
            return np.asarray(fill).astype(dtype) * np.ones(shape, dtype=dtype)
    check("full", ["full"], lambda: paddle.full(shape, value, dtype=dtype), lambda: oracle(value))
    check("zeros", ["zeros", "full"], lambda: paddle.zeros(shape, dtype=dtype), lambda: oracle(0))
    check("ones", ["ones", "full"], lambda: paddle.ones(shape, dtype=dtype), lambda: oracle(1))


@FUZZ
@given(st.integers(-4, 4), st.integers(-4, 8), st.integers(-3, 3), st.sampled_from(["int64", "float32", "float64"]))
def test_arange(start, end, step, dtype):
    def oracle():
        if step == 0:
            raise ValueError("step 0")
        return np.arange(start, end, step, dtype=dtype)
    check("arange", ["arange", "range"], lambda: paddle.arange(start, end, step, dtype=dtype), oracle)


@FUZZ
@given(st.integers(-1, 4), st.one_of(st.none(), st.integers(-1, 4)), st.sampled_from(DTYPES + UNSUPPORTED))
def test_eye(rows, cols, dtype):
    def oracle():
        if rows < 0 or (cols is not None and cols < 0) or dtype in UNSUPPORTED:
            raise ValueError("negative size")
        return np.eye(rows, cols, dtype=dtype)
    check("eye", ["eye"], lambda: paddle.eye(rows, cols, dtype=dtype), oracle)


@FUZZ
@given(st.one_of(arrays, st.builds(_array, shapes, st.sampled_from(UNSUPPORTED_ARRAYS + ["uint16"]), st.just(0))),
       st.sampled_from(DTYPES + UNSUPPORTED + [None]))
def test_to_tensor_and_zeros_like(a, dtype):
    def oracle():
        if a.dtype.name in UNSUPPORTED_ARRAYS and dtype is None or dtype in UNSUPPORTED:
            raise TypeError("unsupported dtype")
        with np.errstate(over="ignore", invalid="ignore"):
            return a.astype(dtype) if dtype else a
    check("to_tensor", ["to_tensor"], lambda: paddle.to_tensor(a, dtype=dtype), oracle)
    if a.dtype.name in UNSUPPORTED:
        return
    check("zeros_like", ["zeros_like", "full_like"], lambda: paddle.zeros_like(paddle.to_tensor(a), dtype=dtype),
          lambda: np.zeros_like(a, dtype=dtype))


# ---- elementwise ------------------------------------------------------------------------------------
BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum,
          "minimum": np.minimum, "equal": np.equal, "less_than": np.less, "greater_equal": np.greater_equal}


@FUZZ
@given(st.sampled_from(sorted(BINARY)), shapes, shapes, st.sampled_from(DTYPES), st.integers(0, 99))
def test_binary_elementwise_broadcasting(name, xshape, yshape, dtype, seed):
    a, b = _array(xshape, dtype, seed), _array(yshape, dtype, seed + 1)

    check(name, [name, "elementwise"], lambda: getattr(paddle, name)(paddle.to_tensor(a), paddle.to_tensor(b)),
          lambda: BINARY[name](a, b))


UNARY = {"abs": np.abs, "exp": np.exp, "tanh": np.tanh, "sqrt": np.sqrt, "floor": np.floor, "sign": np.sign,
         "square": np.square}


@FUZZ
@given(st.sampled_from(sorted(UNARY)), float_arrays)
def test_unary_elementwise(name, a):
    with np.errstate(all="ignore"):
        check(name, [name], lambda: getattr(paddle, name)(paddle.to_tensor(a)), lambda: UNARY[name](a))


# ---- reductions ---------------------------------------------------------------------------------------
REDUCTIONS = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min, "prod": np.prod}


@FUZZ
@given(st.sampled_from(sorted(REDUCTIONS)), float_arrays,
       st.one_of(st.none(), axes, st.lists(axes, min_size=1, max_size=3)), st.booleans())
def test_reductions(name, a, axis, keepdim):
    def oracle():
        if axis is None:
            return REDUCTIONS[name](a, keepdims=keepdim)
        picked = _axes_of(axis, a.ndim)
        if a.ndim == 0:  # Paddle: axis 0 / -1 of a 0-D tensor reduces nothing
            return a.copy()
        return REDUCTIONS[name](a, axis=tuple(picked), keepdims=keepdim)
    with np.errstate(all="ignore"):
        check(name, [name], lambda: getattr(paddle, name)(paddle.to_tensor(a), axis=axis, keepdim=keepdim), oracle)


# ---- manipulation ---------------------------------------------------------------------------------------
@FUZZ
@given(arrays, st.lists(st.integers(-1, 6), max_size=4))
def test_reshape(a, shape):
    def oracle():  # Paddle: 0 copies the input's dim at that index; a zero-size input keeps literal zeros
        if shape.count(-1) > 1 or (a.size and any(d == 0 and i >= a.ndim for i, d in enumerate(shape))):
            raise ValueError("more than one -1, or 0 past the input's dims")
        return a.reshape([a.shape[i] if d == 0 and a.size else d for i, d in enumerate(shape)])
    check("reshape", ["reshape"], lambda: paddle.reshape(paddle.to_tensor(a), shape), oracle)


@FUZZ
@given(arrays, st.lists(st.integers(-4, 4), max_size=4))
def test_transpose(a, perm):
    def oracle():
        if sorted(p % max(a.ndim, 1) for p in perm) != list(range(a.ndim)) or any(
                not -a.ndim <= p < a.ndim for p in perm):
            raise ValueError("not a permutation")
        return np.transpose(a, perm)
    check("transpose", ["transpose"], lambda: paddle.transpose(paddle.to_tensor(a), perm), oracle)


@FUZZ
@given(arrays, st.one_of(axes, st.lists(axes, max_size=3)))
def test_unsqueeze(a, axis):
    def oracle():
        out = a
        for ax in axis if isinstance(axis, list) else [axis]:
            out = np.expand_dims(out, ax)
        return out
    check("unsqueeze", ["unsqueeze"], lambda: paddle.unsqueeze(paddle.to_tensor(a), axis), oracle)


@FUZZ
@given(arrays, st.one_of(st.none(), axes, st.lists(axes, max_size=3)))
def test_squeeze(a, axis):
    def oracle():  # Paddle: of the given axes, only those of size 1 are removed (NumPy raises for others)
        if axis is None or axis == []:
            return np.squeeze(a)
        listed = axis if isinstance(axis, list) else [axis]
        bound = max(a.ndim, 1)
        if any(not -bound <= x < bound for x in listed):
            raise IndexError("axis out of range")
        ones = {x % bound for x in listed if a.ndim and a.shape[x % bound] == 1}
        return np.squeeze(a, axis=tuple(sorted(ones))) if ones else a
    check("squeeze", ["squeeze"], lambda: paddle.squeeze(paddle.to_tensor(a), axis), oracle)


@FUZZ
@given(arrays, st.integers(-5, 5), st.integers(-5, 5))
def test_flatten(a, start, stop):
    def oracle():
        nd = max(a.ndim, 1)
        if not (-nd <= start < nd and -nd <= stop < nd):
            raise ValueError("axis out of range")
        s, e = start % nd, stop % nd
        if s > e:
            raise ValueError("start_axis after stop_axis")
        if a.ndim == 0:
            return a.reshape([1])
        return a.reshape(a.shape[:s] + (-1,) + a.shape[e + 1:]) if a.size else \
            a.reshape(a.shape[:s] + (int(np.prod(a.shape[s:e + 1])),) + a.shape[e + 1:])
    check("flatten", ["flatten"], lambda: paddle.flatten(paddle.to_tensor(a), start, stop), oracle)


@FUZZ
@given(shapes, shapes, st.sampled_from(DTYPES), axes, st.integers(0, 99))
def test_concat_and_stack(xshape, yshape, dtype, axis, seed):
    a, b = _array(xshape, dtype, seed), _array(yshape, dtype, seed + 1)

    def concat_oracle():
        if a.ndim == 0 or a.ndim != b.ndim:
            raise ValueError("rank")
        return np.concatenate([a, b], axis=axis)
    check("concat", ["concat"], lambda: paddle.concat([paddle.to_tensor(a), paddle.to_tensor(b)], axis),
          concat_oracle)
    check("stack", ["stack"], lambda: paddle.stack([paddle.to_tensor(a), paddle.to_tensor(b)], axis),
          lambda: np.stack([a, b], axis=axis))


@FUZZ
@given(arrays, st.one_of(axes, st.lists(axes, min_size=1, max_size=3)))
def test_flip(a, axis):
    def oracle():
        picked = _axes_of(axis, a.ndim)
        return a.copy() if a.ndim == 0 else np.flip(a, axis=tuple(picked))
    check("flip", ["flip"], lambda: paddle.flip(paddle.to_tensor(a), axis), oracle)


@FUZZ
@given(arrays, st.lists(st.integers(-1, 3), min_size=0, max_size=4))
def test_tile(a, reps):
    def oracle():
        if any(r < 0 for r in reps):
            raise ValueError("repeat_times must not be negative")
        return np.tile(a, reps)
    check("tile", ["tile"], lambda: paddle.tile(paddle.to_tensor(a), reps), oracle)


# ---- arguments of the wrong kind ----------------------------------------------------------------------
GARBAGE = st.one_of(st.floats(allow_nan=True).filter(lambda f: f != int(f) if f == f and abs(f) < 1e18 else True),
                    st.text(max_size=2), st.lists(st.floats(0.5, 1.5), min_size=1, max_size=2),
                    st.dictionaries(st.text(max_size=1), st.integers(), max_size=1), st.just(object()))
AXIS_APIS = {
    "sum": lambda x, g: paddle.sum(x, axis=g), "mean": lambda x, g: paddle.mean(x, axis=g),
    "max": lambda x, g: paddle.max(x, axis=g), "reshape": lambda x, g: paddle.reshape(x, g),
    "transpose": lambda x, g: paddle.transpose(x, g), "unsqueeze": lambda x, g: paddle.unsqueeze(x, g),
    "squeeze": lambda x, g: paddle.squeeze(x, g), "flatten": lambda x, g: paddle.flatten(x, g),
    "concat": lambda x, g: paddle.concat([x, x], g), "flip": lambda x, g: paddle.flip(x, g),
    "tile": lambda x, g: paddle.tile(x, g), "zeros": lambda x, g: paddle.zeros(g),
    "full": lambda x, g: paddle.full([2], g, dtype="float32"), "cast": lambda x, g: paddle.cast(x, g),
}


@FUZZ
@given(st.sampled_from(sorted(AXIS_APIS)), float_arrays, GARBAGE)
def test_arguments_of_the_wrong_kind_are_user_errors(name, a, garbage):
    if name == "full" and isinstance(garbage, (float, str)):
        return  # a float fill value is fine, so is a numeric string (Paddle's rule, see test_bad_input)
    check(name, [name, "dtype", "fill_constant"], lambda: AXIS_APIS[name](paddle.to_tensor(a), garbage),
          lambda: (_ for _ in ()).throw(TypeError("wrong kind")))
