"""Tensor.value().get_tensor() (issue 28, item 2: Paddle's test_optimizer_for_varbase): the tensor's DenseTensor,
whose set(array, place) writes the tensor's values -- the legacy way Paddle code fills a parameter."""
import numpy as np

from tests.differential import differential


@differential()
def test_get_tensor_set_writes_the_parameter(paddle):
    x = paddle.base.framework.EagerParamBase(dtype="float32", shape=[2, 3], lod_level=0, name="x",
                                             optimize_attr={"learning_rate": 1.0})
    values = np.arange(6, dtype="float32").reshape(2, 3)
    view = x.value().get_tensor()
    view.set(values, paddle.CPUPlace())
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[x])
    (x * paddle.ones([2, 3])).sum().backward()
    opt.step()
    return {"set": np.array(view) + 0, "shape": view.shape(), "after_step": x}
