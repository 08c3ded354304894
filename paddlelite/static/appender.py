"""The static binding of the dispatcher: a registry op applied to Variables appends an Operator.

`build_op` turns (OpDef, inputs, attrs) into an Operator plus output Variables shaped by the op's
`infer` rule; the dispatcher hook appends it to the current block, the static grad builder collects
it into a gradient group first. Temporaries are named like Paddle's LayerHelper does:
`<key>_<n>.tmp_<k>` with the op type (or the enclosing layer's name) as the key.
"""
import contextlib
import threading

from ..framework.mode import in_static_mode
from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops.legacy import (HELPER_NAMED_OUTPUTS, INPLACE_OUTPUTS, NO_GRAD_OUTPUTS_KEPT, OUTPUT_ORDER, STOP_GRADIENT_OUTPUTS, extra_outputs, legacy_type,
                          name_key)
from ..ops.registry import Meta
from .framework import Operator, Variable, default_main_program, program_unique_name


class _ThreadBuilding(threading.local):
    """What the guards below set, per thread (as the programs ops are built into: static/framework.py)."""
    layer_name = None    # how the next op's outputs are named: a LayerHelper name, a _Reserved one, ...
    capture = None       # while paddle.jit traces: fn(Tensor) -> Variable standing for that eager Tensor
    output_order = None  # (op type, output slots in the order Paddle's API creates them)


_thread = _ThreadBuilding()


@contextlib.contextmanager
def tensor_capture(fn):
    """Inside, an eager Tensor given to an op becomes the Variable `fn(tensor)` returns (paddle.jit's tracing
    turns the Layer's parameters and other captured tensors into persistable variables this way)."""
    prev = _thread.capture
    _thread.capture = fn
    try:
        yield
    finally:
        _thread.capture = prev


def program_copy(v, program):
    """`program`'s own copy of persistable Variable `v` of another program (a parameter or buffer of a network
    built before `program` was cloned from its program, as paddle.Model does), or None. Ops name their
    variables, so they read and write the copy, as in Paddle."""
    if v.block.program is program or not v.persistable:
        return None
    own = program.global_block().vars.get(v.name)
    return own if own is not None and own.persistable and own._shape == v._shape else None


def as_variable(v):
    """`v`, or the Variable standing for it: the one paddle.jit's tracing captured for an eager Tensor, or the
    current program's copy of a persistable Variable of the program it was cloned from (`program_copy`)."""
    if _thread.capture is not None and isinstance(v, Tensor):
        return _thread.capture(v)
    own = program_copy(v, default_main_program()) if isinstance(v, Variable) else None
    return v if own is None else own


def _captured(v, capture):
    if isinstance(v, Tensor):
        return capture(v)
    if isinstance(v, (list, tuple)) and any(isinstance(e, Tensor) for e in v):
        return [capture(e) if isinstance(e, Tensor) else e for e in v]
    return v


@contextlib.contextmanager
def layer_name_guard(name):
    """Temporaries of the ops appended inside are named `<name>.tmp_<k>` (fc, embedding, ...)."""
    prev = _thread.layer_name
    _thread.layer_name = name
    try:
        yield
    finally:
        _thread.layer_name = prev


@contextlib.contextmanager
def layer_helper(key):
    """As Paddle's LayerHelper(key) in a static API that appends several ops (F.linear's matmul_v2 and
    elementwise_add): their outputs are `<key>_<n>.tmp_<k>`, n counted by the current program. Eager mode
    names nothing. Yields the name (None in eager mode), for ops appended later under layer_name_guard.
    Inside a static layer API's own helper (static.nn.conv2d calling F.conv2d) its name stays: Paddle's builds
    the op with that one LayerHelper."""
    outer = _thread.layer_name
    if not in_static_mode() or (isinstance(outer, str) and not isinstance(outer, _Reserved)):
        yield outer if in_static_mode() else None
        return
    name = program_unique_name(key)
    with layer_name_guard(name):
        yield name


def op_helper_name(op_type):
    """The LayerHelper name Paddle's API of registry op `op_type` names its output by, taken now (its counters:
    ops/legacy.py NAME_KEYS), for APIs that build the op's tensor arguments before the op; None in eager mode.
    Build the op inside layer_name_guard(it)."""
    if not in_static_mode():
        return None
    key, counters = name_key(op_type)
    for _ in range(counters):
        name = program_unique_name(key)
    return name


class _Reserved(str):
    """The layer name while the op the variable of this name was reserved for builds: its output is that variable."""


