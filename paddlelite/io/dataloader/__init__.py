"""DataLoader: batches of a dataset as lists of Tensors (Paddle's return_list=True form).

Samples may be NumPy arrays, Tensors, numbers, strings, or (nested) tuples/lists/dicts of them;
`default_collate_fn` stacks them field by field into NumPy arrays and the loader hands every array of a
batch over as a Tensor on the current place. num_workers > 0 builds batches in worker processes
(`worker.py`).
"""
from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ...device import current_place
from ...framework.mode import in_dynamic_mode
from ...framework.tensor import Tensor
from ...static.executor import LoDTensor
from ..collate import default_collate_fn, default_convert_fn, map_arrays, to_tensors
from .dataloader_iter import _DataLoaderIterBase
from ..dataset import IterableDataset, assert_arg
from ..autotune import tuned_num_workers
from ..fetcher import make_fetcher
from ..sampler import BatchSampler, SequenceSampler
from ..worker import MultiProcessIter, get_worker_info

if TYPE_CHECKING:
    from ..dataset import Dataset

__all__ = ["DataLoader", "default_collate_fn", "default_convert_fn", "get_worker_info"]


class _SingleProcessIter(_DataLoaderIterBase):
    """Batches fetched in the calling thread; threads sharing the iterator take turns, each batch going to one."""

    def __init__(self, loader):
        self._loader = loader
        self._sampler_iter = iter(loader._index_sampler())
        self._fetcher = make_fetcher(loader._iterable, loader.dataset, loader.auto_collate_batch, loader._collate,
                                     loader.drop_last)
        self._lock = threading.Lock()

    def __next__(self):
        with self._lock:
            return self._loader._deliver(self._fetcher.fetch(next(self._sampler_iter)))


class DataLoader:
    def __init__(self, dataset: Dataset, feed_list: Sequence[Tensor] | None = None, places: Any = None,
                 return_list: bool = True, batch_sampler: BatchSampler | None = None, batch_size: int | None = 1,
                 shuffle: bool = False, drop_last: bool = False, collate_fn: Callable[[list[Any]], Any] | None = None,
                 num_workers: int = 0, use_buffer_reader: bool = True, prefetch_factor: int = 2,
                 use_shared_memory: bool = True, timeout: float = 0, worker_init_fn: Callable[[int], None] | None = None,
                 persistent_workers: bool = False) -> None:
        if not return_list and not in_dynamic_mode():
            assert_arg(feed_list is not None, "DataLoader: feed_list must be given when return_list=False")
        assert_arg(isinstance(num_workers, int) and num_workers >= 0,
                   f"DataLoader: num_workers must be a non-negative int, received {num_workers!r}")
        assert_arg(prefetch_factor > 0, f"DataLoader: prefetch_factor must be positive, received {prefetch_factor!r}")
        assert_arg(timeout >= 0, f"DataLoader: timeout must be non-negative, received {timeout!r}")
        if collate_fn is not None and not callable(collate_fn):
            raise TypeError(f"DataLoader: collate_fn must be callable, received {type(collate_fn).__name__}")
        self.dataset = dataset
        self.feed_list = feed_list
        self.return_list = return_list
        self.collate_fn = collate_fn
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.use_shared_memory = use_shared_memory and num_workers > 0
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle:
                raise ValueError(f"DataLoader: an IterableDataset cannot be shuffled, received shuffle={shuffle}")
            if batch_sampler is not None:
                raise ValueError("DataLoader: an IterableDataset takes no batch_sampler")
        if batch_sampler is not None:
            assert_arg(batch_size == 1 and not shuffle and not drop_last,
                       "DataLoader: batch_size, shuffle and drop_last must keep their defaults when batch_sampler is "
                       "given")
            self.batch_sampler, self.batch_size = batch_sampler, None
        elif batch_size is None:  # no batching: each sample is its own batch
            self.batch_sampler, self.batch_size = None, None
        else:
            assert_arg(batch_size > 0, f"DataLoader: batch_size must be None or a positive int when batch_sampler is "
                                       f"not given, received {batch_size!r}")
            self.batch_size = batch_size
            self.batch_sampler = None if self._iterable else BatchSampler(
                dataset=dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)
        self.drop_last = drop_last
        self.auto_collate_batch = batch_sampler is not None or batch_size is not None
        self._collate = collate_fn or (default_collate_fn if self.auto_collate_batch else default_convert_fn)
        self._persistent_workers = persistent_workers
        self._iterator = None
        self.num_workers = tuned_num_workers(self)  # as set (incubate.autotune.set_config may tune it)
        self.use_shared_memory = use_shared_memory and self.num_workers > 0

    def _index_sampler(self):
        """What each batch is fetched from: index lists (map-style) or placeholders of batch_size (iterable)."""
        if self._iterable:
            return itertools.repeat([None] * (self.batch_size or 1))
        return self.batch_sampler if self.auto_collate_batch else SequenceSampler(self.dataset)

    def __len__(self) -> int:
        if self._iterable:
            raise ValueError("DataLoader: the length of an IterableDataset is unknown")
        return len(self.batch_sampler) if self.auto_collate_batch else len(self.dataset)

    def _deliver(self, batch):
        """A collated batch (arrays) as the loader returns it: Tensors in dynamic mode; in static mode, Paddle's
        DenseTensors, or for return_list=False a list (one entry per place) of the feed dict by variable name."""
        if in_dynamic_mode():
            return to_tensors(batch, current_place())
        dense = map_arrays(batch, lambda leaf: _dense_tensor(leaf, current_place()))
        if self.return_list or self.feed_list is None:
            return dense
        fields = dense if isinstance(dense, (list, tuple)) else [dense]
        names = [getattr(v, "name", v) for v in self.feed_list]
        if len(names) != len(fields):
            raise ValueError(f"DataLoader: feed_list has {len(names)} variables but a batch has "
                             f"{len(fields)} fields")
        return [dict(zip(names, fields))]

    def __iter__(self) -> Iterator[Any]:
        if self.num_workers == 0:
            return _SingleProcessIter(self)
        if not self._persistent_workers:
            return MultiProcessIter(self)
        if self._iterator is None or self._iterator._shutdown_done:
            self._iterator = MultiProcessIter(self)
        else:
            self._iterator._reset()
        return self._iterator

    def __call__(self) -> Iterator[Any]:
        return self.__iter__()


def _dense_tensor(leaf, place):
    tensor = LoDTensor()
    tensor.set(leaf, place)
    return tensor
