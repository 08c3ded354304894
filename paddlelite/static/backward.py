"""append_backward / gradients: Paddle's legacy backward, built from the registry's grad makers.

For each forward op on the path to the targets (in reverse order) the op's grad maker runs with a
`StaticGradBuilder`, whose references are Variables and whose `g.op(...)` builds Operators into a
pending group instead of computing anything. Then, as Paddle does: outputs written by several grad
ops are renamed `x@GRAD@RENAME@block<i>@<k>` and summed by one accumulation op placed before the first
reader; the ops are appended with op_role Backward and the callbacks run after each one.
"""
import os
import re
import time

from ..framework.mode import in_static_mode
from ..ops.formula import Sym, unwrap, wrap
from ..ops.registry import GradBuilder, get_op
from ..ops.shape_rules import known_shapes_differ
from ..utils import unique_name
from .appender import build_op
from .framework import executable_ops, grad_ops_of
from .framework import (GRAD_SUFFIX, names_of as _names_of, OP_ROLE_ATTR, OP_ROLE_BACKWARD, OP_ROLE_FORWARD, OP_ROLE_LOSS,
                        OP_ROLE_VAR_ATTR, Operator, Variable)


# Several grad ops writing one gradient are summed by the registry's `sum` op (Paddle's name).
ACCUMULATE_OP = "sum"


class _LossError(TypeError, AssertionError):
    """Paddle documents AssertionError and raises TypeError for a bad loss; this is both."""


def grad_name(name):
    return name + GRAD_SUFFIX


def strip_grad(name):
    """The forward variable's name of a gradient's, as Paddle's backward._strip_grad_suffix_: x@GRAD, x@GRAD@GRAD and
    x@GRAD@RENAME@1 -> x, x@GRAD_slice_0@GRAD -> x@GRAD_slice_0, a leading 'grad/' name scope dropped."""
    pos = re.search(f"{GRAD_SUFFIX}+@", name) or re.search(f"{GRAD_SUFFIX}$", name)
    stripped = name[:pos.start()] if pos is not None else name
    scope = name.rfind("grad/")  # found in the whole name and cut from the stripped one, as Paddle's
    return stripped[scope + 5:] if scope != -1 else stripped


def _differentiable(op):
    try:
        opdef = get_op(op.type)
    except KeyError:
        return False
    return opdef.grad is not None or opdef.block_grad is not None


# ---- op path and no-grad vars (Paddle's _find_op_path_ / _find_no_grad_vars) ---------------------
def find_op_path(block, target_names, input_names, no_grad):
    input_names = set(input_names)
    output_names = set(target_names)
    ops = list(executable_ops(block.ops))
    keep = [True] * len(ops)
    if input_names:
        for i, op in enumerate(ops):
            if any(n in input_names for n in op.input_arg_names) and _differentiable(op):
                input_names.update(n for n in op.output_arg_names if n not in no_grad)
            else:
                keep[i] = False
    for i in range(len(ops) - 1, -1, -1):
        op = ops[i]
        if any(n in output_names for n in op.output_arg_names) and _differentiable(op):
            output_names.update(n for n in op.input_arg_names if n not in no_grad)
        else:
            keep[i] = False
    return [op for op, k in zip(ops, keep) if k]


def find_no_grad_vars(block, op_path, target_names, no_grad):
    output_names = set(target_names)
    found = set()
    for op in reversed(op_path):
        if "sub_block" not in op._attrs:
            ins = set(op.input_arg_names)
            for n in op.output_arg_names:
                v = block._lookup(n)
                if n not in output_names and n not in ins and v is not None and not v.stop_gradient:
                    found.add(n)
        output_names.update(n for n in op.input_arg_names if n not in no_grad)
    return found


