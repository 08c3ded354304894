"""Run under `mpiexec -n 2`: nn.SyncBatchNorm with each rank holding part of a batch gives what one process's
BatchNorm gives on the whole batch -- outputs, running statistics, and the gradients of x (each rank its
rows), weight and bias (summed over the ranks: each rank's own part, as the data-parallel all-reduce adds
them) -- eager and static (op sync_batch_norm, also from BuildStrategy.sync_batch_norm); a DataParallel training step keeps both ranks' parameters
identical and equal to one process's; and the collectives' gradient rules (c_allreduce_sum, c_identity,
mp_allreduce_sum, and fleet.layers.mpu.mp_ops's _c_identity / _mp_allreduce over them) give Paddle's
gradients, eager and static."""
import sys

import numpy as np

import paddlelite as paddle
import paddlelite.distributed as dist
import paddlelite.nn.functional as F
from paddlelite import nn
from paddlelite.distributed.fleet.layers.mpu import mp_ops
from paddlelite.ops import apply, get_op

C = 3


def close(a, b, what, rtol=1e-11, atol=1e-12):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or not np.allclose(a, b, rtol=rtol, atol=atol):
        diff = np.abs(a - b).max() if a.shape == b.shape else f"shapes {a.shape} vs {b.shape}"
        raise AssertionError(f"rank {dist.get_rank()}: {what}: max |diff| {diff}")


def summed(array):
    """`array` summed over the ranks."""
    t = paddle.to_tensor(array)
    dist.all_reduce(t)
    return t.numpy()


def data(shape, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape) * 2.0 + 3.0  # a mean far from 0: the statistics must be centred well


