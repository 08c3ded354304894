"""to_static's `for ... in range(...)` against Paddle: a tensor bound makes the loop a while op of the program
(over Paddle's arange of the bounds, the loop variable a 0-D tensor); int bounds keep a Python loop."""
import os
import tempfile

import numpy as np

from tests.differential import differential


def _loops(paddle):
    class Loops(paddle.nn.Layer):
        def forward(self, x):
            n = paddle.full([1], 4, dtype="int32")
            for i in range(1, n):
                x = x + i
            for j in range(3):
                x = x * 2 + j
            return x
    return Loops()


@differential()
def test_for_over_a_tensor_range_runs_and_saves_a_while_op(paddle):
    paddle.disable_static()
    net = paddle.jit.to_static(_loops(paddle), input_spec=[paddle.static.InputSpec(shape=[1], dtype="int32")],
                               full_graph=True)
    out = net(paddle.to_tensor(np.array([1], "int32")))
    with tempfile.TemporaryDirectory() as root:
        prefix = os.path.join(root, "loops")
        paddle.jit.save(net, prefix)
        paddle.enable_static()
        program = paddle.static.deserialize_program(paddle.static.load_from_file(prefix + ".pdmodel"))
    block = program.desc.block(0)
    types = {block.op(i).type() for i in range(block.op_size())}
    return out, sorted(types & {"while", "less_than", "elementwise_add", "range"})


@differential()
def test_for_over_an_int_range_in_eager_code_is_a_python_loop(paddle):
    def f(x):
        for k in range(4, 0, -2):
            x = x - k
        return x, k
    return paddle.jit.to_static(f, full_graph=True)(paddle.to_tensor([10.0]))
