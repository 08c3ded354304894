"""Data loading: Dataset, TensorDataset, samplers, DataLoader."""
from .dataloader import DataLoader, default_collate_fn, default_convert_fn, get_worker_info  # noqa: F401
from .dataset import (ChainDataset, ComposeDataset, ConcatDataset, Dataset, IterableDataset, Subset,  # noqa: F401
                      TensorDataset, random_split)
from .sampler import (BatchSampler, DistributedBatchSampler, RandomSampler, Sampler, SequenceSampler,  # noqa: F401
                      SubsetRandomSampler, WeightedRandomSampler)

__all__ = ["DataLoader", "default_collate_fn", "default_convert_fn", "get_worker_info", "Dataset",
           "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset", "ConcatDataset", "Subset",
           "random_split", "Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler",
           "SubsetRandomSampler", "BatchSampler", "DistributedBatchSampler"]