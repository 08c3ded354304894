"""paddle.vision.models._utils.IntermediateLayerGetter against real Paddle 3.3.1 (issue 28, item 2: Paddle's
test_IntermediateLayerGetter)."""
import importlib

import numpy as np

from tests.differential import differential


@differential()
def test_intermediate_layer_getter(paddle):
    """vision.models._utils.IntermediateLayerGetter: the children up to the last one asked for, their outputs by the
    new names; a Linear child gets its 4-D input flattened."""
    utils = importlib.import_module(f"{paddle.__name__}.vision.models._utils")

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = paddle.nn.Conv2D(2, 3, 3, padding=1)
            self.relu = paddle.nn.ReLU()
            self.pool = paddle.nn.AdaptiveAvgPool2D(1)
            self.fc = paddle.nn.Linear(3, 2)
            self.unused = paddle.nn.ReLU()

    net = Net()
    for k, p in enumerate(net.parameters()):
        p.set_value(np.linspace(-1, 1, int(np.prod(p.shape)), dtype="float32").reshape(p.shape) * (k + 1))
    getter = utils.IntermediateLayerGetter(net, {"relu": "feat1", "fc": "logits"})
    x = paddle.to_tensor(np.linspace(-2, 2, 2 * 2 * 4 * 4, dtype="float32").reshape(2, 2, 4, 4))
    out = getter(x)
    errors = []
    try:
        utils.IntermediateLayerGetter(net, {"nope": "x"})
    except ValueError:
        errors.append("ValueError")
    return {"names": [name for name, _ in getter.named_children()], "keys": list(out), "feat1": out["feat1"],
            "logits": out["logits"], "errors": errors}
