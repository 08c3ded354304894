"""fluid.dygraph: imperative mode inside `guard()`."""
import contextlib

from ..autograd import grad, no_grad
from ..framework import mode as _mode
from ..framework.mode import disable_static as enable_dygraph
from ..framework.mode import enable_static as disable_dygraph

_depth = [0]


@contextlib.contextmanager
def guard(place=None):
    """Run the block eagerly (fluid's dygraph mode), restoring the previous mode afterwards."""
    was_static = _mode.in_static_mode()
    prev_device = None
    if place is not None:
        from ..device import get_device, set_device
        prev_device = get_device()
        set_device(place)
    _mode.disable_static()
    _depth[0] += 1
    try:
        yield
    finally:
        _depth[0] -= 1
        if was_static:
            _mode.enable_static()
        if prev_device is not None:
            from ..device import set_device
            set_device(prev_device)


def enabled():
    return _mode.in_dynamic_mode()


def in_guard():
    return _depth[0] > 0


def to_variable(value, name=None, zero_copy=None, dtype=None):
    """An eager Tensor (stop_gradient=True) holding `value`."""
    from ..tensor.creation import to_tensor
    t = to_tensor(value, dtype=dtype)
    if name is not None:
        t.name = name
    return t


__all__ = ["guard", "to_variable", "enabled", "no_grad", "grad", "enable_dygraph", "disable_dygraph"]
