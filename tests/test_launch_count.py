"""paddlelite.device.count_launches: CuPy's cost model over NumPy (device/launch_count.py), the ops' GPU path taken
while counting, and nothing left behind when it ends. The budgets of whole training steps are
test_launch_budgets.py's."""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.device import launch_count
from paddlelite.device.launch_count import COUNTING, DeviceArray, count_launches
from paddlelite.ops.registry import get_op


def _counts(fn):
    with count_launches() as c:
        fn()
    return {k: v for k, v in c.summary().items() if v}


def _on_device(a):
    return np.asarray(a).view(DeviceArray)


def test_cupy_cost_of_array_calls():
    x, y = _on_device(np.ones((4, 3), np.float32)), _on_device(np.ones((3, 2), np.float32))
    assert _counts(lambda: x * 2 + 1) == {"elementwise": 2, "kernels": 2, "enqueued": 2, "alloc": 2}
    assert _counts(lambda: x.sum(axis=0)) == {"reduction": 1, "kernels": 1, "enqueued": 1, "alloc": 1}
    assert _counts(lambda: x.mean()) == {"reduction": 1, "kernels": 1, "enqueued": 1, "alloc": 1}
    assert _counts(lambda: x @ y) == {"library": 1, "kernels": 1, "enqueued": 1, "alloc": 1}
    assert _counts(lambda: COUNTING.matmul(x, y)) == {"library": 1, "kernels": 1, "enqueued": 1, "alloc": 1}
    # views enqueue nothing; an in-place update allocates nothing
    assert _counts(lambda: (x.T, x.reshape(3, 4), x[1:, ::2], COUNTING.broadcast_to(x[0], (2, 4, 3)))) == {}

    def add_into():
        z = x.copy()
        z += 1
    assert _counts(add_into) == {"d2d": 1, "elementwise": 1, "kernels": 1, "enqueued": 2, "alloc": 1}
    assert _counts(lambda: COUNTING.empty((2, 2))) == {"alloc": 1}
    assert _counts(lambda: COUNTING.zeros((2, 2))) == {"memset": 1, "enqueued": 1, "alloc": 1}
    assert _counts(lambda: COUNTING.concatenate([x, x])) == {"elementwise": 1, "kernels": 1, "enqueued": 1, "alloc": 1}


def test_host_and_device_meet_through_copies_and_syncs():
    x = _on_device(np.arange(6, dtype=np.float32))
    assert _counts(lambda: COUNTING.asarray([1.0, 2.0])) == {"h2d": 1, "enqueued": 1, "alloc": 1}
    assert _counts(lambda: COUNTING.asarray(x)) == {}  # already on the device
    assert _counts(lambda: float(x.sum())) == {"reduction": 1, "d2h": 1, "sync": 1, "kernels": 1, "enqueued": 2,
                                               "alloc": 1}
    assert isinstance(x.sum(), DeviceArray) and x.sum().ndim == 0  # a 0-D result stays on the device, as CuPy's
    assert _counts(lambda: x[0]) == {}  # an element is a 0-D view; reading it is what syncs
    # a boolean mask: the comparison, CuPy's nonzero (count, read by the host, scatter), the gather
    assert _counts(lambda: x[x > 2]) == {"elementwise": 3, "reduction": 1, "d2h": 1, "sync": 1, "kernels": 4,
                                         "enqueued": 5, "alloc": 2}
    assert _counts(lambda: x[np.array([0, 2])]) == {"h2d": 1, "elementwise": 1, "kernels": 1, "enqueued": 2,
                                                    "alloc": 1}
    assert _counts(lambda: x.get()) == {"d2h": 1, "sync": 1, "enqueued": 1}
    dst = _on_device(np.zeros(6, np.float32))
    assert _counts(lambda: COUNTING.copyto(dst, x)) == {"d2d": 1, "enqueued": 1}
    assert _counts(lambda: COUNTING.copyto(dst, 1.5)) == {"elementwise": 1, "kernels": 1, "enqueued": 1}


def test_counts_are_attributed_to_the_op_or_the_caller():
    with count_launches() as c:
        t = paddle.to_tensor(np.ones((2, 3), np.float32))
        paddle.nn.functional.relu(t)
        t.numpy()
    assert c.by_label["paddlelite.framework.tensor.to_array"] == {"h2d": 1, "alloc": 1}
    assert c.by_label["paddlelite.framework.tensor._host"] == {"d2h": 1, "sync": 1}
    assert "relu" in c.by_label


