"""Run under `mpiexec -n N`: every collective against its NumPy definition, several dtypes and shapes.

Rank r's input is `data(r)`, known to every rank, so each rank computes the expected result itself.
"""
import sys

import numpy as np

import paddlelite as paddle
import paddlelite.distributed as dist

DTYPES = ["float32", "float64", "int32", "int64", "float16", "bool"]
SHAPES = [(), (5,), (2, 3, 4)]
NUMPY_REDUCE = {dist.ReduceOp.SUM: lambda a: np.sum(a, 0), dist.ReduceOp.MAX: lambda a: np.max(a, 0),
                dist.ReduceOp.MIN: lambda a: np.min(a, 0), dist.ReduceOp.PROD: lambda a: np.prod(a, 0)}
BOOL_REDUCE = {dist.ReduceOp.SUM: lambda a: np.any(a, 0), dist.ReduceOp.MAX: lambda a: np.any(a, 0),
               dist.ReduceOp.MIN: lambda a: np.all(a, 0), dist.ReduceOp.PROD: lambda a: np.all(a, 0)}


def data(rank, shape, dtype, salt=0):
    rng = np.random.default_rng(1000 * rank + 17 * len(shape) + salt)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    return rng.integers(-3, 4, size=shape).astype(dtype)  # small integers: sums/products are exact


def expect_reduced(arrays, op, dtype):
    stacked = np.stack(arrays)
    return (BOOL_REDUCE if dtype == "bool" else NUMPY_REDUCE)[op](stacked).astype(dtype)


def check(got, want, what):
    got = got.numpy() if hasattr(got, "numpy") else np.asarray(got)
    if got.dtype != want.dtype or got.shape != want.shape or not np.array_equal(got, want):
        raise AssertionError(f"rank {dist.get_rank()}: {what}: got {got!r} ({got.dtype}, {got.shape}), "
                             f"want {want!r} ({want.dtype}, {want.shape})")


