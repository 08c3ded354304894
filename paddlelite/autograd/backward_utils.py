"""paddle.autograd.backward_utils: Paddle's containers keyed by PIR values (its PIR backward and gradient_checker
use them). Like Paddle's they take a pir.Value or None as a key, and nothing else (TypeError); paddlelite builds
legacy-IR programs, so no object here is a pir.Value (pir.py) and None is the one key they hold."""
from ..pir import Value


def _key(value):
    if value is not None and not isinstance(value, Value):
        raise TypeError("Value Wrapper is only support None and pir.Value")
    return id(value)


class ValueDict:
    """A mapping keyed by pir.Values (by identity), in insertion order; `default_factory` as
    collections.defaultdict's."""

    def __init__(self, iter=None, *, default_factory=None):  # noqa: A002  (Paddle's argument name)
        self._items = {}  # id(key): (key, value)
        self._default_factory = default_factory
        if iter is not None:
            self.update(iter)

    def update(self, other):
        for key, value in (other.items() if hasattr(other, "items") else other):
            self[key] = value

    def copy(self):
        return ValueDict(self.items(), default_factory=self._default_factory)

    def keys(self):
        return [key for key, _ in self._items.values()]

    def values(self):
        return [value for _, value in self._items.values()]

    def items(self):
        return list(self._items.values())

    def get(self, key, default=None):
        return self[key] if key in self else default

    def pop(self, key, *default):
        if key in self:
            return self._items.pop(_key(key))[1]
        if default:
            return default[0]
        raise KeyError(key)

    def __setitem__(self, key, value):
        self._items[_key(key)] = (key, value)

    def __getitem__(self, key):
        if key not in self:
            if self._default_factory is None:
                raise KeyError(key)
            self[key] = self._default_factory()
        return self._items[_key(key)][1]

    def __delitem__(self, key):
        del self._items[_key(key)]

    def __contains__(self, key):
        return _key(key) in self._items

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self.keys())

    def __bool__(self):
        return bool(self._items)


class ValueSet:
    """A set of pir.Values (by identity), in insertion order."""

    def __init__(self, iter=None):  # noqa: A002  (Paddle's argument name)
        self._items = {}  # id(value): value
        self.update(iter or ())

    def add(self, value):
        self._items.setdefault(_key(value), value)

    def update(self, other):
        for value in other:
            self.add(value)

    def discard(self, value):
        self._items.pop(_key(value), None)

    def copy(self):
        return ValueSet(self)

    def __contains__(self, value):
        return _key(value) in self._items

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(list(self._items.values()))

    def __bool__(self):
        return bool(self._items)


__all__ = ["ValueDict", "ValueSet"]
