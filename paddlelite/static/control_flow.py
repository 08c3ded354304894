"""Control flow with sub-blocks: static.nn.cond, static.nn.while_loop and While, and their gradients.

Structural ops (they hold a Block, so the executor runs them, not an xp forward):
  conditional_block       Cond, Input -> Out         runs sub_block when Cond is true
  conditional_block_grad  ... -> Input@GRAD           runs the grad block, or writes zeros
  while                   X, Condition -> Out, StepScopes   runs sub_block while Condition holds,
                                                            keeping each iteration's values
  while_grad              ... -> X@GRAD               runs the grad block once per iteration, last first
The grad blocks are built by the same backward pass as block 0 (grad makers of the registry); their
`forward_block_idx` points at the forward sub-block.
"""
import contextlib

from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops.registry import get_op, register_op
from ..utils.structure import flatten
from . import backward as _bw
from . import executor as _ex
from .framework import (EMPTY_VAR_NAME, OP_ROLE_ATTR, OP_ROLE_BACKWARD, Operator, Variable, default_main_program,
                        executable_ops, program_unique_name)


# ---- building ------------------------------------------------------------------------------------
def _flatten(out, api):
    if out is None:
        return [], None
    if isinstance(out, Variable):
        return [out], "single"
    if isinstance(out, (list, tuple)) and all(isinstance(v, Variable) for v in out):
        return list(out), type(out)
    raise TypeError(f"{api}: the function must return None, a Variable or a list/tuple of Variables, "
                    f"received {type(out).__name__}")


def _pack(vars_, kind):
    if kind is None:
        return None
    if kind == "single":
        return vars_[0]
    return kind(vars_)


def _check_pred(pred, api, arg, kind=Variable, bad_size=ValueError):
    if not isinstance(pred, kind):
        raise TypeError(f"{api}: {arg} must be a boolean {kind.__name__}, received {type(pred).__name__}")
    if pred.dtype.name != "bool":
        raise TypeError(f"{api}: {arg} must have dtype bool, received {pred.dtype.name}")
    if pred.size not in (1, -1):
        raise bad_size(f"{api}: {arg} must hold a single value, received shape {list(pred.shape)}")


def _external_reads(block):
    """Names the ops of `block` read that are not defined in it (in first-read order)."""
    seen, out = set(), []
    for n in _ex._sub_block_reads(block):
        if n not in seen:
            seen.add(n)
            out.append(n)
    return out


def _run_branch(program, fn, api):
    block = program._create_block()
    try:
        out = fn() if fn is not None else None
    finally:
        program._rollback()
    vars_, kind = _flatten(out, api)
    return block, vars_, kind


def _check_return_names(return_names):
    if return_names is None or isinstance(return_names, str):
        return
    if not isinstance(return_names, (list, tuple)) or not all(isinstance(n, str) for n in return_names):
        raise TypeError(f"cond: return_names must be None, a str or a list/tuple of str (one name per returned "
                        f"value), received {return_names!r}")


