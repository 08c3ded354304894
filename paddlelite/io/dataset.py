"""Datasets: map-style Dataset, IterableDataset, TensorDataset, ComposeDataset, ChainDataset, Subset,
random_split."""
import bisect
import math

import numpy as np

from ..framework import user_warnings as _user_warnings
from ..device.place import Place
from ..framework.tensor import Tensor, wrap_array

_CPU = Place("cpu")

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset", "Subset",
           "ConcatDataset", "random_split"]


def assert_arg(ok, message):
    """paddle.io asserts its arguments (AssertionError); raised explicitly so `python -O` keeps the check."""
    if not ok:
        raise AssertionError(message)


class Dataset:
    """Map-style dataset: define __getitem__(idx) and __len__()."""

    def __getitem__(self, idx):
        raise NotImplementedError(f"{type(self).__name__} must define __getitem__ to be used as a Dataset")

    def __len__(self):
        raise NotImplementedError(f"{type(self).__name__} must define __len__ to be used as a Dataset")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """Stream-style dataset: define __iter__()."""

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__} must define __iter__ to be used as an IterableDataset")

    def __getitem__(self, idx):
        raise RuntimeError(f"{type(self).__name__} is an IterableDataset: it cannot be indexed")

    def __len__(self):
        raise RuntimeError(f"{type(self).__name__} is an IterableDataset: it has no len()")


class TensorDataset(Dataset):
    """Samples are the idx-th rows of each tensor (all tensors share their first dim); Tensor inputs give
    Tensor rows, NumPy inputs NumPy rows, as in Paddle. Unlike Paddle it also works in static mode (the
    rows come from host copies, not from the Tensors)."""

    def __init__(self, tensors):
        if not isinstance(tensors, (list, tuple)) or not tensors:
            raise TypeError("TensorDataset: tensors must be a non-empty list of Tensors")
        for i, t in enumerate(tensors):
            if not isinstance(t, (Tensor, np.ndarray)):
                raise TypeError(f"TensorDataset: tensors[{i}] must be a Tensor, received {type(t).__name__}")
        n = tensors[0].shape[0]
        if any(t.shape[0] != n for t in tensors):
            raise AssertionError(f"TensorDataset: all tensors need the same first dim, received "
                                 f"{[t.shape[0] for t in tensors]}")
        # rows are served from host copies (as CPU Tensors), so worker processes never touch a GPU
        self._is_tensor = [isinstance(t, Tensor) for t in tensors]
        self.tensors = [t.numpy() if isinstance(t, Tensor) else t for t in tensors]

    def __getitem__(self, index):
        return tuple(wrap_array(t[index], _CPU, True) if is_tensor else t[index]
                     for t, is_tensor in zip(self.tensors, self._is_tensor))

    def __len__(self):
        return self.tensors[0].shape[0]


class ComposeDataset(Dataset):
    """Zip several same-length datasets: sample i is the concatenation of their i-th samples."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        assert_arg(self.datasets, "ComposeDataset: datasets must not be empty")
        for i, d in enumerate(self.datasets):
            assert_arg(isinstance(d, Dataset),
                       f"ComposeDataset: datasets[{i}] must be a paddle.io.Dataset, received {type(d).__name__}")
            assert_arg(not isinstance(d, IterableDataset),
                       f"ComposeDataset: datasets[{i}] is an IterableDataset, which is not supported")
            assert_arg(i == 0 or len(d) == len(self.datasets[i - 1]),
                       f"ComposeDataset: all datasets must have the same length, received "
                       f"{[len(d) for d in self.datasets]}")

    def __len__(self):
        return len(self.datasets[0])

    def __getitem__(self, idx):
        out = []
        for d in self.datasets:
            s = d[idx]
            out.extend(s if isinstance(s, (list, tuple)) else [s])
        return tuple(out)


class ChainDataset(IterableDataset):
    def __init__(self, datasets):
        self.datasets = list(datasets)
        assert_arg(self.datasets, "ChainDataset: datasets must not be empty")
        for i, d in enumerate(self.datasets):
            assert_arg(isinstance(d, IterableDataset),
                       f"ChainDataset: datasets[{i}] must be a paddle.io.IterableDataset, received {type(d).__name__}")

    def __iter__(self):
        for d in self.datasets:
            yield from d


class ConcatDataset(Dataset):
    def __init__(self, datasets):
        self.datasets = list(datasets)
        assert_arg(self.datasets, "ConcatDataset: datasets must not be empty")
        for i, d in enumerate(self.datasets):
            assert_arg(not isinstance(d, IterableDataset),
                       f"ConcatDataset: datasets[{i}] is an IterableDataset, which is not supported")
        self.cumulative_sizes = np.cumsum([len(d) for d in self.datasets]).tolist()

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError(f"ConcatDataset: index {idx} is out of range for {len(self)} samples")
            idx += len(self)
        if idx >= len(self):
            raise IndexError(f"ConcatDataset: index {idx} is out of range for {len(self)} samples")
        d = bisect.bisect_right(self.cumulative_sizes, idx)
        prev = 0 if d == 0 else self.cumulative_sizes[d - 1]
        return self.datasets[d][idx - prev]


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset, self.indices = dataset, list(indices)

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    """Split into non-overlapping Subsets of the given lengths (fractions summing to 1 also work);
    the permutation is paddle.randperm's, as in Paddle."""
    from ..tensor.creation import randperm
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        for i, frac in enumerate(lengths):
            if not 0 <= frac <= 1:
                raise ValueError(f"random_split: the fraction lengths[{i}]={frac} is not between 0 and 1")
        counts = [math.floor(n * f) for f in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        for i, c in enumerate(counts):
            if c == 0:
                _user_warnings.warn(f"random_split: split {i} has length 0; it gives an empty dataset")
        lengths = counts
    if sum(lengths) != n:
        raise ValueError(f"random_split: the lengths sum to {sum(lengths)}, the dataset has {n} samples")
    perm = randperm(n).tolist()
    out, off = [], 0
    for length in lengths:
        out.append(Subset(dataset, perm[off:off + length]))
        off += length
    return out
