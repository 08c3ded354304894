"""Samplers: SequenceSampler, RandomSampler (paddle.seed-reproducible), WeightedRandomSampler,
SubsetRandomSampler, BatchSampler, DistributedBatchSampler (shards by the real rank and world size)."""
import numpy as np

from ..framework.random import get_rng

__all__ = ["Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler", "SubsetRandomSampler",
           "BatchSampler", "DistributedBatchSampler"]


class Sampler:
    def __init__(self, data_source=None):
        self.data_source = data_source

    def __iter__(self):
        raise TypeError(f"{type(self).__name__} must define __iter__")


class SequenceSampler(Sampler):
    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation (or, with replacement, num_samples draws) from paddle.seed's generator."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        super().__init__(data_source)
        if not isinstance(replacement, bool):
            raise TypeError(f"RandomSampler: replacement must be a bool, received {type(replacement).__name__}")
        if num_samples is not None and not replacement:
            raise ValueError("RandomSampler: num_samples can only be given with replacement=True")
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        if self.generator is not None:
            for _ in range(self.num_samples):
                yield next(self.generator) if hasattr(self.generator, "__next__") else self.generator()
            return
        rng = get_rng(np)
        if self.replacement:
            yield from rng.integers(0, n, size=self.num_samples).tolist()
        else:
            yield from rng.permutation(n).tolist()

    def __len__(self):
        return self.num_samples


class WeightedRandomSampler(Sampler):
    def __init__(self, weights, num_samples, replacement=True):
        w = np.asarray(weights.numpy() if hasattr(weights, "numpy") else weights, dtype=np.float64)
        if w.ndim != 1 or (w < 0).any() or w.sum() <= 0:
            raise ValueError("WeightedRandomSampler: weights must be a 1-D list of non-negative numbers, not all 0")
        if not replacement and num_samples > len(w):
            raise ValueError("WeightedRandomSampler: num_samples exceeds the number of weights without replacement")
        self.weights, self.num_samples, self.replacement = w, int(num_samples), replacement

    def __iter__(self):
        p = self.weights / self.weights.sum()
        return iter(get_rng(np).choice(len(p), self.num_samples, replace=self.replacement, p=p).tolist())

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    def __init__(self, indices):
        self.indices = list(indices)

    def __iter__(self):
        return iter([self.indices[i] for i in get_rng(np).permutation(len(self.indices))])

    def __len__(self):
        return len(self.indices)


class BatchSampler(Sampler):
    """Groups the indices of `sampler` (or of a Sequence/RandomSampler over `dataset`) into batches."""

    def __init__(self, dataset=None, sampler=None, shuffle=False, batch_size=1, drop_last=False):
        if (dataset is None) == (sampler is None):
            raise ValueError("BatchSampler: give exactly one of dataset and sampler")
        if not isinstance(batch_size, (int, np.integer)) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"BatchSampler: batch_size must be a positive int, received {batch_size!r}")
        if not isinstance(shuffle, bool):
            raise TypeError(f"BatchSampler: shuffle must be a bool, received {type(shuffle).__name__}")
        if not isinstance(drop_last, bool):
            raise TypeError(f"BatchSampler: drop_last must be a bool, received {type(drop_last).__name__}")
        if sampler is None:
            sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        elif shuffle:
            raise ValueError("BatchSampler: shuffle must be False when a sampler is given")
        self.sampler = sampler
        self.batch_size = int(batch_size)
        self.drop_last = drop_last
        self.shuffle = shuffle

    def __iter__(self):
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size


class DistributedBatchSampler(BatchSampler):
    """Each rank's share of the dataset, in Paddle's layout: the indices are padded (by repeating
    them) to a multiple of num_replicas, optionally shuffled by a RandomState seeded with the epoch
    (the same order on every rank), then dealt out batch by batch -- rank r takes batch r of every
    num_replicas consecutive batches, and an equal slice of the last, short round. num_replicas and
    rank default to the real world size and rank (paddle.distributed.ParallelEnv)."""

    def __init__(self, dataset, batch_size, num_replicas=None, rank=None, shuffle=False, drop_last=False):
        api = "DistributedBatchSampler"
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise AssertionError(f"{api}: batch_size should be a positive integer, received {batch_size!r}")
        if not isinstance(shuffle, bool):
            raise AssertionError(f"{api}: shuffle should be a boolean value, received {shuffle!r}")
        if not isinstance(drop_last, bool):
            raise AssertionError(f"{api}: drop_last should be a boolean number, received {drop_last!r}")
        from ..distributed.env import ParallelEnv  # io and distributed share floor 6
        if num_replicas is not None and (not isinstance(num_replicas, int) or num_replicas <= 0):
            raise AssertionError(f"{api}: num_replicas should be a positive integer, received {num_replicas!r}")
        if rank is not None and (not isinstance(rank, int) or rank < 0):
            raise AssertionError(f"{api}: rank should be a non-negative integer, received {rank!r}")
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.nranks = ParallelEnv().nranks if num_replicas is None else num_replicas
        self.local_rank = ParallelEnv().local_rank if rank is None else rank
        self.epoch = 0
        self.num_samples = -(-len(dataset) // self.nranks)
        self.total_size = self.num_samples * self.nranks

    def _my_indices(self):
        n = len(self.dataset)
        indices = list(range(n))
        pad = self.total_size - n
        indices += (indices * -(-pad // n))[:pad] if n else []
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks == 1:
            return indices
        step = self.batch_size * self.nranks
        tail = self.total_size % step
        mine = []
        for i in range(self.local_rank * self.batch_size, len(indices) - tail, step):
            mine.extend(indices[i:i + self.batch_size])
        per_rank = tail // self.nranks
        last = indices[len(indices) - tail:]
        mine.extend(last[self.local_rank * per_rank:(self.local_rank + 1) * per_rank])
        return mine

    def __iter__(self):
        batch = []
        for idx in self._my_indices():
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        return (self.num_samples + (0 if self.drop_last else self.batch_size - 1)) // self.batch_size

    def set_epoch(self, epoch):
        self.epoch = epoch
