"""Moving a batch from a worker process to the main one.

A batch's arrays travel in ONE shared-memory segment (a file in /dev/shm): the worker copies each array
in once, the main process maps the segment, unlinks its name at once and views the arrays in place —
no pickling of array data through a pipe, no second copy. The mapping is freed when the last array
viewing it is. Only the batch's structure (lists, dicts, strings, numbers, array placeholders) is
pickled. Segment names carry a per-iterator prefix so the main process can remove every segment a
killed or abandoned worker left behind.
"""
import glob
import itertools
import mmap
import os
import pickle
import tempfile

import numpy as np

from .collate import map_arrays

__all__ = ["pack", "unpack", "discard", "remove_segments"]

SHM_DIR = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
_ALIGN = 64
_counter = itertools.count()


class _ArraySlot:
    """Placeholder for the i-th array of a packed batch."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


def _segment_path(prefix):
    return os.path.join(SHM_DIR, f"{prefix}-{os.getpid()}-{next(_counter)}")


def pack(batch, prefix, use_shared_memory):
    """A worker's batch (NumPy leaves only) -> bytes for the result queue."""
    arrays = []

    def slot(a):
        arrays.append(np.asarray(a))
        return _ArraySlot(len(arrays) - 1)

    structure = map_arrays(batch, slot)
    shared = [i for i, a in enumerate(arrays) if use_shared_memory and a.dtype != object and a.nbytes]
    path, layout = None, []
    if shared:
        offset = 0
        for i in shared:
            layout.append((i, arrays[i].dtype, arrays[i].shape, offset))
            offset += -(-arrays[i].nbytes // _ALIGN) * _ALIGN
        path = _segment_path(prefix)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.ftruncate(fd, offset)
            with mmap.mmap(fd, offset) as buf:
                for i, dtype, shape, off in layout:
                    view = np.frombuffer(buf, dtype, arrays[i].size, off).reshape(shape)
                    view[...] = arrays[i]
                    del view
        finally:
            os.close(fd)
        for i in shared:
            arrays[i] = None
    return pickle.dumps((structure, arrays, path, layout), protocol=pickle.HIGHEST_PROTOCOL)


def unpack(payload):
    """bytes from pack -> the batch, its arrays viewing the mapped segment (whose name is removed)."""
    structure, arrays, path, layout = pickle.loads(payload)
    if path is not None:
        fd = os.open(path, os.O_RDWR)
        try:
            buf = mmap.mmap(fd, 0)
        finally:
            os.close(fd)
            os.unlink(path)
        for i, dtype, shape, off in layout:
            arrays[i] = np.frombuffer(buf, dtype, int(np.prod(shape)), off).reshape(shape)
    return map_arrays(structure, lambda slot: arrays[slot.index], _ArraySlot)


def discard(payload):
    """Drop a batch that will never be used (its segment is removed)."""
    path = pickle.loads(payload)[2]
    if path is not None and os.path.exists(path):
        os.unlink(path)


def remove_segments(prefix):
    """Remove every segment named with `prefix` (left by killed or interrupted workers)."""
    for path in glob.glob(os.path.join(SHM_DIR, glob.escape(prefix) + "-*")):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