def _seed_random_ops(block, op_path):
    """Before a recomputing backward, as Paddle's modify_forward_desc_for_recompute: each op of the path that draws
    random numbers and takes a seed tensor (OpDef.seed_input) without one gets a seed op before it, drawing the seed
    once (or giving the op's fixed seed attr), so that its recomputation draws alike."""
    for op in op_path:
        opdef = get_op(op.type)
        if not opdef.draws or opdef.seed_input is None or op._inputs.get(opdef.seed_input):
            continue
        out = block.create_var(unique_name.generate_with_ignorable_key(unique_name.generate("seed") + ".tmp"),
                               (1,), "int32", stop_gradient=False)
        block._insert_op(block.ops.index(op), "seed", outputs={"Out": [out]},
                         attrs={"seed": int(op._attrs.get("seed", 0) or 0), "force_cpu": True,
                                "op_device": op._attrs.get("op_device", "")})
        op._inputs[opdef.seed_input] = [out.name]


def recompute_segments(op_path, checkpoints):
    """[(start, end)] (inclusive op_path indices) of the ops a recomputing backward computes again, as Paddle's
    _append_backward_ops_with_checkpoints_ gives them: the ops up to the one producing the first checkpoint, then
    from the first reader of each checkpoint to the producer of the next (checkpoints ordered by their producers)."""
    producer, reader = {}, {}
    for i, op in enumerate(op_path):
        for n in op.output_arg_names:
            producer[n] = i
        for n in op.input_arg_names:
            reader.setdefault(n, i)
    names = [n for n in checkpoints if n in producer]  # ordered by their producers already (append_backward)
    if not names:
        return []
    segments = [(0, producer[names[0]])] if producer[names[0]] > 0 else []
    last_end = producer[names[0]]
    for a, b in zip(names, names[1:]):
        start, end = max(reader.get(a, producer[a] + 1), last_end + 1), producer[b]
        if start <= end:
            segments.append((start, end))
            last_end = end
    return segments


# ---- one backward pass over one block ------------------------------------------------------------
def _repeatable(op):
    """Whether running `op` again gives its values again: it draws no random numbers, or a seed tensor fixes them."""
    opdef = get_op(op.type)
    return not opdef.draws or (opdef.seed_input is not None and bool(op._inputs.get(opdef.seed_input)))


