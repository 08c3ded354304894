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


class _GradMode:
    """Sets the grad mode to `mode` for a `with` block, or (as a decorator) for each call. The one
    implementation of grad-mode switching: no_grad, enable_grad, set_grad_enabled and the backward
    engine all use it."""

    def __init__(self, mode):
        self.mode = mode

    def __enter__(self):
        self.prev = grad_state.enabled
        grad_state.enabled = self.mode
        return self

    def __exit__(self, *exc):
        grad_state.enabled = self.prev
        return False

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = grad_state.enabled
            grad_state.enabled = mode
            try:
                return fn(*args, **kwargs)
            finally:
                grad_state.enabled = prev
        return wrapper


class set_grad_enabled(_GradMode):
    """Context manager (and decorator) setting whether eager ops record gradients, per thread. Called
    on its own it takes effect at once."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled: mode must be a bool, received {type(mode).__name__}")
        self.mode = mode
        self.prev = grad_state.enabled  # _GradMode.__enter__, inlined: the backward engine uses this per pass
        grad_state.enabled = mode

    def __enter__(self):  # the mode was set on construction
        return self

    def __call__(self, fn):
        grad_state.enabled = self.prev  # decorating must not change the mode now
        return super().__call__(fn)


class _FixedGradMode(_GradMode):
    """`with cls():`, `@cls()` or bare `@cls` sets grad mode to `_mode` for the block or call."""
    _mode = True

    def __new__(cls, fn=None):
        self = super().__new__(cls)
        self.mode = cls._mode
        return self(fn) if callable(fn) else self

    def __init__(self, fn=None):  # the mode is the class's, set by __new__
        pass


class no_grad(_FixedGradMode):
    """Disable gradient recording: `with no_grad():`, `@no_grad()` or `@no_grad`."""
    _mode = False


class enable_grad(_FixedGradMode):
    """Enable gradient recording inside a no_grad region."""
    _mode = True
