"""The static/eager switch and the grad mode, both per thread.

As in Paddle (its `base.framework.global_var` is a threading.local), each thread has its own static/eager
mode: `enable_static()` in one thread, or a to_static function tracing there, never turns another thread's
eager ops into program ops. A thread starts in the mode the main thread last chose with enable_static/
disable_static (a script that enables static mode first runs its threads static, as Paddle's), read when it
first asks; unlike Paddle's, the switches of other threads and temporary ones (`static_guard`: to_static's
tracing, fluid.dygraph.guard) change only their own thread, so threads never race for their starting mode.
Grad mode starts on in every thread, as Paddle's.
"""
import contextlib
import functools
import itertools
import threading

from ..utils import unique_name

_chosen = [False]  # the mode the main thread last chose: where new threads start


class _StaticState(threading.local):
    def __init__(self):
        self.on = _chosen[0]
        self.to_static = False  # a to_static function is being traced into a Program (jit/program.py)


static_state = _StaticState()  # static_state.on: this thread's mode (the dispatcher reads it per op)


def in_static_mode():
    return static_state.on


def in_dynamic_mode():
    return not static_state.on


def _choose(static):
    static_state.on = static
    if threading.current_thread() is threading.main_thread():
        _chosen[0] = static


# the names namespace disable_static entered, as Paddle's enable_dygraph enters a dygraph guard (fresh unique names
# and eager parameter names: a test may name a parameter again after it) until enable_static leaves it. Paddle's
# import enters it (its `import paddle` ends in dygraph mode), so a disable_static in eager mode enters nothing.
_eager_namespace = [unique_name.switch()]
# that guard also makes a new dygraph tracer, whose counter names tensors made from data generated_tensor_N
_tracer_ids = [itertools.count()]


def generated_tensor_name():
    return f"generated_tensor_{next(_tracer_ids[0])}"


def enable_static():
    _choose(True)
    if _eager_namespace[0] is not None:
        unique_name.switch(*_eager_namespace[0])
        _eager_namespace[0] = None


def disable_static(place=None):
    _choose(False)
    if _eager_namespace[0] is None:
        _eager_namespace[0] = unique_name.switch()
        _tracer_ids[0] = itertools.count()
    if place is not None:
        from ..device import set_device
        set_device(place)


@contextlib.contextmanager
def static_guard(on):
    """This thread in static (`on`) or eager mode for the block; other threads, and the mode threads start in,
    are left as they are."""
    previous = static_state.on
    static_state.on = on
    try:
        yield
    finally:
        static_state.on = previous


def in_to_static_mode():
    """Whether this thread is tracing a to_static function (Paddle's in_to_static_mode; plain static mode is not)."""
    return static_state.to_static


@contextlib.contextmanager
def to_static_guard():
    """This thread traces a to_static function in the block (static mode, and in_to_static_mode() True)."""
    previous = static_state.on, static_state.to_static
    static_state.on = static_state.to_static = True
    try:
        yield
    finally:
        static_state.on, static_state.to_static = previous


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