class BackwardPass:
    """Builds the grad ops of `op_path` (ops of `fwd_block`) into `grad_block`."""

    def __init__(self, program, fwd_block, grad_block, no_grad, callbacks=None, grad_to_var=None, checkpoints=()):
        self.program = program
        self.checkpoints = list(checkpoints)  # forward var names kept for a recomputing backward (see _recompute)
        self.fwd_block = fwd_block
        self.block = grad_block
        self.no_grad = no_grad              # forward var names that get no gradient
        self.callbacks = callbacks
        self.times = program._appending_grad_times
        self.grad_names = {}                # forward var name -> its grad var name in this pass
        self.available = set()              # forward var names whose gradient exists so far
        self.grad_to_var = {} if grad_to_var is None else grad_to_var
        self.ops = []
        self.n_vars = len(grad_block.vars)  # the variables this pass adds are listed in name order

    def grad_name_of(self, fwd_name):
        n = self.grad_names.get(fwd_name)
        if n is None:
            n = grad_name(fwd_name)
            if self.times > 1 and self.block._lookup(n) is not None:
                n = "grad/" * self.times + n
            self.set_grad_name(fwd_name, n)
        return n

    def set_grad_name(self, fwd_name, name):
        """The gradient of forward var `fwd_name` is the variable `name` in this pass."""
        self.grad_names[fwd_name] = name
        self.grad_to_var[name] = fwd_name

    def grad_var(self, fwd_name, fwd_var=None):
        """The grad Variable of a forward var (created in the grad block, shaped like the var)."""
        name = self.grad_name_of(fwd_name)
        v = self.block._lookup(name)
        if v is None:
            fv = self.fwd_block.var(fwd_name) if fwd_var is None else fwd_var
            v = self.block.create_var(name, fv._shape, fv._dtype, stop_gradient=False)
        return v

    def process(self, op_path):
        segments = {end: start for start, end in recompute_segments(op_path, self.checkpoints)}
        open_segment = None  # (start, end, index in self.ops where the segment's grad ops begin)
        for i in range(len(op_path) - 1, -1, -1):
            if i in segments:
                open_segment = (segments[i], i, len(self.ops))
            self._grad_of(op_path[i])
            if open_segment is not None and i == open_segment[0]:
                self._recompute(op_path, *open_segment)
                open_segment = None

    def _grad_of(self, op):
        outs = op.output_arg_names
        if not any(n in self.available for n in outs):
            return
        opdef = get_op(op.type)
        if opdef.block_grad is not None:  # a structural op (control flow) builds its grad block
            group, written = opdef.block_grad(self, op)
        else:
            needed = [n for slot, d in zip(opdef.inputs, opdef.diff_inputs_mask) if d
                      for n in op.input(slot) if n not in self.no_grad]
            if not needed:
                return
            builder = StaticGradBuilder(self, op, opdef)
            try:
                opdef.grad(builder)
            except Exception as e:
                raise type(e)(f"building the gradient of op '{op.type}' (added at {op.where}) failed: "
                              f"{e}") from e
            group, written = builder.finish()
            group = grad_ops_of(op, opdef, group, self.grad_to_var)
        self.ops.extend(group)
        self.available.update(n for n in written if n not in self.no_grad)

    def _recompute(self, op_path, start, end, first):
        """Paddle's recompute (append_backward with checkpoints): the ops of segment op_path[start..end] that make a
        value not kept -- kept are checkpoints, persistables, and the outputs of ops whose random draws no seed
        tensor fixes (they must not be redrawn) -- run again as copies (outputs renamed '<name>.subprog_<n>') inserted before the
        segment's grad ops, which read the copies: between checkpoints the forward values need not be kept."""
        segment = op_path[start:end + 1]
        made = {n for op in segment if _repeatable(op) for n in op.output_arg_names}
        kept = set(self.checkpoints) | {n for n in made if (v := self.fwd_block._lookup(n)) is not None and v.persistable}
        chosen = [op for op in segment if any(n in made and n not in kept for n in op.output_arg_names)]
        if not chosen:
            return
        suffix = f".subprog_{self.program._recompute_counter}"
        self.program._recompute_counter += 1
        renamed = {n: n + suffix for op in chosen for n in op.output_arg_names if n in made and n not in kept}
        for old, new in renamed.items():
            v = self.fwd_block.var(old)
            self.block.create_var(new, v._shape, v._dtype)
        copies = [Operator(self.block, op.type, {k: [renamed.get(n, n) for n in v] for k, v in op._inputs.items()},
                           {k: [renamed.get(n, n) for n in v] for k, v in op._outputs.items()}, dict(op._attrs))
                  for op in chosen]
        for op in self.ops[first:]:
            op._inputs = {k: [renamed.get(n, n) for n in v] for k, v in op._inputs.items()}
        self.ops[first:first] = copies

    def commit(self):
        """Rename repeated outputs, insert the accumulation ops, append everything, run callbacks."""
        ops = addup_repetitive_outputs(self.ops, self.block, self.fwd_block.idx)
        for op in ops:
            op._attrs[OP_ROLE_ATTR] = OP_ROLE_BACKWARD
            self.block._append_operator(op)
            if self.callbacks:
                self.grad_to_var["__current_op_desc__"] = op.desc
                for cb in self.callbacks:
                    cb(block=self.block, context=self.grad_to_var)
        self.block._sort_vars_from(self.n_vars)
        return ops


