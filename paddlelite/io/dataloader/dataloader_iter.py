"""The common base of a DataLoader's iterators (Paddle's paddle.io.dataloader.dataloader_iter._DataLoaderIterBase,
which Paddle code tests iterators against): the loader's dataset and batch sampler, under Paddle's attribute names.
The iterators themselves are dataloader.py's (in this process) and worker.py's (worker processes)."""

__all__ = []


class _DataLoaderIterBase:
    """What every DataLoader iterator holds: `_loader`, the DataLoader it iterates."""

    @property
    def _dataset(self):
        return self._loader.dataset

    @property
    def _batch_sampler(self):
        return self._loader.batch_sampler

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._loader)
