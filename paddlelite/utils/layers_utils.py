"""Paddle's layers_utils: convert_to_list, and the nest utilities (paddle.utils.flatten / pack_sequence_as /
map_structure): nested lists, tuples, named tuples and dicts as one flat list of leaves and back, dict entries in
sorted key order as Paddle's."""
from collections.abc import Sequence


def is_sequence(seq):
    """A dict, or a sequence that is not a string: what the nest functions descend into."""
    return isinstance(seq, dict) or (isinstance(seq, Sequence) and not isinstance(seq, str))


def _items(nest):
    """The entries of one level: a dict's by sorted key, a sequence's in order."""
    return [nest[key] for key in sorted(nest)] if isinstance(nest, dict) else list(nest)


def _like(instance, items):
    """A container of `instance`'s type holding `items` (a dict's given in sorted key order, kept in its own)."""
    if isinstance(instance, dict):
        by_key = dict(zip(sorted(instance), items))
        return type(instance)((key, by_key[key]) for key in instance)
    if hasattr(instance, "_fields"):  # a named tuple
        return type(instance)(*items)
    return type(instance)(items)


def flatten(nest):
    """The leaves of `nest` in order ([nest] for a leaf)."""
    if not is_sequence(nest):
        return [nest]
    leaves = []
    for item in _items(nest):
        leaves.extend(flatten(item))
    return leaves


def _pack(structure, flat, index):
    packed = []
    for item in _items(structure):
        if is_sequence(item):
            index, child = _pack(item, flat, index)
            packed.append(_like(item, child))
        else:
            packed.append(flat[index])
            index += 1
    return index, packed


def pack_sequence_as(structure, flat_sequence):
    """`flat_sequence`'s entries in `structure`'s nesting (the inverse of flatten)."""
    if not is_sequence(flat_sequence):
        raise TypeError(f"pack_sequence_as: flat_sequence must be a sequence, received {type(flat_sequence).__name__}")
    flat = list(flat_sequence.values()) if isinstance(flat_sequence, dict) else list(flat_sequence)
    if not is_sequence(structure):
        if len(flat) != 1:
            raise ValueError(f"pack_sequence_as: structure is a scalar but flat_sequence has {len(flat)} entries")
        return flat[0]
    count = len(flatten(structure))
    if count != len(flat):
        raise ValueError(f"pack_sequence_as: structure has {count} leaves, flat_sequence {len(flat)} entries")
    return _like(structure, _pack(structure, flat, 0)[1])


def map_structure(func, *structure):
    """`structure[0]`'s nesting holding func applied to the leaves of all structures, position by position."""
    return pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*(flatten(s) for s in structure))])


__all__ = []


class NotSupportedTensorArgumentError(TypeError):
    """A static Variable where an API needs a Python number (Paddle's class, a TypeError)."""

    def __init__(self, msg, name):
        super().__init__(msg)
        self.name = name


def convert_to_list(value, n, name, dtype=int):
    """`value` as a list of n: a single `dtype` value repeated, or an iterable of n values `dtype` accepts (returned as
    given, as Paddle's). ValueError names `name` for a wrong kind or length; a static Variable is a
    NotSupportedTensorArgumentError (its value is unknown while the program is built)."""
    if isinstance(value, dtype):
        return [value] * n
    if getattr(value, "_is_variable", False):
        raise NotSupportedTensorArgumentError(f"`{name}` must be of type {dtype.__name__}, received a Variable", name)
    try:
        values = list(value)
    except TypeError:
        raise ValueError(f"`{name}` must be a {dtype.__name__} or a list or tuple of {n}, received {value!r}") from None
    if len(values) != n:
        raise ValueError(f"`{name}` must have {n} elements, received {len(values)}: {value!r}")
    for v in values:
        if getattr(v, "_is_variable", False):
            raise NotSupportedTensorArgumentError(f"`{name}` must hold {dtype.__name__}s, received a Variable", name)
        try:
            dtype(v)
        except (TypeError, ValueError):
            raise ValueError(f"`{name}` must be a list or tuple of {n} {dtype.__name__}s, received {value!r} with the "
                             f"element {v!r} of type {type(v).__name__}") from None
    return values