def check_static(rank, n):
    """In a static program the collectives are ops the Executor runs (in place, as in Paddle)."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [3], "float32")
        y = paddle.static.data("y", [2, 2], "float64")
        total = paddle.scale(x, 1.0)
        dist.all_reduce(total)
        dist.broadcast(y, src=n - 1)
        parts = []
        dist.all_gather(parts, x)
        stacked = paddle.stack(parts)
    types = [op.type for op in main.global_block().ops]
    assert {"c_allreduce_sum", "c_broadcast", "c_allgather"} <= set(types), types
    xs = [np.arange(3, dtype="float32") + r for r in range(n)]
    ys = [np.full((2, 2), r, dtype="float64") for r in range(n)]
    got = paddle.static.Executor().run(main, feed={"x": xs[rank], "y": ys[rank]}, fetch_list=[total, y, stacked])
    paddle.disable_static()
    check(got[0], np.sum(xs, 0), "static all_reduce")
    check(got[1], ys[n - 1], "static broadcast")
    check(got[2], np.stack(xs), "static all_gather")


def main():
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    assert dist.is_initialized() and dist.ParallelEnv().rank == rank and dist.ParallelEnv().world_size == n
    for dtype in DTYPES:
        for shape in SHAPES:
            mine = data(rank, shape, dtype)
            every = [data(r, shape, dtype) for r in range(n)]
            tag = f"{dtype}{list(shape)}"
            for op in NUMPY_REDUCE:
                for sync in (True, False):
                    t = paddle.to_tensor(mine)
                    task = dist.all_reduce(t, op=op, sync_op=sync)
                    task.wait()
                    check(t, expect_reduced(every, op, dtype), f"all_reduce op={op} sync={sync} {tag}")
                t = paddle.to_tensor(mine)
                dist.reduce(t, dst=n - 1, op=op)
                check(t, expect_reduced(every, op, dtype) if rank == n - 1 else mine, f"reduce op={op} {tag}")
            if dtype != "bool":
                t = paddle.to_tensor(mine)
                dist.all_reduce(t, op=dist.ReduceOp.AVG)
                want = np.mean(np.stack(every).astype("float64"), 0)
                want = want.astype(dtype) if dtype.startswith("float") else np.trunc(want).astype(dtype)
                check(t, want, f"all_reduce AVG {tag}")
            t = paddle.to_tensor(mine)
            dist.broadcast(t, src=1 % n)
            check(t, every[1 % n], f"broadcast {tag}")
            gathered = []
            dist.all_gather(gathered, paddle.to_tensor(mine))
            assert len(gathered) == n
            for r in range(n):
                check(gathered[r], every[r], f"all_gather[{r}] {tag}")
            into = [paddle.to_tensor(np.zeros(shape, dtype)) for _ in range(n)]
            dist.all_gather(into, paddle.to_tensor(mine), sync_op=False).wait()
            for r in range(n):
                check(into[r], every[r], f"all_gather into a list, async [{r}] {tag}")
            parts = []
            dist.gather(paddle.to_tensor(mine), parts if rank == 0 else None, dst=0)
            if rank == 0:
                for r in range(n):
                    check(parts[r], every[r], f"gather[{r}] {tag}")
            # scatter: the src rank's list, one part per rank
            t = paddle.to_tensor(np.zeros(shape, dtype))
            src_list = [paddle.to_tensor(data(0, shape, dtype, salt=r + 1)) for r in range(n)]
            dist.scatter(t, src_list if rank == 0 else None, src=0)
            check(t, data(0, shape, dtype, salt=rank + 1), f"scatter {tag}")
            # reduce_scatter: rank r gets the reduction of every rank's part r
            for op in (dist.ReduceOp.SUM, dist.ReduceOp.MAX):
                t = paddle.to_tensor(np.zeros(shape, dtype))
                dist.reduce_scatter(t, [paddle.to_tensor(data(rank, shape, dtype, salt=p + 1)) for p in range(n)], op=op)
                check(t, expect_reduced([data(r, shape, dtype, salt=rank + 1) for r in range(n)], op, dtype),
                      f"reduce_scatter op={op} {tag}")
            # alltoall: rank r's part p goes to rank p's slot r
            out = []
            dist.alltoall(out, [paddle.to_tensor(data(rank, shape, dtype, salt=p + 1)) for p in range(n)])
            for r in range(n):
                check(out[r], data(r, shape, dtype, salt=rank + 1), f"alltoall[{r}] {tag}")
            if n == 1 and dist.get_backend() == "NCCL":
                continue  # one rank talks to itself, which NCCL allows only as a send and recv in one group
            # send/recv in a ring, blocking (even ranks send first) and nonblocking
            nxt, prv = (rank + 1) % n, (rank - 1) % n
            t = paddle.to_tensor(np.zeros(shape, dtype))
            if rank % 2 == 0:
                dist.send(paddle.to_tensor(mine), dst=nxt)
                dist.recv(t, src=prv)
            else:
                dist.recv(t, src=prv)
                dist.send(paddle.to_tensor(mine), dst=nxt)
            check(t, every[prv], f"send/recv {tag}")
            t = paddle.to_tensor(np.zeros(shape, dtype))
            tasks = [dist.isend(paddle.to_tensor(mine), dst=nxt), dist.irecv(t, src=prv)]
            dist.wait(t)
            for task in tasks:
                task.wait()
                assert task.is_completed()
            check(t, every[prv], f"isend/irecv {tag}")
    # alltoall_single with unequal splits: rank r sends r + p + 1 rows to rank p, each row tagged (r, p, i)
    def rows(src, dst):
        return np.array([[src, dst, i] for i in range(src + dst + 1)], dtype="float32")
    sends = [rank + p + 1 for p in range(n)]
    out = paddle.to_tensor(np.zeros((sum(sends), 3), "float32"))
    dist.alltoall_single(out, paddle.to_tensor(np.concatenate([rows(rank, p) for p in range(n)])), sends, sends)
    check(out, np.concatenate([rows(p, rank) for p in range(n)]), "alltoall_single, unequal splits")
    out = paddle.to_tensor(np.zeros((2 * n, 3), "float32"))
    dist.alltoall_single(out, paddle.to_tensor(np.array([[rank, p, 0] for p in range(n) for _ in range(2)], "float32")))
    check(out, np.array([[p, rank, 0] for p in range(n) for _ in range(2)], "float32"), "alltoall_single, equal")
    # a sub-group of the last rank only: collectives among its members, a no-op for the others
    sub = dist.new_group([n - 1])
    t = paddle.to_tensor(np.array([rank + 1.0]))
    dist.all_reduce(t, group=sub)
    check(t, np.array([rank + 1.0]), "all_reduce in a 1-rank group")
    assert sub.is_member() == (rank == n - 1) and dist.get_group(sub.id) is sub
    # Python objects
    objs = []
    dist.all_gather_object(objs, {"rank": rank})
    assert objs == [{"rank": r} for r in range(n)], objs
    lst = [rank, "x"] if rank == 0 else [None, None]
    dist.broadcast_object_list(lst, src=0)
    assert lst == [0, "x"], lst
    got = []
    dist.scatter_object_list(got, [f"part{r}" for r in range(n)] if rank == 0 else None, src=0)
    assert got == [f"part{rank}"], got
    dist.barrier()
    # errors name the API and the argument
    try:
        dist.all_reduce(paddle.to_tensor([1.0]), op=7)
    except ValueError as e:
        assert "all_reduce" in str(e) and "op" in str(e)
    else:
        raise AssertionError("all_reduce accepted op=7")
    check_static(rank, n)
    backend = dist.get_backend()
    assert backend == ("NCCL" if paddle.get_device().startswith("gpu") else "MPI"), backend
    dist.destroy_process_group()
    assert not dist.is_initialized()
    print(f"rank {rank}: collectives OK ({backend})", flush=True)


if __name__ == "__main__":
    sys.exit(main())