class StaticGradBuilder(GradBuilder):
    """Binds a grad maker's references (Syms) to Variables; its ops go to a pending group."""

    def __init__(self, bp, fwd_op, opdef):
        self.bp = bp
        self.fwd = fwd_op
        self.opdef = opdef
        self.block = bp.block
        self.attrs = {k: fwd_op._attrs[k] for k in opdef.attrs if k in fwd_op._attrs}
        self.ops = []
        self.produced = set()
        self.renames = {}
        self.written = []
        program = bp.program
        self._key = f"{fwd_op.type}_grad_{program._grad_group_counter}"
        program._grad_group_counter += 1
        self._k = 0

    def _new_name(self):
        name = f"{self._key}.tmp_{self._k}"
        self._k += 1
        return name

    def _slot_vars(self, names, variadic):
        vars_ = [Sym(self, self.fwd.block.var(n)) for n in names]
        if variadic:
            return vars_
        return vars_[0] if vars_ else None

    def input(self, slot):
        if slot not in self.opdef.inputs:
            raise KeyError(f"grad maker of '{self.opdef.type}': no input slot '{slot}'")
        return self._slot_vars(self.fwd.input(slot), slot in self.opdef.variadic_inputs)

    def output(self, slot):
        if slot not in self.opdef.outputs:
            raise KeyError(f"grad maker of '{self.opdef.type}': no output slot '{slot}'")
        return self._slot_vars(self.fwd.output(slot), slot in self.opdef.variadic_outputs)

    def output_grad(self, slot):
        if slot not in self.opdef.outputs:
            raise KeyError(f"grad maker of '{self.opdef.type}': no output slot '{slot}'")
        grads = [Sym(self, self.bp.grad_var(n)) if n in self.bp.available else None
                 for n in self.fwd.output(slot)]
        if slot in self.opdef.variadic_outputs:
            return grads
        return grads[0] if grads else None

    def output_grad_or_zeros(self, slot):
        grads = self.output_grad(slot)
        names = self.fwd.output(slot)
        if slot in self.opdef.variadic_outputs:
            return [g if g is not None else Sym(self, self._zero_grad(n)) for g, n in zip(grads, names)]
        return grads if grads is not None else Sym(self, self._zero_grad(names[0]))

    def _zero_grad(self, fwd_name):
        """Paddle's fill_any_like(value=0) writing the missing `out@GRAD` itself."""
        target = self.bp.grad_name_of(fwd_name)
        zeros = self._build("fill_any_like", (self.fwd.block.var(fwd_name),), {"value": 0.0}, lambda: target)
        self.ops[-1]._attrs["op_namescope"] = ""  # a bare desc in Paddle's backward: no name scope
        zeros.stop_gradient = False  # a gradient variable, as every @GRAD Paddle creates
        return zeros

    def _in_names(self, slot):
        if slot not in self.opdef.inputs:
            raise KeyError(f"grad maker of '{self.opdef.type}': no input slot '{slot}'")
        return self.fwd.input(slot)

    def needs(self, slot):
        if slot in self.opdef.nondiff_inputs:
            return False
        return any(n not in self.bp.no_grad for n in self._in_names(slot))

    def needs_at(self, slot, j):
        if slot in self.opdef.nondiff_inputs:
            return False
        return self._in_names(slot)[j] not in self.bp.no_grad

    def set_input_grad(self, slot, value):
        value = unwrap(value)
        names = self._in_names(slot)
        if slot in self.opdef.variadic_inputs:
            if len(value) != len(names):
                raise ValueError(f"grad maker of '{self.opdef.type}': {len(names)} grads expected for "
                                 f"'{slot}', received {len(value)}")
            pairs = zip(names, value)
        else:
            pairs = [(names[0], value)]
        for name, ref in pairs:
            if ref is None or name in self.bp.no_grad:
                continue
            final = self.bp.grad_name_of(name)
            if (isinstance(ref, Variable) and ref.name in self.produced and ref.name not in self.renames
                    and ref.name not in self.renames.values()):
                self.renames[ref.name] = final      # the op that made it writes the grad directly
            else:
                self._build("assign", (ref,), {}, lambda: final)
            self.written.append(name)

    def record(self, type, inputs, attrs):
        return wrap(self, self._build(type, [unwrap(v) for v in inputs], attrs, self._new_name))

    def _build(self, type, inputs, attrs, name_fn):
        opdef = get_op(type)
        operator, result = build_op(self.block, opdef, inputs, opdef.fill_attrs(attrs), name_fn,
                                    OP_ROLE_BACKWARD)
        operator._fwd_op = self.fwd
        self.ops.append(operator)
        self.produced.update(operator.output_arg_names)
        return result

    def shape(self, ref):
        return tuple(ref.ref._shape)

    def finish(self):
        block = self.block
        for old, new in self.renames.items():
            tmp = block.vars.pop(old, None)
            for op in self.ops:
                op._inputs = {k: [new if n == old else n for n in v] for k, v in op._inputs.items()}
                op._outputs = {k: [new if n == old else n for n in v] for k, v in op._outputs.items()}
            if block._lookup(new) is None and tmp is not None:
                fv = self.fwd.block.var(self.bp.grad_to_var[new])
                block.create_var(new, fv._shape, fv._dtype, stop_gradient=False)
        for name in self.written:
            self.bp.grad_var(name)
        return self.ops, self.written


