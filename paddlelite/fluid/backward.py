"""fluid.backward (paddle.base.backward): append_backward and gradients, and the helpers Paddle code calls by their
private names: the stop-gradient sets of a program, a block's op path and no-grad variables (over static/backward.py's,
which take names), and gradients_with_optimizer."""
from ..optimizer.optimizer import Optimizer
from ..static.backward import append_backward, calc_gradient, find_no_grad_vars, find_op_path, gradients
from ..static.backward import grad_name as _append_grad_suffix_
from ..static.backward import strip_grad as _strip_grad_suffix_  # noqa: F401 -- Paddle code calls it by this name
from ..static.framework import Parameter, Program, program_guard

__all__ = ["append_backward", "gradients", "calc_gradient", "gradients_with_optimizer"]


def _as_list(x):
    """Paddle's helper: None as [], a list or tuple as a list, anything else as a list of it."""
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _names(variables):
    return [v if isinstance(v, str) else v.name for v in _as_list(variables)]


def _get_stop_gradients_(program):
    """{block index: {v@GRAD for each stop_gradient variable of the block}}, as Paddle's."""
    if not isinstance(program, Program):
        raise TypeError(f"_get_stop_gradients_: program must be a Program, received {type(program).__name__}")
    return {block.idx: {_append_grad_suffix_(v.name) for v in block.vars.values() if v.stop_gradient}
            for block in program.blocks}


def _find_op_path_(block, targets, inputs, no_grad_set, op_path_dict=None, is_while=False):
    """The ops of `block` on a path from `inputs` (all, when empty) to `targets`, in program order. As Paddle's, with
    inputs given, the stop_gradient variables the path reads that are not inputs join `no_grad_set` (names)."""
    no_grad = set() if no_grad_set is None else no_grad_set
    input_names = _names(inputs)
    path = find_op_path(block, _names(targets), input_names, no_grad)
    if input_names:
        no_grad.update(n for op in path for n in op.input_arg_names
                       if n not in input_names and block._lookup(n) is not None and block._lookup(n).stop_gradient)
    return path


def _find_no_grad_vars(block, op_path, targets, no_grad_set):
    """The outputs of `op_path` no target depends on (so their gradients are zero), as Paddle's."""
    return find_no_grad_vars(block, op_path, _names(targets), set() if no_grad_set is None else no_grad_set)


def gradients_with_optimizer(program, optimizer, inputs=None, outputs=None):
    """Append the gradients of `outputs` (default: the variables the program writes and never reads) with respect to
    `inputs` (default: those it reads and never writes) and `optimizer`'s updates of the parameters among the inputs;
    returns (optimize ops, [(parameter, gradient)])."""
    if not isinstance(program, Program):
        raise TypeError("paddle.static.gradients_with_optimizer: program must be a Program, received "
                        f"{type(program).__name__}")
    if not isinstance(optimizer, Optimizer):
        raise TypeError("paddle.static.gradients_with_optimizer: optimizer must be a paddle.optimizer.Optimizer, "
                        f"received {type(optimizer).__name__}")
    if inputs is None or outputs is None:
        read, written = {}, {}  # name -> variable, in program order (Paddle's sets have no order)
        for block in program.blocks:
            for op in block.ops:
                read.update((n, block._lookup(n)) for n in op.input_arg_names)
                written.update((n, block._lookup(n)) for n in op.output_arg_names)
        if inputs is None:
            inputs = [v for n, v in read.items() if n not in written]
        if outputs is None:
            outputs = [v for n, v in written.items() if n not in read]
    inputs = _as_list(inputs)
    grads = gradients(outputs, inputs)
    with program_guard(program):
        params_grads = [(p, g) for p, g in zip(inputs, grads) if isinstance(p, Parameter) and g is not None]
        return optimizer.apply_gradients(params_grads), params_grads
