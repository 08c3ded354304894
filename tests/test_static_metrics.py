"""paddle.static.auc and ctr_metric_bundle against real Paddle 3.3.1 (legacy IR): the same batches give the
same running statistics and metrics."""
import numpy as np
import pytest

from tests.differential import differential

_RNG = np.random.RandomState(5)
_BATCHES = [(_RNG.rand(8, 1).astype("float32"), (_RNG.rand(8, 1) > 0.5).astype("int64")) for _ in range(4)]


@pytest.mark.parametrize("slide_steps", [0, 1, 2])
def test_auc_streams_like_paddle(slide_steps):
    @differential(rtol=1e-9, atol=1e-12)
    def body(paddle):
        paddle.enable_static()
        main, startup = paddle.static.Program(), paddle.static.Program()
        try:
            with paddle.static.program_guard(main, startup):
                p = paddle.static.data("p", [-1, 1], "float32")
                label = paddle.static.data("label", [-1, 1], "int64")
                prob = paddle.concat([paddle.scale(p, -1.0, 1.0), p], axis=1)
                global_auc, batch_auc, stats = paddle.static.auc(prob, label, num_thresholds=31,
                                                                 slide_steps=slide_steps)
            exe = paddle.static.Executor(paddle.CPUPlace())
            with paddle.static.scope_guard(paddle.static.Scope()):
                exe.run(startup)
                return [exe.run(main, feed={"p": x, "label": y}, fetch_list=[global_auc, batch_auc] + stats)
                        for x, y in _BATCHES]
        finally:
            paddle.disable_static()
    body()


@differential(rtol=1e-5, atol=1e-6)
def test_ctr_metric_bundle_accumulates_like_paddle(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    try:
        with paddle.static.program_guard(main, startup):
            p = paddle.static.data("p", [-1, 1], "float32")
            label = paddle.static.data("label", [-1, 1], "float32")
            metrics = paddle.static.ctr_metric_bundle(p, label)
        exe = paddle.static.Executor(paddle.CPUPlace())
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe.run(startup)
            return [exe.run(main, feed={"p": x, "label": y.astype("float32")}, fetch_list=list(metrics))
                    for x, y in _BATCHES[:3]]
    finally:
        paddle.disable_static()