def _cond_eager(pred, true_fn, false_fn):
    """Dynamic mode, as Paddle: call the branch pred selects (its ops record gradients as usual)."""
    if not isinstance(pred, Tensor):  # AssertionError as Paddle; explicit so -O keeps it
        raise AssertionError(f"cond: pred must be a Tensor, received {type(pred).__name__}")
    if pred.size != 1:
        raise AssertionError(f"cond: pred must hold one value (numel 1), received shape {pred.shape}")
    fn, arg = (true_fn, "true_fn") if pred.item() else (false_fn, "false_fn")
    if fn is None:
        return None
    if not callable(fn):
        raise TypeError(f"cond: {arg} must be callable or None, received {type(fn).__name__}")
    return fn()


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """Run true_fn's ops when pred is true, else false_fn's; returns the taken branch's outputs.
    In dynamic mode the chosen branch simply runs, as in Paddle."""
    if in_dynamic_mode():
        return _cond_eager(pred, true_fn, false_fn)
    _check_pred(pred, "cond", "pred")
    for fn, arg in ((true_fn, "true_fn"), (false_fn, "false_fn")):
        if fn is not None and not callable(fn):
            raise TypeError(f"cond: {arg} must be callable or None, received {type(fn).__name__}")
    _check_return_names(return_names)
    program = default_main_program()
    parent = program.current_block()
    key = program_unique_name(name or "cond")
    t_block, t_out, t_kind = _run_branch(program, true_fn, "cond") if true_fn is not None else (None, [], None)
    f_block, f_out, f_kind = _run_branch(program, false_fn, "cond") if false_fn is not None else (None, [], None)
    if false_fn is None and t_out or true_fn is None and f_out:
        raise ValueError("cond: when only one of true_fn/false_fn is given, it must return None")
    if true_fn is not None and false_fn is not None and (len(t_out) != len(f_out) or t_kind != f_kind):
        raise ValueError(f"cond: true_fn and false_fn must return the same structure; true_fn returned "
                         f"{len(t_out)} Variables, false_fn {len(f_out)}")
    outs = []
    for i, (tv, fv) in enumerate(zip(t_out, f_out) if f_out else [(v, None) for v in t_out]):
        if fv is not None and (tv.dtype != fv.dtype or len(tv.shape) != len(fv.shape)):
            raise ValueError(f"cond: output {i} is {tv.dtype.name}{tv.shape} in true_fn but "
                             f"{fv.dtype.name}{fv.shape} in false_fn")
        shape = tv.shape if fv is None else [a if a == b else -1 for a, b in zip(tv.shape, fv.shape)]
        sg = tv.stop_gradient and (fv is None or fv.stop_gradient)
        outs.append(parent.create_var(f"{key}.tmp_{i}", shape, tv.dtype, stop_gradient=sg))
    not_pred = dispatch.apply(get_op("logical_not"), pred) if f_block is not None and (f_block.ops or f_out) else None
    for block, branch_out, p in ((t_block, t_out, pred), (f_block, f_out, not_pred)):
        if block is None:
            continue
        for inner, outer in zip(branch_out, outs):
            block.append_op("assign", inputs={"X": [inner]}, outputs={"Out": [outer]})
        if not block.ops:
            continue
        # Paddle's ConditionalBlock: Out = the parent's variables the block writes (in the parent's order), Scope
        written = {n for o in block.ops for n in _ex.op_io(o)[1]}
        scope = parent.create_var(None, (), "float32", stop_gradient=True, type="STEP_SCOPES")
        op = Operator(parent, "conditional_block",
                      {"Cond": [p.name], "Input": _external_reads(block)},
                      {"Out": [n for n in parent.vars if n in written], "Scope": [scope.name]},
                      {"sub_block": block, "is_scalar_condition": True, OP_ROLE_ATTR: program._op_role})
        parent._append_operator(op)
    return _pack(outs, t_kind if true_fn is not None else f_kind)


def _is_leaf(value):
    return not isinstance(value, (list, tuple, dict))


def _body_result(new, loop_vars):
    """The body's results, and them flattened as the loop vars are (nested lists, tuples and dicts)."""
    new = list(new) if isinstance(new, (list, tuple)) else [new]
    if len(new) != len(loop_vars):
        raise ValueError(f"while_loop: body must return as many values as loop_vars ({len(loop_vars)}), returned "
                         f"{len(new)}")
    flat, _ = flatten(new, _is_leaf)
    expected, _ = flatten(list(loop_vars), _is_leaf)
    if len(flat) != len(expected):
        raise ValueError(f"while_loop: body must return the structure of loop_vars ({len(expected)} tensors "
                         f"nested as loop_vars), returned {len(flat)}")
    return new, flat


