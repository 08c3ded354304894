"""fluid.dygraph: imperative mode inside `guard()`."""
import contextlib
import threading

from ..autograd import grad, no_grad
from ..framework import mode as _mode
from ..framework.mode import disable_static as enable_dygraph
from ..framework.mode import enable_static as disable_dygraph
from ..framework.mode import in_to_static_mode  # noqa: F401
from ..utils import unique_name


class _Guards(threading.local):
    depth = 0  # how many guard() blocks this thread is in


_guards = _Guards()


@contextlib.contextmanager
def guard(place=None):
    """Run the block eagerly (fluid's dygraph mode) in this thread, restoring its previous mode afterwards; in a
    fresh names namespace, as Paddle's (unique names and eager parameter names start over)."""
    prev_device = None
    if place is not None:
        from ..device import get_device, set_device
        prev_device = get_device()
        set_device(place)
    _guards.depth += 1
    try:
        with _mode.static_guard(False), unique_name.guard():
            yield
    finally:
        _guards.depth -= 1
        if prev_device is not None:
            from ..device import set_device
            set_device(prev_device)


def enabled():
    return _mode.in_dynamic_mode()


def in_guard():
    return _guards.depth > 0


def to_variable(value, name=None, zero_copy=None, dtype=None):
    """An eager Tensor (stop_gradient=True) holding `value`."""
    from ..tensor.creation import to_tensor
    t = to_tensor(value, dtype=dtype)
    if name is not None:
        t.name = name
    return t


__all__ = ["guard", "to_variable", "enabled", "no_grad", "grad", "enable_dygraph", "disable_dygraph"]
