"""Launches per training step on a GPU, counted by CUDA's own profiler, beside paddlelite's CPU count
(device.count_launches) and PyTorch's kernel count for the same step (issue 24: "launches per step measured by
CUDA's own profiler beside the CPU count").

For each model of tests/step_models.py: paddlelite eager, static Executor and to_static on the GPU, and PyTorch
eager, each after warm-up steps, profiled with torch.profiler (CUPTI records every kernel of the process,
CuPy's included) over STEPS steps; and the same paddlelite steps counted on the CPU. One JSON line per
(model, mode) goes to stdout and to --out.

Run on a GPU machine: python bench/profile_steps.py --out launches.json [--models mlp cnn]
"""
import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

STEPS, WARM_UP = 3, 2


def _profiled(step, torch, sync):
    """{kernels, memcpy, memset} per step, from CUDA's profiler, and the step's median wall time (ms)."""
    from torch.profiler import ProfilerActivity, profile
    for _ in range(WARM_UP):
        step()
    sync()
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        step()
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(STEPS):
            step()
        sync()
    counts = {"kernels": 0, "memcpy": 0, "memset": 0}
    for e in prof.events():
        if e.device_type != torch.autograd.DeviceType.CUDA:
            continue
        name = e.name.lower()
        kind = "memcpy" if name.startswith("memcpy") else "memset" if name.startswith("memset") else "kernels"
        counts[kind] += 1
    return {k: v / STEPS for k, v in counts.items()}, float(np.median(times))


def _cpu_count(paddle, train_step, name, mode):
    from paddlelite.device.launch_count import count_launches
    paddle.set_device("cpu")
    with count_launches() as counter:
        step = train_step(paddle, name, mode, small=True)  # the same counts (tests/test_launch_budgets.py), sooner
        for _ in range(WARM_UP):
            step()
        counter.reset()
        step()
    return counter.summary()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="launches.json")
    parser.add_argument("--models", nargs="*", default=None)
    args = parser.parse_args()
    import torch

    import paddlelite as paddle
    from bench.torch_step_models import torch_train_step
    from tests.step_models import MODELS, MODES, train_step
    rows = []
    for name in args.models or list(MODELS):
        for mode in (*MODES, "torch"):
            row = {"model": name, "mode": mode}
            try:
                if mode == "torch":
                    step = torch_train_step(torch, name)
                else:
                    row["cpu_count"] = _cpu_count(paddle, train_step, name, mode)
                    paddle.set_device("gpu")
                    step = train_step(paddle, name, mode)
                row["cuda_profiler"], row["step_ms"] = _profiled(step, torch, torch.cuda.synchronize)
            except Exception as e:  # noqa: BLE001 -- one failing step must not lose the others' numbers
                row["error"] = f"{type(e).__name__}: {e}"[:500]
            finally:
                paddle.set_device("cpu")
            print(json.dumps(row), flush=True)
            rows.append(row)
    with open(args.out, "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
