"""Static graph mode: Program, Block, Variable, Operator, append_backward, gradients, Executor."""
from ..framework.mode import disable_static, enable_static, in_dynamic_mode, in_static_mode
from . import appender as _appender  # noqa: F401  (binds the dispatcher's static hook)
from . import control_flow as _control_flow  # noqa: F401  (registers cond/while runners and grads)
from . import nn
from .backward import append_backward, gradients
from .executor import Executor, LoDTensor, Scope, cpu_places, cuda_places, global_scope, scope_guard
from .framework import (Block, Operator, Parameter, Program, Variable, default_main_program,
                        default_startup_program, program_guard)
from . import io
from .input import InputSpec, data
from .io import (load, load_inference_model, load_program_state, normalize_program, save, save_inference_model,
                 set_program_state)
from .metric import accuracy


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    """A Parameter of the main program, initialised by an op of the startup program."""
    from ..nn.layer.param_attr import create_parameter as _create
    from .framework import require_static
    require_static("paddle.static.create_parameter")
    return _create(shape, dtype, name=name, attr=attr, is_bias=is_bias, default_initializer=default_initializer)


def name_scope(prefix=None):
    import contextlib
    return contextlib.nullcontext()


__all__ = ["Block", "Executor", "InputSpec", "LoDTensor", "Operator", "Parameter", "Program", "Scope",
           "Variable", "append_backward", "cpu_places", "cuda_places", "create_parameter", "data",
           "default_main_program", "default_startup_program", "global_scope", "gradients", "nn",
           "program_guard", "scope_guard", "enable_static", "disable_static", "in_dynamic_mode",
           "in_static_mode", "name_scope", "io", "save_inference_model", "load_inference_model",
           "normalize_program", "save", "load", "load_program_state", "set_program_state", "accuracy"]
