"""nn.SyncBatchNorm in one process against real Paddle's BatchNorm1D/2D/3D (Paddle's CPU build has no
sync_batch_norm kernel; on one card its GPU build computes BatchNorm), and convert_sync_batchnorm."""
import numpy as np
import pytest

from tests.differential import differential

_BN = {2: "BatchNorm1D", 3: "BatchNorm1D", 4: "BatchNorm2D", 5: "BatchNorm3D"}


@pytest.mark.parametrize("shape,fmt", [([4, 3], "NC"), ([4, 3, 5], "NCL"), ([2, 3, 4, 5], "NCHW"),
                                       ([2, 4, 5, 3], "NHWC"), ([2, 3, 2, 3, 4], "NCDHW")])
def test_single_process_is_batch_norm(shape, fmt):
    @differential(rtol=1e-9, atol=1e-9)
    def body(paddle):
        x = paddle.to_tensor(np.linspace(-3, 2, int(np.prod(shape))).reshape(shape) ** 2, stop_gradient=False)
        if paddle.__name__ == "paddlelite":
            layer = paddle.nn.SyncBatchNorm(3, momentum=0.8, data_format=fmt)
        else:
            layer = getattr(paddle.nn, _BN[len(shape)])(3, momentum=0.8, data_format=fmt)
        y = layer(x)
        (y * y * paddle.arange(y.size, dtype="float64").reshape(y.shape)).sum().backward()
        layer.eval()
        return {"y": y, "dx": x.grad, "dw": layer.weight.grad, "mean": layer._mean, "var": layer._variance,
                "eval": layer(x)}


def test_convert_sync_batchnorm():
    @differential()
    def body(paddle):
        net = paddle.nn.Sequential(paddle.nn.Conv2D(3, 3, 1), paddle.nn.BatchNorm2D(3, momentum=0.7),
                                   paddle.nn.Sequential(paddle.nn.BatchNorm1D(3, data_format="NLC")))
        bn = net[1]
        out = paddle.nn.SyncBatchNorm.convert_sync_batchnorm(net)
        return {"repr": repr(out), "keys": list(out.state_dict()), "shared": out[1].weight is bn.weight,
                "types": [type(m).__name__ for m in out.sublayers()]}


def test_build_strategy_sync_batch_norm_runs_sync_batch_norm_ops_with_one_process_numbers():
    """BuildStrategy.sync_batch_norm (Paddle's sync_batch_norm_pass): the CompiledProgram runs a copy whose
    batch_norm ops and grad ops are sync_batch_norm -- without a process group, batch_norm's numbers; the
    user's program is left as built. tests/distributed/check_sync_batch_norm.py checks 2 ranks."""
    import paddlelite as paddle
    x = np.linspace(-2, 3, 48).reshape(4, 3, 2, 2) ** 2
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            xv = paddle.static.data("x", [4, 3, 2, 2], "float64")
            xv.stop_gradient = False
            layer = paddle.nn.BatchNorm2D(3)
            y = layer(xv)
            (dx,) = paddle.static.gradients([(y * y).sum()], [xv])
        strategy = paddle.static.BuildStrategy()
        strategy.sync_batch_norm = True
        compiled = paddle.static.CompiledProgram(main, build_strategy=strategy)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        plain = exe.run(main, feed={"x": x}, fetch_list=[y, dx])
        synced = exe.run(compiled, feed={"x": x}, fetch_list=[y, dx])
        types = [op.type for op in main.global_block().ops]
        run_types = [op.type for op in compiled._runnable().global_block().ops]
    finally:
        paddle.disable_static()
    assert "batch_norm" in types and "batch_norm_grad" in types and "sync_batch_norm" not in types
    assert "sync_batch_norm" in run_types and "sync_batch_norm_grad" in run_types and "batch_norm" not in run_types
    for a, b in zip(plain, synced):
        np.testing.assert_allclose(b, a, rtol=1e-13, atol=1e-13)