def bn_params(seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(0.5, 1.5, C), rng.uniform(-0.5, 0.5, C)


def reference(x, w, b, cot, fmt, momentum):
    """One process, plain BatchNorm on the whole batch: y, dx, dw, db, running mean and var."""
    layer = getattr(nn, {2: "BatchNorm1D", 3: "BatchNorm1D", 4: "BatchNorm2D"}[x.ndim])(C, momentum=momentum,
                                                                                           data_format=fmt)
    layer.weight.set_value(w)
    layer.bias.set_value(b)
    xt = paddle.to_tensor(x, stop_gradient=False)
    y = layer(xt)
    (y * paddle.to_tensor(cot)).sum().backward()
    return {"y": y.numpy(), "dx": xt.grad.numpy(), "dw": layer.weight.grad.numpy(), "db": layer.bias.grad.numpy(),
            "mean": layer._mean.numpy(), "var": layer._variance.numpy()}


def check_eager(rank, shape, fmt, rows, seed):
    """Rank r holds rows[r] of the batch's rows (rows per rank may differ)."""
    x, cot = data(shape, seed), data(shape, seed + 1)
    w, b = bn_params(seed + 2)
    ref = reference(x, w, b, cot, fmt, momentum=0.8)
    mine = slice(sum(rows[:rank]), sum(rows[:rank + 1]))
    layer = nn.SyncBatchNorm(C, momentum=0.8, data_format=fmt)
    layer.weight.set_value(w)
    layer.bias.set_value(b)
    xt = paddle.to_tensor(x[mine], stop_gradient=False)
    y = layer(xt)
    (y * paddle.to_tensor(cot[mine])).sum().backward()
    what = f"eager SyncBatchNorm {fmt} {list(shape)} rows {rows}"
    close(y.numpy(), ref["y"][mine], what + ": output")
    close(xt.grad.numpy(), ref["dx"][mine], what + ": x gradient")
    close(summed(layer.weight.grad.numpy()), ref["dw"], what + ": weight gradient summed over the ranks")
    close(summed(layer.bias.grad.numpy()), ref["db"], what + ": bias gradient summed over the ranks")
    close(layer._mean.numpy(), ref["mean"], what + ": running mean")
    close(layer._variance.numpy(), ref["var"], what + ": running variance")
    layer.eval()  # inference: the running statistics, no communication
    close(layer(paddle.to_tensor(x[mine])).numpy(), (x[mine] - _bc(ref["mean"], fmt, x.ndim)) /
          np.sqrt(_bc(ref["var"], fmt, x.ndim) + 1e-5) * _bc(w, fmt, x.ndim) + _bc(b, fmt, x.ndim), what + ": eval")


def _bc(v, fmt, ndim):
    shape = [1] * ndim
    shape[ndim - 1 if fmt in ("NHWC", "NLC") else 1] = -1
    return v.reshape(shape)


def check_static(rank, layer_type, compiled):
    """A static SyncBatchNorm (op sync_batch_norm), or a BatchNorm2D program run through a CompiledProgram
    whose BuildStrategy has sync_batch_norm (Paddle's sync_batch_norm_pass)."""
    shape, fmt, B = (8, C, 2, 3), "NCHW", 4
    x, cot = data(shape, 40), data(shape, 41)
    w, b = bn_params(42)
    ref = reference(x, w, b, cot, fmt, momentum=0.9)
    mine = slice(rank * B, (rank + 1) * B)
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        xv = paddle.static.data("x", [None, C, 2, 3], "float64")
        xv.stop_gradient = False
        gv = paddle.static.data("g", [None, C, 2, 3], "float64")
        layer = getattr(nn, layer_type)(C)
        y = layer(xv)
        grads = paddle.static.gradients([(y * gv).sum()], [xv, layer.weight, layer.bias])
    program = main
    if compiled:
        strategy = paddle.static.BuildStrategy()
        strategy.sync_batch_norm = True
        program = paddle.static.CompiledProgram(main, build_strategy=strategy)
        ran = program._runnable()
        assert "batch_norm" in [op.type for op in main.global_block().ops], "the user's program stays as built"
    else:
        ran = main
    types = [op.type for op in ran.global_block().ops]
    assert "sync_batch_norm" in types and "sync_batch_norm_grad" in types and "batch_norm" not in types, types
    exe = paddle.static.Executor()
    exe.run(startup)
    scope = paddle.static.global_scope()
    scope.find_var(layer.weight.name).get_tensor().set(w)
    scope.find_var(layer.bias.name).get_tensor().set(b)
    out, dx, dw, db = exe.run(program, feed={"x": x[mine], "g": cot[mine]}, fetch_list=[y, *grads])
    mean = np.array(scope.find_var(layer._mean.name).get_tensor())
    var = np.array(scope.find_var(layer._variance.name).get_tensor())
    paddle.disable_static()
    what = f"static {layer_type}{' compiled with sync_batch_norm' if compiled else ''}"
    close(out, ref["y"][mine], f"{what}: output")
    close(dx, ref["dx"][mine], f"{what}: x gradient")
    close(summed(dw), ref["dw"], f"{what}: weight gradient summed over the ranks")
    close(summed(db), ref["db"], f"{what}: bias gradient summed over the ranks")
    close(mean, ref["mean"], f"{what}: running mean")
    close(var, ref["var"], f"{what}: running variance")


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1, self.bn, self.fc2 = nn.Linear(5, C * 4), nn.BatchNorm1D(C), nn.Linear(C * 4, 2)

    def forward(self, x):
        h = self.bn(paddle.reshape(self.fc1(x), [-1, C, 4]))
        return self.fc2(paddle.flatten(F.relu(h), 1))


def check_data_parallel(rank):
    """Two Adam steps: 2-way DataParallel over SyncBatchNorm (converted from BatchNorm1D) against one process
    training on the doubled batch; both ranks end with the same parameters and running statistics."""
    B, STEPS = 3, 2
    rng = np.random.default_rng(60)
    batches = [(rng.standard_normal((2 * B, 5)), rng.standard_normal((2 * B, 2))) for _ in range(STEPS)]
    paddle.seed(61)
    init = Net().state_dict()

    ref = Net()
    ref.set_state_dict(init)
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=ref.parameters())
    for x, y in batches:
        F.mse_loss(ref(paddle.to_tensor(x)), paddle.to_tensor(y)).backward()
        opt.step()
        opt.clear_grad()

    paddle.seed(62 + rank)  # each rank initialises differently: DataParallel broadcasts rank 0's
    net = nn.SyncBatchNorm.convert_sync_batchnorm(Net())
    assert isinstance(net.bn, nn.SyncBatchNorm)
    if rank == 0:
        net.set_state_dict(init)
    model = paddle.DataParallel(net)
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    mine = slice(rank * B, (rank + 1) * B)
    for x, y in batches:
        F.mse_loss(model(paddle.to_tensor(x[mine])), paddle.to_tensor(y[mine])).backward()
        opt.step()
        opt.clear_grad()
    for (name, got), want in zip(net.state_dict().items(), ref.state_dict().values()):
        gathered = []
        dist.all_gather(gathered, paddle.to_tensor(got.numpy()))
        close(gathered[0].numpy(), gathered[1].numpy(), f"DataParallel + SyncBatchNorm: {name} equal on both ranks",
              0, 0)
        close(got.numpy(), want.numpy(), f"DataParallel + SyncBatchNorm: {name} as one process's", 1e-9, 1e-11)


