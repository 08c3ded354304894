"""paddle.autograd.backward_utils: the identity-keyed containers Paddle's backward code (and its gradient_checker)
keys by program values. A Tensor or Variable compares elementwise, so a dict cannot key by it; these key by the
object itself."""


class ValueDict:
    """A mapping keyed by the objects themselves (identity), in insertion order; `default_factory` as
    collections.defaultdict's."""

    def __init__(self, iter=None, *, default_factory=None):  # noqa: A002  (Paddle's argument name)
        self._items = {}  # id(key): (key, value)
        self._default_factory = default_factory
        if iter is not None:
            for key, value in (iter.items() if hasattr(iter, "items") else iter):
                self[key] = value

    def copy(self):
        return ValueDict(self.items(), default_factory=self._default_factory)

    def update(self, other):
        for key, value in (other.items() if hasattr(other, "items") else other):
            self[key] = value

    def keys(self):
        return [key for key, _ in self._items.values()]

    def values(self):
        return [value for _, value in self._items.values()]

    def items(self):
        return list(self._items.values())

    def get(self, key, default=None):
        return self._items[id(key)][1] if id(key) in self._items else default

    def pop(self, key, *default):
        if id(key) in self._items:
            return self._items.pop(id(key))[1]
        if default:
            return default[0]
        raise KeyError(key)

    def __setitem__(self, key, value):
        self._items[id(key)] = (key, value)

    def __getitem__(self, key):
        if id(key) not in self._items:
            if self._default_factory is None:
                raise KeyError(key)
            self[key] = self._default_factory()
        return self._items[id(key)][1]

    def __delitem__(self, key):
        del self._items[id(key)]

    def __contains__(self, key):
        return id(key) in self._items

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self.keys())

    def __bool__(self):
        return bool(self._items)

    def __repr__(self):
        return "ValueDict({" + ", ".join(f"{k!r}: {v!r}" for k, v in self._items.values()) + "})"


class ValueSet:
    """A set of objects by identity, in insertion order."""

    def __init__(self, iter=None):  # noqa: A002  (Paddle's argument name)
        self._items = {}  # id(value): value
        for value in iter or ():
            self.add(value)

    def add(self, value):
        self._items.setdefault(id(value), value)

    def update(self, other):
        for value in other:
            self.add(value)

    def discard(self, value):
        self._items.pop(id(value), None)

    def copy(self):
        return ValueSet(self)

    def __contains__(self, value):
        return id(value) in self._items

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(list(self._items.values()))

    def __bool__(self):
        return bool(self._items)


__all__ = ["ValueDict", "ValueSet"]
