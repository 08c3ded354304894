"""paddle.static.py_func (forward and backward_func) against real Paddle 3.3.1 (legacy IR)."""
import numpy as np

from tests.differential import differential, raises

_X = np.array([[-1.0, 0.5, 2.0], [0.0, -0.3, 1.2]], "float32")


def _tanh(x):
    return np.tanh(np.array(x))


def _tanh_grad(y, dy):
    return np.array(dy) * (1 - np.square(np.array(y)))


@differential(rtol=1e-6, atol=1e-6)
def test_py_func_forward_and_backward(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    try:
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3], "float32")
            x.stop_gradient = False
            h = paddle.scale(x, 2.0)
            y = main.current_block().create_var(name="py_out", shape=[2, 3], dtype="float32")
            paddle.static.py_func(_tanh, h, y, backward_func=_tanh_grad, skip_vars_in_backward_input=h)
            loss = paddle.mean(paddle.scale(y, 3.0))
            gx = paddle.static.gradients([loss], [x])[0]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        out, grad = exe.run(main, feed={"x": _X}, fetch_list=[y, gx])
        return {"out": out, "grad": grad}
    finally:
        paddle.disable_static()


@differential(rtol=1e-6, atol=1e-6)
def test_py_func_two_inputs_two_outputs(paddle):
    paddle.enable_static()
    main = paddle.static.Program()
    try:
        with paddle.static.program_guard(main, paddle.static.Program()):
            a = paddle.static.data("a", [2, 3], "float32")
            b = paddle.static.data("b", [2, 3], "float32")
            block = main.current_block()
            s = block.create_var(name="s", shape=[2, 3], dtype="float32")
            p = block.create_var(name="p", shape=[2, 3], dtype="float32")
            paddle.static.nn.py_func(lambda u, v: (np.array(u) + np.array(v), np.array(u) * np.array(v)),
                                     [a, b], [s, p])
        exe = paddle.static.Executor(paddle.CPUPlace())
        return exe.run(main, feed={"a": _X, "b": _X + 1}, fetch_list=[s, p])
    finally:
        paddle.disable_static()


@differential(expected=raises(TypeError))
def test_py_func_needs_a_callable(paddle):
    paddle.enable_static()
    main = paddle.static.Program()
    try:
        with paddle.static.program_guard(main, paddle.static.Program()):
            a = paddle.static.data("a", [2], "float32")
            paddle.static.py_func(None, a, main.current_block().create_var(name="o", shape=[2], dtype="float32"))
    finally:
        paddle.disable_static()


@differential(expected=raises(ValueError))
def test_py_func_skip_var_must_be_an_input_or_output(paddle):
    paddle.enable_static()
    main = paddle.static.Program()
    try:
        with paddle.static.program_guard(main, paddle.static.Program()):
            a = paddle.static.data("a", [2], "float32")
            c = paddle.static.data("c", [2], "float32")
            o = main.current_block().create_var(name="o", shape=[2], dtype="float32")
            paddle.static.py_func(_tanh, a, o, backward_func=_tanh_grad, skip_vars_in_backward_input=c)
    finally:
        paddle.disable_static()
