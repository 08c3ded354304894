"""Datasets: map-style Dataset, IterableDataset, TensorDataset, ComposeDataset, ChainDataset, Subset,
random_split."""
import bisect

import numpy as np

from ..framework.tensor import Tensor

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset", "Subset",
           "ConcatDataset", "random_split"]


class Dataset:
    """Map-style dataset: define __getitem__(idx) and __len__()."""

    def __getitem__(self, idx):
        raise TypeError(f"{type(self).__name__} must define __getitem__ to be used as a Dataset")

    def __len__(self):
        raise TypeError(f"{type(self).__name__} must define __len__ to be used as a Dataset")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """Stream-style dataset: define __iter__()."""

    def __iter__(self):
        raise TypeError(f"{type(self).__name__} must define __iter__ to be used as an IterableDataset")

    def __getitem__(self, idx):
        raise TypeError(f"{type(self).__name__} is an IterableDataset: it cannot be indexed")

    def __len__(self):
        raise TypeError(f"{type(self).__name__} is an IterableDataset: it has no len()")


class TensorDataset(Dataset):
    """Samples are the idx-th rows of each tensor (all tensors share their first dim)."""

    def __init__(self, tensors):
        if not isinstance(tensors, (list, tuple)) or not tensors:
            raise TypeError("TensorDataset: tensors must be a non-empty list of Tensors")
        for i, t in enumerate(tensors):
            if not isinstance(t, (Tensor, np.ndarray)):
                raise TypeError(f"TensorDataset: tensors[{i}] must be a Tensor, received {type(t).__name__}")
        n = tensors[0].shape[0]
        if any(t.shape[0] != n for t in tensors):
            raise ValueError(f"TensorDataset: all tensors need the same first dim, received "
                             f"{[t.shape[0] for t in tensors]}")
        # rows are served from host copies; the DataLoader's collate builds the batch tensors
        self.tensors = [t.numpy() if isinstance(t, Tensor) else t for t in tensors]

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


class ComposeDataset(Dataset):
    """Zip several same-length datasets: sample i is the concatenation of their i-th samples."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("ComposeDataset: datasets must not be empty")
        n = len(self.datasets[0])
        if any(len(d) != n for d in self.datasets):
            raise ValueError("ComposeDataset: all datasets must have the same length")

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

    def __iter__(self):
        for d in self.datasets:
            yield from d


class ConcatDataset(Dataset):
    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("ConcatDataset: datasets must not be empty")
        self.cumulative_sizes = list(np.cumsum([len(d) for d in self.datasets]))

    def __len__(self):
        return int(self.cumulative_sizes[-1])

    def __getitem__(self, idx):
        if idx < 0:
            idx += len(self)
        if not 0 <= idx < len(self):
            raise IndexError(f"ConcatDataset: index out of range for {len(self)} samples")
        d = bisect.bisect_right(self.cumulative_sizes, idx)
        prev = 0 if d == 0 else int(self.cumulative_sizes[d - 1])
        return self.datasets[d][idx - prev]


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset, self.indices = dataset, list(indices)

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    """Split into non-overlapping Subsets of the given lengths (fractions summing to 1 also work)."""
    from ..framework.random import get_rng
    n = len(dataset)
    if all(0 <= l <= 1 for l in lengths) and abs(sum(lengths) - 1) < 1e-6 and sum(lengths) != n:
        counts = [int(np.floor(n * f)) for f in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
    if sum(lengths) != n:
        raise ValueError(f"random_split: the lengths sum to {sum(lengths)}, the dataset has {n} samples")
    perm = get_rng(np).permutation(n).tolist()
    out, off = [], 0
    for l in lengths:
        out.append(Subset(dataset, perm[off:off + l]))
        off += l
    return out
