"""Static graph mode: Program, Block, Variable, Operator, append_backward, gradients, Executor.

paddle.static.nn, paddle.static.accuracy and paddle.static.create_parameter build layers (the nn floor):
static/layer_apis.py holds them and the top-level package installs them here.
"""
from ..framework.mode import disable_static, enable_static, in_dynamic_mode, in_static_mode
from . import appender as _appender  # noqa: F401  (binds the dispatcher's static hook)
from . import control_flow as _control_flow  # noqa: F401  (registers cond/while runners and grads)
from .backward import append_backward, gradients
from .compiled import (BuildStrategy, CompiledProgram, IpuCompiledProgram, IpuStrategy, ipu_shard_guard,
                       set_ipu_shard)
from .print_op import Print
from .py_func import py_func
from .executor import Executor, LoDTensor, Scope, cpu_places, cuda_places, global_scope, scope_guard, xpu_places
from .framework import (Block, Operator, Parameter, Program, Variable, default_main_program,
                        default_startup_program, device_guard, name_scope, program_guard)
from . import io
from . import binary_io as _binary_io  # noqa: F401  (paddle.save/load of Paddle's binary tensor records)
from .input import InputSpec, data
from .io import (deserialize_persistables, deserialize_program, is_persistable, load, load_from_file,
                 load_inference_model, load_program_state, load_vars, normalize_program, save, save_inference_model,
                 save_to_file, save_vars, serialize_persistables, serialize_program, set_program_state)


__all__ = ["Block", "Executor", "InputSpec", "LoDTensor", "Operator", "Parameter", "Program", "Scope",
           "Variable", "append_backward", "cpu_places", "cuda_places", "create_parameter", "data",
           "default_main_program", "default_startup_program", "global_scope", "gradients", "nn",
           "program_guard", "scope_guard", "enable_static", "disable_static", "in_dynamic_mode",
           "in_static_mode", "name_scope", "io", "save_inference_model", "load_inference_model",
           "normalize_program", "save", "load", "load_program_state", "set_program_state", "accuracy",
           "BuildStrategy", "CompiledProgram", "IpuCompiledProgram", "IpuStrategy", "ipu_shard_guard",
           "set_ipu_shard", "xpu_places", "device_guard", "serialize_program", "deserialize_program",
           "serialize_persistables", "deserialize_persistables", "save_to_file", "load_from_file", "save_vars",
           "load_vars", "is_persistable",
           "create_global_var", "WeightNormParamAttr", "Print", "py_func",
           "ExponentialMovingAverage", "auc", "ctr_metric_bundle"]
