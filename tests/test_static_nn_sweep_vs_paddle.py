"""nn.functional in static mode, against real Paddle (legacy IR): fixes found by sweeping every public
function and layer through a static program (build, run, append_backward) in both libraries."""
import warnings

import numpy as np
import pytest

from tests.differential import differential, run_static

X = np.array([[-1.5, -0.2, 0.0], [0.3, 0.8, 2.5]], "float32")

# F.<name>_ on a static Variable is Paddle's out-of-place <name> (inplace_apis_in_dygraph_only), with a warning
INPLACE = {
    "relu_": ((), [[0.0, 0.0, 0.0], [0.3, 0.8, 2.5]]),
    "elu_": ((0.7,), [[-0.5438089, -0.1268885, 0.0], [0.3, 0.8, 2.5]]),
    "leaky_relu_": ((0.2,), [[-0.3, -0.04, 0.0], [0.3, 0.8, 2.5]]),
    "hardtanh_": ((-1.0, 1.0), [[-1.0, -0.2, 0.0], [0.3, 0.8, 1.0]]),
    "softmax_": ((), [[0.1092778, 0.4009728, 0.4897493], [0.0856624, 0.1412334, 0.7731043]]),
    "thresholded_relu_": ((0.5,), [[0.0, 0.0, 0.0], [0.0, 0.8, 2.5]]),
}


def _inplace_static(name, args):
    def body(paddle):
        def build():
            x = paddle.static.data("x", [2, 3], "float32")
            return [getattr(paddle.nn.functional, name)(x, *args)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return run_static(paddle, build, {"x": X})[0]
    body.__name__ = f"test_{name}static"
    return body


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_activation_in_static_mode_is_out_of_place(name):
    args, expected = INPLACE[name]
    differential(expected=expected, rtol=1e-5, atol=1e-6)(_inplace_static(name, args))()


def test_inplace_api_in_static_mode_warns_as_paddle():
    import paddlelite as paddle

    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data("x", [2, 3], "float32")
            with pytest.warns(UserWarning, match=r"relu_\(\) is the same as relu\(\)"):
                y = paddle.nn.functional.relu_(x)
            assert y is not x
    finally:
        paddle.disable_static()


@differential(expected=[[[[-0.5, -1.0], [0.5, -1.0], [1.5, -1.0]], [[-0.5, 1.0], [0.5, 1.0], [1.5, 1.0]]]])
def test_affine_grid_takes_out_shape_as_a_tensor(paddle):
    theta = paddle.to_tensor([[[1.0, 0.0, 0.5], [0.0, 1.0, 0.0]]])
    return paddle.nn.functional.affine_grid(theta, paddle.to_tensor([1, 1, 2, 3]))