def reserve_output(key, shape, dtype, stop_gradient):
    """Create the variable `<key>.tmp_<k>` now (static mode; None in eager mode), as Paddle's APIs that create an
    op's output before the ops making its inputs (conv's bias add, before the bias reshape): the op built inside
    `reserved_output_guard(it)` then writes it."""
    if not in_static_mode() or key is None:
        return None
    program = default_main_program()
    return program.current_block().create_var(program._name_generator(key + ".tmp"), shape, dtype,
                                              stop_gradient=stop_gradient)


def reserved_output_guard(var):
    return layer_name_guard(None if var is None else _Reserved(var.name))


def output_name_guard(name):
    """The op built inside writes a new variable called `name` (Paddle APIs that append an op themselves and
    name its output, as x[1:]'s `x_slice_0`); None (eager mode) names nothing."""
    return layer_name_guard(None if name is None else _Reserved(name))


@contextlib.contextmanager
def output_order_guard(op_type, slots):
    """Op `op_type` built inside creates its outputs (Paddle's extra ones too) in the order `slots`, where the
    Paddle API that appends it creates them in another order than OUTPUT_ORDER's (static.nn.batch_norm makes
    ReserveSpace before Y): the temporaries are numbered so."""
    prev = _thread.output_order
    _thread.output_order = (op_type, tuple(slots))
    try:
        yield
    finally:
        _thread.output_order = prev


def scalar_constant(value, dtype):
    """The 0-D constant Variable `tmp_<n>` a Variable's operator makes of a Python scalar operand, as Paddle's
    (math_op_patch): a bare fill_constant desc (no empty input slots, no str_value)."""
    block = default_main_program().current_block()
    out = block.create_var(program_unique_name("tmp"), (), dtype, stop_gradient=True)
    op = block.append_op("fill_constant", outputs={"Out": [out]},
                         attrs={"shape": [], "value": value, "dtype": dtype, "str_value": ""})
    op._bare_desc = True
    return out


_OPERATOR_TEMPORARY = object()  # the layer name while a Python operator builds its op: outputs are `tmp_<n>`


def operator_temporaries(fn):
    """`fn` (a Variable's Python operator: +, *, astype, ...) naming its outputs `tmp_<n>`, as Paddle's
    operator overloads on Variables do."""
    def named(*args, **kwargs):
        prev = _thread.layer_name
        _thread.layer_name = _OPERATOR_TEMPORARY
        try:
            return fn(*args, **kwargs)
        finally:
            _thread.layer_name = prev
    named.__name__ = getattr(fn, "__name__", "operator")
    return named


def forward_name_fn(op_type, program):
    """Names for one forward op's outputs: `<layer or op key>.tmp_<k>` counted by the program, as Paddle's
    LayerHelper names them (`tmp_<n>`, counted globally, for operators)."""
    if _thread.layer_name is _OPERATOR_TEMPORARY:
        return lambda: program._name_generator("tmp")
    if isinstance(_thread.layer_name, _Reserved):
        return lambda: str(_thread.layer_name)
    generate = program._name_generator
    helper = _thread.layer_name
    if helper is None:
        key, counters = name_key(op_type)
        for _ in range(counters):
            helper = generate(key)
        if op_type in HELPER_NAMED_OUTPUTS:
            return lambda: helper
    return lambda: generate(helper + ".tmp")


def _meta_of(op, slot, v, program):
    if isinstance(v, Variable):
        if v.block.program is not program and program_copy(v, program) is None:
            raise ValueError(f"op '{op.type}': input '{slot}' is Variable '{v.name}' of another Program; "
                             "build all ops of a network inside one program_guard")
        return Meta(v._shape, v._dtype.np)
    if isinstance(v, Tensor):
        raise TypeError(f"op '{op.type}': input '{slot}' is an eager Tensor, but static mode is on; "
                        "static programs take Variables (paddle.static.data, create_parameter) - "
                        "or call paddle.disable_static() to run eagerly")
    raise TypeError(f"op '{op.type}': input '{slot}' must be a Variable, received {type(v).__name__}")