def _while_eager(cond, body, loop_vars):
    """Dynamic mode, as Paddle: a Python loop (its ops record gradients as usual)."""
    kind = type(loop_vars)
    while _eager_condition(cond(*loop_vars)):
        loop_vars, _ = _body_result(body(*loop_vars), loop_vars)
    return kind(loop_vars)


def _eager_condition(now):
    _check_pred(now, "while_loop", "the value returned by cond", Tensor, TypeError)  # TypeError as Paddle
    return now.item()


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """Repeat `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`; returns the final loop vars. A loop var may
    be a nested list, tuple or dict of Variables (the body returns the same structure). A var whose shape changes
    in the body shows -1 in the dims that change. In dynamic mode it is a Python loop, as in Paddle."""
    if not callable(cond):
        raise TypeError(f"while_loop: cond must be callable, received {type(cond).__name__}")
    if not callable(body):
        raise TypeError(f"while_loop: body must be callable, received {type(body).__name__}")
    if not isinstance(loop_vars, (list, tuple)):
        raise TypeError(f"while_loop: loop_vars must be a list or tuple, received {type(loop_vars).__name__}")
    if not loop_vars:
        raise ValueError("while_loop: loop_vars must not be empty")
    if in_dynamic_mode():
        return _while_eager(cond, body, loop_vars)
    flat_vars, _ = flatten(list(loop_vars), _is_leaf)
    for v in flat_vars:
        if not isinstance(v, Variable):
            raise TypeError(f"while_loop: loop_vars must hold Variables, received {type(v).__name__}")
    program = default_main_program()
    parent = program.current_block()
    # as Paddle's: the loop works on the loop vars themselves (the body's results are assigned back into them)
    pre_cond = cond(*loop_vars)
    _check_pred(pre_cond, "while_loop", "the value returned by cond", bad_size=TypeError)
    block = program._create_block()
    try:
        new, flat_new = _body_result(body(*loop_vars), loop_vars)
        for i, (n, s) in enumerate(zip(flat_new, flat_vars)):
            if not isinstance(n, Variable):
                raise TypeError(f"while_loop: body must return Variables, value {i} is {type(n).__name__}")
            if n.dtype != s.dtype or len(n.shape) != len(s.shape):
                raise ValueError(f"while_loop: body changes loop var {i} from {s.dtype.name}{s.shape} to "
                                 f"{n.dtype.name}{n.shape}")
        now = cond(*new)
        _check_pred(now, "while_loop", "the value returned by cond", bad_size=TypeError)
        for n, s in zip(flat_new, flat_vars):
            if n is not s:
                block.append_op("assign", inputs={"X": [n]}, outputs={"Out": [s]})
                s._shape = tuple(a if a == b else -1 for a, b in zip(s._shape, n._shape))
        block.append_op("assign", inputs={"X": [now]}, outputs={"Out": [pre_cond]})
    finally:
        program._rollback()
    _append_while(program, parent, block, pre_cond.name, is_test)
    return loop_vars


def _append_while(program, parent, block, cond_name, is_test):
    """The while op running `block` while the variable `cond_name` holds, appended to `parent`."""
    reads, writes = _while_io(block, parent, cond_name)
    scopes = parent.create_var(None, (), "float32", stop_gradient=True, type="STEP_SCOPES")
    parent._append_operator(Operator(parent, "while", {"X": reads, "Condition": [cond_name]},
                                     {"Out": writes, "StepScopes": [scopes.name]},
                                     {"sub_block": block, "is_test": bool(is_test), OP_ROLE_ATTR: program._op_role}))


