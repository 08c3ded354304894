"""F.rnnt_loss / nn.RNNTLoss against real Paddle 3.3.1's CPU warprnnt (which takes the input as
log-probabilities as given): losses and input gradients, float32 and float64, ragged lengths, reductions,
FastEmit, blank not 0."""
import numpy as np
import pytest

from tests.differential import differential


def _case(seed, dtype):
    rng = np.random.default_rng(seed)
    logits = rng.standard_normal((3, 5, 4, 6))
    log_probs = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    return (log_probs.astype(dtype), np.array([[1, 2, 2], [3, 1, 0], [4, 0, 0]], dtype=np.int32),
            np.array([5, 3, 4], dtype=np.int32), np.array([3, 2, 0], dtype=np.int32))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("fastemit_lambda", [0.0, 0.001, 0.5])
def test_loss_and_grad(dtype, reduction, fastemit_lambda):
    x, label, lengths, label_lengths = _case(0, dtype)

    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        tx = paddle.to_tensor(x, stop_gradient=False)
        loss = paddle.nn.functional.rnnt_loss(tx, paddle.to_tensor(label), paddle.to_tensor(lengths),
                                              paddle.to_tensor(label_lengths), fastemit_lambda=fastemit_lambda,
                                              reduction=reduction)
        (loss * paddle.to_tensor([1.0, -2.0, 3.0], dtype=dtype) if reduction == "none" else loss).sum().backward()
        return {"loss": loss, "grad": tx.grad}

    body()


@differential(rtol=1e-5, atol=1e-5)
def test_layer_unnormalised_input_blank_last(paddle):
    rng = np.random.default_rng(1)
    x = paddle.to_tensor(rng.standard_normal((2, 3, 3, 4)), stop_gradient=False)
    layer = paddle.nn.RNNTLoss(blank=3, fastemit_lambda=0.0, reduction="sum")
    loss = layer(x, paddle.to_tensor([[0, 2], [1, 1]], dtype="int32"), paddle.to_tensor([3, 2], dtype="int32"),
                 paddle.to_tensor([2, 1], dtype="int32"))
    loss.backward()
    return {"loss": loss, "grad": x.grad}
