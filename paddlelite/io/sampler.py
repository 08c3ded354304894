"""Samplers: SequenceSampler, RandomSampler (paddle.seed-reproducible), WeightedRandomSampler,
SubsetRandomSampler, BatchSampler, DistributedBatchSampler (single process)."""
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
    """Single-process form of Paddle's DistributedBatchSampler: rank 0 of num_replicas=1 sees everything."""

    def __init__(self, dataset, batch_size, num_replicas=None, rank=None, shuffle=False, drop_last=False):
        if num_replicas not in (None, 1) or rank not in (None, 0):
            raise ValueError("DistributedBatchSampler: paddlelite runs one process (num_replicas=1, rank=0)")
        super().__init__(dataset=dataset, shuffle=shuffle, batch_size=batch_size, drop_last=drop_last)
        self.epoch = 0

    def set_epoch(self, epoch):
        self.epoch = epoch
