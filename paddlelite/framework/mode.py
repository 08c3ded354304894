"""Process-wide static/eager switch and the thread-local grad mode."""
import functools
import threading

_static = [False]


def in_static_mode():
    return _static[0]


def in_dynamic_mode():
    return not _static[0]


def enable_static():
    _static[0] = True


def disable_static(place=None):
    _static[0] = False
    if place is not None:
        from ..device import set_device
        set_device(place)


class _GradState(threading.local):
    enabled = True


grad_state = _GradState()


def is_grad_enabled():
    return grad_state.enabled


class set_grad_enabled:
    """Context manager (and decorator) setting whether eager ops record gradients, per thread."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled: mode must be a bool, received {type(mode).__name__}")
        self.mode = mode
        self.prev = grad_state.enabled
        grad_state.enabled = mode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        grad_state.enabled = self.prev
        return False

    def __call__(self, fn):
        mode = self.mode
        grad_state.enabled = self.prev  # decorating must not change the mode now

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)
        return wrapper


class _GradModeContext:
    """`with cls():`, `@cls()` or bare `@cls` sets grad mode to `_mode` for the block or call."""
    _mode = True

    def __new__(cls, fn=None):
        self = super().__new__(cls)
        return self(fn) if callable(fn) else self

    def __enter__(self):
        self.prev = grad_state.enabled
        grad_state.enabled = self._mode
        return self

    def __exit__(self, *exc):
        grad_state.enabled = self.prev
        return False

    def __call__(self, fn):
        mode = self._mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = grad_state.enabled
            grad_state.enabled = mode
            try:
                return fn(*args, **kwargs)
            finally:
                grad_state.enabled = prev
        return wrapper


class no_grad(_GradModeContext):
    """Disable gradient recording: `with no_grad():`, `@no_grad()` or `@no_grad`."""
    _mode = False


class enable_grad(_GradModeContext):
    """Enable gradient recording inside a no_grad region."""
    _mode = True
