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
