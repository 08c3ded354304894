"""fluid.reader (paddle.base.reader): the fluid-era loader, DataLoader.from_generator.

`DataLoader.from_generator(feed_list=..., iterable=True)` wraps a Python generator of samples
(`set_sample_generator`), of lists of samples (`set_sample_list_generator`) or of batches (`set_batch_generator`).
Iterating it gives one batch at a time: in a static program `[{feed name: LoDTensor}]` (a dict per place, as
Executor.run takes it), in dynamic mode (or with return_list=True) the list of Tensors. The batches are read in the
iterating thread: `capacity`, `use_double_buffer` and `use_multiprocess` are accepted and change nothing. The
non-iterable mode (`iterable=False`: start()/reset() with the program reading the queue) is not implemented.
"""
import numpy as np

from ..device.place import current_place
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor, wrap_array
from ..static.executor import LoDTensor
from ..static.framework import default_main_program
from .data_feeder import batch_array, feed_variables


class GeneratorLoader:
    """The loader DataLoader.from_generator returns (Paddle's GeneratorLoader / DygraphGeneratorLoader)."""

    def __init__(self, feed_list, iterable, return_list, drop_last):
        self._dynamic = in_dynamic_mode()
        self._feed_vars = [] if self._dynamic else feed_variables(feed_list, default_main_program(),
                                                                   "DataLoader.from_generator")
        self.iterable = bool(iterable)
        self._return_list = bool(return_list) or self._dynamic
        self._drop_last = bool(drop_last)
        self._batches = None

    def set_sample_generator(self, reader, batch_size, drop_last=True, places=None):
        """Samples (tuples of one value per slot) from reader(), batch_size at a time."""
        if batch_size <= 0:  # AssertionError, as Paddle's
            raise AssertionError(f"DataLoader.set_sample_generator: batch_size must be larger than 0, received "
                                 f"{batch_size}")

        def batches():
            batch = []
            for sample in reader():
                batch.append(sample if isinstance(sample, (list, tuple)) else (sample,))
                if len(batch) == batch_size:
                    yield [list(column) for column in zip(*batch)]
                    batch = []
            if batch and not drop_last:
                yield [list(column) for column in zip(*batch)]
        return self.set_batch_generator(batches, places)

    def set_sample_list_generator(self, reader, places=None):
        """Lists of samples from reader(), one list a batch."""
        def batches():
            for samples in reader():
                yield [list(column) for column in zip(*[s if isinstance(s, (list, tuple)) else (s,)
                                                        for s in samples])]
        return self.set_batch_generator(batches, places)

    def set_batch_generator(self, reader, places=None):
        """Batches from reader(): a list or tuple of one array (or Tensor) per slot."""
        if not callable(reader):
            raise TypeError(f"DataLoader: the reader must be a callable returning a generator, received "
                            f"{type(reader).__name__}")
        self._batches = reader
        return self

    def __call__(self):
        """The loader itself: Paddle code iterates `loader()` as well as `loader`."""
        return self

    def __iter__(self):
        if not self.iterable:
            raise AssertionError("DataLoader is not iterable")
        if self._batches is None:
            raise AssertionError("Data source of DataLoader has not set yet")
        for batch in self._batches():
            yield self._convert(batch if isinstance(batch, (list, tuple)) else [batch])

    def _convert(self, batch):
        if self._dynamic:
            place = current_place()
            return [wrap_array(place.xp.asarray(v._host() if isinstance(v, Tensor) else np.asarray(v)), place, True)
                    for v in batch]
        if len(batch) != len(self._feed_vars):
            raise ValueError(f"DataLoader: a batch has {len(batch)} slots, the feed_list {len(self._feed_vars)}")
        feed = {}
        for var, values in zip(self._feed_vars, batch):
            feed[var.name] = t = LoDTensor()
            t.set(batch_array(np.asarray(values) if isinstance(values, LoDTensor) else values, var), "cpu")
        return [list(feed.values())] if self._return_list else [feed]

    def _not_iterable(self, *args):
        raise NotImplementedError("DataLoader.from_generator(iterable=False): start()/reset() with the program reading "
                                  "the data queue is not implemented; use iterable=True and feed each batch to "
                                  "Executor.run")

    start = reset = _not_iterable


class DataLoader:
    """fluid's DataLoader: only its factory methods."""

    @staticmethod
    def from_generator(feed_list=None, capacity=None, use_double_buffer=True, iterable=True, return_list=False,
                       use_multiprocess=False, drop_last=True):
        return GeneratorLoader(feed_list, iterable, return_list, drop_last)

    @staticmethod
    def from_dataset(dataset, places, drop_last=True):
        raise NotImplementedError("DataLoader.from_dataset reads Paddle's C++ Dataset (QueueDataset, "
                                  "InMemoryDataset), which paddlelite does not have; use paddle.io.DataLoader")


__all__ = []
