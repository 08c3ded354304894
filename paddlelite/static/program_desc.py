"""Programs as Paddle's legacy-IR ProgramDesc protobuf (the `.pdmodel` files of `jit.save`,
`static.save_inference_model`, `static.save` and `serialize_program`), both ways.

Writing builds each OpDesc from what the program text prints (`Operator._desc_slots`: ops/legacy.py is the one
table of Paddle's op types, attribute names and values, listed slots), so a file says exactly what the printed
program says; an attribute's AttrType follows its value, except where Paddle declares another (ATTR_TYPES in
ops/legacy.py). Feed and fetch ops and their `feed`/`fetch` variables are added as Paddle's save_inference_model adds
them.

Reading maps every op to the registry (Paddle's legacy type, or an alias of one), converting its attributes back to
ours (`legacy.attrs_from_desc`); all op types without a registry op are named in one error. Nothing in the file
is trusted: the protobuf runtime parses bytes bounded by the file (its recursion limit stops deep nesting), every
block index, variable name and attribute value is checked before use, and every failure is an InferenceModelError
(the checkpoint error family) naming the file and the op or variable.
"""
import hashlib

import numpy as np

from ..framework.framework_proto import (ATTR_TYPE_NAMES, ATTR_TYPES, DTYPE_BY_NUMBER, DTYPE_NUMBERS, KIND_NUMBERS,
                                         SCALAR_TYPES, messages)
from ..framework.io import CheckpointError
from ..framework.mode import static_guard
from ..ops.legacy import DECLARED_ATTR_TYPES, OP_VERSIONS, REGISTRY_TYPES, Scalar, attrs_from_desc, legacy_type
from ..ops.registry import all_ops
from .callables import NO_FUNCTION
from .framework import _COMMON_ATTRS, Block, Operator, Parameter, Program, _grad_body_temporaries
from .backward import append_backward
from .framework import program_guard
from .op_role import OP_ROLE_ATTR, OP_ROLE_BACKWARD, OP_ROLE_LOSS, OP_ROLE_OPTIMIZE, OP_ROLE_VAR_ATTR

PROGRAM_VERSION = 3003001  # Paddle 3.3.1's kCurProgramVersion: what its loader checks a file against
FEED, FETCH = "feed", "fetch"
_KINDS = {v: k for k, v in KIND_NUMBERS.items()}
_INT32 = (-2 ** 31, 2 ** 31 - 1)
# attributes every op carries (op_callstack: the Python stack that built it, which Paddle strips from saved programs)
_KEPT_ATTRS = frozenset(_COMMON_ATTRS) | {OP_ROLE_ATTR, OP_ROLE_VAR_ATTR}


class InferenceModelError(CheckpointError):
    """A .pdmodel/.pdiparams pair that cannot be loaded (truncated, edited, not a model, inconsistent)."""


# ---- writing -------------------------------------------------------------------------------------
def _tensor_desc(m, v):
    return m.VarType.TensorDesc(data_type=DTYPE_NUMBERS[v.dtype.name], dims=list(v.shape))


def _var_desc(m, v):
    kind = str(v.type.value)
    var_type = m.VarType(type=KIND_NUMBERS[kind])
    if kind == "DENSE_TENSOR":
        var_type.dense_tensor.tensor.CopyFrom(_tensor_desc(m, v))
        if not v.persistable:
            var_type.dense_tensor.legacy_lod_level = 0
    elif kind == "SELECTED_ROWS":
        var_type.selected_rows.CopyFrom(_tensor_desc(m, v))
    elif kind == "DENSE_TENSOR_ARRAY":
        var_type.tensor_array.tensor.CopyFrom(_tensor_desc(m, v))
    desc = m.VarDesc(name=v.name, type=var_type, persistable=v.persistable)
    if isinstance(v, Parameter):
        desc.is_parameter = True
    if v.stop_gradient:
        desc.stop_gradient = True
    if v.is_data:
        desc.need_check_feed = True
    for name, value in sorted(v._desc_attrs.items()):
        if isinstance(value, str):
            desc.attrs.add(name=name, type=ATTR_TYPES["STRING"], s=value)
        elif isinstance(value, list):
            desc.attrs.add(name=name, type=ATTR_TYPES["INTS"], ints=value)
        else:
            desc.attrs.add(name=name, type=ATTR_TYPES["INT"], i=value)
    return desc


