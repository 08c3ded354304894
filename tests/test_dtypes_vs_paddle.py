"""Low-precision and small integer dtypes against real Paddle 3.3.1: creation, casts both ways, math that
Paddle's CPU kernels run for them, float32 accumulation, promotion, printing, gradients; NumPy scalars'
dtypes in to_tensor. (bfloat16 values are compared through float32: Paddle's numpy() gives raw uint16.)"""
import numpy as np

from tests.differential import differential

VALUES = [1.1, 2.2, -3.3, 1e-3, 3e5, 0.0]


def _f32(x):
    return {"dtype": x.dtype, "value": x.astype("float32"), "text": str(x)}


@differential(rtol=0, atol=0)
def test_creation_and_casts(paddle):
    return {dtype: _creation_and_casts(paddle, dtype) for dtype in ("bfloat16", "float16")}


def _creation_and_casts(paddle, dtype):
    x = paddle.to_tensor(VALUES, dtype=dtype)
    return {"x": _f32(x), "zeros": _f32(paddle.zeros([2, 3], dtype=dtype)), "ones": _f32(paddle.ones([2], dtype=dtype)),
            "full": _f32(paddle.full([2], 1.7, dtype=dtype)),
            "from_f64": _f32(paddle.to_tensor(VALUES, dtype="float64").astype(dtype)),
            "from_int": _f32(paddle.to_tensor([1, -2, 300], dtype="int32").astype(dtype)),
            "to_int": x.astype("int32"), "to_f64": x.astype("float64"),
            "e4m3": _f32(x.astype("float8_e4m3fn")), "e5m2": _f32(x.astype("float8_e5m2")),
            "float8_back": x.astype("float8_e4m3fn").astype("float32"),
            "matrix": str(paddle.to_tensor([[1.5, 2.25], [-3.0, 100.0]], dtype=dtype))}


@differential(rtol=0, atol=0)
def test_math_accumulates_in_float32(paddle):
    return {dtype: _math(paddle, dtype) for dtype in ("bfloat16", "float16")}


def _math(paddle, dtype):
    x = paddle.to_tensor(VALUES[:3], dtype=dtype)
    y = paddle.to_tensor([0.5, 1.5, 2.5], dtype=dtype)
    # Paddle's CPU multiplies bfloat16 but not float16 (its GPU does both; so do we)
    products = {"mul": _f32(x * y), "scalar": _f32(x * 2.5 - 1.5)} if dtype == "bfloat16" else {}
    return {**products, "sum": _f32(paddle.ones([3000], dtype=dtype).sum()),
            "sum_axis": _f32(paddle.ones([4, 700], dtype=dtype).sum(axis=-1, keepdim=True)),
            "promote_f32": _f32(x + paddle.to_tensor([1.0, 2.0, 3.0])),
            "promote_other": _f32(x + paddle.to_tensor([1.0, 2.0, 3.0], dtype="float16" if dtype == "bfloat16"
                                                       else "bfloat16"))}


@differential(rtol=0, atol=0)
def test_bfloat16_gradients(paddle):
    a = paddle.to_tensor([1.1, 2.2, -3.3], dtype="bfloat16", stop_gradient=False)
    b = paddle.to_tensor([0.5, 1.5, 2.5], dtype="bfloat16", stop_gradient=False)
    ga, gb = paddle.grad((a * b).sum(), [a, b])
    return {"ga": _f32(ga), "gb": _f32(gb)}


@differential()
def test_small_integers(paddle):
    return {dtype: _small_integers(paddle, dtype) for dtype in ("uint8", "int8", "int16")}


def _small_integers(paddle, dtype):
    # only the kernels Paddle's CPU registers for all three (it lacks their multiply/maximum, and subtract
    # for uint8/int8; paddlelite computes those too)
    x = paddle.to_tensor([100, 20, 3], dtype=dtype)
    y = paddle.to_tensor([100, 7, 3], dtype=dtype)
    return {"x": x, "add": x + y, "sum": x.sum(), "scalar_float": x * 2.5, "scalar_int": x + 1,
            "zeros": paddle.zeros([2], dtype=dtype), "full": paddle.full([2], 7, dtype=dtype),
            "cast": x.astype("float32").astype(dtype), "to_f": x.astype("float32"), "text": str(x + y),
            "compare": x > y}