class While:
    """Paddle's static.nn.control_flow.While: the ops built inside `with loop.block():` run as long as `cond` holds;
    they must update cond themselves (e.g. `paddle.assign(paddle.less_than(i, n), cond)`) and write the variables
    that outlive an iteration in place."""

    BEFORE_WHILE_BLOCK, IN_WHILE_BLOCK, AFTER_WHILE_BLOCK = 0, 1, 2

    def __init__(self, cond, is_test=False, name=None):
        _check_pred(cond, "static.nn.While", "cond", bad_size=TypeError)
        self.cond_var, self.is_test = cond, bool(is_test)
        self.status = While.BEFORE_WHILE_BLOCK

    @contextlib.contextmanager
    def block(self):
        if self.status != While.BEFORE_WHILE_BLOCK:
            raise ValueError("static.nn.While: block() builds the loop body once; create another While for "
                             "another loop")
        program = default_main_program()
        parent = program.current_block()
        body = program._create_block()
        self.status = While.IN_WHILE_BLOCK
        try:
            yield
        finally:
            program._rollback()
        self.status = While.AFTER_WHILE_BLOCK
        _append_while(program, parent, body, self.cond_var.name, self.is_test)


def _while_io(block, parent, cond_name):
    """(X, Out) of the while op running `block`: the outer names its ops read, and those they write (the loop
    vars and the condition), in the order Paddle's While._complete lists them -- the iteration order of the
    Python sets it collects them in, so the same set operations are repeated here (that order is fixed within a
    process, as string hashes are)."""
    outputs, inputs = {cond_name}, set()
    for op in block.ops:
        for slot in op.input_names:
            inputs.update(n for n in op.input(slot) if n not in outputs)
        for slot in op.output_names:
            outputs.update(op.output(slot))
    inputs = inputs - set()  # Paddle's step removing the tensor arrays created in the block
    writes = [n for n in outputs if parent._lookup(n) is not None]
    inputs |= set(writes)
    inputs -= {cond_name}
    return list(inputs), writes


# ---- gradients -----------------------------------------------------------------------------------
def _grad_block(bp, fwd_block):
    program = bp.program
    prev = program.current_block_idx
    g = program._create_block(parent_idx=bp.block.idx)
    g.forward_block_idx = fwd_block.idx
    program.current_block_idx = prev
    return g


def _inner_pass(bp, op, sub, targets):
    """Backward of the sub-block ops leading to `targets` (outer vars whose grads are available)."""
    g = _grad_block(bp, sub)
    inner = _bw.BackwardPass(bp.program, sub, g, bp.no_grad, bp.callbacks, bp.grad_to_var)
    for n in targets:
        inner.grad_names[n] = bp.grad_name_of(n)
        inner.available.add(n)
    path = _bw.find_op_path(sub, targets, [], bp.no_grad)
    inner.process(path)
    inner.commit()
    return g, inner


def _conditional_block_grad(bp, op):
    sub = op.attr("sub_block")
    outs = [n for n in op.output("Out") if n in bp.available]
    ins = [n for n in op.input("Input") if n not in bp.no_grad]
    if not outs or not ins:
        return [], []
    g, inner = _inner_pass(bp, op, sub, outs)
    ins = [n for n in ins if n in inner.available]
    if not ins:
        return [], []
    local = [inner.grad_name_of(n) for n in ins]  # as Paddle names them: the runner keeps them in the block's scope
    for n in local:  # declared in the grad block even where an outer block has a variable of that name
        if n not in g.vars:
            v = g._lookup(n)
            g.create_var(n, v._shape, v._dtype, stop_gradient=False)
    outer = [bp.grad_var(n).name for n in ins]
    gop = Operator(bp.block, "conditional_block_grad",
                   {"Cond": op.input("Cond"), "Input": ins, "Out": outs,
                    "Out@GRAD": [bp.grad_name_of(n) for n in outs], "Scope": op.output("Scope")},
                   {"Input@GRAD": outer},
                   {"sub_block": g, "inner_grads": local, "is_scalar_condition": True,
                    OP_ROLE_ATTR: OP_ROLE_BACKWARD})
    gop._fwd_op = op
    return [gop], ins


