"""Fetchers turn one entry of the DataLoader's index sampler into a collated batch — the same code in
the main process (num_workers=0) and in each worker process."""
import itertools

__all__ = ["make_fetcher"]


class _MapFetcher:
    def __init__(self, dataset, auto_collate, collate_fn, drop_last):
        self.dataset, self.auto_collate, self.collate_fn = dataset, auto_collate, collate_fn

    def fetch(self, indices):
        data = [self.dataset[i] for i in indices] if self.auto_collate else self.dataset[indices]
        return self.collate_fn(data)


class _IterableFetcher:
    """Reads the next batch_size samples of the dataset's iterator; StopIteration when it has none left
    (or, with drop_last, fewer than a full batch)."""

    def __init__(self, dataset, auto_collate, collate_fn, drop_last):
        self.iterator = iter(dataset)
        self.auto_collate, self.collate_fn, self.drop_last = auto_collate, collate_fn, drop_last

    def fetch(self, indices):
        if not self.auto_collate:
            return self.collate_fn(next(self.iterator))
        data = list(itertools.islice(self.iterator, len(indices)))
        if not data or (self.drop_last and len(data) < len(indices)):
            raise StopIteration
        return self.collate_fn(data)


def make_fetcher(iterable, dataset, auto_collate, collate_fn, drop_last):
    cls = _IterableFetcher if iterable else _MapFetcher
    return cls(dataset, auto_collate, collate_fn, drop_last)
