"""F.adaptive_log_softmax_with_loss / nn.AdaptiveLogSoftmaxWithLoss against real Paddle 3.3.1 with the same
weights: outputs, loss, gradients of input and every weight, log_prob and predict."""
import numpy as np
import pytest

from tests.differential import differential, raises


def _layer(paddle, dtype, head_bias, seed=0):
    rng = np.random.default_rng(seed)
    paddle.set_default_dtype(dtype)
    try:
        layer = paddle.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0, head_bias=head_bias)
    finally:
        paddle.set_default_dtype("float32")
    for p in _weights(layer):
        p.set_value(rng.standard_normal(p.shape).astype(dtype))
    return layer


def _weights(layer):  # (the tail weights live in a plain list: Paddle's parameters() leaves them out)
    return [*layer.parameters(), *(w for projection in layer.tail_weights for w in projection)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("head_bias", [False, True])
def test_forward_backward(dtype, head_bias):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((7, 8)).astype(dtype)
    label = np.array([0, 2, 3, 5, 6, 9, 4])  # shortlist, both tail clusters

    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        layer = _layer(paddle, dtype, head_bias)
        tx = paddle.to_tensor(x, stop_gradient=False)
        out, loss = layer(tx, paddle.to_tensor(label))
        (loss + (out * paddle.arange(7, dtype=dtype)).sum()).backward()
        grads = {f"d{i}": p.grad for i, p in enumerate(_weights(layer))}
        return {"out": out, "loss": loss, "dx": tx.grad, **grads}

    body()


@differential(rtol=1e-5, atol=1e-5)
def test_only_shortlist_and_single_sample(paddle):
    layer = _layer(paddle, "float32", False, seed=2)
    x = paddle.to_tensor(np.random.default_rng(3).standard_normal((3, 8)).astype("float32"))
    out, loss = layer(x, paddle.to_tensor([0, 1, 2]))
    one, one_loss = layer(x[1], paddle.to_tensor(7))
    return {"out": out, "loss": loss, "one": one, "one_loss": one_loss}


@differential(rtol=1e-5, atol=1e-5)
def test_log_prob_and_predict(paddle):
    layer = _layer(paddle, "float32", True, seed=4)
    x = paddle.to_tensor(np.random.default_rng(5).standard_normal((9, 8)).astype("float32"))
    return {"log_prob": layer.log_prob(x), "predict": layer.predict(x), "names": [n for n, _ in layer.named_parameters()]}


@differential(expected=raises(ValueError))
def test_bad_cutoffs(paddle):
    paddle.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3])


@differential(expected=raises(ValueError))
def test_batch_mismatch(paddle):
    layer = paddle.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3])
    layer(paddle.ones([3, 8]), paddle.to_tensor([0, 1]))


def test_static_program_matches_eager():
    import paddlelite as paddle
    from tests.differential import run_static
    rng = np.random.default_rng(6)
    x, label = rng.standard_normal((5, 8)).astype("float32"), np.array([0, 4, 7, 2, 9])
    head, t0, t1 = (rng.standard_normal(s).astype("float32") for s in ([8, 3], [8, 4], [4, 8]))
    tails = [[paddle.to_tensor(t0), paddle.to_tensor(t1)]]
    eager_out, eager_loss = paddle.nn.functional.adaptive_log_softmax_with_loss(
        paddle.to_tensor(x), paddle.to_tensor(label), paddle.to_tensor(head), tails, [2, 10])

    def build():
        tx = paddle.static.data("x", [5, 8], "float32")
        tx.stop_gradient = False
        out, loss = paddle.nn.functional.adaptive_log_softmax_with_loss(
            tx, paddle.static.data("label", [5], "int64"), paddle.static.data("head", [8, 3], "float32"),
            [[paddle.static.data("t0", [8, 4], "float32"), paddle.static.data("t1", [4, 8], "float32")]], [2, 10])
        return [out, loss, *paddle.static.gradients([loss], [tx])]

    try:
        out, loss, dx = run_static(paddle, build, {"x": x, "label": label, "head": head, "t0": t0, "t1": t1})
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(out, eager_out.numpy(), rtol=1e-6)
    np.testing.assert_allclose(loss, eager_loss.numpy(), rtol=1e-6)
    assert dx.shape == (5, 8) and np.isfinite(dx).all()
