"""PyLayer's edge cases as Paddle handles them (issue 28, item 2: Paddle's test_pylayer_op): a list argument's
gradients returned as a list, a forward without a Tensor output, an error raised in backward (OSError, Paddle's
External error), an input returned by forward counting as modified in place."""
import numpy as np

from tests.differential import differential, error_class


@differential()
def test_list_argument_gets_its_gradients_as_a_list(paddle):
    class Concat(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, xs, func=paddle.concat):
            return func(xs)

        @staticmethod
        def backward(ctx, dy):
            return paddle.split(dy, 3)

    xs = [paddle.to_tensor(np.full([2, 3], float(k)), stop_gradient=False) for k in range(3)]
    (Concat.apply(xs=xs) * paddle.to_tensor(np.arange(6.0).reshape(6, 1))).sum().backward()
    return [x.grad for x in xs]


@differential(expected={"none": "ValueError", "number": "ValueError", "tensor_among_none": [2.0, 2.0],
                        "backward_raises": "OSError", "no_backward": "OSError"})
def test_forward_outputs_and_backward_errors(paddle):
    def layer(forward, backward=None):
        methods = {"forward": staticmethod(forward)}
        if backward is not None:
            methods["backward"] = staticmethod(backward)
        return type("Custom", (paddle.autograd.PyLayer,), methods)

    x = paddle.ones([2])
    x.stop_gradient = False
    mixed = layer(lambda ctx, t: [None, t * 2], lambda ctx, *g: g).apply(x)

    def backward_of(cls):
        return lambda: cls.apply(x).sum().backward()
    return {"none": error_class(lambda: layer(lambda ctx, t: None).apply(x)),
            "number": error_class(lambda: layer(lambda ctx, t: 1).apply(x)),
            "tensor_among_none": mixed[1],
            "backward_raises": error_class(backward_of(layer(lambda ctx, t: t * 2,
                                                                lambda ctx, d: {}["missing"]))),
            "no_backward": error_class(backward_of(layer(lambda ctx, t: t * 2)))}


@differential(expected="RuntimeError")
def test_forward_returning_its_input_modifies_it_in_place(paddle):
    class Identity(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, t):
            return t

        @staticmethod
        def backward(ctx, dy):
            return dy

    data = paddle.ones([2, 3], dtype="float64")
    data.stop_gradient = False
    b = data ** 2
    c = b ** 2  # saves b, which Identity then returns as modified
    Identity.apply(b)
    return error_class(lambda: c.sum().backward())