@differential()
def test_numpy_scalars_keep_their_dtype(paddle):
    values = [np.float64(0.5), np.float32(0.5), np.float16(0.5), np.int8(3), np.uint8(3), np.int16(3), np.int32(3),
              np.int64(3), np.bool_(True), np.complex64(1j), np.complex128(1j), 0.5, 3, True, 1j]
    return [paddle.to_tensor(v).dtype for v in values]


def test_low_precision_dtypes_exist():
    import paddlelite as paddle
    assert str(paddle.bfloat16) == "paddle.bfloat16" and paddle.bfloat16.is_floating_point
    assert paddle.float8_e4m3fn.itemsize == paddle.float8_e5m2.itemsize == 1
    x = paddle.to_tensor([1.0, 2.0], dtype="bfloat16")
    assert x.dtype == paddle.bfloat16 == "bfloat16"
    # beyond Paddle's CPU kernels (its GPU has them): matmul rounds a float32 product once, mean in float32
    m = paddle.matmul(paddle.ones([2, 300], dtype="bfloat16"), paddle.ones([300, 2], dtype="bfloat16"))
    assert m.dtype == paddle.bfloat16 and m.astype("float32").tolist() == [[300.0, 300.0], [300.0, 300.0]]
    assert paddle.ones([3000], dtype="bfloat16").mean().astype("float32").item() == 1.0


@differential()
def test_casting_methods_and_predicates(paddle):
    x = paddle.to_tensor([1.5, -2.0])
    names = ["bool", "byte", "char", "short", "int", "long", "half", "float", "double", "cfloat", "cdouble", "uint8",
             "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
    casts = {n: getattr(x, n)().dtype for n in names}
    preds = {d: (paddle.is_floating_point(x.astype(d)), paddle.is_integer(x.astype(d)), x.astype(d).is_floating_point(),
                 x.astype(d).is_integer()) for d in ("bool", "uint8", "int64", "bfloat16", "float64", "complex64")}
    z = paddle.to_tensor([[1.0, 2.0], [3.0, -4.0]])
    return {"casts": casts, "preds": preds, "view_as_complex": paddle.view_as_complex(z),
            "view_as_real": paddle.view_as_real(paddle.view_as_complex(z)), "method": z.view_as_complex(),
            "half_values": x.half().astype("float32")}


@differential(expected={"numpy": np.array([16320, 16384, 49216], np.uint16), "array_dtype": "uint16",
                        "tolist": [16320, 16384, 49216], "item": 1.5, "float": 2.0,
                        "from_bits_dtype": "paddle.bfloat16", "from_bits": [1.5, 2.0, -3.0],
                        "round_trip": [1.5, 2.0, -3.0], "bits_as_values": [16320.0]}, rtol=0, atol=0)
def test_bfloat16_leaves_numpy_as_raw_uint16_bits(paddle):
    """Paddle hands bfloat16 to NumPy as its raw bits (uint16), and reads a uint16 array back as bfloat16
    (without a dtype; with one, uint16 values are converted as numbers)."""
    x = paddle.to_tensor([1.5, 2.0, -3.0], dtype="bfloat16")
    bits = np.array([16320, 16384, 49216], np.uint16)
    return {"numpy": x.numpy(), "array_dtype": str(np.asarray(x).dtype), "tolist": x.tolist(),
            "item": x[0].item(), "float": float(x[1]),
            "from_bits_dtype": str(paddle.to_tensor(bits).dtype),
            "from_bits": paddle.to_tensor(bits).astype("float32").tolist(),
            "round_trip": paddle.to_tensor(x.numpy()).astype("float32").tolist(),
            "bits_as_values": paddle.to_tensor(bits[:1], dtype="float32").tolist()}


@differential(expected={"string": "paddle.bfloat16", "numpy": "paddle.bfloat16", "cast": "paddle.bfloat16",
                        "values": [1.0, 2.0]}, rtol=0, atol=0)
def test_uint16_as_a_dtype_is_bfloat16(paddle):
    """The legacy IR keeps bfloat16 as uint16: the name 'uint16' and NumPy's uint16 make bfloat16 tensors."""
    x = paddle.to_tensor([1, 2], dtype="uint16")
    return {"string": str(x.dtype), "numpy": str(paddle.to_tensor([1, 2], dtype=np.uint16).dtype),
            "cast": str(paddle.to_tensor([1.0]).astype("uint16").dtype), "values": x.astype("float32").tolist()}
