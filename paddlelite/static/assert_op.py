"""paddle.static.nn.control_flow.Assert: the `assert` op, which raises ValueError when the executor runs it on a
false condition, after printing the `data` tensors as the print op prints them (the first `summarize` values), as
Paddle's assert op does. The op is structural (a block runner, like print): the message names variables, which only
the executor's plan holds."""
import sys

import numpy as np

from ..device import cuda
from ..ops.registry import register_op
from .framework import OP_ROLE_ATTR, Operator, Variable, default_main_program, require_static
from .print_op import format_tensor

_API = "static.nn.control_flow.Assert"
_PRINTED = {"message": "", "print_tensor_name": True, "print_tensor_type": True, "print_tensor_shape": True,
            "print_tensor_layout": True, "print_tensor_lod": True}


def Assert(cond, data=None, summarize=20, name=None):
    """Append an op that, when run, raises ValueError if the bool `cond` (one element) is false, first printing the
    tensors of `data` (their first `summarize` values; -1: all)."""
    require_static(f"paddle.{_API}")
    if not isinstance(cond, Variable):
        raise TypeError(f"The type of 'cond' in {_API} must be (Variable, Value), but received {type(cond)}. ")
    if cond.dtype.name != "bool":
        raise TypeError(f"The data type of 'cond' in {_API} must be ['bool'], but received {cond.dtype.name}. ")
    if not isinstance(data, (list, tuple, type(None))):
        raise TypeError(f"The type of 'data' in {_API} must be (list, tuple, NoneType), but received {type(data)}. ")
    if isinstance(summarize, bool) or not isinstance(summarize, int):
        raise TypeError(f"The type of 'summarize' in {_API} must be int, but received {type(summarize)}. ")
    if not isinstance(name, (str, type(None))):
        raise TypeError(f"The type of 'name' in {_API} must be (str, NoneType), but received {type(name)}. ")
    data = [] if data is None else list(data)
    for k, v in enumerate(data):
        if not isinstance(v, Variable):
            raise TypeError(f"{_API}: data[{k}] must be a Variable, received {type(v).__name__}")
    program = default_main_program()
    block = program.current_block()
    op = Operator(block, "assert", {"Cond": [cond.name], "Data": [v.name for v in data]}, {},
                  {"summarize": summarize, OP_ROLE_ATTR: program._op_role})
    block._append_operator(op)
    program._bump()
    return op


def _run_assert(plan, op):
    cond_name, data_names = op.input("Cond")[0], op.input("Data")
    cond_i, data_i = plan.slot(cond_name), [plan.slot(n) for n in data_names]
    printed = {**_PRINTED, "summarize": op.attr("summarize")}

    def run(env):
        cond = env[cond_i]
        if cond.size != 1:
            raise ValueError(f"(InvalidArgument) The numel of Input(Condition) of AssertOp must be 1. But now the "
                             f"Condition's shape is {list(cond.shape)}.")
        if bool(np.asarray(cuda.as_module(np, cond)).reshape(())):
            return
        for name, i in zip(data_names, data_i):
            sys.stdout.write(format_tensor(name, env[i], plan.place, printed))
        sys.stdout.flush()
        raise ValueError(f"(InvalidArgument) The condition variable '{cond_name}' of AssertOp must be true, but "
                         "received false")
    return run


ASSERT = register_op("assert", inputs=["Cond", "Data"], outputs=[], attrs={"summarize": 20},
                     variadic_inputs=("Data",), block_runner=_run_assert, host_sync="reads the condition")
