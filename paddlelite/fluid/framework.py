"""fluid.framework (paddle.base.framework): the program model, and the helpers Paddle code imports from it -- the mode
decorators (dygraph_only, static_only, dygraph_not_support, ...), the expected place, dtype conversion, grad names."""
import contextlib
import functools
import itertools
import warnings

# the names Paddle code imports from paddle.base.framework (re-exported: Paddle's __all__ here is empty too)
from ..device.place import CPUPlace, CUDAPlace, Place, current_place, parse_place, set_device  # noqa: F401
from ..framework.dtype import convert_dtype
from ..framework.flags import (GlobalFlags, get_flags, in_dynamic_or_pir_mode, in_pir_mode, set_flags,  # noqa: F401
                               use_pir_api)
from ..framework.mode import in_dynamic_mode, is_grad_enabled, set_grad_enabled, static_guard
from ..framework.tensor import Parameter as EagerParamBase  # noqa: F401
from ..static.executor import cpu_places, cuda_places  # noqa: F401
from ..static.framework import (GRAD_SUFFIX, Block, Operator, Parameter, Program, Variable,  # noqa: F401
                                default_main_program, default_startup_program, device_guard, name_scope,
                                program_guard)


def in_dygraph_mode():
    return in_dynamic_mode()


_non_static_mode = in_dygraph_mode


class Tracer:
    """Paddle's dygraph tracer (base.dygraph.tracer.Tracer), the object `_dygraph_tracer()` returns in dynamic mode:
    here a view of the mode state it stands for -- _has_grad is the grad mode, _expected_place the current
    place -- plus its train flag and its unique-name counter (one counter for every key, as Paddle's)."""

    def __init__(self):
        self._train_mode = True
        self._names = itertools.count()

    @property
    def _has_grad(self):
        return is_grad_enabled()

    @_has_grad.setter
    def _has_grad(self, enabled):
        set_grad_enabled(bool(enabled))

    @property
    def _expected_place(self):
        return current_place()

    def train_mode(self):
        self._train_mode = True

    def eval_mode(self):
        self._train_mode = False

    def _generate_unique_name(self, key="dygraph_tmp"):
        return f"{key}_{next(self._names)}"


_tracer = Tracer()


def _dygraph_tracer():
    """The dygraph tracer in dynamic mode, None in static mode (Paddle code tests it for the mode)."""
    return _tracer if in_dynamic_mode() else None


def _dygraph_guard(tracer):
    """Paddle's swap of the dygraph tracer for a block: None (no tracer) runs it in static mode, a tracer in dynamic
    mode."""
    return static_guard(tracer is None)


def extract_plain_list(scalars):
    """The values of a list of Scalars (an op's list attribute, e.g. assign_value's `values`)."""
    return [item.value() for item in scalars]


def _mode_check(func, wanted_dygraph, message):
    @functools.wraps(func)
    def checked(*args, **kwargs):
        if in_dygraph_mode() != wanted_dygraph:  # AssertionError, as Paddle's decorators (explicit: -O keeps it)
            raise AssertionError(message.format(func.__name__))
        return func(*args, **kwargs)
    return checked


def dygraph_only(func):
    """`func` runs in dynamic mode only (AssertionError in static mode)."""
    return _mode_check(func, True, "We only support '{}()' in dynamic graph mode, please call "
                                   "'paddle.disable_static()' to enter dynamic graph mode.")


non_static_only = dygraph_only


def static_only(func):
    """`func` runs in static mode only (AssertionError in dynamic mode)."""
    return _mode_check(func, False, "'{}()' is only supported in static graph mode; call paddle.enable_static() "
                                    "before it.")


def dygraph_not_support(func):
    """`func` is not supported in dynamic mode (AssertionError there)."""
    return _mode_check(func, False, "We don't support {} in dynamic graph mode")


def fake_interface_only(func):
    """A Variable method that only an eager Tensor has: calling it raises AssertionError."""
    @functools.wraps(func)
    def refused(*args, **kwargs):
        raise AssertionError(f"'{func.__name__}' only can be called by `paddle.Tensor` in dynamic graph mode")
    return refused


def deprecate_stat_dict(func):
    """Accept the misspelt keyword `stat_dict` for `state_dict`, with a DeprecationWarning."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if "stat_dict" in kwargs:
            warnings.warn("The argument `stat_dict` has deprecated, please change it to `state_dict`.",
                          DeprecationWarning)
            kwargs["state_dict"] = kwargs.pop("stat_dict")
        return func(*args, **kwargs)
    return wrapper


def _current_expected_place():
    """The current device as Paddle's typed place (CPUPlace() or CUDAPlace(n))."""
    place = current_place()
    return CPUPlace() if place.kind == "cpu" else CUDAPlace(place.index)


_current_expected_place_ = _current_expected_place


def _set_expected_place(place):
    set_device(place)


def _get_paddle_place(place):
    """None, a Place, or a device string ('cpu', 'gpu', 'gpu:N') as Paddle's typed place."""
    if place is None or isinstance(place, Place):
        return place
    if not isinstance(place, str):
        raise ValueError(f"place only support string which is 'Place' and so on, but got {place}")
    place = parse_place(place.lower().replace("cuda", "gpu"), "_get_paddle_place")
    return CPUPlace() if place.kind == "cpu" else CUDAPlace(place.index)


_flags = GlobalFlags()


def _global_flags():
    """The flags as a mapping (Paddle's core.globals())."""
    return _flags


def convert_np_dtype_to_dtype_(np_dtype):
    """A NumPy dtype (or its name) as the paddle dtype, which equals core.VarDesc.VarType's member."""
    return convert_dtype(np_dtype, "convert_np_dtype_to_dtype_")


def grad_var_name(var_name):
    return var_name + GRAD_SUFFIX


@contextlib.contextmanager
def dygraph_guard_if_declarative():
    """Nothing to switch: paddlelite's to_static traces the function itself, so no dynamic-mode guard is needed."""
    yield


__all__ = []