def test_an_op_runs_its_gpu_binding_and_computes_the_numpy_forward():
    """relu_grad has a fused kernel: counted as one RawKernel launch, its values those of the NumPy forward."""
    out, dout = np.array([0.0, 1.5, 2.0], np.float32), np.array([1.0, 2.0, 3.0], np.float32)
    op = get_op("relu_grad")
    with count_launches() as c:
        got = op.forward_for(COUNTING)(COUNTING, out, dout)
    assert isinstance(got, DeviceArray)
    np.testing.assert_array_equal(got, op.forward(np, out, dout))
    assert c.by_label == {"relu_grad": {"raw": 1, "alloc": 1}}


def test_sparse_row_maxima_are_counted_scatters():
    """sparse softmax takes its row maxima through cupyx's scatter_max (the counter's cupyx stand-in), one kernel."""
    x = paddle.to_tensor(np.array([[0.0, 1.0, 2.0], [3.0, 0.0, 0.0]], np.float32)).to_sparse_csr()
    plain = paddle.sparse.nn.functional.softmax(x).to_dense().numpy()
    with count_launches() as c:
        counted = paddle.sparse.nn.functional.softmax(x).to_dense().numpy()
    np.testing.assert_allclose(counted, plain, rtol=1e-6)
    assert c.total("elementwise") > 0


@pytest.mark.parametrize("mode", ["eager", "static", "to_static"])
def test_counted_training_computes_what_numpy_does(mode):
    from tests.step_models import train_step

    def losses():
        step = train_step(paddle, "mlp", mode, small=True)
        return [float(np.asarray(step()[0] if mode == "static" else step())) for _ in range(2)]
    plain = losses()
    with count_launches():
        counted = losses()
    np.testing.assert_allclose(counted, plain, rtol=1e-6)


def test_off_by_default_and_after():
    cpu = paddle.CPUPlace()
    assert cpu.xp is np and launch_count._active[0] is None
    exe = paddle.static.Executor("cpu")
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2], "float32")
            y = paddle.exp(x)
    finally:
        paddle.disable_static()
    feed = {"x": np.ones(2, np.float32)}
    with count_launches() as c:
        exe.run(main, feed=feed, fetch_list=[y])
    assert c.by_label["exp"] == {"raw": 1, "alloc": 1}  # its kernel generated from its expression
    assert cpu.xp is np and launch_count._active[0] is None
    (out,) = exe.run(main, feed=feed, fetch_list=[y])  # a plan of its own, not the counting one
    assert out.__class__ is np.ndarray
    t = paddle.exp(paddle.ones([2]))
    assert t._data.__class__ is np.ndarray


def test_optimizer_updates_parameters_in_place_on_a_device():
    """On a GPU an update writes the parameters where they are: one kernel for all of them (and the gradients'
    addresses sent to the device), no copy back."""
    with count_launches() as c:
        layer = paddle.nn.Linear(4, 3)
        opt = paddle.optimizer.SGD(0.1, parameters=layer.parameters())
        weight = layer.weight._data
        layer(paddle.ones([2, 4])).sum().backward()
        opt.step()  # the first update also sends the parameters' table
        c.reset()
        opt.step()
    assert layer.weight._data is weight
    assert c.by_label["merged_sgd"] == {"raw": 1, "h2d": 1, "alloc": 1} and "paddlelite.framework.tensor._write" not in c.by_label


def test_convolutions_and_batch_norm_count_their_cudnn_graphs():
    """Counting takes the cuDNN path a GPU with cuDNN Frontend takes, Frontend installed here or not: each graph
    run one library call (a convolution's forward one, its backward two: wgrad and dgrad)."""
    data = np.random.default_rng(0).standard_normal((2, 3, 8, 8)).astype(np.float32)
    conv, norm = paddle.nn.Conv2D(3, 4, 3, bias_attr=False), paddle.nn.BatchNorm2D(4)

    def step():
        x = paddle.to_tensor(data, stop_gradient=False)
        y = norm(conv(x))
        y.sum().backward()
        return y.numpy(), x.grad.numpy()

    want = step()
    with count_launches() as c:
        got = step()
    for op in ("conv2d", "batch_norm", "batch_norm_grad"):
        assert c.by_label[op]["library"] == 1, (op, c.by_label[op])
    assert c.by_label["conv2d_grad"]["library"] == 2
    for g, w in zip(got, want):  # the values are the NumPy forwards'
        np.testing.assert_array_equal(g, w)


def test_a_deep_copy_shares_the_ops_counting_resolved():
    """An op keeps the forward it resolved for the counter's array module; a deep copy of what holds the op (a
    quantized layer, a program) shares the op instead of trying to copy that module."""
    import copy
    with count_launches():
        paddle.exp(paddle.ones([2]))
    op = get_op("exp")
    assert copy.deepcopy({"op": op})["op"] is op
