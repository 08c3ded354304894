"""paddle.static.nn.static_pylayer against real Paddle 3.3.1 (legacy IR): forward_fn's values, backward_fn's
gradients."""
import numpy as np

from tests.differential import differential, raises

_X = np.array([[-1.0, 0.5, 2.0], [0.0, -0.3, 1.2]], "float32")


def _run(paddle, build):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    try:
        with paddle.static.program_guard(main, startup):
            fetch = build()
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        return exe.run(main, feed={"x": _X}, fetch_list=fetch)
    finally:
        paddle.disable_static()


@differential(rtol=1e-6, atol=1e-6)
def test_static_pylayer_custom_gradient(paddle):
    def build():
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        y = paddle.static.nn.static_pylayer(lambda v: paddle.scale(v, 2.0, 1.0), [x],
                                            backward_fn=lambda dy: paddle.scale(dy, -3.0))
        loss = paddle.mean(paddle.add(y, paddle.scale(x, 0.5)))
        return [y, paddle.static.gradients([loss], [x])[0]]
    return _run(paddle, build)


@differential(rtol=1e-6, atol=1e-6)
def test_static_pylayer_two_inputs(paddle):
    def build():
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        z = paddle.scale(x, 3.0)
        out = paddle.static.nn.static_pylayer(lambda a, b: paddle.add(a, b), [x, z],
                                              backward_fn=lambda d: (paddle.scale(d, 2.0), paddle.scale(d, 5.0)))
        loss = paddle.mean(out)
        return [out, paddle.static.gradients([loss], [x])[0]]
    return _run(paddle, build)


@differential(rtol=1e-6, atol=1e-6)
def test_static_pylayer_without_backward(paddle):
    def build():
        x = paddle.static.data("x", [2, 3], "float32")
        return [paddle.static.nn.static_pylayer(lambda v: paddle.scale(v, -1.0), [x])]
    return _run(paddle, build)


@differential(expected=raises(ValueError))
def test_static_pylayer_needs_backward_for_trainable_inputs(paddle):
    def build():
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        return [paddle.static.nn.static_pylayer(lambda v: paddle.scale(v, -1.0), [x])]
    return _run(paddle, build)


@differential(expected=raises(TypeError))
def test_backward_fn_taking_fewer_gradients_than_outputs_is_refused_when_built(paddle):
    def build():
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        return paddle.static.nn.static_pylayer(lambda a: (3 * a, -a, paddle.mean(a)), [x],
                                               backward_fn=lambda da, db: 3 * da - db)
    _run(paddle, build)