def _while_grad(bp, op):
    """Paddle's while_grad: X@GRAD one per X (EMPTY_VAR_NAME where none is computed; a loop var's gradient is
    read and written in place), Out@GRAD the outer gradients its block reads, in the order of Paddle's
    WhileGradOpMaker (a C++ unordered_set of a few names: the reverse of their first reads)."""
    sub = op.attr("sub_block")
    xs, outs, cond_name = op.input("X"), op.output("Out"), op.input("Condition")[0]
    loop = [n for n in outs if n != cond_name]
    if not any(n in bp.available for n in loop):
        return [], []
    g, inner = _inner_pass(bp, op, sub, [n for n in loop if n not in bp.no_grad])
    reached = [n not in bp.no_grad and (n in loop or n in inner.available) for n in xs]
    seen, out_grads = set(xs) | set(outs), []
    for gop in g.ops:
        for n in gop.input_arg_names:
            if n not in seen and bp.block._lookup(n) is not None and n not in out_grads:
                out_grads.append(n)
        seen.update(gop.output_arg_names)
    out_grads.reverse()
    gop = Operator(bp.block, "while_grad",
                   {"X": xs, "Out": outs, "Out@GRAD": out_grads, "StepScopes": op.output("StepScopes")},
                   {"X@GRAD": [bp.grad_var(n).name if r else EMPTY_VAR_NAME for n, r in zip(xs, reached)]},
                   {"sub_block": g, "original_output_grad": list(out_grads), "is_test": op.attr("is_test"),
                    "inner_grads": [inner.grad_name_of(n) if r else "" for n, r in zip(xs, reached)],
                    OP_ROLE_ATTR: OP_ROLE_BACKWARD})
    gop._fwd_op = op
    return [gop], [n for n, r in zip(xs, reached) if r]


# ---- running -------------------------------------------------------------------------------------
def _truth(v):
    return bool(v.reshape(-1)[0]) if v.size == 1 else bool(v)


def _run_conditional_block(plan, op):
    steps = plan.compile_block(op.attr("sub_block"))[0]
    cond_i = plan.slot(op.input("Cond")[0])

    def run(env):
        if _truth(env[cond_i]):
            plan.run_steps(steps, env)
    return run


def _run_conditional_block_grad(plan, op):
    steps, _, writes = plan.compile_block(op.attr("sub_block"))
    cond_i = plan.slot(op.input("Cond")[0])
    ins = [plan.slot(n) for n in op.input("Input")]
    outer = [plan.slot(n) for n in op.output("Input@GRAD")]
    local = [plan.slot(n) for n in op.attr("inner_grads")]
    # Paddle runs the block in a scope of its own: what it writes (its gradients may share the outer ones' names)
    # is put back afterwards
    scoped = [plan.slot(n) for n in writes]
    xp = plan.xp

    def run(env):
        if _truth(env[cond_i]):
            saved = [(i, env[i]) for i in scoped]
            plan.run_steps(steps, env)
            grads = [env[i] for i in local]
            for i, value in saved:
                env[i] = value
            for o, g in zip(outer, grads):
                env[o] = g
        else:
            for o, x in zip(outer, ins):
                env[o] = xp.zeros_like(env[x])
    return run


def _run_while(plan, op):
    sub = op.attr("sub_block")
    steps, reads, writes = plan.compile_block(sub)
    cond_i = plan.slot(op.input("Condition")[0])
    scopes_i = plan.slot(op.output("StepScopes")[0])
    before = [plan.slot(n) for n in reads]
    after = [plan.slot(n) for n in writes if n in sub.vars]
    keep = not op.attr("is_test")

    def run(env):
        snaps = []
        while _truth(env[cond_i]):
            snap = {i: env[i] for i in before}
            plan.run_steps(steps, env)
            if keep:
                for i in after:
                    snap[i] = env[i]
                snaps.append(snap)
        env[scopes_i] = snaps
    return run


