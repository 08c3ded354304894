"""paddle.distributed.spawn from a script: the function is found again in the re-run script."""
import sys

import numpy as np

import paddlelite as paddle
import paddlelite.distributed as dist


def train(fail, results):
    dist.init_parallel_env()
    t = paddle.to_tensor(np.array([dist.get_rank() + 1.0]))
    dist.all_reduce(t)
    if fail and dist.get_rank() == 1:
        raise RuntimeError("spawned rank 1 fails")
    with open(f"{results}.{dist.get_rank()}", "w") as f:
        f.write(f"{t.numpy()[0]:g}")


if __name__ == "__main__":
    fail, results = sys.argv[1] == "fail", sys.argv[2]
    try:
        context = dist.spawn(train, args=(fail, results), nprocs=2)
    except Exception as e:
        print("spawn raised:", e)
        sys.exit(3)
    print("joined", context.nprocs, [open(f"{results}.{r}").read() for r in range(2)])
