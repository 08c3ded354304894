"""paddle.base: Paddle 3's name for fluid.

`paddle.base.dygraph`, `paddle.base.framework`, `paddle.base.backward`, ... are fluid's modules
themselves (registered under both names: one implementation), and the package re-exports the fluid
names Paddle 3 kept plus its own helpers (in_dygraph_mode, set_flags/get_flags, enable_dygraph, ...).
"""
import sys as _sys

from .. import fluid as _fluid
from ..device import CPUPlace, CUDAPlace, is_compiled_with_cuda
from ..fluid import (Executor, ParamAttr, Program, Scope, Variable, append_backward, default_main_program,
                     default_startup_program, global_scope, gradients, program_guard, scope_guard, unique_name)
from ..fluid.dygraph import disable_dygraph, enable_dygraph
from ..fluid.framework import in_dygraph_mode
from ..framework.flags import get_flags, in_dynamic_or_pir_mode, in_pir_mode, set_flags
from . import core

backward, dygraph, framework = _fluid.backward, _fluid.dygraph, _fluid.framework
initializer, io, layers = _fluid.initializer, _fluid.io, _fluid.layers
for _name in ("backward", "dygraph", "framework", "initializer", "io", "layers"):
    _sys.modules[f"{__name__}.{_name}"] = getattr(_fluid, _name)

__all__ = ["CPUPlace", "CUDAPlace", "Executor", "ParamAttr", "Program", "Scope", "Variable", "append_backward",
           "backward", "default_main_program", "default_startup_program", "disable_dygraph", "dygraph",
           "enable_dygraph", "framework", "get_flags", "global_scope", "gradients", "in_dygraph_mode",
           "in_dynamic_or_pir_mode", "in_pir_mode", "initializer", "io", "is_compiled_with_cuda", "layers",
           "program_guard", "scope_guard", "set_flags", "unique_name"]