def check_collective_grads(rank):
    """y = collective(x) on every rank, loss_r = sum(y * w_r): Paddle's grad makers give dx_r = sum over the ranks
    of w for c_allreduce_sum and c_identity (an all-reduce backward), w_r for mp_allreduce_sum and model-parallel
    c_allreduce_sum (a copy backward)."""
    ws = [data((2, 3), 70 + r) for r in range(2)]
    x = data((2, 3), 80 + rank)
    cases = [("c_allreduce_sum", {}, sum(ws)), ("c_allreduce_sum", {"use_model_parallel": True}, ws[rank]),
             ("c_identity", {}, sum(ws)), ("mp_allreduce_sum", {}, ws[rank])]
    calls = [(f"{type}{attrs}", lambda t, type=type, attrs=attrs: apply(get_op(type), t, **attrs), type != "c_identity",
              want) for type, attrs, want in cases]
    calls += [("mp_ops._c_identity", mp_ops._c_identity, False, sum(ws)),
              ("mp_ops._mp_allreduce", mp_ops._mp_allreduce, True, ws[rank])]
    for what, call, sums, want in calls:
        xt = paddle.to_tensor(x, stop_gradient=False)
        y = call(xt)
        close(y.numpy(), summed(x) if sums else x, f"eager {what}: forward")
        (y * paddle.to_tensor(ws[rank])).sum().backward()
        close(xt.grad.numpy(), want, f"eager {what}: gradient")

        paddle.enable_static()
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            xv = paddle.static.data("x", [2, 3], "float64")
            xv.stop_gradient = False
            wv = paddle.static.data("w", [2, 3], "float64")
            (dx,) = paddle.static.gradients([(call(xv) * wv).sum()], [xv])
        got = paddle.static.Executor().run(main, feed={"x": x, "w": ws[rank]}, fetch_list=[dx])[0]
        paddle.disable_static()
        close(got, want, f"static {what}: gradient")


def main():
    paddle.set_default_dtype("float64")
    dist.init_parallel_env()
    rank = dist.get_rank()
    assert dist.get_world_size() == 2
    check_collective_grads(rank)
    check_eager(rank, (8, C, 2, 3), "NCHW", [4, 4], 10)
    check_eager(rank, (6, 4, C), "NLC", [3, 3], 20)
    check_eager(rank, (7, C), "NC", [2, 5], 30)  # unequal shares: the statistics weigh each rank by its rows
    check_eager(rank, (5, C, 2), "NCL", [0, 5], 35)  # an empty share
    check_static(rank, "SyncBatchNorm", compiled=False)
    check_static(rank, "BatchNorm2D", compiled=True)
    check_data_parallel(rank)
    print(f"rank {rank}: sync batch norm OK", flush=True)


if __name__ == "__main__":
    sys.exit(main())
