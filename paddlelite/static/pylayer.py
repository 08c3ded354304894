"""paddle.static.nn.static_pylayer: ops whose gradient is user code.

Structural ops (they hold a Block, as control flow's do):
  pylayer       Input -> Out              runs sub_block: forward_fn's ops
  pylayer_grad  Out@GRAD -> Input@GRAD    runs sub_block: backward_fn's ops, built when the backward pass
                                          reaches the pylayer op (backward_fn is called on the output grads)
"""
import inspect

from ..framework.mode import in_dynamic_mode
from ..ops.registry import register_op
from .callables import NO_FUNCTION, CallableTable
from .control_flow import _flatten, _grad_block, _pack
from .framework import OP_ROLE_ATTR, OP_ROLE_BACKWARD, Operator, Variable, default_main_program, program_unique_name

_BACKWARD_FNS = CallableTable("static_pylayer backward_fn")


def static_pylayer(forward_fn, inputs, backward_fn=None, name=None):
    """out = forward_fn(*inputs), built into a sub-block; the gradient of inputs is backward_fn(*out_grads)
    (without backward_fn the inputs must all have stop_gradient=True)."""
    if in_dynamic_mode():  # AssertionError as Paddle
        raise AssertionError("please use PyLayer instead of static_pylayer in dygraph mode")
    if not isinstance(inputs, list):
        raise AssertionError(f"static_pylayer: inputs must be a list, received {type(inputs).__name__}")
    if backward_fn is None:
        for v in inputs:
            if v.stop_gradient is False:
                raise ValueError(f"``stop_gradient`` attr of all inputs to ``forward_fn`` are expected to be True, "
                                 f"when ``backward_fn == None``, but {v.name}.stop_gradient got {v.stop_gradient}")
    if not callable(forward_fn):
        raise ValueError("`forward_fn` should be callable")
    if backward_fn is not None and not callable(backward_fn):
        raise ValueError("`backward_fn` should be callable")
    program = default_main_program()
    parent = program.current_block()
    block = program._create_block()
    try:
        result = forward_fn(*inputs)
    finally:
        program._rollback()
    inner, kind = _flatten(result, "static_pylayer")
    if backward_fn is not None:
        _check_arity(backward_fn, len(inner))
    key = program_unique_name(name or "pylayer")
    outs = [parent.create_var(f"{key}.tmp_{i}", v._shape, v.dtype, stop_gradient=backward_fn is None)
            for i, v in enumerate(inner)]
    for v, o in zip(inner, outs):
        block.append_op("assign", inputs={"X": [v]}, outputs={"Out": [o]})
    fn_id = _BACKWARD_FNS.register(backward_fn) if backward_fn is not None else NO_FUNCTION
    parent._append_operator(Operator(
        parent, "pylayer", {"Input": [v.name for v in inputs]}, {"Out": [o.name for o in outs], "Scope": []},
        {"sub_block": block, "backward_function_id": fn_id,
         OP_ROLE_ATTR: program._op_role}))
    program._bump()
    return _pack(outs, kind)


def _check_arity(backward_fn, n_outputs):
    """backward_fn is called with one gradient per output of forward_fn: a TypeError now, when the program is built
    (as Paddle, which builds the backward block at once), rather than when append_backward reaches the op."""
    try:
        signature = inspect.signature(backward_fn)
    except (TypeError, ValueError):  # a builtin without a signature: nothing to check
        return
    try:
        signature.bind(*range(n_outputs))
    except TypeError as e:
        raise TypeError(f"static_pylayer: backward_fn is called with the gradients of forward_fn's {n_outputs} "
                        f"outputs, but it does not take {n_outputs} arguments ({e})") from None


def _pylayer_grad(bp, op):
    fn_id = op.attr("backward_function_id")
    outs = op.output("Out")
    ins = [n for n in op.input("Input") if n not in bp.no_grad]
    if fn_id == NO_FUNCTION or not ins or not any(n in bp.available for n in outs):
        return [], []
    program = bp.program
    g = _grad_block(bp, op.attr("sub_block"))
    out_grads = [bp.grad_var(n) for n in outs]
    prev = program.current_block_idx
    program.current_block_idx = g.idx
    try:
        grads = _BACKWARD_FNS.get(fn_id, "pylayer", "backward_function_id")(*out_grads)
    finally:
        program.current_block_idx = prev
    grads = list(grads) if isinstance(grads, (list, tuple)) else [grads]
    inputs = op.input("Input")
    if len(grads) != len(inputs):
        raise ValueError(f"The number of input grads should be equal to the number of inputs, but got {len(grads)} "
                         f"and {len(inputs)}.")
    written, local = [], []
    for n, gv in zip(inputs, grads):
        if gv is None or n not in ins:
            continue
        if not isinstance(gv, Variable):
            raise TypeError(f"static_pylayer: backward_fn must return Variables or None, received {type(gv).__name__}")
        # a block-local name: the backward pass may rename the op's output when it sums repeated gradients
        mine = g.create_var(f"{bp.grad_var(n).name}@PYLAYER@block{g.idx}", gv._shape, gv.dtype, stop_gradient=False)
        g.append_op("assign", inputs={"X": [gv]}, outputs={"Out": [mine]})
        written.append(n)
        local.append(mine.name)
    gop = Operator(bp.block, "pylayer_grad", {"Out@GRAD": [v.name for v in out_grads]},
                   {"Input@GRAD": [bp.grad_name_of(n) for n in written]},
                   {"sub_block": g, "inner_grads": local, OP_ROLE_ATTR: OP_ROLE_BACKWARD})
    gop._fwd_op = op
    return [gop], written


def _run_pylayer(plan, op):
    steps = plan.compile_block(op.attr("sub_block"))[0]

    def run(env):
        plan.run_steps(steps, env)
    return run


def _run_pylayer_grad(plan, op):
    steps = plan.compile_block(op.attr("sub_block"))[0]
    outer = [plan.slot(n) for n in op.output("Input@GRAD")]
    local = [plan.slot(n) for n in op.attr("inner_grads")]

    def run(env):
        plan.run_steps(steps, env)
        for o, i in zip(outer, local):
            env[o] = env[i]
    return run


register_op("pylayer", inputs=["Input"], outputs=["Out", "Scope"], variadic_inputs=["Input"],
            variadic_outputs=["Out", "Scope"], attrs={"sub_block": None, "backward_function_id": NO_FUNCTION},
            callable_attrs=("backward_function_id",), block_runner=_run_pylayer, block_grad=_pylayer_grad)
register_op("pylayer_grad", inputs=["Out@GRAD"], outputs=["Input@GRAD"], variadic_inputs=["Out@GRAD"],
            variadic_outputs=["Input@GRAD"], attrs={"sub_block": None, "inner_grads": []},
            block_runner=_run_pylayer_grad)
