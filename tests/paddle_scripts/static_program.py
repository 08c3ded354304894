"""Static mode, the fluid-era way: a Program built with paddle.static, trained by an Executor."""
import numpy as np
import paddle
import paddle.base as base

paddle.enable_static()
x = paddle.static.data(name="x", shape=[None, 13], dtype="float32")
y = paddle.static.data(name="y", shape=[None, 1], dtype="float32")
pred = paddle.static.nn.fc(x, size=1)
loss = paddle.mean(paddle.nn.functional.square_error_cost(pred, y))
paddle.optimizer.SGD(learning_rate=0.05).minimize(loss)

exe = base.Executor(base.CPUPlace())
exe.run(paddle.static.default_startup_program())
rng = np.random.default_rng(0)
features = rng.standard_normal((64, 13)).astype("float32")
target = features @ rng.standard_normal((13, 1)).astype("float32")
for step in range(60):
    (value,) = exe.run(paddle.static.default_main_program(), feed={"x": features, "y": target}, fetch_list=[loss])
    if step == 0:
        first = float(value)
print(f"loss {first:.4f} -> {float(value):.4f}")
assert float(value) < first / 10
