"""paddle.base.wrapped_decorator: decorators whose wrappers keep the wrapped function's signature (Paddle code
builds its context managers with `signature_safe_contextmanager`)."""
import contextlib
import functools
import inspect


def wrap_decorator(decorator):
    """`decorator` made to return a wrapper with the decorated function's name, docs and signature."""
    @functools.wraps(decorator)
    def apply(func):
        decorated = decorator(func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return decorated(*args, **kwargs)

        wrapper.__signature__ = inspect.signature(func)
        return wrapper

    return apply


signature_safe_contextmanager = wrap_decorator(contextlib.contextmanager)
