"""DataLoader: batches of a dataset as lists of Tensors (Paddle's return_list=True form).

Samples may be NumPy arrays, Tensors, numbers, strings, or (nested) tuples/lists/dicts of them;
`default_collate_fn` stacks them field by field. num_workers > 0 prefetches batches on background
threads (NumPy releases the GIL in the heavy parts of collation).
"""
import numbers
import queue
import threading

import numpy as np

from ..framework.tensor import Tensor, wrap_array
from .dataset import IterableDataset
from .sampler import BatchSampler

__all__ = ["DataLoader", "default_collate_fn", "default_convert_fn", "get_worker_info"]


def _stack_np(batch):
    """Samples -> one NumPy array (or a nested structure of them)."""
    sample = batch[0]
    if isinstance(sample, Tensor):
        return np.stack([s.numpy() for s in batch])
    if isinstance(sample, np.ndarray):
        return np.stack(batch)
    if isinstance(sample, (bool, np.bool_)):
        return np.array(batch, dtype=np.bool_)
    if isinstance(sample, numbers.Integral):
        return np.array(batch, dtype=np.int64)
    if isinstance(sample, numbers.Real):
        return np.array(batch)
    if isinstance(sample, np.generic):
        return np.array(batch)
    if isinstance(sample, (str, bytes)):
        return list(batch)
    if isinstance(sample, dict):
        return {k: _stack_np([s[k] for s in batch]) for k in sample}
    if isinstance(sample, (list, tuple)):
        if any(len(s) != len(sample) for s in batch):
            raise ValueError("DataLoader collate: samples in a batch have different numbers of fields")
        return [_stack_np(list(field)) for field in zip(*batch)]
    raise TypeError(f"DataLoader collate: cannot batch samples of type {type(sample).__name__}; use numpy "
                    "arrays, Tensors, numbers, strings, or lists/tuples/dicts of them (or pass collate_fn)")


def _to_tensors(value, place):
    if isinstance(value, np.ndarray):
        xp = place.xp
        return wrap_array(value if xp is np else xp.asarray(value), place, True)
    if isinstance(value, dict):
        return {k: _to_tensors(v, place) for k, v in value.items()}
    if isinstance(value, list):
        return [_to_tensors(v, place) for v in value]
    if isinstance(value, tuple):
        return tuple(_to_tensors(v, place) for v in value)
    return value


def default_collate_fn(batch):
    """Stack a list of samples into Tensors, field by field (a single-field sample gives a list of one)."""
    from ..device import current_place
    stacked = _stack_np(list(batch))
    return _to_tensors(stacked, current_place())


def default_convert_fn(batch):
    from ..device import current_place
    return _to_tensors(batch if not isinstance(batch, (list, tuple)) else list(batch), current_place())


_worker_info = threading.local()


def get_worker_info():
    return getattr(_worker_info, "info", None)


class _WorkerInfo:
    def __init__(self, id, num_workers, dataset):
        self.id, self.num_workers, self.dataset = id, num_workers, dataset


