"""F.hsigmoid_loss / nn.HSigmoidLoss against real Paddle 3.3.1: costs and gradients of input, weight and bias
on the default tree (several num_classes, so paths of unequal length) and on a custom tree."""
import numpy as np
import pytest

from tests.differential import differential, raises, run_static


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("num_classes", [2, 5, 8, 11])
@pytest.mark.parametrize("with_bias", [True, False])
def test_default_tree(dtype, num_classes, with_bias):
    rng = np.random.default_rng(num_classes)
    x, w = rng.standard_normal((6, 4)), rng.standard_normal((num_classes - 1, 4))
    b, label = rng.standard_normal((num_classes - 1, 1)), rng.integers(0, num_classes, 6)

    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        tx, tw = paddle.to_tensor(x.astype(dtype), stop_gradient=False), paddle.to_tensor(w.astype(dtype),
                                                                                          stop_gradient=False)
        tb = paddle.to_tensor(b.astype(dtype), stop_gradient=False) if with_bias else None
        out = paddle.nn.functional.hsigmoid_loss(tx, paddle.to_tensor(label), num_classes, tw, tb)
        (out * paddle.arange(1, 7, dtype=dtype).reshape([6, 1])).sum().backward()
        return {"out": out, "dx": tx.grad, "dw": tw.grad, "db": tb.grad if with_bias else None}

    body()


@differential(rtol=1e-5, atol=1e-5)
def test_custom_tree_layer(paddle):
    rng = np.random.default_rng(1)
    layer = paddle.nn.HSigmoidLoss(3, 4, is_custom=True)
    layer.weight.set_value(rng.standard_normal((4, 3)).astype("float32"))
    layer.bias.set_value(rng.standard_normal((4, 1)).astype("float32"))
    x = paddle.to_tensor(rng.standard_normal((3, 3)).astype("float32"), stop_gradient=False)
    table = paddle.to_tensor([[0, 1, 3], [0, 2, -1], [0, -1, -1]], dtype="int64")
    code = paddle.to_tensor([[1, 0, 1], [0, 1, 0], [1, 0, 0]], dtype="int64")
    out = layer(x, paddle.to_tensor([[0], [1], [2]], dtype="int64"), table, code)
    out.sum().backward()
    return {"out": out, "dx": x.grad, "dw": layer.weight.grad, "db": layer.bias.grad}


@differential(rtol=1e-5, atol=1e-5)
def test_static_program(paddle):
    rng = np.random.default_rng(2)
    feed = {"x": rng.standard_normal((4, 3)).astype("float32"), "label": np.array([[0], [5], [3], [6]]),
            "w": rng.standard_normal((6, 3)).astype("float32")}

    def build():
        x = paddle.static.data("x", [4, 3], "float32")
        w = paddle.static.data("w", [6, 3], "float32")
        x.stop_gradient = w.stop_gradient = False
        out = paddle.nn.functional.hsigmoid_loss(x, paddle.static.data("label", [4, 1], "int64"), 7, w)
        return [out, *paddle.static.gradients([out], [x, w])]

    out, dx, dw = run_static(paddle, build, feed)
    return {"out": out, "dx": dx, "dw": dw}


@differential(expected=raises(ValueError))
def test_too_few_classes(paddle):
    paddle.nn.functional.hsigmoid_loss(paddle.ones([2, 3]), paddle.to_tensor([0, 0]), 1, paddle.ones([1, 3]))


def test_a_label_outside_the_classes_is_refused():
    """Paddle's own example passes label 5 with num_classes=5: its kernel then reads classifier 4 of a weight with 4
    rows (past the buffer, so what it prints is not a specification); here a ValueError names the range."""
    import paddlelite as paddle
    with pytest.raises(ValueError, match=r"hsigmoid_loss: label values must lie in \[0, num_classes=5\), received "
                                         r"values in \[0, 5\]"):
        paddle.nn.functional.hsigmoid_loss(paddle.ones([4, 3]), paddle.to_tensor([0, 1, 4, 5]), 5, paddle.ones([4, 3]))


@differential()
def test_layer_takes_default_dtype(paddle):
    paddle.set_default_dtype("float64")
    try:
        layer = paddle.nn.HSigmoidLoss(3, 5)
    finally:
        paddle.set_default_dtype("float32")
    return {"weight": layer.weight.dtype, "bias": layer.bias.dtype, "shapes": [layer.weight.shape, layer.bias.shape]}


@differential(rtol=1e-5, atol=1e-5)
def test_scores_beyond_the_clip(paddle):
    # scores of +-60: Paddle clips them to +-40 for the cost and still passes gradient through
    x = paddle.to_tensor([[3.0, -3.0], [2.0, 1.0]], stop_gradient=False)
    w = paddle.to_tensor([[10.0, -10.0], [-20.0, 20.0], [0.5, 0.25]], stop_gradient=False)
    out = paddle.nn.functional.hsigmoid_loss(x, paddle.to_tensor([1, 3]), 4, w)
    out.sum().backward()
    return {"out": out, "dx": x.grad, "dw": w.grad}