def build_op(block, op, inputs, attrs, new_name, role, legacy_outputs=False):
    """An Operator for registry op `op` (not yet appended) and its output Variables (created in block);
    with `legacy_outputs` (a forward op of a program) also the outputs only Paddle's op has (XShape).

    Returns (Operator, result) where result is what the eager dispatcher would return.
    """
    if len(inputs) != op.n_in:
        inputs = dispatch.with_absent_inputs(op, inputs)
    if _thread.capture is not None:
        inputs = [_captured(v, _thread.capture) for v in inputs]
    program = block.program
    metas, in_names, diff_sg = [], {}, []
    for slot, v, diff in zip(op.inputs, inputs, op.diff_inputs_mask):
        if v is None:
            if slot not in op.optional_inputs:
                raise TypeError(f"op '{op.type}': input '{slot}' is required, received None")
            metas.append(None)
            in_names[slot] = []
        elif isinstance(v, (list, tuple)) and slot in op.variadic_inputs:
            metas.append([_meta_of(op, slot, e, program) for e in v])
            in_names[slot] = [e.name for e in v]
            if diff:
                diff_sg.extend(e.stop_gradient for e in v)
        else:
            metas.append(_meta_of(op, slot, v, program))
            in_names[slot] = [v.name]
            if diff:
                diff_sg.append(v.stop_gradient)
    if op.same_dtype:
        first = metas[op.same_dtype[0]]
        for i in op.same_dtype[1:]:
            if metas[i] is not None and first is not None and metas[i].dtype != first.dtype:
                raise TypeError(f"op '{op.type}': input '{op.inputs[i]}' has dtype {metas[i].dtype} but "
                                f"'{op.inputs[op.same_dtype[0]]}' has {first.dtype}; cast one of them "
                                "explicitly (paddlelite never promotes silently)")
    out_metas = op.infer(*metas, **attrs)
    if op.n_out == 1 and isinstance(out_metas, Meta):
        out_metas = (out_metas,)
    # Paddle marks the outputs of a Variable's operators (x > y) and of some APIs by their inputs alone
    by_inputs = legacy_outputs and (op.type in NO_GRAD_OUTPUTS_KEPT or _thread.layer_name is _OPERATOR_TEMPORARY)
    stop = (op.grad is None and not by_inputs) or all(diff_sg)
    metas_of = dict(zip(op.outputs, out_metas))
    no_grad = STOP_GRADIENT_OUTPUTS.get(op.type, ()) if legacy_outputs else ()
    in_place = _in_place_outputs(op, inputs, metas_of, program) if legacy_outputs else {}
    made, extra_names = {}, {}
    extras = extra_outputs(op.type, metas[0], attrs) if legacy_outputs and metas else {}
    order = op.outputs
    if legacy_outputs:  # Paddle's numbering
        given = _thread.output_order
        order = given[1] if given is not None and given[0] == op.type else OUTPUT_ORDER.get(op.type, op.outputs)
    for slot in [*(s for s in order if s in metas_of or s in extras), *(s for s in extras if s not in order)]:
        if slot in extras:
            extra_names[slot] = [block.create_var(new_name(), extras[slot], metas[0].dtype,
                                                  stop_gradient=stop or slot in no_grad).name]
            continue
        m, sg = metas_of[slot], stop or slot in no_grad
        if slot in in_place:
            made[slot] = in_place[slot]
        elif isinstance(m, (list, tuple)) and not isinstance(m, Meta):
            made[slot] = [block.create_var(new_name(), e.shape, e.dtype, stop_gradient=sg) for e in m]
        else:
            made[slot] = block.create_var(new_name(), m.shape, m.dtype, stop_gradient=sg)
    outs = [made[slot] for slot in op.outputs]
    out_names = {slot: [v.name for v in out] if isinstance(out, list) else [out.name]
                 for slot, out in zip(op.outputs, outs)}
    out_names.update(extra_names)
    full_attrs = dict(attrs)
    full_attrs["op_role"] = role
    operator = Operator(block, legacy_type(op.type), in_names, out_names, full_attrs)
    result = outs[0] if op.n_out == 1 else tuple(outs)
    return operator, result


def _in_place_outputs(op, inputs, metas_of, program):
    """{output slot: the input Variable it is written into} for the outputs Paddle's op writes in place
    (ops/legacy.py INPLACE_OUTPUTS), where the input has the output's shape and dtype."""
    pairs = INPLACE_OUTPUTS.get(op.type, {})
    given = dict(zip(op.inputs, inputs))
    found = {}
    for out_slot, in_slot in pairs.items():
        v, m = given.get(in_slot), metas_of[out_slot]
        own = program_copy(v, program) if isinstance(v, Variable) else None
        v = v if own is None else own
        if isinstance(v, Variable) and tuple(v._shape) == tuple(m.shape) and v._dtype.np == m.dtype:
            found[out_slot] = v
    return found


def static_append(op, inputs, attrs):
    """The dispatcher's static hook: append `op` to the current block of the default main program."""
    program = default_main_program()
    block = program.current_block()
    operator, result = build_op(block, op, inputs, attrs, forward_name_fn(op.type, program), program._op_role,
                                legacy_outputs=True)
    block._append_operator(operator)
    return result


dispatch.set_static_appender(static_append)
