"""DataLoader autotuning, paddle.incubate.autotune.set_config's dataloader part (Paddle's io.reader.AuToTune): when
it is on, a DataLoader built over a batch sampler times reading the first `tuning_steps` batches with 0, 2, 4, ...
worker processes (fewer than half the cores) and keeps as its num_workers the fastest -- a candidate must beat the
best so far by a quarter, and the search stops at the first that does not."""
import copy
import multiprocessing
import sys
import time

from .dataset import Subset
from .sampler import BatchSampler, DistributedBatchSampler

_CONFIG = {"enabled": False, "tuning_steps": 500}


def set_autotune_config(use_autotune, tuning_steps=500):
    _CONFIG["enabled"] = bool(use_autotune)
    _CONFIG["tuning_steps"] = int(tuning_steps)


def tuned_num_workers(loader):
    """The num_workers `loader` reads fastest with (its own when tuning is off or cannot apply)."""
    if not _CONFIG["enabled"] or sys.platform in ("darwin", "win32"):
        return loader.num_workers
    probe = _probe(loader)
    if probe is None:
        return loader.num_workers
    best, best_cost, limit = 0, float("inf"), multiprocessing.cpu_count() / 2
    n = 0
    while n < limit:
        probe.num_workers = n
        cost = _batch_cost(probe)
        if cost >= 0.75 * best_cost:
            break
        best, best_cost = n, cost
        n += 2
    return best


def _probe(loader):
    """A copy of `loader` reading the first tuning_steps batches, or None when its batches come otherwise."""
    sampler = loader.batch_sampler
    if not isinstance(sampler, BatchSampler):
        return None
    probe = copy.copy(loader)
    probe._iterator, probe._persistent_workers = None, False
    if isinstance(sampler, DistributedBatchSampler):
        subset = Subset(sampler.dataset, range(min(sampler.batch_size * _CONFIG["tuning_steps"], len(sampler.dataset))))
        probe.batch_sampler = DistributedBatchSampler(subset, sampler.batch_size, num_replicas=sampler.nranks,
                                                      rank=sampler.local_rank, shuffle=sampler.shuffle,
                                                      drop_last=sampler.drop_last)
    else:
        dataset = sampler.sampler.data_source
        subset = Subset(dataset, range(min(sampler.batch_size * _CONFIG["tuning_steps"], len(dataset))))
        probe.batch_sampler = BatchSampler(subset, batch_size=sampler.batch_size, drop_last=sampler.drop_last)
    return probe


def _batch_cost(loader):
    """The mean seconds per batch of reading `loader` once (past its first two batches when it has more)."""
    costs, start = [], time.perf_counter()
    for _ in loader:
        now = time.perf_counter()
        costs.append(now - start)
        start = now
    costs = costs[2:] if len(costs) > 2 else costs
    return sum(costs) / len(costs) if costs else 0.0
