"""F.gumbel_softmax against real Paddle. The noise differs between the libraries, so the bodies return what
does not depend on it: Paddle's gradient rule applied to the drawn output, the one-hot shape of hard samples."""
import numpy as np
import pytest

from tests.differential import differential, raises

_X = np.random.default_rng(3).standard_normal((3, 4, 5))
_DOUT = np.random.default_rng(4).standard_normal((3, 4, 5))


@pytest.mark.parametrize("temperature,axis", [(1.0, -1), (0.5, 1), (2.0, 0)])
def test_soft_sample_and_gradient_rule(temperature, axis):
    @differential(rtol=1e-9, atol=1e-9)
    def body(paddle):
        x = paddle.to_tensor(_X, stop_gradient=False)
        y = paddle.nn.functional.gumbel_softmax(x, temperature=temperature, axis=axis)
        (y * paddle.to_tensor(_DOUT)).sum().backward()
        yn = y.numpy()
        rule = yn * (_DOUT - (yn * _DOUT).sum(axis, keepdims=True))  # no 1 / temperature, as Paddle
        return {"sums": y.sum(axis), "positive": bool((yn > 0).all()), "grad_minus_rule": x.grad.numpy() - rule,
                "dtype": y.dtype, "stop_gradient": y.stop_gradient}


def test_hard_sample_is_one_hot_with_zero_gradient():
    @differential(rtol=0, atol=0)
    def body(paddle):
        x = paddle.to_tensor(_X.astype("float32"), stop_gradient=False)
        y = paddle.nn.functional.gumbel_softmax(x, hard=True, axis=1)
        (y * paddle.to_tensor(_DOUT.astype("float32"))).sum().backward()
        yn = y.numpy()
        return {"sums": y.sum(1), "binary": bool(np.isin(yn, [0.0, 1.0]).all()), "grad": x.grad, "dtype": y.dtype}


@pytest.mark.parametrize("kwargs", [{"temperature": 0.0}, {"temperature": -1.0}, {"axis": 3}])
def test_bad_arguments(kwargs):
    @differential(expected=raises(ValueError))
    def body(paddle):
        paddle.nn.functional.gumbel_softmax(paddle.to_tensor(_X), **kwargs)
