"""paddle.static.ExponentialMovingAverage: update / apply / restore follow Paddle's formulas (checked
against NumPy: Paddle 3.3.1's legacy-IR apply program builds a cond its logical_not cannot build)."""
import numpy as np
import pytest

_X = np.random.RandomState(0).uniform(-1, 1, [4, 3]).astype("float32")


def _train(thres_steps=False):
    import paddlelite as paddle
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [4, 3], "float32")
        loss = paddle.mean(paddle.static.nn.fc(x, 2))
        paddle.optimizer.SGD(0.5).minimize(loss)
        step = paddle.static.create_global_var([1], 4, "int64", persistable=True) if thres_steps else None
        ema = paddle.static.ExponentialMovingAverage(0.9, thres_steps=step)
        ema.update()
    return paddle, main, startup, ema


@pytest.mark.parametrize("thres", [False, True])
def test_ema_update_apply_restore(thres):
    paddle, main, startup, ema = _train(thres)
    try:
        decay = min(0.9, (4 + 1.0) / (4 + 10.0)) if thres else 0.9
        exe = paddle.static.Executor(paddle.CPUPlace())
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe.run(startup)
            names = [p.name for p in main.global_block().all_parameters()]
            scope = paddle.static.global_scope()
            value = {n: lambda n=n: np.array(scope.find_var(n).get_tensor()) for n in names}
            averages = {n: np.zeros_like(value[n]()) for n in names}
            for _ in range(3):
                exe.run(main, feed={"x": _X})
                for n in names:
                    averages[n] = decay * averages[n] + (1 - decay) * value[n]()
            trained = {n: value[n]() for n in names}
            with ema.apply(exe):
                for n in names:
                    np.testing.assert_allclose(value[n](), averages[n] / (1 - decay ** 3), rtol=1e-5)
            for n in names:
                np.testing.assert_array_equal(value[n](), trained[n])
            with ema.apply(exe, need_restore=False):
                pass
            np.testing.assert_allclose(value[names[0]](), averages[names[0]] / (1 - decay ** 3), rtol=1e-5)
            ema.restore(exe)
            np.testing.assert_array_equal(value[names[0]](), trained[names[0]])
    finally:
        paddle.disable_static()


def test_ema_needs_static_mode():
    import paddlelite as paddle
    with pytest.raises(Exception, match="dygraph"):
        paddle.static.ExponentialMovingAverage(0.9)
