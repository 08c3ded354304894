"""The executor's batching of per-parameter updates (static/batching.py): a program's adam/adamw/momentum/sgd ops, one
per parameter as Paddle's static optimizers append them, run on a GPU as one call of their list op (merged_adam,
merged_momentum, merged_sgd) per group of equal attrs -- checked without a GPU on the launch counter's stand-in,
which runs the plan a GPU would, against the NumPy plan (the updates one by one), bit for bit."""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.device.launch_count import count_launches
from paddlelite.utils import unique_name

OPTIMIZERS = {
    "sgd": (lambda: paddle.optimizer.SGD(0.1), {"merged_sgd": 1}),
    "momentum": (lambda: paddle.optimizer.Momentum(0.1, 0.9, use_nesterov=True,
                                                   weight_decay=paddle.regularizer.L2Decay(1e-2)),
                 {"merged_momentum": 1}),
    "adam": (lambda: paddle.optimizer.Adam(0.01), {"merged_adam": 1}),
    # biases undecayed: two groups, decayed and not
    "adamw": (lambda: paddle.optimizer.AdamW(0.01, weight_decay=0.1,
                                             apply_decay_param_fun=lambda name: "w_" in name),
              {"merged_adam": 2}),
}


def _program(make_optimizer):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), unique_name.guard():
            x = paddle.static.data("x", [None, 6], "float32")
            h = paddle.nn.functional.relu(paddle.nn.Linear(6, 5)(x))
            loss = paddle.mean(paddle.nn.Linear(5, 3)(h) ** 2)
            make_optimizer().minimize(loss)
    finally:
        paddle.disable_static()
    return main, startup, loss


def _train(main, startup, loss, counted):
    exe, scope = paddle.static.Executor("cpu"), paddle.static.Scope()
    rng = np.random.default_rng(0)
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        with count_launches() if counted else _no_counter() as counter:
            for _ in range(3):
                out = exe.run(main, feed={"x": rng.standard_normal((4, 6)).astype(np.float32)}, fetch_list=[loss])
    params = {p.name: np.asarray(scope.find_var(p.name).get_tensor()) for p in main.all_parameters()}
    return out, params, counter


class _no_counter:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_per_parameter_updates_run_as_one_list_op(name):
    make, launches = OPTIMIZERS[name]
    main, startup, loss = _program(make)
    per_param = {op.type for op in main.global_block().ops if op.type in ("sgd", "momentum", "adam", "adamw")}
    assert len([op for op in main.global_block().ops if op.type in per_param]) == 4  # the program is Paddle's
    paddle.seed(1)
    plain, plain_params, _ = _train(main, startup, loss, counted=False)
    paddle.seed(1)
    batched, batched_params, counter = _train(main, startup, loss, counted=True)
    np.testing.assert_array_equal(np.asarray(batched[0]), plain[0])
    for n, v in plain_params.items():
        np.testing.assert_array_equal(np.asarray(batched_params[n]), v)
    ((label, raw),) = [(k, c["raw"]) for k, c in counter.by_label.items() if k.startswith("merged_")]
    assert {label: raw // 3} == launches and not per_param & set(counter.by_label)


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_batched_updates_on_the_gpu(name):
    pytest.importorskip("cupy")
    main, startup, loss = _program(OPTIMIZERS[name][0])
    results = {}
    for place in ("cpu", "gpu"):
        paddle.seed(1)
        exe, scope = paddle.static.Executor(place), paddle.static.Scope()
        rng = np.random.default_rng(0)
        with paddle.static.scope_guard(scope):
            exe.run(startup)
            for _ in range(3):
                exe.run(main, feed={"x": rng.standard_normal((4, 6)).astype(np.float32)}, fetch_list=[loss])
        results[place] = {p.name: np.asarray(scope.find_var(p.name).get_tensor()) for p in main.all_parameters()}
    for n, v in results["cpu"].items():
        np.testing.assert_allclose(results["gpu"][n], v, rtol=1e-5, atol=1e-6)
