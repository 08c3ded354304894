"""paddle.base: Paddle 3's name for fluid.

`paddle.base.dygraph`, `paddle.base.framework`, `paddle.base.backward`, ... are fluid's modules
themselves (registered under both names: one implementation), and the package re-exports the fluid
names Paddle 3 kept plus its own helpers (in_dygraph_mode, set_flags/get_flags, enable_dygraph, ...).
"""
import sys as _sys

from .. import fluid as _fluid
from ..device import CPUPlace, CUDAPlace, is_compiled_with_cuda
from ..fluid import (DataFeeder, Executor, ParamAttr, Program, Scope, Variable, append_backward, create_lod_tensor,
                     create_random_int_lodtensor, default_main_program, default_startup_program, global_scope,
                     gradients, program_guard, scope_guard, unique_name)
from ..fluid.dygraph import disable_dygraph, enable_dygraph
from ..fluid.framework import in_dygraph_mode
from ..framework.flags import get_flags, in_dynamic_or_pir_mode, in_pir_mode, set_flags
from ..nn.initializer import set_global_initializer
from ..nn.layer import param_attr as _param_attr
from ..static import executor as _static_executor
from ..static.compiled import BuildStrategy, CompiledProgram, IpuCompiledProgram, IpuStrategy
from . import core

backward, dygraph, framework = _fluid.backward, _fluid.dygraph, _fluid.framework
executor = _static_executor
Tensor = core.DenseTensor  # Paddle's base.Tensor: the runtime tensor of a scope variable, not the eager Tensor
enable_imperative, disable_imperative = enable_dygraph, disable_dygraph  # Paddle's older names
initializer, io, layers, data_feeder = _fluid.initializer, _fluid.io, _fluid.layers, _fluid.data_feeder
reader, wrapped_decorator, lod_tensor = _fluid.reader, _fluid.wrapped_decorator, _fluid.lod_tensor
for _name in ("backward", "data_feeder", "dygraph", "framework", "initializer", "io", "layers", "lod_tensor", "reader",
              "wrapped_decorator"):
    _sys.modules[f"{__name__}.{_name}"] = getattr(_fluid, _name)
# the module paths Paddle code imports these from: the modules that implement them here
_sys.modules[f"{__name__}.dygraph.base"] = _fluid.dygraph.base = _fluid.dygraph  # Paddle's dygraph.base: the same names
_sys.modules[f"{__name__}.executor"] = _static_executor
_sys.modules[f"{__name__}.param_attr"] = _param_attr
_sys.modules[f"{__name__}.unique_name"] = unique_name

__all__ = ["BuildStrategy", "CompiledProgram", "IpuCompiledProgram", "IpuStrategy", "CPUPlace", "CUDAPlace", "create_lod_tensor", "create_random_int_lodtensor", "lod_tensor", "DataFeeder", "Executor", "ParamAttr", "Program", "Scope", "Variable", "append_backward",
           "backward", "data_feeder", "default_main_program", "default_startup_program", "disable_dygraph", "dygraph",
           "enable_dygraph", "framework", "get_flags", "global_scope", "gradients", "in_dygraph_mode",
           "in_dynamic_or_pir_mode", "in_pir_mode", "initializer", "io", "is_compiled_with_cuda", "layers",
           "program_guard", "reader", "scope_guard", "set_flags", "set_global_initializer", "unique_name", "executor",
           "Tensor", "enable_imperative", "disable_imperative", "wrapped_decorator"]
