"""paddle.special against real Paddle 3.3.1 (tests/differential.py)."""
import numpy as np

from tests.differential import differential, raises

X = np.random.default_rng(0).uniform(-2, 2, size=(2, 3, 4))


@differential()
def test_special_values_and_gradients(paddle):
    x = paddle.to_tensor(X, stop_gradient=False)
    outs = [paddle.special.expm1(x), paddle.special.logsumexp(x), paddle.special.logsumexp(x, 1),
            paddle.special.logsumexp(x, dim=[0, 2], keepdim=True), paddle.special.softmax(x),
            paddle.special.softmax(input=x, dim=0), paddle.special.softmax(x, -2, dtype="float32")]
    sum(o.astype("float64").sum() for o in outs).backward()
    return {"outs": outs, "grad": x.grad}


@differential()
def test_special_on_float32_and_0d(paddle):
    x = paddle.to_tensor(np.float32(0.5))
    return [paddle.special.expm1(x), paddle.special.logsumexp(x), paddle.special.softmax(x, 0)]


@differential(expected=raises(ValueError))
def test_special_logsumexp_bad_dim(paddle):
    paddle.special.logsumexp(paddle.ones([2, 3]), dim=5)
