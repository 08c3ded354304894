"""Paddle's nest utilities (paddle.utils.flatten / pack_sequence_as / map_structure / assert_same_structure):
nested lists, tuples, named tuples and dicts as one flat list of leaves and back, dict entries in sorted key order
as Paddle's; and the argument helpers Paddle's layers and scripts share (convert_to_list, ...)."""
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


def to_sequence(nest):
    return nest if is_sequence(nest) else [nest]


def _is_variable(x):
    """A Tensor or static Variable (duck-typed: this floor is below both)."""
    return hasattr(x, "stop_gradient") and hasattr(x, "shape")


def _contain_var(list_or_tuple):
    """Whether a Tensor / Variable is among the entries."""
    return any(_is_variable(item) for item in list_or_tuple)


def _recursive_assert_same_structure(nest1, nest2, check_types, skip_if):
    if skip_if is not None and (skip_if(nest1) or skip_if(nest2)):
        return
    if is_sequence(nest1) != is_sequence(nest2):
        raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst structure: {nest1}\n\n"
                         f"Second structure: {nest2}.")
    if not is_sequence(nest1):
        return
    if check_types:
        if type(nest1) is not type(nest2):
            raise TypeError(f"The two structures don't have the same sequence type. First structure has type "
                            f"{type(nest1)}, while second structure has type {type(nest2)}.")
        if isinstance(nest1, dict) and set(nest1) != set(nest2):
            raise ValueError(f"The two dictionaries don't have the same set of keys. First structure has keys "
                             f"{set(nest1)}, while second structure has keys {set(nest2)}.")
    items1, items2 = _items(nest1), _items(nest2)
    if len(items1) != len(items2):
        raise ValueError(f"The two structures don't have the same number of elements.\n\nFirst structure "
                         f"({len(items1)} elements): {nest1}\n\nSecond structure ({len(items2)} elements): {nest2}")
    for n1, n2 in zip(items1, items2):
        _recursive_assert_same_structure(n1, n2, check_types, skip_if)


def assert_same_structure(nest1, nest2, check_types=True, skip_if=None):
    """ValueError (TypeError for differing container types) unless the two nests have the same structure."""
    if skip_if is not None and (skip_if(nest1) or skip_if(nest2)):
        return
    count1, count2 = len(flatten(nest1)), len(flatten(nest2))
    if count1 != count2 and skip_if is None:
        raise ValueError(f"The two structures don't have the same number of elements.\n\nFirst structure ({count1} "
                         f"elements): {nest1}\n\nSecond structure ({count2} elements): {nest2}")
    _recursive_assert_same_structure(nest1, nest2, check_types, skip_if)


def padding_to_same_structure(nest1, nest2, obj=None):
    """Both nests with their None leaves replaced by `obj`."""
    def pad(value):
        if is_sequence(value):
            return pack_sequence_as(value, [obj if item is None else item for item in flatten(value)])
        return obj if value is None else value
    return pad(nest1), pad(nest2)


def convert_shape_to_list(shape):
    """A shape given as a list (tensor entries read) or as a 1-D int tensor, as a list of ints."""
    if isinstance(shape, (list, tuple)):
        return [x.item(0) if _is_variable(x) else x for x in shape if not _is_variable(x) or x.size > 0]
    return shape.astype("int64").tolist() if _is_variable(shape) and hasattr(shape, "numpy") else shape


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
