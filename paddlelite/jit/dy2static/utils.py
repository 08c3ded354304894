"""paddle.jit.dy2static.utils: how to_static compares the non-Tensor arguments of two signatures."""
import dataclasses

import numpy as np


def make_hashable(x):
    """A hashable stand-in of `x` with its value: sequences and sets become tuples, dataclasses and dicts tuples of
    their items (a dict's sorted, so order does not matter), arrays the hash of their bytes. Anything else unhashable
    is a ValueError, as in Paddle."""
    if isinstance(x, (tuple, list, set)):
        return tuple(map(make_hashable, x))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__, *(make_hashable(getattr(x, f.name)) for f in dataclasses.fields(x)))
    try:
        hash(x)
    except TypeError:
        if isinstance(x, np.ndarray):
            return hash((x.dtype.str, x.shape, x.tobytes()))
        if isinstance(x, dict):
            items = sorted(((make_hashable(k), v) for k, v in x.items()), key=lambda kv: kv[0])
            return tuple((k, make_hashable(v)) for k, v in items)
        raise ValueError(f"make_hashable: requires a hashable object, received {type(x).__name__}") from None
    return x


def _hashed(spec):
    try:
        return make_hashable(spec)
    except ValueError:  # unhashable values all compare alike, as Paddle's
        return None


def _compatible_non_tensor_spec(src_spec, desired_spec):
    """Whether two non-Tensor arguments of to_static signatures agree: equal hashable forms (unhashable ones agree)."""
    return _hashed(src_spec) == _hashed(desired_spec)