def _attr_type(op_type, name, value):
    """The AttrType name of an attribute value: Paddle's declared one where the value cannot tell (an empty list, a
    64-bit integer attribute), else the value's."""
    declared = DECLARED_ATTR_TYPES.get(op_type, {}).get(name) or DECLARED_ATTR_TYPES["*"].get(name)
    if declared is not None:
        return declared
    if isinstance(value, Block):
        return "BLOCK"
    if isinstance(value, Scalar):
        return "SCALAR"
    if isinstance(value, bool):
        return "BOOLEAN"
    if isinstance(value, int):
        return "INT" if _INT32[0] <= value <= _INT32[1] else "LONG"
    if isinstance(value, float):
        return "FLOAT"
    if isinstance(value, str):
        return "STRING"
    if isinstance(value, (list, tuple)):
        if not value:
            return "INTS"
        if all(isinstance(v, Block) for v in value):
            return "BLOCKS"
        if all(isinstance(v, Scalar) for v in value):
            return "SCALARS"
        if all(isinstance(v, bool) for v in value):
            return "BOOLEANS"
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return "INTS" if all(_INT32[0] <= v <= _INT32[1] for v in value) else "LONGS"
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return "FLOATS"
        if all(isinstance(v, str) for v in value):
            return "STRINGS"
    raise TypeError(f"a Paddle model file cannot hold attribute '{name}' of op '{op_type}': {value!r:.80} (a "
                    f"{type(value).__name__})")


def _scalar(m, value):
    if isinstance(value, bool):
        return m.Scalar(type=SCALAR_TYPES["BOOLEAN"], b=value)
    if isinstance(value, int):
        return m.Scalar(type=SCALAR_TYPES["LONG"], i=value)
    if isinstance(value, complex):
        return m.Scalar(type=SCALAR_TYPES["COMPLEX128"], c=m.Complex(r=value.real, i=value.imag))
    return m.Scalar(type=SCALAR_TYPES["FLOAT64"], r=float(value))


def _attr(m, op_type, name, value):
    value = value.item() if isinstance(value, np.generic) else value
    kind = _attr_type(op_type, name, value)
    a = m.OpDesc.Attr(name=name, type=ATTR_TYPES[kind])
    if kind == "BLOCK":
        a.block_idx = value.idx
    elif kind == "BLOCKS":
        a.blocks_idx.extend(b.idx for b in value)
    elif kind == "SCALAR":
        a.scalar.CopyFrom(_scalar(m, value.value() if isinstance(value, Scalar) else value))
    elif kind == "SCALARS":
        a.scalars.extend(_scalar(m, v.value() if isinstance(v, Scalar) else v) for v in value)
    else:
        field = {"INT": "i", "LONG": "l", "FLOAT": "f", "FLOAT64": "float64", "STRING": "s", "BOOLEAN": "b",
                 "INTS": "ints", "LONGS": "longs", "FLOATS": "floats", "FLOAT64S": "float64s", "STRINGS": "strings",
                 "BOOLEANS": "bools"}[kind]
        if kind.endswith("S"):
            getattr(a, field).extend(value)
        else:
            setattr(a, field, value)
    return a


def _op_desc(m, type, inputs, outputs, attrs):
    op = m.OpDesc(type=type)
    for slot, names in inputs.items():
        op.inputs.add(parameter=slot, arguments=names)
    for slot, names in outputs.items():
        op.outputs.add(parameter=slot, arguments=names)
    op.attrs.extend(_attr(m, type, k, v) for k, v in attrs.items() if v is not None)
    return op


def _io_op(m, type, col, inputs, outputs):
    """A feed or fetch op, as Paddle's save_inference_model prepends/appends them."""
    attrs = {"col": col, **_COMMON_ATTRS, OP_ROLE_ATTR: 0, OP_ROLE_VAR_ATTR: []}
    return _op_desc(m, type, inputs, outputs, dict(sorted(attrs.items())))