# ---- Paddle's _addup_repetitive_outputs_ ---------------------------------------------------------
def addup_repetitive_outputs(ops, block, fwd_idx):
    """Outputs `x@GRAD` written by several ops become `x@GRAD@RENAME@block<i>@<k>` (i: the forward block's index),
    variables of the grad `block`, summed into
    `x@GRAD` by one accumulation op inserted before the first op that reads `x@GRAD`."""
    renamed = {}      # grad name -> [names its producers write]
    count = {}
    first_idx = {}
    pending = []      # (Operator, insert position)
    for idx, op in enumerate(ops):
        for name in op.input_arg_names:
            if GRAD_SUFFIX in name and len(renamed.get(name, ())) > 1:
                pending.append((_sum_op(block, renamed[name], name, op), idx))
                renamed[name] = [name]
        for slot, names in op._outputs.items():
            for j, name in enumerate(names):
                if GRAD_SUFFIX not in name or name in op.input_arg_names:
                    continue
                if not renamed.get(name):
                    renamed[name] = [name]
                else:
                    if len(renamed[name]) == 1:
                        new = _rename_name(name, block, fwd_idx, count)
                        renamed[name][0] = new
                        _rename_args(ops[first_idx[name]:idx], name, new)
                        for p_op, _ in pending:
                            _rename_args([p_op], name, new)
                        for s2 in list(op._outputs)[:list(op._outputs).index(slot)]:
                            op._outputs[s2] = [new if n == name else n for n in op._outputs[s2]]
                        names[:j] = [new if n == name else n for n in names[:j]]
                    new = _rename_name(name, block, fwd_idx, count)
                    names[j] = new
                    renamed[name].append(new)
                first_idx.setdefault(name, idx)
    for name, parts in renamed.items():
        if len(parts) > 1:
            pending.append((_sum_op(block, parts, name, None), len(ops)))
    out = list(ops)
    for op, pos in reversed(pending):
        out.insert(pos, op)
    return out


def _rename_name(name, block, fwd_idx, count):
    k = count.get(name, 0)
    count[name] = k + 1
    new = f"{name}@RENAME@block{fwd_idx}@{k}"
    like = block._lookup(name)
    if block._lookup(new) is None and like is not None:
        block.create_var(new, like._shape, like._dtype, stop_gradient=False, type=like.type)
    return new


def _rename_args(ops, old, new):
    for op in ops:
        for v in op._inputs.values():
            v[:] = [new if n == old else n for n in v]
        for v in op._outputs.values():
            v[:] = [new if n == old else n for n in v]


def _sum_op(block, parts, out, reader):
    op = Operator(block, ACCUMULATE_OP, {"X": list(parts)}, {"Out": [out]},
                  {OP_ROLE_ATTR: OP_ROLE_BACKWARD, "op_namescope": ""})
    op._bare_desc = True
    op._fwd_op = reader._fwd_op if reader is not None else None
    return op


# ---- argument checks ------------------------------------------------------------------------------
def _check_static(api):
    if not in_static_mode():  # AssertionError as Paddle; explicit so -O keeps it
        raise AssertionError(f"{api} is only available in static graph mode; call paddle.enable_static() "
                             "before building the program")


def _check_callbacks(callbacks):
    if callbacks is None:
        return None
    if not isinstance(callbacks, (list, tuple)):
        raise TypeError(f"append_backward: callbacks must be a list or tuple of callables, "
                        f"received {type(callbacks).__name__}")
    for cb in callbacks:
        if not callable(cb):
            raise ValueError(f"append_backward: every callback must be callable, received {type(cb).__name__}")
    return list(callbacks)


