"""All-reduce bandwidth of paddle.distributed.all_reduce, reported as nccl-tests reports it.

Run under MPI, one process per rank (per GPU with --device gpu):

    mpiexec -n 2 python bench/allreduce_bw.py                    # CPU tensors over MPI
    mpiexec -n 8 python bench/allreduce_bw.py --device gpu       # CuPy tensors over NCCL

For each message size: the mean time of one blocking all_reduce (SUM, float32) after warm-up, the
slowest rank's; algbw = bytes / time; busbw = algbw * 2(n-1)/n -- the bandwidth each link must carry
in a ring all-reduce, comparable across rank counts and with nccl-tests' all_reduce_perf. On the CPU
the last column times mpi4py's own Allreduce on the same buffers in the same run: the MPI library's
speed on this machine, so the difference is paddlelite's cost.
`--markdown` prints the table in Markdown with the machine, date and commit (for bench/results/).
"""
import argparse
import datetime
import os
import platform
import subprocess
import time

import numpy as np

import paddlelite as paddle
import paddlelite.distributed as dist


def _sync():
    if paddle.get_device().startswith("gpu"):
        import cupy
        cupy.cuda.get_current_stream().synchronize()


def _timed(step, iters, warmup):
    """Mean seconds per call of step(), the slowest rank's."""
    for _ in range(warmup):
        step()
    _sync()
    dist.barrier()
    start = time.perf_counter()
    for _ in range(iters):
        step()
    _sync()
    mine = paddle.to_tensor(np.array([(time.perf_counter() - start) / iters]))
    dist.all_reduce(mine, op=dist.ReduceOp.MAX)
    return float(mine.numpy()[0])


def measure(nbytes, iters, warmup):
    t = paddle.to_tensor(np.ones(max(nbytes // 4, 1), dtype=np.float32))
    ours = _timed(lambda: dist.all_reduce(t), iters, warmup)
    if paddle.get_device().startswith("gpu"):
        return ours, None
    from mpi4py import MPI
    a, b = np.ones(max(nbytes // 4, 1), dtype=np.float32), np.empty(max(nbytes // 4, 1), dtype=np.float32)
    return ours, _timed(lambda: MPI.COMM_WORLD.Allreduce(a, b), iters, warmup)


def _machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip() or "unknown"
    return cpu, os.cpu_count(), commit


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cpu")
    p.add_argument("--min_bytes", type=int, default=8)
    p.add_argument("--max_bytes", type=int, default=64 << 20)
    p.add_argument("--factor", type=int, default=4)
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args()
    paddle.set_device(args.device)
    dist.init_parallel_env()
    n, rank = dist.get_world_size(), dist.get_rank()
    rows, size = [], args.min_bytes
    while size <= args.max_bytes:
        iters = int(min(200, max(5, (256 << 20) // (size * 16))))
        seconds, raw = measure(size, iters, warmup=max(2, iters // 10))
        algbw = size / seconds / 1e9
        rows.append((size, size // 4, seconds * 1e6, algbw, algbw * 2 * (n - 1) / n, raw))
        size *= args.factor
    if rank != 0:
        return
    backend = dist.get_backend()
    header = ["size (B)", "count", "type", "redop", "time (us)", "algbw (GB/s)", "busbw (GB/s)", "mpi4py time (us)"]
    lines = [[f"{s}", f"{c}", "float", "sum", f"{t:.1f}", f"{a:.3f}", f"{b:.3f}", "-" if r is None else f"{r * 1e6:.1f}"]
             for s, c, t, a, b, r in rows]
    if args.markdown:
        cpu, cores, commit = _machine()
        print(f"all_reduce, {n} ranks, {args.device} over {backend}; {cpu} ({cores} cores); "
              f"{datetime.date.today()}; commit {commit}\n")
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        print(f"# all_reduce over {backend}, {n} ranks, {args.device}")
        print("".join(f"{h:>17}" for h in header))
        for line in lines:
            print("".join(f"{v:>17}" for v in line))
    busbw = [r[4] for r in rows]
    print(f"\n# avg bus bandwidth: {sum(busbw) / len(busbw):.3f} GB/s; peak {max(busbw):.3f} GB/s")


if __name__ == "__main__":
    main()
