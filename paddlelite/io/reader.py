"""Paddle's 1.x reader decorator paddle.batch: a sample reader grouped into lists of batch_size samples."""


def batch(reader, batch_size, drop_last=False):
    """A reader creator whose reader yields lists of batch_size samples from `reader()` (the last, shorter one
    dropped when drop_last)."""
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
        raise ValueError(f"batch: batch_size must be a positive int, received {batch_size!r}")

    def batch_reader():
        group = []
        for sample in reader():
            group.append(sample)
            if len(group) == batch_size:
                yield group
                group = []
        if group and not drop_last:
            yield group

    return batch_reader