def _stop_gradient_names(program):
    return {v.name for b in program.blocks for v in b.vars.values() if v.stop_gradient}


def _find_loss_op(loss):
    if loss.op is not None:
        return loss.op
    for op in reversed(loss.block.ops):
        if loss.name in op.output_arg_names:
            return op
    return None


def _dump(program, directory):
    """Write <timestamp>_static_backward_graph.dot (forward + backward ops) into `directory`."""
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise NotADirectoryError(f"dump_backward_graph_path: '{directory}' exists and is not a directory")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{time.strftime('%Y%m%d_%H%M%S')}_{program._uid}_static_backward_graph.dot")
    program.to_dot(path)
    return path


# ---- public API -----------------------------------------------------------------------------------
def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None, checkpoints=None,
                    distop_context=None, *, dump_backward_graph_path=None):
    """Append the backward of `loss` to its program; returns [(Parameter, grad Variable)] -- and, given checkpoints
    (Variables or names: a recomputing backward, see BackwardPass._recompute), ([(Parameter, grad)], the
    checkpoint names in program order), as Paddle's."""
    _check_static("append_backward")
    if not isinstance(loss, Variable):
        raise _LossError(f"append_backward: loss must be a static Variable, received {type(loss).__name__}")
    callbacks = _check_callbacks(callbacks)
    param_names = None if parameter_list is None else _names_of(parameter_list, "append_backward",
                                                                "parameter_list")
    user_no_grad = _names_of(no_grad_set, "append_backward", "no_grad_set")
    program = loss.block.program
    # as Paddle's, the block being built is differentiated; inside a sub-block (a control-flow body) its gradient
    # goes into a new block (parent: the sub-block's parent, forward_block_idx: the sub-block)
    block = grad_block = program.current_block()
    if block.idx != 0:
        grad_block = program._create_block(parent_idx=block.parent_idx)
        grad_block.forward_block_idx = block.idx
        program.current_block_idx = block.idx
    loss_op = _find_loss_op(loss)
    if loss_op is None:
        raise ValueError(f"append_backward: no op of the program produces loss '{loss.name}'")
    loss_op._set_attr(OP_ROLE_ATTR, OP_ROLE_FORWARD | OP_ROLE_LOSS)
    program._appending_grad_times += 1

    no_grad = _stop_gradient_names(program) | set(user_no_grad)
    op_path = find_op_path(block, [loss.name], [], no_grad)
    no_grad |= find_no_grad_vars(block, op_path, [loss.name], no_grad)

    checkpoint_names = [c if isinstance(c, str) else getattr(c, "name", None) for c in checkpoints or []]
    if any(not isinstance(n, str) for n in checkpoint_names):
        raise TypeError("append_backward: checkpoints must be a list of Variables or variable names")
    if checkpoint_names:
        _seed_random_ops(block, op_path)
    position = {n: i for i, op in enumerate(op_path) for n in op.output_arg_names}
    checkpoint_names = sorted((n for n in dict.fromkeys(checkpoint_names) if n in position), key=position.get)
    bp = BackwardPass(program, block, grad_block, no_grad, callbacks, checkpoints=checkpoint_names)
    seed_name = grad_name(loss.name)
    if grad_block._lookup(seed_name) is not None:  # an earlier backward's seed: a unique suffix (Paddle's _rename_grad_)
        bp.set_grad_name(loss.name, unique_name.generate(seed_name))
    seed = bp.grad_var(loss.name, loss)  # the loss may live in another block than the one differentiated
    seed_op = grad_block.append_op("fill_constant", outputs={"Out": [seed]},
                              attrs={"shape": [] if not loss._shape else [1], "value": 1.0, "dtype": loss.dtype.name,
                                     "place": None, OP_ROLE_ATTR: OP_ROLE_BACKWARD | OP_ROLE_LOSS,
                                     "op_namescope": "", "str_value": ""})
    seed_op._bare_desc = True
    if loss._shape:
        seed._shape = (1,)
    bp.available.add(loss.name)
    bp.process(op_path)
    bp.commit()

    if param_names is None:
        params = [p for p in program.global_block().all_parameters() if p.trainable]
    else:
        params = [block.var(n) for n in param_names]
    result = []
    for p in params:
        if p.name not in bp.available:
            continue
        g = grad_block.var(bp.grad_name_of(p.name))
        producer = next((op for op in reversed(grad_block.ops) if g.name in op.output_arg_names), None)
        if producer is not None:
            role_var = [p.name, g.name] + list(producer._attrs.get(OP_ROLE_VAR_ATTR, []))
            producer._set_attr(OP_ROLE_VAR_ATTR, role_var)
            g.op = producer
        result.append((p, g))
    if dump_backward_graph_path is not None:
        _dump(program, dump_backward_graph_path)
    return (result, checkpoint_names) if checkpoints else result


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    """Gradients of `targets` w.r.t. `inputs`: a list of Variables, None where an input is unreached."""
    _check_static("gradients")
    targets = _as_list(targets, "targets")
    inputs = _as_list(inputs, "inputs")
    if target_gradients is None:
        target_gradients = [None] * len(targets)
    else:
        target_gradients = _as_list(target_gradients, "target_gradients", allow_none=True)
    if len(target_gradients) != len(targets):
        raise ValueError(f"gradients: {len(targets)} targets but {len(target_gradients)} target_gradients; "
                         "give one gradient (or None) per target")
    for i, (t, tg) in enumerate(zip(targets, target_gradients)):
        if tg is None:
            continue
        if known_shapes_differ(tg._shape, t._shape):
            raise ValueError(f"gradients: target_gradients[{i}] has shape {list(tg._shape)}, expected the shape "
                             f"{list(t._shape)} of target '{t.name}'")
        if tg._dtype != t._dtype:
            raise TypeError(f"gradients: target_gradients[{i}] has dtype {tg.dtype.name}, expected the dtype "
                            f"{t.dtype.name} of target '{t.name}'")
    block = targets[0].block
    program = block.program
    for v in targets + inputs:
        if v.block.program is not program:
            raise ValueError(f"gradients: Variable '{v.name}' belongs to another Program")
    program._appending_grad_times += 1
    no_grad = _stop_gradient_names(program) | set(_names_of(no_grad_set, "gradients", "no_grad_set"))
    target_names = [t.name for t in targets]
    op_path = find_op_path(block, target_names, [v.name for v in inputs], no_grad)
    no_grad |= find_no_grad_vars(block, op_path, target_names, no_grad)

    bp = BackwardPass(program, block, block, no_grad)
    for t, tg in zip(targets, target_gradients):
        if tg is None:  # Paddle's calc_gradient: a bare fill_any_like writing `<target>@GRAD`, again on a rerun
            bp.set_grad_name(t.name, grad_name(t.name))
            seed = bp.grad_var(t.name)
            op = block.append_op("fill_any_like", inputs={"X": [t]}, outputs={"Out": [seed]},
                                 attrs={"value": 1.0, "dtype": t.dtype.name, OP_ROLE_ATTR: OP_ROLE_BACKWARD,
                                        "op_namescope": ""})
            op._bare_desc = True
        else:
            bp.set_grad_name(t.name, tg.name)
        bp.available.add(t.name)
    bp.process(op_path)
    bp.commit()
    out = []
    for v in inputs:
        if v.name in bp.available and v.name not in target_names:
            out.append(block.var(bp.grad_name_of(v.name)))
        elif v.name in target_names:
            out.append(block.var(bp.grad_names[v.name]))
        else:
            out.append(None)
    return out


def _as_list(v, arg, allow_none=False):
    items = list(v) if isinstance(v, (list, tuple)) else [v]
    for e in items:
        if e is None and allow_none:
            continue
        if not isinstance(e, Variable):
            raise TypeError(f"gradients: {arg} must be a Variable or a list of Variables, "
                            f"received {type(e).__name__}")
    return items


calc_gradient = gradients
