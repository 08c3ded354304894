"""Names Paddle 3.3.1 makes reachable that its scripts and examples use beyond the namespaces' __all__ (the
torch-style argument forms, paddle.nn.init, ...), against Paddle 3.3.1."""
import numpy as np

from tests.differential import differential


@differential(expected={"two": [4, 3, 2], "keywords": [3, 2, 4], "negative": [2, 4, 3], "perm": [3, 2, 4]})
def test_transpose_takes_torchs_two_dims(paddle):
    x = paddle.ones([2, 3, 4])
    return {"two": list(paddle.transpose(x, 0, 2).shape), "keywords": list(x.transpose(dim0=0, dim1=1).shape),
            "negative": list(x.swapaxes(-1, -2).shape), "perm": list(paddle.swapdims(x, [1, 0, 2]).shape)}


@differential(expected={"ones": [[1.0, 1.0], [1.0, 1.0]], "zeros": [0.0, 0.0], "constant": [2.5, 2.5],
                        "eye": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], "bound": True, "gain": float(np.sqrt(2.0))})
def test_nn_init_fills_in_place(paddle):
    init = paddle.nn.init
    w = paddle.create_parameter([2, 2], "float32")
    init.ones_(w)
    b = paddle.create_parameter([2], "float32")
    init.zeros_(b)
    c = paddle.create_parameter([2], "float32")
    init.constant_(c, 2.5)
    e = paddle.create_parameter([2, 3], "float32")
    init.eye_(e)
    k = paddle.create_parameter([64, 16], "float32")
    init.kaiming_uniform_(k, a=5 ** 0.5)
    u = paddle.create_parameter([100], "float32")
    init.uniform_(u, -0.25, 0.25)
    return {"ones": w, "zeros": b, "constant": c, "eye": e,
            "bound": bool(abs(k.numpy()).max() <= 1 / 8 + 1e-6 and abs(u.numpy()).max() <= 0.25),
            "gain": init.calculate_gain("relu")}
