"""Type promotion: Paddle 3.3's table for tensor-tensor and tensor-scalar operands of binary ops and
operators, eager and static, compared cell by cell with real Paddle 3.3.1 (when installed) and with
recorded expectations for the rules' landmarks."""
import warnings

import numpy as np
import pytest

import paddlelite
from tests.differential import differential, raises, reference_paddle

INTS = ["bool", "uint8", "int8", "int16", "int32", "int64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
SCALARS = {"bool": True, "int": 2, "float": 0.5, "complex": 1 + 1j}

# op -> (how it is applied, the dtypes its kernels take in both libraries)
BINARY = {
    "+": (lambda p, a, b: a + b, INTS + FLOATS + COMPLEX),
    "-": (lambda p, a, b: a - b, INTS[4:] + FLOATS[1:] + COMPLEX),
    "*": (lambda p, a, b: a * b, INTS[4:] + FLOATS[1:] + COMPLEX),
    "/": (lambda p, a, b: a / b, INTS[1:] + FLOATS[1:] + COMPLEX),
    "//": (lambda p, a, b: a // b, INTS[1:] + FLOATS),
    "%": (lambda p, a, b: a % b, INTS[4:] + FLOATS[1:]),
    "**": (lambda p, a, b: a ** b, INTS[4:] + FLOATS[1:] + COMPLEX),
    "==": (lambda p, a, b: a == b, INTS + FLOATS + COMPLEX),
    "<": (lambda p, a, b: a < b, INTS + FLOATS[1:]),
    "add": (lambda p, a, b: p.add(a, b), INTS + FLOATS + COMPLEX),
    "subtract": (lambda p, a, b: p.subtract(a, b), INTS[4:] + FLOATS[1:] + COMPLEX),
    "multiply": (lambda p, a, b: p.multiply(a, b), INTS[4:] + FLOATS[1:] + COMPLEX),
    "divide": (lambda p, a, b: p.divide(a, b), INTS[1:] + FLOATS[1:] + COMPLEX),
    "maximum": (lambda p, a, b: p.maximum(a, b), INTS[4:] + FLOATS[1:]),
    "minimum": (lambda p, a, b: p.minimum(a, b), INTS[4:] + FLOATS[1:]),
    "floor_divide": (lambda p, a, b: p.floor_divide(a, b), INTS[1:] + FLOATS),
    "remainder": (lambda p, a, b: p.remainder(a, b), INTS[4:] + FLOATS[1:]),
    "pow": (lambda p, a, b: p.pow(a, b), INTS[4:] + FLOATS[1:] + COMPLEX),
    "equal": (lambda p, a, b: p.equal(a, b), INTS + FLOATS + COMPLEX),
    "less_than": (lambda p, a, b: p.less_than(a, b), INTS + FLOATS[1:]),
    "where": (lambda p, a, b: p.where(p.ones([1], dtype="bool"), a, b), INTS[4:] + FLOATS[1:] + COMPLEX),
}
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "==", "<"]
NO_COMPLEX = {"//", "%"}  # no complex kernels for these (Paddle has one for %)


def _dtype_name(dtype):
    return str(dtype).replace("paddle.", "")


def _table(paddle, op, scalars, shapes=([1], [1])):
    apply, dtypes = BINARY[op]
    t = lambda d, k=0: paddle.ones(shapes[k], dtype=d)
    cells = {}
    for a in dtypes:
        if scalars:
            for kind, s in SCALARS.items():
                if kind == "complex" and op in NO_COMPLEX:
                    continue
                cells[f"{a} {op} {kind}"] = _cell(lambda a=a, s=s: apply(paddle, t(a), s))
                cells[f"{kind} {op} {a}"] = _cell(lambda a=a, s=s: apply(paddle, s, t(a)))
        else:
            for b in dtypes:
                cells[f"{a} {op} {b}"] = _cell(lambda a=a, b=b: apply(paddle, t(a), t(b, 1)))
    return cells


def _cell(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return _dtype_name(fn().dtype)
        except Exception as error:
            return type(error).__name__


def _compare(ours, theirs):
    """Cells where Paddle has no CPU kernel for the dtype (RuntimeError) say nothing about promotion."""
    differ = {k: (ours[k], v) for k, v in theirs.items()
              if not v.startswith(("RuntimeError", "NotImplementedError")) and ours[k] != v}
    assert not differ, f"{len(differ)} cells differ from Paddle (ours, Paddle): {differ}"


@pytest.mark.parametrize("op", sorted(BINARY))
def test_tensor_tensor_promotion_matches_paddle(op):
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    _compare(_table(paddlelite, op, False), _table(ref, op, False))


@pytest.mark.parametrize("op", OPERATORS)
def test_tensor_scalar_promotion_of_operators_matches_paddle(op):
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    _compare(_table(paddlelite, op, True), _table(ref, op, True))


# a 0-D tensor acts as a scalar in the arithmetic and comparison ops (not in maximum, where, ...)
ZERO_D_SHAPES = {"0-D with [2]": ([], [2]), "[2] with 0-D": ([2], []), "0-D with 0-D": ([], [])}


@pytest.mark.parametrize("shapes", sorted(ZERO_D_SHAPES))
@pytest.mark.parametrize("op", ["+", "/", "//", "%", "**", "==", "add", "divide", "pow", "maximum", "where"])
def test_zero_d_tensor_promotion_matches_paddle(op, shapes):
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    _compare(_table(paddlelite, op, False, ZERO_D_SHAPES[shapes]), _table(ref, op, False, ZERO_D_SHAPES[shapes]))


def _static_table(paddle, op, shapes=([2], [2])):
    apply, dtypes = BINARY[op]
    cells = {}
    paddle.enable_static()
    try:
        for a in dtypes:
            for b in dtypes:
                main, startup = paddle.static.Program(), paddle.static.Program()

                def run(main=main, startup=startup, a=a, b=b):
                    with paddle.static.program_guard(main, startup):
                        x, y = paddle.static.data("x", shapes[0], a), paddle.static.data("y", shapes[1], b)
                        out = apply(paddle, x, y)
                    exe = paddle.static.Executor(paddle.CPUPlace())
                    feed = {"x": np.ones(shapes[0], a), "y": np.ones(shapes[1], b)}
                    (r,) = exe.run(main, feed=feed, fetch_list=[out])
                    return np.asarray(r)
                cells[f"{a} {op} {b}"] = _cell(run)
    finally:
        paddle.disable_static()
    return cells


@pytest.mark.parametrize("op", ["+", "add", "*", "/", "==", "-"])
def test_static_promotion_matches_paddle(op):
    """Static programs compute in the promoted dtype (Paddle inserts the same casts; its static `where`
    does not promote, nor does ours)."""
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    _compare(_static_table(paddlelite, op), _static_table(ref, op))


@pytest.mark.parametrize("op", ["+", "add", "/", "=="])
def test_static_zero_d_promotion_matches_paddle(op):
    """Paddle's static operators treat a 0-D operand as a scalar, its static functional APIs do not."""
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    _compare(_static_table(paddlelite, op, ([], [2])), _static_table(ref, op, ([], [2])))


# ---- the landmarks, recorded (checked without Paddle too) ------------------------------------------
@differential(expected={"dtype": "float64", "values": [2.0, 3.0]})
def test_float32_plus_float64_is_float64(paddle):
    x = paddle.to_tensor([1.0, 2.0], dtype="float32")
    y = paddle.to_tensor([1.0, 1.0], dtype="float64")
    out = x + y
    return {"dtype": out.dtype, "values": out}


def test_promotion_warns_with_paddles_text():
    x = paddlelite.to_tensor([1.0], dtype="float32")
    with pytest.warns(UserWarning, match="Got different data type, run type promotion automatically, this may "
                                         "cause data type been changed"):
        paddlelite.add(x, paddlelite.to_tensor([1.0], dtype="float64"))


@differential(expected={"dtype": "float32", "values": [0.5, 1.0, 1.5]})
def test_int64_tensor_times_a_float_is_float32(paddle):
    out = paddle.to_tensor([1, 2, 3]) * 0.5
    return {"dtype": out.dtype, "values": out}


@differential(expected={"dtype": "float32", "values": [1.0, 1.5, 1.5]})
def test_clip_of_an_int_tensor_to_float_bounds_is_float(paddle):
    out = paddle.clip(paddle.to_tensor([1, 2, 3], dtype="int32"), 0.5, 1.5)
    return {"dtype": out.dtype, "values": out}


@differential(expected=raises(TypeError))
def test_int_and_float_tensors_do_not_mix(paddle):
    paddle.to_tensor([1, 2]) + paddle.to_tensor([1.0, 2.0])


@differential(expected={"int_0d_plus_float": "float32", "float64_0d_plus_float32": "float32",
                        "float64_0d_plus_int32": "float64", "int64_0d_plus_int32": "int32",
                        "both_0d": "float64", "int_0d_divides": "float32", "maximum": "float64"})
def test_a_zero_d_tensor_acts_as_a_scalar(paddle):
    zero_d, vector = paddle.to_tensor, lambda dtype: paddle.ones([2], dtype=dtype)
    return {"int_0d_plus_float": (zero_d(1) + vector("float32")).dtype,
            "float64_0d_plus_float32": (vector("float32") * zero_d(1.0, dtype="float64")).dtype,
            "float64_0d_plus_int32": paddle.add(zero_d(1.0, dtype="float64"), vector("int32")).dtype,
            "int64_0d_plus_int32": (vector("int32") - zero_d(3)).dtype,
            "both_0d": (zero_d(1.0, dtype="float64") + zero_d(1.0, dtype="float32")).dtype,
            "int_0d_divides": (vector("int32") / zero_d(2)).dtype,
            "maximum": paddle.maximum(zero_d(1.0, dtype="float64"), vector("float32")).dtype}  # not an arithmetic op


@differential(expected=raises(TypeError))
def test_different_int_tensors_do_not_mix(paddle):
    paddle.to_tensor([1, 2], dtype="int32") * paddle.to_tensor([1, 2], dtype="int64")


@differential(expected={"dtype": "complex64", "bool_int": "int64", "int_div": "float32"})
def test_scalar_kinds(paddle):
    x = paddle.to_tensor([1.0], dtype="float32")
    return {"dtype": (x + 1j).dtype, "bool_int": (paddle.to_tensor([True]) + 2).dtype,
            "int_div": (paddle.to_tensor([3], dtype="int32") / 2).dtype}


@differential(expected={"grad_x": [1.0, 1.0], "grad_y": [1.0, 1.0], "grad_dtypes": ["float32", "float64"]})
def test_gradients_flow_back_through_the_promotion_casts(paddle):
    x = paddle.to_tensor([1.0, 2.0], dtype="float32", stop_gradient=False)
    y = paddle.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
    (x + y).sum().backward()
    return {"grad_x": x.grad, "grad_y": y.grad, "grad_dtypes": [x.grad.dtype, y.grad.dtype]}
