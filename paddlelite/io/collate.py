"""Batch collation as Paddle does it: samples are stacked into NumPy arrays (Tensor samples into a
Tensor); the DataLoader turns every array of a finished batch into a Tensor on the current place.

Collation runs where the batch is built — the main process, or a worker process that must only
produce NumPy — so nothing here touches a GPU.
"""
import numbers
from collections.abc import Mapping, Sequence

import numpy as np

from ..framework.tensor import Tensor, wrap_array

__all__ = ["default_collate_fn", "default_convert_fn"]


def default_collate_fn(batch):
    """Stack a list of samples field by field: arrays and numbers into NumPy arrays, Tensors into a
    Tensor, strings into a list; dicts and sequences recursively."""
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return np.stack(batch, axis=0)
    if isinstance(sample, Tensor):
        from ..tensor.manipulation import stack
        return stack(batch, axis=0)
    if isinstance(sample, numbers.Number):
        return np.array(batch)
    if isinstance(sample, (str, bytes)):
        return batch
    if isinstance(sample, Mapping):
        return {key: default_collate_fn([d[key] for d in batch]) for key in sample}
    if isinstance(sample, Sequence):
        if any(len(s) != len(sample) for s in batch):
            raise RuntimeError(f"default_collate_fn: samples in a batch have different numbers of fields: "
                               f"{sorted({len(s) for s in batch})}")
        return [default_collate_fn(list(fields)) for fields in zip(*batch)]
    raise TypeError(f"default_collate_fn: cannot batch samples of type {type(sample).__name__}; use numpy "
                    "arrays, Tensors, numbers, strings, or lists/tuples/dicts of them (or pass collate_fn)")


def default_convert_fn(batch):
    """A sample used as its own batch (batch_size=None): sequences become lists, the rest is kept."""
    if isinstance(batch, (Tensor, np.ndarray, str, bytes)):
        return batch
    if isinstance(batch, Mapping):
        return {key: default_convert_fn(batch[key]) for key in batch}
    if isinstance(batch, Sequence):
        return [default_convert_fn(d) for d in batch]
    return batch


def map_arrays(value, fn, leaf_types=(np.ndarray, Tensor)):
    """`value` with every leaf of `leaf_types` in its (nested list/tuple/dict) structure replaced by fn(leaf)."""
    if isinstance(value, leaf_types):
        return fn(value)
    if isinstance(value, Mapping):
        return {k: map_arrays(v, fn, leaf_types) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(map_arrays(v, fn, leaf_types) for v in value)
    if isinstance(value, list):
        return [map_arrays(v, fn, leaf_types) for v in value]
    return value


def to_tensors(batch, place):
    """Every array of a finished batch as a Tensor on `place` (Tensors on another place are copied)."""
    def convert(leaf):
        if isinstance(leaf, Tensor):
            return leaf._to_place(place)
        return wrap_array(leaf if place.xp is np else place.xp.asarray(leaf), place, True)
    return map_arrays(batch, convert)


def to_numpy(batch):
    """Every Tensor of a batch as a NumPy array (what a worker process ships to the main one)."""
    return map_arrays(batch, lambda leaf: leaf.numpy() if isinstance(leaf, Tensor) else leaf)
