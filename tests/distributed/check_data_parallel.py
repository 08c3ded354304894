"""Run under `mpiexec -n 2`: a model trained 2-way data parallel matches the same model trained on one
process with the doubled batch, step by step -- eager (paddle.DataParallel) and static
(fleet.distributed_optimizer inserting c_allreduce_sum) -- and the two modes agree with each other."""
import sys

import numpy as np

import paddlelite as paddle
import paddlelite.distributed as dist
import paddlelite.nn.functional as F
from paddlelite import nn
from paddlelite.distributed import fleet

STEPS, B = 4, 4  # B rows per rank; the single-process reference takes all 2*B
LR = 2.0 ** -6  # exact in float32: the static learning-rate variable is float32, the eager one float64


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(6, 16), nn.Linear(16, 16), nn.Linear(16, 3)
        self.on_fc1_output_grad = None  # called when backward reaches fc1's output, before fc1's gradients

    def forward(self, x):
        h = paddle.tanh(self.fc1(x))
        if self.on_fc1_output_grad is not None:
            h.register_hook(lambda g: self.on_fc1_output_grad())
        return self.fc3(paddle.tanh(self.fc2(h)))


def batches(n_rows):
    rng = np.random.default_rng(7)
    return [(rng.standard_normal((n_rows, 6)), rng.standard_normal((n_rows, 3))) for _ in range(STEPS)]


def close(a, b, what, rtol=1e-10, atol=1e-12):
    a, b = np.asarray(a), np.asarray(b)
    if not np.allclose(a, b, rtol=rtol, atol=atol):
        raise AssertionError(f"rank {dist.get_rank()}: {what}: max |diff| {np.abs(a - b).max()}")


def values(layer):
    return [p.numpy() for p in layer.parameters()]


