"""paddle.static.py_func: the `py_func` op, which calls a Python function on its inputs' values when the
executor runs it and writes what it returns into the output variables; a backward_func becomes the grad
op's function (it receives the forward inputs, outputs and output gradients, less skipped variables, and
returns the input gradients).

As in Paddle, the op's attrs hold the functions' ids in a process-wide table (static/callables.py: only ids it
issued run anything, and a program read from a file cannot hold the op); the function receives LoDTensor views of the arrays (np.array(x)
reads them) and returns arrays, LoDTensors or None.
"""
import inspect

import numpy as np

from ..ops.registry import register_op
from .callables import NO_FUNCTION, CallableTable
from .executor import LoDTensor, Scope
from .framework import OP_ROLE_ATTR, OP_ROLE_BACKWARD, Operator, Variable, default_main_program, require_static

_FUNCTIONS = CallableTable("py_func function")


def _register(func):
    if func is None or not callable(func):
        raise TypeError("func must be a Python function")
    return _FUNCTIONS.register(func)


def _as_list(v, arg):
    if v is None:
        return []
    if isinstance(v, Variable):
        return [v]
    if isinstance(v, (list, tuple)) and all(isinstance(e, Variable) for e in v):
        return list(v)
    raise TypeError(f"The type of '{arg}' in py_func must be (list, tuple, Variable, NoneType), but received "
                    f"{type(v)}.")


def py_func(func, x, out, backward_func=None, skip_vars_in_backward_input=None):
    """Append a py_func op computing `out` (Variables the caller created, with their shapes and dtypes) from
    `x` by calling func at run time; returns `out`."""
    require_static("paddle.static.py_func")
    xs, outs = _as_list(x, "X"), _as_list(out, "Out")
    fwd_id = _register(func)
    bwd_id = _register(backward_func) if backward_func is not None else NO_FUNCTION
    for v in outs:
        if len(v.shape) == 0:
            raise ValueError("Output shapes of py_func should be provided by users manually")
    skip = []
    if backward_func is not None and skip_vars_in_backward_input is not None:
        known = {v.name for v in xs + outs}
        for v in _as_list(skip_vars_in_backward_input, "skip_vars_in_backward_input"):
            if v.name not in known:
                raise ValueError(f"Tensor {v.name} is not found in forward inputs and outputs")
            skip.append(v.name)
    program = default_main_program()
    block = program.current_block()
    block._append_operator(Operator(block, "py_func", {"X": [v.name for v in xs]}, {"Out": [v.name for v in outs]},
                                    {"forward_callable_id": fwd_id, "backward_callable_id": bwd_id,
                                     "backward_skip_vars": sorted(set(skip)), OP_ROLE_ATTR: program._op_role}))
    program._bump()
    return out


def _call(func, args):
    """func's results as a list (one entry per output; None allowed)."""
    named = inspect.getfullargspec(func)
    if not named.args and named.varargs is None and named.varkw is None:
        result = func()
    else:
        result = func(*args)
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _run_py_func(plan, op):
    func = _FUNCTIONS.get(op.attr("forward_callable_id"), "py_func", "forward_callable_id")
    ins = op.input("X")
    in_slots = [plan.slot(n) for n in ins]
    out_slots = [plan.slot(n) for n in op.output("Out")]
    xp = plan.xp

    def run(env):
        scope = Scope()
        for n, i in zip(ins, in_slots):
            scope._values[n] = env[i]
        results = _call(func, [LoDTensor(scope, n) for n in ins])
        if len(results) < len(out_slots):
            raise ValueError(f"py_func: the function returned {len(results)} values for {len(out_slots)} outputs")
        for o, r in zip(out_slots, results):
            if r is not None:
                env[o] = xp.asarray(np.asarray(r))
    return run


def _py_func_grad(bp, op):
    bwd_id = op.attr("backward_callable_id")
    outs = op.output("Out")
    if bwd_id == NO_FUNCTION or not any(n in bp.available for n in outs):
        return [], []
    skip = set(op.attr("backward_skip_vars"))
    ins = [n for n in op.input("X") if n not in bp.no_grad]
    if not ins:
        return [], []
    grads_in = [n for n in op.input("X") + outs if n not in skip] + [bp.grad_name_of(n) for n in outs]
    grads_out = [bp.grad_var(n).name for n in op.input("X")]  # positional: backward_func returns one per input
    gop = Operator(bp.block, "py_func", {"X": grads_in}, {"Out": grads_out},
                   {"forward_callable_id": bwd_id, "backward_callable_id": NO_FUNCTION, "backward_skip_vars": [],
                    OP_ROLE_ATTR: OP_ROLE_BACKWARD})
    return [gop], ins


register_op("py_func", inputs=["X"], outputs=["Out"], variadic_inputs=["X"], variadic_outputs=["Out"],
            attrs={"forward_callable_id": NO_FUNCTION, "backward_callable_id": NO_FUNCTION, "backward_skip_vars": []},
            callable_attrs=("forward_callable_id", "backward_callable_id"), block_runner=_run_py_func,
            block_grad=_py_func_grad,
            host_sync="runs a Python function on host copies")