def program_bytes(program, feed_names=(), fetch_names=()):
    """The ProgramDesc of `program` (with feed ops for `feed_names` and fetch ops for `fetch_names`, as an inference
    model has them), serialized."""
    m = messages()
    desc = m.ProgramDesc()
    used = set()
    for b in program.blocks:
        bd = desc.blocks.add(idx=b.idx, parent_idx=b.parent_idx, forward_block_idx=b.forward_block_idx)
        internal = _grad_body_temporaries(b.ops)
        bd.vars.extend(_var_desc(m, v) for v in b.vars.values() if v.name not in internal)
        if b.idx == 0 and (feed_names or fetch_names):
            bd.vars.add(name=FEED, type=m.VarType(type=KIND_NUMBERS["FEED_MINIBATCH"]), persistable=True)
            bd.vars.add(name=FETCH, type=m.VarType(type=KIND_NUMBERS["FETCH_LIST"]), persistable=True)
            bd.ops.extend(_io_op(m, FEED, i, {"X": [FEED]}, {"Out": [n]}) for i, n in enumerate(feed_names))
        for op in b.ops:
            inputs, outputs, attrs = op._desc_slots()
            bd.ops.append(_op_desc(m, op.type, inputs, outputs, attrs))
            used.add(op.type)
        if b.idx == 0:
            bd.ops.extend(_io_op(m, FETCH, i, {"X": [n]}, {"Out": [FETCH]}) for i, n in enumerate(fetch_names))
    desc.version.version = PROGRAM_VERSION
    for t in sorted(used & set(OP_VERSIONS)):
        desc.op_version_map.pair.add(op_name=t, op_version=m.OpVersion(version=OP_VERSIONS[t]))
    return desc.SerializeToString()


class ProgramDesc:
    """Paddle's ProgramDesc view of a Program (`program.desc`): its protobuf bytes, and the hash Paddle's executor
    caches compiled programs by. `flush()` records the bytes; `need_update()` says whether the program has changed
    since (a new program has not been flushed)."""

    __slots__ = ("_program",)

    def __init__(self, program):
        self._program = program

    def serialize_to_string(self):
        return program_bytes(self._program)

    def need_update(self):
        return self._program._flushed_desc != program_bytes(self._program)

    def flush(self):
        self._program._flushed_desc = program_bytes(self._program)

    def cached_hash_str(self):
        """A hash of the program's bytes, recomputed only when the program has changed since the last flush."""
        if self.need_update():
            self.flush()
        return str(int.from_bytes(hashlib.blake2b(self._program._flushed_desc, digest_size=8).digest(), "little"))

    def num_blocks(self):
        return len(self._program.blocks)

    def block(self, index):
        return BlockDesc(self._program.blocks[index])

    def global_block(self):
        return self.block(0)


class BlockDesc:
    """Paddle's BlockDesc view of a Block (`program.desc.block(i)`): its ops and variables as descs."""

    __slots__ = ("_block",)

    def __init__(self, block):
        self._block = block

    @property
    def id(self):
        return self._block.idx

    @property
    def parent(self):
        return self._block.parent_idx

    def op_size(self):
        return len(self._block.ops)

    def op(self, index):
        return self._block.ops[index].desc

    def has_var(self, name):
        return self._block.has_var(_name_bytes(name, "has_var"))

    def var(self, name):
        name = _name_bytes(name, "var")
        if name not in self._block.vars:
            raise ValueError(f"BlockDesc.var: block {self._block.idx} has no variable '{name}'")
        return self._block.vars[name].desc

    def all_vars(self):
        return [v.desc for v in self._block.vars.values()]


def _name_bytes(name, api):
    """A variable name given to a BlockDesc method: bytes, as Paddle's (its pybind signature takes bytes only)."""
    if not isinstance(name, bytes):
        raise TypeError(f"BlockDesc.{api}: the variable name must be bytes (e.g. b'x'), received "
                        f"{type(name).__name__}")
    return name.decode()


