"""Paddle's backward hooks on leaves and its backward final hooks (issue 28, item 2: Paddle's
test_tensor_register_hook): Tensor._register_backward_hook takes only a leaf that requires a gradient;
core.eager._add_backward_final_hook runs a hook once, after the next backward or grad pass."""
from tests.differential import differential, error_class


@differential(expected={"interior": "ValueError", "stops_gradient": "ValueError", "calls": [1, 2],
                        "leaf_hook": 2})
def test_backward_hooks(paddle):
    x = paddle.ones([2])
    x.stop_gradient = False
    y = paddle.pow(x, 2.0)
    errors = {"interior": error_class(lambda: y._register_backward_hook(lambda: None)),
              "stops_gradient": error_class(lambda: paddle.ones([1])._register_backward_hook(lambda: None))}
    calls, leaf = [], []
    x._register_backward_hook(lambda: leaf.append(1))
    paddle.base.core.eager._add_backward_final_hook(lambda: calls.append(1))
    (x * 2).sum().backward()
    (x * 2).sum().backward()  # a final hook runs once
    paddle.base.core.eager._add_backward_final_hook(lambda: calls.append(2))
    paddle.grad((x * 3).sum(), [x])  # grad() passes run them too
    return {**errors, "calls": calls, "leaf_hook": len(leaf)}
