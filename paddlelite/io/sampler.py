"""Samplers: SequenceSampler, RandomSampler, WeightedRandomSampler, SubsetRandomSampler, BatchSampler,
DistributedBatchSampler (shards by the real rank and world size).

Randomness follows Paddle's sources exactly: RandomSampler and WeightedRandomSampler draw from NumPy's
global generator (`np.random.seed(s)` gives Paddle's very orders), SubsetRandomSampler from
`paddle.randperm` (paddle.seed). Argument errors keep Paddle's classes (AssertionError where Paddle
asserts), with messages naming the API and argument.
"""
from collections.abc import Iterable

import numpy as np

from .dataset import IterableDataset, assert_arg

__all__ = ["Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler", "SubsetRandomSampler",
           "BatchSampler", "DistributedBatchSampler"]


def _is_int(value):
    return isinstance(value, (int, np.integer))


class Sampler:
    def __init__(self, data_source=None):
        self.data_source = data_source

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__}: a Sampler subclass must define __iter__")


class SequenceSampler(Sampler):
    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation of num_samples indices (or num_samples draws with replacement); `generator`
    is an iterator of indices used instead (iteration ends with it, as in Paddle)."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        super().__init__(data_source)
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"RandomSampler: replacement must be a bool, received {replacement!r}")
        if not replacement and self.num_samples > len(data_source):
            raise ValueError(f"RandomSampler: num_samples must be at most len(data_source) when replacement is "
                             f"False, received num_samples={self.num_samples} > {len(data_source)}")
        if not _is_int(self.num_samples) or self.num_samples <= 0:
            raise ValueError(f"RandomSampler: num_samples must be a positive int, received {self.num_samples!r}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        if self.generator:
            for _ in range(self.num_samples):
                try:
                    index = next(self.generator)
                except StopIteration:
                    return
                yield index
            return
        n = len(self.data_source)
        yield from np.random.choice(np.arange(n), self.num_samples, replace=self.replacement).tolist()

    def __len__(self):
        return self.num_samples


class WeightedRandomSampler(Sampler):
    """num_samples indices drawn with probabilities proportional to `weights` (a 2-D weights draws
    num_samples per row, concatenated)."""

    def __init__(self, weights, num_samples, replacement=True):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"WeightedRandomSampler: num_samples must be a positive int, received {num_samples!r}")
        if not isinstance(replacement, bool):
            raise ValueError(f"WeightedRandomSampler: replacement must be a bool, received {replacement!r}")
        self.weights, self.num_samples, self.replacement = weights, num_samples, replacement

    def _rows(self):
        from ..framework.tensor import Tensor
        w = self.weights
        assert_arg(isinstance(w, (Tensor, np.ndarray, list, tuple)),
                   f"WeightedRandomSampler: weights must be a Tensor, numpy.ndarray, list or tuple, "
                   f"received {type(w).__name__}")
        w = np.asarray(w.numpy() if isinstance(w, Tensor) else w, dtype=np.float64)
        assert_arg(w.ndim in (1, 2),
                   f"WeightedRandomSampler: weights must be 1-D or 2-D, received shape {list(w.shape)}")
        return w.reshape(-1, w.shape[-1])

    def __iter__(self):
        w = self._rows()
        assert_arg(not np.isinf(w).any(), "WeightedRandomSampler: weights must not contain INF")
        if np.isnan(w).any():
            raise ValueError("WeightedRandomSampler: weights must not contain NaN")
        assert_arg((w >= 0).all(), "WeightedRandomSampler: weights must be non-negative")
        positive = (w > 0).sum(axis=1)
        assert_arg((positive > 0).all(), "WeightedRandomSampler: every row of weights needs a positive value")
        assert_arg(self.replacement or (positive >= self.num_samples).all(),
                   f"WeightedRandomSampler: with replacement=False, num_samples ({self.num_samples}) must not exceed "
                   f"the number of positive weights ({positive.min()})")
        p = w / w.sum(axis=1, keepdims=True)
        rows = [np.random.choice(w.shape[1], self.num_samples, self.replacement, row) for row in p]
        return iter(np.array(rows).reshape(-1).tolist())

    def __len__(self):
        return self.num_samples * self._rows().shape[0]


class SubsetRandomSampler(Sampler):
    """The given indices in a random order (paddle.randperm)."""

    def __init__(self, indices):
        if len(indices) == 0:
            raise ValueError("SubsetRandomSampler: indices must not be empty")
        self.indices = indices

    def __iter__(self):
        from ..tensor.creation import randperm
        for i in randperm(len(self.indices)).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class BatchSampler(Sampler):
    """Groups the indices of `sampler` (or of a Sequence/RandomSampler over `dataset`) into batches."""

    def __init__(self, dataset=None, sampler=None, shuffle=False, batch_size=1, drop_last=False):
        if dataset is None:
            assert_arg(sampler is not None, "BatchSampler: either dataset or sampler must be given")
            assert_arg(isinstance(sampler, (Sampler, Iterable)),
                       f"BatchSampler: sampler must be a paddle.io.Sampler or an iterable, received "
                       f"{type(sampler).__name__}")
            assert_arg(not shuffle, "BatchSampler: shuffle must be False when a sampler is given")
        else:
            assert_arg(not isinstance(dataset, IterableDataset),
                       "BatchSampler: dataset must not be a paddle.io.IterableDataset")
            assert_arg(sampler is None, "BatchSampler: give dataset or sampler, not both")
            assert_arg(isinstance(shuffle, bool), f"BatchSampler: shuffle must be a bool, received {shuffle!r}")
            sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        assert_arg(_is_int(batch_size) and batch_size > 0,
                   f"BatchSampler: batch_size must be a positive int, received {batch_size!r}")
        assert_arg(isinstance(drop_last, bool), f"BatchSampler: drop_last must be a bool, received {drop_last!r}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last

    def _indices(self):
        return self.sampler

    def __iter__(self):
        batch = []
        for idx in self._indices():
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

    def _indices(self):
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

    def __len__(self):
        return (self.num_samples + (0 if self.drop_last else self.batch_size - 1)) // self.batch_size

    def set_epoch(self, epoch):
        self.epoch = epoch
