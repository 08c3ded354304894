"""F.flash_attn_qkvpacked against real Paddle's CPU build: values and gradients, grouped-query layouts."""
import numpy as np
import pytest

from tests.differential import differential, raises


@pytest.mark.parametrize("groups,causal", [(1, False), (1, True), (2, False), (3, True)])
def test_values_and_grad(groups, causal):
    @differential(rtol=1e-9, atol=1e-9)
    def body(paddle):
        data = np.random.default_rng(groups).standard_normal((2, 5, groups + 2, 2, 4))
        qkv = paddle.to_tensor(data, stop_gradient=False)
        out, softmax = paddle.nn.functional.flash_attn_qkvpacked(qkv, causal=causal)
        (out * paddle.to_tensor(np.linspace(-1, 1, out.size).reshape(out.shape))).sum().backward()
        return {"out": out, "softmax": softmax, "grad": qkv.grad}


@differential(expected=raises(ValueError))
def test_bad_rank(paddle):
    paddle.nn.functional.flash_attn_qkvpacked(paddle.ones([2, 3, 4, 5]))
