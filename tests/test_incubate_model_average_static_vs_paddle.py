"""paddle.incubate.optimizer.ModelAverage in a static program (issue 28, item 2: Paddle's test_modelaverage): the
running sums and counts as ops after the optimizer's, and apply / restore swapping the averages in and out."""
import numpy as np

from tests.differential import differential

NAMES = ["linear_0.b_0", "linear_0.b_0_sum_1_0", "linear_0.b_0_sum_2_0", "linear_0.b_0_sum_3_0",
         "linear_0.b_0_num_accumulates_0", "linear_0.b_0_old_num_accumulates_0", "linear_0.b_0_num_updates_0"]


@differential(rtol=1e-5, atol=1e-6)
def test_model_average_static(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data("X", [None, 1], "float32")
        hidden = paddle.nn.Linear(1, 3, weight_attr=paddle.nn.initializer.Constant(0.5),
                                  bias_attr=paddle.nn.initializer.Constant(0.25))(x)
        loss = paddle.mean(hidden)
        test_program = main.clone()
        paddle.optimizer.Momentum(learning_rate=0.2, momentum=0.1).minimize(loss)
        average = paddle.incubate.optimizer.ModelAverage(0.15, min_average_window=2, max_average_window=4)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    feeds = np.linspace(-1, 1, 7 * 4, dtype="float32").reshape(7, 4, 1)
    steps = [exe.run(main, feed={"X": f}, fetch_list=NAMES) for f in feeds]
    with average.apply(exe):
        applied = exe.run(test_program, feed={"X": feeds[0]}, fetch_list=[loss.name, "linear_0.b_0"])
    restored = exe.run(test_program, feed={"X": feeds[0]}, fetch_list=["linear_0.b_0"])
    return {"steps": steps, "applied": applied, "restored": restored}
