"""The exception classes Paddle raises for arguments of the wrong kind (issue 28, "exception classes that differ" and
"APIs Paddle lets take lists/NumPy/numbers"): the class is what Paddle code and Paddle's own tests catch.

In dygraph a non-Tensor reaches Paddle's C++ op binding, which rejects it with ValueError; building a static program,
Paddle's Python checks raise TypeError -- as do, in both modes, the APIs that test the class in Python first
(is_complex, signbit, median, the fft transforms, ...). Some APIs check other arguments first, or read `.dtype` before
any check (AttributeError for None)."""
import numpy as np

from tests.differential import differential, error_class


@differential(expected={"relu": "ValueError", "add": "ValueError", "sqrt": "ValueError", "amax": "ValueError",
                        "searchsorted": "ValueError", "conv2d": "ValueError", "square_error_cost": "ValueError"})
def test_a_non_tensor_is_a_value_error_in_dygraph(paddle):
    x = np.ones((1, 1, 3, 3), "float32")
    t = paddle.ones([3])
    return {"relu": error_class(lambda: paddle.nn.functional.relu(x)),
            "add": error_class(lambda: paddle.add(x, paddle.ones([3]))),
            "sqrt": error_class(lambda: paddle.sqrt([1.0])),
            "amax": error_class(lambda: paddle.amax(x)),
            "searchsorted": error_class(lambda: paddle.searchsorted(t, x)),
            "conv2d": error_class(lambda: paddle.nn.functional.conv2d(x, paddle.ones([1, 1, 1, 1]))),
            "square_error_cost": error_class(lambda: paddle.nn.functional.square_error_cost(t, np.ones(3)))}


@differential(expected={"is_complex": "TypeError", "signbit": "TypeError", "median": "TypeError", "fft": "TypeError",
                        "take": "TypeError", "hypot": "TypeError", "cumprod": "ValueError", "trapezoid": "TypeError"})
def test_apis_that_check_the_class_in_python_raise_type_error_in_dygraph(paddle):
    x = np.ones((2, 3), "float32")
    t = paddle.ones([2, 3])
    return {"is_complex": error_class(lambda: paddle.is_complex(x)),
            "signbit": error_class(lambda: paddle.signbit(x)),
            "median": error_class(lambda: paddle.median(x)),
            "fft": error_class(lambda: paddle.fft.fft(x)),
            "take": error_class(lambda: paddle.take(t, np.array([0, 1]))),
            "hypot": error_class(lambda: paddle.hypot(t, 2.0)),
            "cumprod": error_class(lambda: paddle.cumprod(x, 0)),  # (no Python check: the op's binding)
            "trapezoid": error_class(lambda: paddle.trapezoid(x))}


@differential(expected={"relu": "TypeError", "sqrt": "TypeError", "inner_int8": "TypeError"})
def test_a_non_tensor_or_a_refused_dtype_is_a_type_error_in_a_static_program(paddle):
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        i8 = paddle.static.data("i8", [4], "int8")
        return {"relu": error_class(lambda: paddle.nn.functional.relu(np.ones(3, "float32"))),
                "sqrt": error_class(lambda: paddle.sqrt(np.ones(3, "float32"))),
                "inner_int8": error_class(lambda: paddle.inner(i8, i8))}


@differential(expected={"inner_int32": [14]})
def test_inner_takes_integers_in_dygraph(paddle):
    x = paddle.to_tensor([1, 2, 3], dtype="int32")
    return {"inner_int32": paddle.inner(x, x).reshape([1])}


@differential(expected={"combinations_2d": "TypeError", "combinations_r": "ValueError",
                        "bucketize_x": "ValueError", "bucketize_none_x": "ValueError",
                        "bucketize_none_sequence": "AttributeError", "polar_none_abs": "AttributeError",
                        "polar_none_angle": "AttributeError", "layer_norm_float_shape": "ValueError",
                        "layer_norm_ndarray_float_shape": "ValueError", "svd_lowrank_niter": "ValueError",
                        "pca_lowrank_niter": "ValueError", "pca_lowrank_ndarray": "ValueError"})
def test_which_check_an_api_makes_first(paddle):
    seq = paddle.to_tensor([1.0, 3.0, 5.0])
    x = paddle.to_tensor(np.arange(25, dtype="float64").reshape(5, 5))
    ones = paddle.ones([2])
    return {
        "combinations_2d": error_class(lambda: paddle.combinations(np.ones((3, 3)), 2)),
        "combinations_r": error_class(lambda: paddle.combinations(np.ones(3), -1)),
        "bucketize_x": error_class(lambda: paddle.bucketize(np.ones(3, "float32"), seq)),
        "bucketize_none_x": error_class(lambda: paddle.bucketize(None, seq)),
        "bucketize_none_sequence": error_class(lambda: paddle.bucketize(seq, None)),
        "polar_none_abs": error_class(lambda: paddle.polar(None, ones)),
        "polar_none_angle": error_class(lambda: paddle.polar(ones, None)),
        "layer_norm_float_shape": error_class(lambda: paddle.nn.functional.layer_norm(x, 1.0)),
        "layer_norm_ndarray_float_shape": error_class(lambda: paddle.nn.functional.layer_norm(x.numpy(), 1.0)),
        "svd_lowrank_niter": error_class(lambda: paddle.linalg.svd_lowrank(x, niter=-1)),
        "pca_lowrank_niter": error_class(lambda: paddle.linalg.pca_lowrank(x, niter=-1)),
        "pca_lowrank_ndarray": error_class(lambda: paddle.linalg.pca_lowrank(x.numpy())),
    }


def _message_has(call, words):
    try:
        call()
    except Exception as error:  # the message is the result compared
        return words in str(error)
    return None


@differential(expected={"theta": "TypeError", "out_shape": "TypeError", "group_norm_1d": "ValueError",
                        "group_norm_empty": "ValueError", "zeros_negative": True})
def test_checks_made_before_the_rest(paddle):
    theta = paddle.ones([1, 2, 3])
    return {"theta": error_class(lambda: paddle.nn.functional.affine_grid("invalid", [1, 1, 2, 2])),
            "out_shape": error_class(lambda: paddle.nn.functional.affine_grid(theta, "not_valid")),
            # the static API's rank check comes before anything else, in dygraph too
            "group_norm_1d": error_class(lambda: paddle.static.nn.group_norm(paddle.ones([3]), 3)),
            "group_norm_empty": error_class(lambda: paddle.static.nn.group_norm(paddle.to_tensor([], "float32"), 3)),
            "zeros_negative": _message_has(lambda: paddle.zeros([-1, 5]), "expected to be no less than 0")}
