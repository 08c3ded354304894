"""Paddle's per-key name counters: generate('fc') -> 'fc_0', 'fc_1', ...; guard() starts fresh, and with it the set
of parameter names eager mode has used (a second eager parameter of one name is an error, as in Paddle)."""
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


class DygraphParameterNameChecker:
    """checker(name) -> whether `name` was used before; records it."""

    def __init__(self):
        self._name_set = set()

    def __call__(self, name):
        used = name in self._name_set
        self._name_set.add(name)
        return used


# module attributes, as Paddle's: its tests reach `unique_name.dygraph_parameter_name_checker._name_set`
generator = UniqueNameGenerator()
dygraph_parameter_name_checker = DygraphParameterNameChecker()


def parameter_name_used(name):
    """Whether an eager parameter was already named `name` in this namespace (the name is recorded)."""
    return dygraph_parameter_name_checker(name)


def generate(key):
    """A new unique name for `key`: 'key_0', then 'key_1', ..."""
    return generator(key)


def generate_with_ignorable_key(key):
    return generate(key)


def switch(new_generator=None, new_para_name_checker=None):
    """A new namespace (fresh ones by default); returns the previous generator and parameter-name checker."""
    global generator, dygraph_parameter_name_checker
    old = generator, dygraph_parameter_name_checker
    generator = new_generator if new_generator is not None else UniqueNameGenerator()
    dygraph_parameter_name_checker = new_para_name_checker if new_para_name_checker is not None else \
        DygraphParameterNameChecker()
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
        switch(*old)
