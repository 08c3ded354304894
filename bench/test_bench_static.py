"""One SGD training step of a small MLP: static Executor vs eager paddlelite vs PyTorch (CPU), same run.

Run: pytest bench/test_bench_static.py --benchmark-only --benchmark-group-by=group
The static plan (resolved forwards, slot indices, dead temporaries dropped) should make the
Executor the faster of paddlelite's two modes. Not asserted; results go to bench/results/.
"""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import static
from paddlelite.utils import unique_name

torch = pytest.importorskip("torch")
torch.set_num_threads(1)

BATCH, IN, HIDDEN, OUT = 32, 64, 128, 10
LR = 0.01


def _data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((BATCH, IN)).astype(np.float32)
    y = rng.standard_normal((BATCH, OUT)).astype(np.float32)
    w1 = (rng.standard_normal((IN, HIDDEN)) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((HIDDEN, OUT)) * 0.1).astype(np.float32)
    return x, y, w1, w2


def make_static_step():
    x, y, w1, w2 = _data()
    paddle.enable_static()
    main, startup = static.Program(), static.Program()
    scope = static.Scope()
    with static.program_guard(main, startup), unique_name.guard():
        xv = static.data("x", [None, IN], "float32")
        yv = static.data("y", [None, OUT], "float32")
        h = static.nn.fc(xv, HIDDEN, activation="relu")
        pred = static.nn.fc(h, OUT)
        loss = paddle.mean(paddle.square(pred - yv))
        paddle.optimizer.SGD(learning_rate=LR).minimize(loss)
    exe = static.Executor(paddle.CPUPlace())
    feed = {"x": x, "y": y}
    paddle.disable_static()

    def step():
        return exe.run(main, feed=feed, fetch_list=[loss], scope=scope)[0]
    exe.run(startup, scope=scope)
    step()  # compile the plan, then start from the shared initial weights
    scope.find_var("fc_0.w_0").get_tensor().set(w1, paddle.CPUPlace())
    scope.find_var("fc_1.w_0").get_tensor().set(w2, paddle.CPUPlace())
    scope.find_var("fc_0.b_0").get_tensor().set(np.zeros(HIDDEN, np.float32), paddle.CPUPlace())
    scope.find_var("fc_1.b_0").get_tensor().set(np.zeros(OUT, np.float32), paddle.CPUPlace())
    return step


def make_eager_step():
    x, y, w1, w2 = _data()
    paddle.disable_static()
    model = paddle.nn.Sequential(paddle.nn.Linear(IN, HIDDEN), paddle.nn.ReLU(), paddle.nn.Linear(HIDDEN, OUT))
    model[0].weight.set_value(w1)
    model[2].weight.set_value(w2)
    opt = paddle.optimizer.SGD(learning_rate=LR, parameters=model.parameters())
    xt, yt = paddle.to_tensor(x), paddle.to_tensor(y)

    def step():
        loss = paddle.mean(paddle.square(model(xt) - yt))
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return step


def make_torch_step():
    x, y, w1, w2 = _data()
    model = torch.nn.Sequential(torch.nn.Linear(IN, HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, OUT))
    with torch.no_grad():
        model[0].weight.copy_(torch.from_numpy(w1.T))
        model[2].weight.copy_(torch.from_numpy(w2.T))
        model[0].bias.zero_()
        model[2].bias.zero_()
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)

    def step():
        opt.zero_grad()
        loss = torch.mean((model(xt) - yt) ** 2)
        loss.backward()
        opt.step()
        return loss
    return step


@pytest.fixture
def static_step():
    return make_static_step()


@pytest.fixture
def eager_step():
    return make_eager_step()


@pytest.fixture
def torch_step():
    return make_torch_step()


@pytest.mark.benchmark(group="MLP SGD step (CPU)")
def test_mlp_step_static_executor(benchmark, static_step):
    benchmark(static_step)


@pytest.mark.benchmark(group="MLP SGD step (CPU)")
def test_mlp_step_eager(benchmark, eager_step):
    benchmark(eager_step)


@pytest.mark.benchmark(group="MLP SGD step (CPU)")
def test_mlp_step_torch(benchmark, torch_step):
    benchmark(torch_step)


def test_the_three_steps_agree(static_step, eager_step, torch_step):
    """Same data, same initial weights (biases zero): the losses of the first steps match."""
    for _ in range(3):
        a, b, c = float(static_step()), float(eager_step()), float(torch_step().detach())
        assert abs(a - b) < 1e-4 * max(1.0, abs(a)) and abs(a - c) < 1e-4 * max(1.0, abs(a))
