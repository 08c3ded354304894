"""paddle.static.Print prints as Paddle's print op, forward and backward, against real Paddle 3.3.1."""
import contextlib
import io
import os
import sys
import tempfile

import numpy as np
import pytest

from tests.differential import differential, raises


def _stdout_of(fn):
    """What fn prints (to sys.stdout, or to file descriptor 1 as Paddle's C++ print op does), and its result."""
    sys.stdout.flush()
    saved = os.dup(1)
    text = io.StringIO()
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 1)
        try:
            with contextlib.redirect_stdout(text):
                result = fn()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        f.seek(0)
        return text.getvalue() + f.read().decode(), result


def _print_program(paddle, phase, first_n=-1, **kw):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    try:
        with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3], "float32")
            x.stop_gradient = False
            y = paddle.static.Print(x, first_n=first_n, message="hi", print_phase=phase, **kw)
            loss = paddle.mean(paddle.scale(y, 2.0))
            grads = paddle.static.gradients([loss], [x])
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {"x": np.arange(6, dtype="float32").reshape(2, 3)}

        def run():
            return [exe.run(main, feed=feed, fetch_list=[y, grads[0]]) for _ in range(3)]
        text, outs = _stdout_of(run)
        return {"text": text, "y": outs[-1][0], "grad": outs[-1][1], "print_ops": [op.attr("is_forward") for op in main.global_block().ops if op.type == "print"]}
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("phase", ["both", "forward", "backward"])
def test_print_phases(phase):
    differential()(lambda paddle: _print_program(paddle, phase))()


@differential()
def test_print_first_n_and_switches(paddle):
    return _print_program(paddle, "forward", first_n=2, summarize=4, print_tensor_lod=False,
                          print_tensor_layout=False, print_tensor_type=False)


@differential()
def test_print_int_and_summarize_all(paddle):
    paddle.enable_static()
    main = paddle.static.Program()
    try:
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("i", [3], "int64")
            y = paddle.static.Print(x, summarize=-1, print_tensor_name=False)
        exe = paddle.static.Executor(paddle.CPUPlace())
        text, out = _stdout_of(lambda: exe.run(main, feed={"i": np.array([3, -1, 7], "int64")}, fetch_list=[y]))
        return {"text": text, "out": out[0]}
    finally:
        paddle.disable_static()


@differential(expected=raises(TypeError))
def test_print_rejects_non_variable(paddle):
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            paddle.static.Print(np.ones(2))
    finally:
        paddle.disable_static()
