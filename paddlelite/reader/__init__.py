"""paddle.reader: Paddle 1.x's reader decorators. A reader is a function of no arguments returning an iterable of
samples; a decorator takes readers and returns a reader (`paddle.batch` groups one into batches)."""
from .decorator import (ComposeNotAligned, buffered, cache, chain, compose, firstn, map_readers,  # noqa: F401
                        multiprocess_reader, shuffle, xmap_readers)

__all__ = []
