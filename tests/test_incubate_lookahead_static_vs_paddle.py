"""paddle.incubate.optimizer.LookAhead in a static program (issue 28, item 2: Paddle's test_lookahead): the inner
optimizer's updates, then every k-th step the slow and fast weights meet at alpha of the way."""
import numpy as np

from tests.differential import differential


@differential(rtol=1e-5, atol=1e-6)
def test_lookahead_static_trajectory(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data("X", [None, 2], "float32")
        linear = paddle.nn.Linear(2, 3, weight_attr=paddle.nn.initializer.Assign(np.array(
            [[0.5, -1.0, 0.25], [1.5, 0.0, -0.5]], "float32")), bias_attr=paddle.nn.initializer.Constant(0.1))
        loss = paddle.mean(paddle.square(linear(x)))
        lookahead = paddle.incubate.optimizer.LookAhead(paddle.optimizer.SGD(learning_rate=0.1), alpha=0.5, k=2)
        lookahead.minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    feed = np.array([[1.0, 2.0], [-1.0, 0.5]], "float32")
    return [exe.run(main, feed={"X": feed}, fetch_list=[linear.weight, linear.bias]) for _ in range(5)]
