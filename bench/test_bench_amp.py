"""Mixed precision overhead on the CPU: a tiny op under auto_cast (the dispatcher's cast decision) and one
training step of a small MLP in float32, O1 float16 and O2 bfloat16.

Run: pytest bench/test_bench_amp.py --benchmark-only --benchmark-group-by=group
"""
import warnings

import numpy as np
import pytest

import paddlelite as paddle


@pytest.fixture(scope="module")
def tiny():
    a = np.ones(4, np.float32)
    return paddle.to_tensor(a), paddle.to_tensor(a)


@pytest.mark.benchmark(group="tiny add (a grey op), no grad")
def test_add_without_auto_cast(benchmark, tiny):
    benchmark(paddle.add, *tiny)


@pytest.mark.benchmark(group="tiny add (a grey op), no grad")
def test_add_under_auto_cast(benchmark, tiny):
    with paddle.amp.auto_cast():
        benchmark(paddle.add, *tiny)


@pytest.mark.benchmark(group="tiny matmul (a white op: two casts), no grad")
def test_matmul_without_auto_cast(benchmark):
    a = paddle.ones([4, 4])
    benchmark(paddle.matmul, a, a)


@pytest.mark.benchmark(group="tiny matmul (a white op: two casts), no grad")
def test_matmul_under_auto_cast(benchmark):
    a = paddle.ones([4, 4])
    with paddle.amp.auto_cast():
        benchmark(paddle.matmul, a, a)


def _mlp_step(level, dtype):
    paddle.seed(0)
    model = paddle.nn.Sequential(paddle.nn.Linear(64, 256), paddle.nn.ReLU(), paddle.nn.Linear(256, 10))
    opt = paddle.optimizer.Adam(parameters=model.parameters())
    if level == "O2":
        model, opt = paddle.amp.decorate(model, opt, level="O2", dtype=dtype)
    x = paddle.to_tensor(np.random.RandomState(0).randn(128, 64).astype(np.float32))
    y = paddle.to_tensor(np.random.RandomState(1).randint(0, 10, 128))

    def step():
        with paddle.amp.auto_cast(enable=level is not None, level=level or "O1", dtype=dtype):
            loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
    return step


@pytest.mark.benchmark(group="MLP 64-256-10, batch 128: one Adam step")
@pytest.mark.parametrize("level, dtype", [(None, "float16"), ("O1", "float16"), ("O2", "bfloat16")],
                         ids=["float32", "O1-float16", "O2-bfloat16"])
def test_mlp_step(benchmark, level, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        benchmark(_mlp_step(level, dtype))
