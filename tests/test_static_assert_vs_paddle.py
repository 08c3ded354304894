"""paddle.static.nn.control_flow.Assert (issue 28, item 2: Paddle's test_assert_op): the `assert` op raises
ValueError when run on a false condition (or one of more than one element), after printing its data."""
import importlib

from tests.differential import differential, error_class


def _run(paddle, cond_shape, value, summarize=20, data=True):
    control_flow = importlib.import_module(f"{paddle.__name__}.static.nn.control_flow")
    paddle.enable_static()
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        cond = paddle.tensor.fill_constant(shape=cond_shape, dtype="bool", value=value)
        x = paddle.tensor.fill_constant(shape=[2, 3], dtype="float32", value=2.0)
        op = control_flow.Assert(cond, [x] if data else None, summarize)
    outcome = error_class(lambda: paddle.static.Executor(paddle.CPUPlace()).run(main))
    return [op.type, op.input_names, outcome]


@differential(expected={"true": ["assert", ["Cond", "Data"], None], "false": ["assert", ["Cond", "Data"], "ValueError"],
                        "two_elements": ["assert", ["Cond", "Data"], "ValueError"], "cond_dtype": "TypeError"})
def test_assert_op(paddle):
    def bad_dtype():
        control_flow = importlib.import_module(f"{paddle.__name__}.static.nn.control_flow")
        paddle.enable_static()
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            control_flow.Assert(paddle.tensor.fill_constant(shape=[1], dtype="int32", value=1))
    return {"true": _run(paddle, [1], True), "false": _run(paddle, [1], False, summarize=4),
            "two_elements": _run(paddle, [1, 2], True, data=False), "cond_dtype": error_class(bad_dtype)}