# ---- reading -------------------------------------------------------------------------------------
class _Parser:
    """A ProgramDesc's bytes as a Program, checking everything; `fail(msg)` raises the error naming the source."""

    def __init__(self, where, api):
        self.where, self.api = where, api

    def fail(self, msg):
        raise InferenceModelError(f"{self.api}: {self.where} {msg}")

    def check(self, cond, msg):
        if not cond:
            self.fail(msg)

    def parse(self, data):
        desc = messages().ProgramDesc()
        try:
            desc.ParseFromString(bytes(data))
        except Exception as e:  # noqa: BLE001 -- protobuf's DecodeError, a missing required field, nesting too deep
            self.fail(f"is not a Paddle ProgramDesc: it is truncated, corrupted or another kind of file "
                      f"({type(e).__name__}: {e})")
        self.check(len(desc.blocks) > 0, "is not a Paddle program: it has no blocks")
        if desc.HasField("version"):
            self.check(0 <= desc.version.version <= PROGRAM_VERSION, f"was written by a newer Paddle (program "
                       f"version {desc.version.version}); this paddlelite reads Paddle 3.3.1's ({PROGRAM_VERSION})")
        return desc

    def program(self, desc):
        """(Program, feed names, fetch names). A training program's backward is appended again by append_backward
        (its grad ops are Paddle's kernels, ours are formulas over registry ops) from its loss, before its
        optimizer ops, so the program reads the same gradient names and trains."""
        program = Program()
        program.blocks = []
        for i, bd in enumerate(desc.blocks):
            self.check(bd.idx == i, f"lists block {bd.idx} at position {i}")
            self.check(bd.parent_idx == -1 if i == 0 else 0 <= bd.parent_idx < len(desc.blocks) and bd.parent_idx != i,
                       f"gives block {i} the invalid parent {bd.parent_idx}")
            block = Block(program, i, bd.parent_idx)
            fwd = bd.forward_block_idx
            self.check(fwd == -1 or 0 <= fwd < len(desc.blocks), f"gives block {i} the invalid forward block {fwd}")
            block.forward_block_idx = fwd
            program.blocks.append(block)
        grad_blocks = [i for i, bd in enumerate(desc.blocks) if bd.forward_block_idx >= 0]
        self.check(grad_blocks == list(range(len(desc.blocks) - len(grad_blocks), len(desc.blocks))),
                   f"interleaves its backward blocks {grad_blocks} with forward blocks")
        n_forward = len(desc.blocks) - len(grad_blocks)
        for bd in desc.blocks[:n_forward]:
            for vd in bd.vars:
                self.variable(program.blocks[bd.idx], vd)
        del program.blocks[n_forward:]  # backward blocks: append_backward builds its own
        self.unknown_ops(desc.blocks[:n_forward])
        feeds, fetches, optimize, loss, grads = {}, {}, [], None, set()
        for bd in desc.blocks[:n_forward]:
            block = program.blocks[bd.idx]
            for k, od in enumerate(bd.ops):
                where = f"op {k} ('{od.type}') of block {bd.idx}"
                if od.type in (FEED, FETCH):
                    self.io_op(bd.idx, od, where, feeds if od.type == FEED else fetches)
                    continue
                attrs = self.attrs(od, program, where)
                role = attrs.get(OP_ROLE_ATTR, 0) if bd.idx == 0 else 0
                self.check(type(role) is int, f"{where} has a non-integer {OP_ROLE_ATTR} {role!r:.40}")
                if role & OP_ROLE_OPTIMIZE:
                    optimize.append((od, attrs, where))
                elif role & OP_ROLE_BACKWARD:
                    grads.update(a for v in od.outputs for a in v.arguments)
                else:
                    op = self.op(block, od, attrs, where)
                    if role & OP_ROLE_LOSS:
                        loss = op
        if grads:
            self.backward(program, loss, grads)
        for od, attrs, where in optimize:
            self.op(program.global_block(), od, attrs, where)
        for b in program.blocks:
            for name in (FEED, FETCH):
                if b.vars.get(name) is not None and b.vars[name].type in ("FEED_MINIBATCH", "FETCH_LIST"):
                    del b.vars[name]
        return program, self.io_names(feeds, "feed"), self.io_names(fetches, "fetch")

    def backward(self, program, loss_op, grads):
        self.check(loss_op is not None and loss_op.output_arg_names, "holds backward ops but no loss op (op_role "
                   "Loss) to rebuild them from")
        block = program.global_block()
        loss = block.var(loss_op.output_arg_names[0])
        params = [p for p in block.all_parameters() if p.name + "@GRAD" in grads]
        for p in params:  # the file's gradient variables are declared again by the backward pass
            block.vars.pop(p.name + "@GRAD", None)
        with static_guard(True), program_guard(program):
            try:
                append_backward(loss, parameter_list=params or None)
            except Exception as e:  # noqa: BLE001 -- any op's grad maker refusing what the file's program holds
                self.fail(f"holds a backward that cannot be rebuilt from its loss '{loss.name}' "
                          f"({type(e).__name__}: {e})")

    def variable(self, block, vd):
        name = vd.name
        self.check(name and name not in block.vars, f"declares variable {name!r:.60} twice (or without a name) in "
                   f"block {block.idx}")
        kind = _KINDS.get(vd.type.type)
        self.check(kind is not None, f"gives variable '{name}' the unknown type {vd.type.type}")
        tensor = {"DENSE_TENSOR": vd.type.dense_tensor.tensor, "SELECTED_ROWS": vd.type.selected_rows,
                  "DENSE_TENSOR_ARRAY": vd.type.tensor_array.tensor}.get(kind)
        shape, dtype = (), "float32"
        if tensor is not None:
            dtype = DTYPE_BY_NUMBER.get(tensor.data_type)
            self.check(dtype is not None, f"gives variable '{name}' the data type {tensor.data_type}, which no "
                       "paddlelite tensor holds")
            shape = list(tensor.dims)
            self.check(all(d >= -1 for d in shape) or kind != "DENSE_TENSOR" or not vd.persistable,
                       f"gives persistable variable '{name}' the shape {shape}")
            self.check(len(shape) <= 64 and all(-2 ** 62 < d < 2 ** 62 for d in shape),
                       f"gives variable '{name}' the shape {shape[:8]}")
        try:
            if vd.is_parameter:
                self.check(kind == "DENSE_TENSOR" and block.idx == 0, f"declares parameter '{name}' as a {kind} "
                           f"of block {block.idx}")
                v = block.create_parameter(name, shape, dtype, trainable=not vd.stop_gradient)
            else:
                v = block.create_var(name=name, shape=shape, dtype=dtype, persistable=vd.persistable,
                                     stop_gradient=vd.stop_gradient, type=kind if kind in _VAR_KINDS else "RAW",
                                     is_data=vd.need_check_feed)
                v.stop_gradient = vd.stop_gradient
        except (TypeError, ValueError) as e:
            self.fail(f"declares variable '{name}' in a way paddlelite cannot hold ({e})")

    def unknown_ops(self, blocks):
        known = all_ops()
        unknown = sorted({od.type for bd in blocks for od in bd.ops if od.type not in (FEED, FETCH)
                          and REGISTRY_TYPES.get(od.type, od.type) not in known and od.type not in known
                          and not (bd.idx == 0 and _raw_role(od) & OP_ROLE_BACKWARD)})  # grad ops: rebuilt
        if unknown:
            raise InferenceModelError(
                f"{self.api}: {self.where} uses {len(unknown)} op type{'s' if len(unknown) > 1 else ''} paddlelite "
                f"has no registry op for: {', '.join(unknown)}")

    def attr(self, a, program, where):
        kind = ATTR_TYPE_NAMES.get(a.type)
        if kind in ("INT", "LONG", "FLOAT", "FLOAT64", "STRING", "BOOLEAN"):
            return getattr(a, {"INT": "i", "LONG": "l", "FLOAT": "f", "FLOAT64": "float64", "STRING": "s",
                               "BOOLEAN": "b"}[kind])
        if kind in ("INTS", "LONGS", "FLOATS", "FLOAT64S", "STRINGS", "BOOLEANS", "VARS"):
            return list(getattr(a, {"INTS": "ints", "LONGS": "longs", "FLOATS": "floats", "FLOAT64S": "float64s",
                                    "STRINGS": "strings", "BOOLEANS": "bools", "VARS": "vars_name"}[kind]))
        if kind == "VAR":
            return a.var_name
        if kind in ("BLOCK", "BLOCKS"):
            idxs = [a.block_idx] if kind == "BLOCK" else list(a.blocks_idx)
            for i in idxs:
                self.check(0 < i < len(program.blocks), f"{where} names block {i} (attribute '{a.name}'); the "
                           f"program has blocks 0..{len(program.blocks) - 1}")
            blocks = [program.blocks[i] for i in idxs]
            return blocks[0] if kind == "BLOCK" else blocks
        if kind in ("SCALAR", "SCALARS"):
            values = [self.scalar(s, where, a.name) for s in ([a.scalar] if kind == "SCALAR" else a.scalars)]
            return values[0] if kind == "SCALAR" else values
        self.fail(f"{where} has attribute '{a.name}' of unknown type {a.type}")

    def scalar(self, s, where, name):
        kind = {v: k for k, v in SCALAR_TYPES.items()}.get(s.type)
        if kind == "BOOLEAN":
            return Scalar(s.b)
        if kind == "LONG":
            return Scalar(s.i)
        if kind == "FLOAT64":
            return Scalar(s.r)
        if kind == "COMPLEX128":
            return Scalar(complex(s.c.r, s.c.i))
        self.fail(f"{where} has a scalar of unknown type {s.type} in attribute '{name}'")

    def attrs(self, od, program, where):
        out = {}
        for a in od.attrs:
            self.check(a.name not in out, f"{where} sets attribute '{a.name}' twice")
            out[a.name] = self.attr(a, program, where)
        return out

    def slots(self, block, vars_, where, what):
        out = {}
        for v in vars_:
            self.check(v.parameter not in out, f"{where} lists {what} slot '{v.parameter}' twice")
            for n in v.arguments:
                self.check(block._lookup(n) is not None or n == "@EMPTY@", f"{where} names variable '{n}' ({what} "
                           f"'{v.parameter}'), which no block declares")
            out[v.parameter] = list(v.arguments)
        return out

    def op(self, block, od, attrs, where):
        op_type = od.type
        opdef = all_ops().get(REGISTRY_TYPES.get(op_type, op_type)) or all_ops()[op_type]
        inputs = self.slots(block, od.inputs, where, "input")
        outputs = self.slots(block, od.outputs, where, "output")
        for slot in opdef.outputs:  # an intermediate output an inference program leaves out (dropout's Mask)
            if slot in opdef.intermediate_outputs and not outputs.get(slot) and any(outputs.values()):
                name = f"{next(n for names in outputs.values() for n in names)}@{slot}"
                while block._lookup(name) is not None:
                    name += "_"
                outputs[slot] = [block.create_var(name=name).name]
        first = next((n for slot in opdef.inputs for n in inputs.get(slot, [])), None)
        x = None if first is None else block._lookup(first)
        try:
            ours = attrs_from_desc(opdef.type, attrs, x, opdef.attrs)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            self.fail(f"{where} has attributes paddlelite cannot read ({type(e).__name__}: {e})")
        ours = {k: _plain(v) for k, v in ours.items() if k in opdef.attrs or k in _KEPT_ATTRS}
        for name in opdef.callable_attrs:
            fn_id = ours.get(name, NO_FUNCTION)
            self.check(type(fn_id) is int and fn_id == NO_FUNCTION,
                       f"{where} calls Python function {fn_id!r:.40} (attribute '{name}') of the process that built "
                       "it; a program read from a file cannot choose Python code to run")
        # typed as a program built here types it (Paddle's legacy type), so the program is written back as read
        op = Operator(block, legacy_type(opdef.type), inputs, outputs, {**opdef.attrs, **ours})
        op._where = None
        return block._append_operator(op)

    def io_op(self, block_idx, od, where, table):
        self.check(block_idx == 0, f"{where} is a {od.type} op outside the global block")
        slot = "Out" if od.type == FEED else "X"
        names = [a for v in od.inputs if v.parameter == slot for a in v.arguments] + \
                [a for v in od.outputs if v.parameter == slot for a in v.arguments]
        cols = [a.i for a in od.attrs if a.name == "col"]
        self.check(len(names) == 1 and len(cols) == 1, f"{where} needs one '{slot}' variable and a 'col' attribute")
        self.check(cols[0] not in table, f"{where} uses column {cols[0]} twice")
        table[cols[0]] = names[0]

    def io_names(self, table, what):
        self.check(sorted(table) == list(range(len(table))), f"numbers its {what} ops {sorted(table)}, not 0..n-1")
        return [table[i] for i in range(len(table))]


_VAR_KINDS = frozenset(("DENSE_TENSOR", "SELECTED_ROWS", "FEED_MINIBATCH", "FETCH_LIST", "STEP_SCOPES",
                        "LOD_RANK_TABLE", "DENSE_TENSOR_ARRAY", "PLACE_LIST", "READER", "RAW", "VOCAB", "STRINGS",
                        "SPARSE_COO"))


def _raw_role(od):
    """The op_role an OpDesc records (0 when none, or not an INT attribute)."""
    return next((a.i for a in od.attrs if a.name == OP_ROLE_ATTR and a.type == ATTR_TYPES["INT"]), 0)


def _plain(value):
    """An attribute value as our ops hold it (a Scalar as its value)."""
    if isinstance(value, Scalar):
        return value.value()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def read_program(data, where, api):
    """(Program, feed names, fetch names) of a ProgramDesc's bytes; `where` names the source in errors."""
    parser = _Parser(where, api)
    return parser.program(parser.parse(data))


def is_program_desc(head):
    """Whether a file starting with `head` can be a ProgramDesc: its first field is `blocks` (1, length-delimited)."""
    return head[:1] == b"\n"
