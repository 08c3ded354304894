"""Paddle's paddle.utils.decorator_utils: ForbidKeywordsDecorator, which turns a Paddle-spelled keyword given to a
torch-spelled API (paddle.compat's) into a TypeError that names the Paddle API meant."""
import functools
import inspect


class ForbidKeywordsDecorator:
    """`@ForbidKeywordsDecorator(illegal_keys={'x'}, func_name='paddle.compat.sort', correct_name='paddle.sort')`"""

    def __init__(self, illegal_keys, func_name, correct_name, url_suffix=""):
        self.illegal_keys, self.func_name, self.correct_name = set(illegal_keys), func_name, correct_name

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            found = sorted(key for key in self.illegal_keys if key in kwargs)
            if found:
                plural = "s" if len(found) > 1 else ""
                raise TypeError(f"{self.func_name}() received unexpected keyword argument{plural} "
                                f"{', '.join(repr(k) for k in found)}. \nDid you mean to use {self.correct_name}() "
                                "instead?")
            return func(*args, **kwargs)

        wrapper.__signature__ = inspect.signature(func)
        return wrapper