class DataLoader:
    def __init__(self, dataset, feed_list=None, places=None, return_list=True, batch_sampler=None, batch_size=1,
                 shuffle=False, drop_last=False, collate_fn=None, num_workers=0, use_buffer_reader=True,
                 prefetch_factor=2, use_shared_memory=True, timeout=0, worker_init_fn=None,
                 persistent_workers=False):
        if not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError(f"DataLoader: num_workers must be a non-negative int, received {num_workers!r}")
        if collate_fn is not None and not callable(collate_fn):
            raise TypeError(f"DataLoader: collate_fn must be callable, received {type(collate_fn).__name__}")
        self.dataset = dataset
        self.feed_list = feed_list
        self.return_list = return_list
        self.collate_fn = collate_fn or default_collate_fn
        self.num_workers = num_workers
        self.prefetch_factor = max(int(prefetch_factor), 1)
        self.worker_init_fn = worker_init_fn
        self.timeout = timeout
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle:
                raise ValueError("DataLoader: shuffle is not possible with an IterableDataset")
            if batch_sampler is not None:
                raise ValueError("DataLoader: batch_sampler is not possible with an IterableDataset")
            if batch_size is not None and (not isinstance(batch_size, int) or batch_size <= 0):
                raise ValueError(f"DataLoader: batch_size must be a positive int, received {batch_size!r}")
            self.batch_sampler = None
            self.batch_size = batch_size
            self.drop_last = drop_last
        elif batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise ValueError("DataLoader: batch_size, shuffle and drop_last must keep their defaults when "
                                 "batch_sampler is given")
            self.batch_sampler = batch_sampler
            self.batch_size = getattr(batch_sampler, "batch_size", None)
            self.drop_last = getattr(batch_sampler, "drop_last", False)
        elif batch_size is None:  # no batching: samples one by one
            self.batch_sampler = None
            self.batch_size = None
            self.drop_last = False
        else:
            self.batch_sampler = BatchSampler(dataset=dataset, shuffle=shuffle, batch_size=batch_size,
                                              drop_last=drop_last)
            self.batch_size = batch_size
            self.drop_last = drop_last

    def __len__(self):
        if self._iterable:
            raise TypeError("DataLoader: an IterableDataset has no len()")
        if self.batch_sampler is None:
            return len(self.dataset)
        return len(self.batch_sampler)

    def _batches(self):
        """Index lists (map-style) or sample lists (iterable) per batch."""
        if self._iterable:
            if self.batch_size is None:
                for s in self.dataset:
                    yield [s]
                return
            batch = []
            for s in self.dataset:
                batch.append(s)
                if len(batch) == self.batch_size:
                    yield batch
                    batch = []
            if batch and not self.drop_last:
                yield batch
        elif self.batch_sampler is None:
            for i in range(len(self.dataset)):
                yield [self.dataset[i]]
        else:
            for indices in self.batch_sampler:
                yield [self.dataset[i] for i in indices]

    def _make(self, samples):
        if self.batch_size is None:
            out = default_convert_fn(samples[0]) if self.collate_fn is default_collate_fn else \
                self.collate_fn(samples[0])
        else:
            out = self.collate_fn(samples)
        if not self.return_list and self.feed_list is not None:
            fields = out if isinstance(out, (list, tuple)) else [out]
            names = [getattr(v, "name", v) for v in self.feed_list]
            if len(names) != len(fields):
                raise ValueError(f"DataLoader: feed_list has {len(names)} variables but a batch has "
                                 f"{len(fields)} fields")
            return {n: (f.numpy() if isinstance(f, Tensor) else f) for n, f in zip(names, fields)}
        return out

    def __iter__(self):
        if self.num_workers == 0:
            for samples in self._batches():
                yield self._make(samples)
            return
        yield from self._threaded()

    def _threaded(self):
        """Workers build batches in order; the consumer yields them in order."""
        q = queue.Queue(maxsize=self.num_workers * self.prefetch_factor)
        stop = threading.Event()
        done = object()
        source = iter(self._batches())
        lock = threading.Lock()
        pending = {}
        counter = [0]

        def work(wid):
            _worker_info.info = _WorkerInfo(wid, self.num_workers, self.dataset)
            if self.worker_init_fn is not None:
                self.worker_init_fn(wid)
            while not stop.is_set():
                with lock:
                    try:
                        samples = next(source)
                    except StopIteration:
                        break
                    except Exception as e:  # a failing __getitem__ reaches the consumer
                        q.put((counter[0], e))
                        counter[0] += 1
                        break
                    k = counter[0]
                    counter[0] += 1
                try:
                    q.put((k, self._make(samples)))
                except Exception as e:
                    q.put((k, e))
            q.put((None, done))

        threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(self.num_workers)]
        for t in threads:
            t.start()
        finished, nxt = 0, 0
        try:
            while finished < len(threads) or pending:
                if nxt in pending:
                    item = pending.pop(nxt)
                    nxt += 1
                    if isinstance(item, Exception):
                        raise item
                    yield item
                    continue
                if finished == len(threads):
                    break
                k, item = q.get(timeout=self.timeout or None)
                if item is done:
                    finished += 1
                else:
                    pending[k] = item
        finally:
            stop.set()
            while any(t.is_alive() for t in threads):
                try:
                    q.get_nowait()
                except queue.Empty:
                    pass
                for t in threads:
                    t.join(timeout=0.01)

    def __call__(self):
        return self.__iter__()