def eager_reference(init):
    """One process, the doubled batch: the parameters after each step."""
    net = Net()
    for p, v in zip(net.parameters(), init):
        p.set_value(v)
    opt = paddle.optimizer.Adam(learning_rate=LR, parameters=net.parameters())
    history = []
    for x, y in batches(2 * B):
        loss = F.mse_loss(net(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        history.append(values(net))
    return history


def check_eager(rank, init, reference):
    paddle.seed(100 + rank)  # each rank initialises differently: DataParallel must broadcast rank 0's values
    net = Net()
    if rank == 0:
        for p, v in zip(net.parameters(), init):
            p.set_value(v)
    model = paddle.DataParallel(net, comm_buffer_size=0.0005, last_comm_buffer_size=0.0005)
    assert len(model._reducer.buckets) > 2, "small buffers should give several buckets"
    if paddle.get_device().startswith("gpu"):  # buckets all-reduce on the communicator's own stream
        import cupy
        comm = model._reducer.group.communicator(cupy)
        assert comm.backend == "NCCL" and comm.stream != cupy.cuda.get_current_stream()
    for v, w in zip(values(net), init):
        close(v, w, "parameters broadcast from rank 0", 0, 0)
    opt = paddle.optimizer.Adam(learning_rate=LR, parameters=model.parameters())
    launched_before_fc1 = []
    net.on_fc1_output_grad = lambda: launched_before_fc1.append(model._reducer.launched)
    for step, (x, y) in enumerate(batches(2 * B)):
        mine = slice(rank * B, (rank + 1) * B)
        loss = F.mse_loss(model(paddle.to_tensor(x[mine])), paddle.to_tensor(y[mine]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        for got, want in zip(values(net), reference[step]):
            close(got, want, f"eager DataParallel step {step}")
    # overlap: the last layers' buckets were all-reducing before backward reached the first layer
    assert len(launched_before_fc1) == STEPS and all(n > 0 for n in launched_before_fc1), launched_before_fc1
    net.on_fc1_output_grad = None
    return values(net)


def check_no_sync_and_unused(rank, init):
    # no_sync: two micro-batches, the first accumulates locally, the second all-reduces the sum
    net, ref = Net(), Net()
    for p, q, v in zip(net.parameters(), ref.parameters(), init):
        p.set_value(v)
        q.set_value(v)
    model = paddle.DataParallel(net)
    (x1, y1), (x2, y2) = batches(2 * B)[:2]
    mine = slice(rank * B, (rank + 1) * B)
    with model.no_sync():
        F.mse_loss(model(paddle.to_tensor(x1[mine])), paddle.to_tensor(y1[mine])).backward()
    local = [p.grad.numpy() for p in net.parameters()]
    F.mse_loss(model(paddle.to_tensor(x2[mine])), paddle.to_tensor(y2[mine])).backward()
    for x, y in ((x1, y1), (x2, y2)):
        F.mse_loss(ref(paddle.to_tensor(x)), paddle.to_tensor(y)).backward()
    for p, q in zip(net.parameters(), ref.parameters()):
        close(p.grad.numpy(), q.grad.numpy(), "no_sync accumulation then all-reduce")
    gathered = []
    dist.all_gather(gathered, paddle.to_tensor(local[0]))
    assert not np.allclose(gathered[0].numpy(), gathered[1].numpy()), "no_sync grads must stay local"

    # find_unused_parameters: `extra` takes part on rank 0 only; both ranks end with half rank 0's gradient
    class Branchy(nn.Layer):
        def __init__(self):
            super().__init__()
            self.body, self.extra = nn.Linear(6, 3), nn.Linear(3, 3)

        def forward(self, x, use_extra):
            h = self.body(x)
            return self.extra(h) if use_extra else h

    paddle.seed(5)
    net = Branchy()
    plain = Branchy()
    plain.set_state_dict(net.state_dict())
    model = paddle.DataParallel(net, find_unused_parameters=True)
    x, y = batches(2 * B)[0]
    F.mse_loss(model(paddle.to_tensor(x[mine]), rank == 0), paddle.to_tensor(y[mine])).backward()
    F.mse_loss(plain(paddle.to_tensor(x[:B]), True), paddle.to_tensor(y[:B])).backward()
    close(net.extra.weight.grad.numpy(), plain.extra.weight.grad.numpy() / 2, "find_unused_parameters")

    # without find_unused_parameters, an unused parameter is reported at the next forward
    model = paddle.DataParallel(Branchy())
    F.mse_loss(model(paddle.to_tensor(x[mine]), False), paddle.to_tensor(y[mine])).backward()
    try:
        model(paddle.to_tensor(x[mine]), False)
    except RuntimeError as e:
        assert "find_unused_parameters=True" in str(e), e
    else:
        raise AssertionError("an unused parameter without find_unused_parameters was not reported")


def check_fleet_eager(rank, init, reference):
    net = Net()
    for p, v in zip(net.parameters(), init):
        p.set_value(v)
    model = fleet.distributed_model(net)
    assert isinstance(model, paddle.DataParallel)
    opt = fleet.distributed_optimizer(paddle.optimizer.Adam(learning_rate=LR, parameters=model.parameters()))
    x, y = batches(2 * B)[0]
    mine = slice(rank * B, (rank + 1) * B)
    F.mse_loss(model(paddle.to_tensor(x[mine])), paddle.to_tensor(y[mine])).backward()
    opt.step()
    opt.clear_grad()
    for got, want in zip(values(net), reference[0]):
        close(got, want, "fleet.distributed_model + distributed_optimizer, eager")
    assert fleet.worker_num() == 2 and fleet.worker_index() == rank and fleet.is_first_worker() == (rank == 0)


def check_sampler(rank):
    ds = paddle.io.TensorDataset([paddle.to_tensor(np.arange(2 * B * 2, dtype="float64").reshape(-1, 1))])
    sampler = paddle.io.DistributedBatchSampler(ds, batch_size=B)  # rank and world size from the environment
    assert sampler.nranks == 2 and sampler.local_rank == rank
    got = [b for b in sampler]
    assert got == [list(range(rank * B, rank * B + B)), list(range(2 * B + rank * B, 2 * B + rank * B + B))], got


def check_static(rank, init, reference):
    paddle.enable_static()
    paddle.seed(200 + rank)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 6], "float64")
        y = paddle.static.data("y", [None, 3], "float64")
        loss = F.mse_loss(Net()(x), y)
        opt = fleet.distributed_optimizer(paddle.optimizer.Adam(learning_rate=LR))
        opt.minimize(loss)
    types = [op.type for op in main.global_block().ops]
    assert types.count("c_allreduce_sum") == 6, types
    assert types.index("c_allreduce_sum") < types.index("adam"), types  # Paddle's static Adam: one op per parameter
    assert [op.type for op in startup.global_block().ops].count("c_broadcast") == 6
    exe = paddle.static.Executor()  # the current device: the CPU, or this rank's GPU
    exe.run(startup)
    params = main.global_block().all_parameters()
    scope = paddle.static.global_scope()
    gathered = []
    dist.all_gather_object(gathered, np.array(scope.find_var(params[0].name).get_tensor()))
    close(gathered[0], gathered[1], "startup broadcast the first rank's parameters", 0, 0)
    for p, v in zip(params, init):
        scope.find_var(p.name).get_tensor().set(v)
    mine = slice(rank * B, (rank + 1) * B)
    for step, (xb, yb) in enumerate(batches(2 * B)):
        exe.run(main, feed={"x": xb[mine], "y": yb[mine]})
        got = [np.array(scope.find_var(p.name).get_tensor()) for p in params]
        for g, w in zip(got, reference[step]):
            close(g, w, f"static fleet step {step}")
    paddle.disable_static()
    return got


def main():
    paddle.set_default_dtype("float64")
    fleet.init(is_collective=True)
    rank = dist.get_rank()
    assert dist.get_world_size() == 2
    paddle.seed(100)
    init = values(Net())
    reference = eager_reference(init)
    eager = check_eager(rank, init, reference)
    check_no_sync_and_unused(rank, init)
    check_fleet_eager(rank, init, reference)
    check_sampler(rank)
    static = check_static(rank, init, reference)
    for e, s in zip(eager, static):
        close(e, s, "eager and static data parallel agree")
    print(f"rank {rank}: data parallel OK", flush=True)


if __name__ == "__main__":
    sys.exit(main())
