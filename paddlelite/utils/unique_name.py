"""Paddle's per-key name counters: generate('fc') -> 'fc_0', 'fc_1', ...; guard() starts fresh."""
import contextlib

__all__ = ["generate", "guard", "switch"]


class UniqueNameGenerator:
    def __init__(self, prefix=""):
        self.prefix = prefix
        self.ids = {}

    def __call__(self, key):
        n = self.ids.get(key, 0)
        self.ids[key] = n + 1
        return f"{self.prefix}{key}_{n}"

    def clone(self):
        copy = UniqueNameGenerator(self.prefix)
        copy.ids = dict(self.ids)
        return copy


_generator = [UniqueNameGenerator()]


def generate(key):
    """A new unique name for `key`: 'key_0', then 'key_1', ..."""
    return _generator[0](key)


def generate_with_ignorable_key(key):
    return generate(key)


def switch(new_generator=None):
    old = _generator[0]
    _generator[0] = new_generator if new_generator is not None else UniqueNameGenerator()
    return old


@contextlib.contextmanager
def guard(new_generator=None):
    """Fresh counters inside the block (a str argument becomes the prefix)."""
    if isinstance(new_generator, str):
        new_generator = UniqueNameGenerator(new_generator)
    elif isinstance(new_generator, bytes):
        new_generator = UniqueNameGenerator(new_generator.decode())
    old = switch(new_generator)
    try:
        yield
    finally:
        switch(old)