def _run_while_grad(plan, op):
    sub = op.attr("sub_block")
    steps = plan.compile_block(sub)[0]
    scopes_i = plan.slot(op.input("StepScopes")[0])
    written = {n for o in executable_ops(sub.ops) for n in o.output_arg_names}
    outs = set(op.input("Out"))
    # the gradients coming in (Out@GRAD, which backward may have renamed since: Paddle's original_output_grad)
    given = dict(zip(op.attr("original_output_grad"), op.input("Out@GRAD")))
    loop, ext = [], []
    for x, inner, outer in zip(op.input("X"), op.attr("inner_grads"), op.output("X@GRAD")):
        if not inner:
            continue
        if x in outs:  # a loop var: its gradient flows through every iteration, carried where the block writes it
            src = given.get(inner)
            loop.append((plan.slot(x), plan.slot(inner), plan.slot(outer), inner in written,
                         None if src is None else plan.slot(src)))
        else:          # read by the loop: its gradient is the sum over the iterations
            ext.append((plan.slot(x), plan.slot(inner), plan.slot(outer)))
    is_test = op.attr("is_test")
    xp = plan.xp

    def run(env):
        if is_test:  # ValueError as Paddle's WhileGradOp
            raise ValueError("the gradient of a while_loop built with is_test=True is not available (its "
                             "iterations' values are not kept); build the loop with is_test=False")
        snaps = env[scopes_i]
        for x, g, _, _, src in loop:
            env[g] = env[src] if src is not None and env[src] is not None else xp.zeros_like(env[x])
        saved = {i: env[i] for s in snaps[:1] for i in s}
        acc = [None] * len(ext)
        for snap in reversed(snaps):
            for i, val in snap.items():
                env[i] = val
            plan.run_steps(steps, env)
            for k, (_, g, _) in enumerate(ext):
                acc[k] = env[g] if acc[k] is None else acc[k] + env[g]
            for _, g, _, carried, _ in loop:
                if not carried:
                    env[g] = xp.zeros_like(env[g])
        for i, val in saved.items():
            env[i] = val
        for (x, _, out), total in zip(ext, acc):
            env[out] = total if total is not None else xp.zeros_like(env[x])
        for _, g, out, _, _ in loop:
            env[out] = env[g]
    return run


# ---- the ops, registered like every op: the executor and backward look them up by type ------------
register_op("conditional_block", inputs=["Cond", "Input"], outputs=["Out", "Scope"], variadic_inputs=["Input"],
            variadic_outputs=["Out", "Scope"], nondiff_inputs=["Cond"], attrs={"sub_block": None,
            "is_scalar_condition": True}, block_runner=_run_conditional_block, block_grad=_conditional_block_grad,
            host_sync="reads Cond on the host")
register_op("conditional_block_grad", inputs=["Cond", "Input", "Out", "Out@GRAD"], outputs=["Input@GRAD"],
            variadic_inputs=["Input", "Out", "Out@GRAD"], variadic_outputs=["Input@GRAD"],
            attrs={"sub_block": None, "inner_grads": [], "is_scalar_condition": True},
            block_runner=_run_conditional_block_grad,
            host_sync="reads Cond on the host")
register_op("while", inputs=["X", "Condition"], outputs=["Out", "StepScopes"], variadic_inputs=["X"], variadic_outputs=["Out"],
            nondiff_inputs=["Condition"], attrs={"sub_block": None, "is_test": False},
            block_runner=_run_while, block_grad=_while_grad,
            host_sync="reads Condition on the host each step")
register_op("while_grad", inputs=["X", "Out", "Out@GRAD", "StepScopes"], outputs=["X@GRAD"],
            variadic_inputs=["X", "Out", "Out@GRAD"], variadic_outputs=["X@GRAD"],
            attrs={"sub_block": None, "original_output_grad": [], "inner_grads": [], "is_test": False},
            block_runner=_run_while_grad, block_locals=lambda op: op.attr("original_output_grad"),
            host_sync="replays the forward's steps, counted on the host")
