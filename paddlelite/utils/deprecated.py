"""paddle.utils.deprecated: Paddle's decorator marking an API deprecated -- a notice in its docstring, and by
level: 0 nothing more, 1 a VisibleDeprecationWarning on each call (when the Paddle API version has reached
`since`), 2 a RuntimeError on each call."""
import functools
import inspect
import sys
import warnings

from .. import version

__all__ = []


class VisibleDeprecationWarning(UserWarning):
    """A deprecation warning Python shows outside __main__ too (DeprecationWarning is hidden there)."""


def _version_parts(text):
    parts = [int(part) for part in text.split(".") if part.isdigit()]
    return parts + [0] * (4 - len(parts))


def deprecated(update_to="", since="", reason="", level=0):
    def decorator(func):
        assert isinstance(update_to, str), 'type of "update_to" must be str.'
        assert isinstance(since, str), 'type of "since" must be str.'
        assert isinstance(reason, str), 'type of "reason" must be str.'
        assert isinstance(level, int) and 0 <= level < 3, (
            f'type of "level" must be int and must be one of 0, 1, 2. But received: {level}.')
        message = f'API "{func.__module__}.{func.__name__}" is deprecated'
        if since.strip():
            message += f" since {since.strip()}"
        message += ", and will be removed in future versions."
        if update_to.strip():
            assert update_to.strip().startswith("paddle."), (
                f'Argument update_to must start with "paddle.", your value is "{update_to}"')
            message += f' Please use "{update_to.strip()}" instead.'
        if reason.strip():
            message += f"\n    Reason: {reason.strip()}"
        if func.__doc__:
            func.__doc__ = "\n\nWarning:\n    " + message + "\n\n" + inspect.cleandoc(func.__doc__)
        if level == 0:
            return func

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if level == 2:
                raise RuntimeError(f'API "{func.__module__}.{func.__name__}" has been deprecated.')
            shown = f"\nWarning:\n{message} " if sys.platform.lower() == "win32" else \
                f"\033[93m\nWarning:\n{message} \033[0m"
            if not since.strip() or _version_parts(version.full_version) >= _version_parts(since):
                warnings.warn(shown, category=VisibleDeprecationWarning, stacklevel=2)
            return func(*args, **kwargs)

        return wrapper

    return decorator
