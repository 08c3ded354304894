"""A training script for the launcher tests: one all-reduce, then what argv asks for.
`fail-raise` / `fail-exit[=code]` make rank 1 fail while rank 0 waits in a second all-reduce."""
import sys

import numpy as np

import paddlelite as paddle
import paddlelite.distributed as dist

dist.init_parallel_env()
rank = dist.get_rank()
t = paddle.to_tensor(np.array([rank + 1.0]))
dist.all_reduce(t)
mode = sys.argv[1] if len(sys.argv) > 1 else ""
if rank == 1 and mode == "fail-raise":
    raise ValueError("rank 1 fails on purpose")
if rank == 1 and mode.startswith("fail-exit"):
    sys.exit(int(mode.partition("=")[2] or 7))
if mode.startswith("fail"):
    dist.all_reduce(t)  # rank 0 waits here for a rank that never comes: only an abort ends the job
print(f"rank {rank} of {dist.get_world_size()}: sum {t.numpy()[0]:g}, "
      f"device env {paddle.distributed.ParallelEnv().device_id}", flush=True)
