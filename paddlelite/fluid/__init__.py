"""fluid-era spellings (thin aliases over paddlelite.static and the functional APIs).

fluid programs were static by default: building a graph with fluid's data layers switches static
mode on (unless inside `fluid.dygraph.guard()`).
"""
from ..device import CPUPlace, CUDAPlace
from ..static import (Executor, Program, Scope, default_main_program, default_startup_program, global_scope,
                      program_guard, scope_guard)
from ..static.framework import Operator, Parameter, Variable
from ..utils import unique_name
from . import (backward, data_feeder, dygraph, framework, initializer, io, layers, lod_tensor, optimizer, reader,
               wrapped_decorator)
from .data_feeder import DataFeeder
from .lod_tensor import create_lod_tensor, create_random_int_lodtensor
from .backward import append_backward, gradients


def data(name, shape, dtype="float32", lod_level=0):
    """fluid.data: like paddle.static.data (no batch dim prepended); turns static mode on."""
    from ..static.input import data as _data
    layers._static_default()
    return _data(name, shape, dtype, lod_level)


def ParamAttr(*args, **kwargs):
    from ..nn.layer.param_attr import ParamAttr as _PA
    return _PA(*args, **kwargs)


__all__ = ["CPUPlace", "CUDAPlace", "DataFeeder", "Executor", "Program", "Scope", "default_main_program",
           "default_startup_program", "global_scope", "program_guard", "scope_guard", "unique_name",
           "backward", "dygraph", "layers", "append_backward", "gradients", "data", "ParamAttr",
           "Variable", "Parameter", "Operator", "framework", "initializer", "io", "optimizer", "create_lod_tensor",
           "create_random_int_lodtensor"]
