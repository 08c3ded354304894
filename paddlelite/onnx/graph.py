"""The ONNX graph a program becomes, the table of converters, and the ONNX spellings that changed between opsets.

A converter (one per registry op type, in CONVERTERS; paddlelite/onnx/ops_*.py) reads one program op through an
`OpView` -- its registry type, its attributes as the registry fills them, its argument names -- and appends ONNX
nodes through a `Graph`: `g.node` for an ONNX op that every supported opset spells alike, and the methods below
(unsqueeze, squeeze, slice, reduce, split, clip, softmax, pad, ...) for those whose inputs or attributes moved between
opsets, so no converter looks at the opset for them. ONNX values carry the program's variable names; what a converter
makes on the way gets a fresh name. Arrays known when exporting (parameters, constants) are kept (`g.known`), so an
argument Paddle gives as a tensor can still become an attribute where an old opset wants one.

A converter that cannot express an op raises `Unsupported(reason)`; one that needs a newer opset than the one asked for
raises `NeedsOpset`, and the exporter starts over at that opset (paddle2onnx's auto_upgrade_opset).

A program may write a variable more than once (a loop var assigned back, both branches of a cond writing its
output); ONNX values are written once. So an op writing a name that already holds a value writes a fresh version,
and later ops read the newest version of each name (`Graph.current`). A sub-block (a branch, a loop body) becomes a
sub-graph (`Graph.subgraph`) that reads the outer values by name, as ONNX's If and Loop allow.
"""
import itertools

import numpy as np
from onnx import helper, numpy_helper

from ..framework.dtype import convert_dtype
from ..ops.registry import get_op

# the oldest opset the converters write: ConstantOfShape, Where, MatMul on integers, BatchNormalization-9
MIN_OPSET = 9


class Unsupported(Exception):
    """This op, with these attributes or inputs, has no ONNX form here (the message says why)."""


class NeedsOpset(Exception):
    def __init__(self, opset, what):
        super().__init__(f"{what} needs ONNX opset {opset}")
        self.opset = opset
        self.what = what


CONVERTERS = {}  # registry op type -> fn(g: Graph, op: OpView)


def converter(*types):
    """Register the decorated function as the converter of registry op types `types`."""
    def register(fn):
        for t in types:
            if t in CONVERTERS:
                raise ValueError(f"paddlelite.onnx: op '{t}' has two converters")
            CONVERTERS[t] = fn
        return fn
    return register


class OpView:
    """One program op as its converter reads it: the registry type, the attrs (every one the registry declares,
    defaults filled), input and output names per slot."""

    def __init__(self, op, opdef, g):
        self.type = opdef.type
        self.attrs = {k: op._attrs.get(k, default) for k, default in opdef.attrs.items()}
        self.where = op.where
        self._inputs = {slot: [g.current.get(n, n) for n in names] for slot, names in op._inputs.items()}
        # an output name that already holds a value gets a fresh version (ONNX values are written once)
        self.versions = {}
        for n in (n for names in op._outputs.values() for n in names):
            if n in g.defined and n not in self.versions:
                self.versions[n] = g.fresh(n)
                g.metas[self.versions[n]] = g.metas[n]
        self.program_inputs, self.program_outputs = op._inputs, op._outputs  # the program's names, unversioned
        self._outputs = {slot: [self.versions.get(n, n) for n in names] for slot, names in op._outputs.items()}

    def written(self, g, name):
        """The ONNX value program output `name` is to be written to, made a fresh version if `name` has come to hold
        a value since the view was made (a sub-graph of this op wrote it)."""
        if self.versions.get(name, name) in g.defined:
            self.versions[name] = g.fresh(name)
            g.metas[self.versions[name]] = g.metas[name]
        return self.versions.get(name, name)

    def input(self, slot):
        """The one name in input slot `slot`, or None when the slot is empty."""
        names = self._inputs.get(slot) or []
        return names[0] if names else None

    def inputs(self, slot):
        return list(self._inputs.get(slot) or [])

    def output(self, slot):
        names = self._outputs.get(slot) or []
        return names[0] if names else None

    def outputs(self, slot):
        return list(self._outputs.get(slot) or [])


def onnx_dtype(dtype):
    """ONNX's TensorProto element type of a paddlelite/NumPy dtype."""
    return helper.np_dtype_to_tensor_dtype(convert_dtype(dtype).np)


class Graph:
    """Nodes and initializers being written, at one opset. `metas` holds (shape, NumPy dtype) of the program's
    variables (-1 = a dim known only when the model runs)."""

    def __init__(self, opset, metas, parent=None):
        self.opset = opset
        self.metas = metas  # shared with the sub-graphs, as the names are
        self.nodes = []
        self.initializers = []
        if parent is None:
            self.known = {}  # name -> the NumPy array it holds (initializers)
            self.current = {}  # program variable -> the ONNX value holding its newest version, where not itself
            self.visible = set()  # values this graph's nodes may read (its own, and the outer graphs')
            self.defined = set()  # values of the whole model (each written once)
            self._taken = set(metas)
            self._counter = itertools.count(1)
        else:
            self.known, self.current, self.visible = dict(parent.known), dict(parent.current), set(parent.visible)
            self.defined, self._taken, self._counter = parent.defined, parent._taken, parent._counter

    def subgraph(self, block):
        """A Graph for the ops of sub-block `block`, reading this one's values."""
        self.metas.update({name: (tuple(v.shape), v.dtype.np) for name, v in block.vars.items()})
        return Graph(self.opset, self.metas, self)

    def _define(self, names):
        self._taken.update(names)
        self.defined.update(names)
        self.visible.update(names)

    # ---- converting program ops ------------------------------------------------------------------------------
    def convert_ops(self, ops):
        """Append the nodes of program ops `ops`, each through its converter; returns the problems met (one line
        each: an op that cannot be written, or reads a value no op before it computes)."""
        problems = []
        for op in ops:
            view = OpView(op, get_op(op.type), self)
            absent = [n for slot in op._inputs for n in view.inputs(slot) if n not in self.visible]
            if absent:
                problems.append(f"  {op.type} (added at {op.where}): its input(s) {absent} are not computed by the "
                                "exported ops (an output their converter leaves out, or a variable without a value)")
                continue
            try:
                CONVERTERS[view.type](self, view)
            except Unsupported as e:
                problems.append(f"  {op.type} (added at {op.where}): {e}")
                continue
            self.current.update((n, v) for n, v in view.versions.items() if v in self.visible)
        return problems

    def value_info(self, name, shape=True):
        """ONNX's ValueInfo of value `name`: its dtype, and its shape (-1: a symbolic dim) unless shape=False."""
        dims, dtype = self.metas[name]
        return helper.make_tensor_value_info(name, onnx_dtype(dtype), [None if d == -1 else d for d in dims]
                                             if shape else None)

    def graph(self, name, inputs, outputs):
        """This graph's nodes as an ONNX GraphProto (a sub-graph: inputs and outputs are ValueInfos)."""
        return helper.make_graph(self.nodes, name, inputs, outputs, self.initializers)

    # ---- what the program says of a variable ----------------------------------------------------------------
    def shape(self, name):
        return tuple(self.metas[name][0])

    def rank(self, name):
        return len(self.metas[name][0])

    def dtype(self, name):
        return self.metas[name][1]

    def is_float(self, name):
        return convert_dtype(self.dtype(name)).is_floating_point

    # ---- building ------------------------------------------------------------------------------------------
    def fresh(self, hint):
        """A value name no variable and no earlier node uses."""
        while True:
            name = f"{hint}.onnx_{next(self._counter)}"
            if name not in self._taken:
                self._taken.add(name)
                return name

    def node(self, op_type, inputs, outputs=None, **attrs):
        """Append ONNX op `op_type` over `inputs` (names; None for an optional input left out); `outputs`: a name,
        a list of names, or None / a count for fresh ones. Attributes given as None are left out. Returns the output
        name, or the list of them when there are several."""
        if outputs is None or isinstance(outputs, int):
            outputs = [self.fresh(op_type) for _ in range(outputs or 1)]
        elif isinstance(outputs, str):
            outputs = [outputs]
        self._define(outputs)
        inputs = ["" if i is None else i for i in inputs]
        while inputs and inputs[-1] == "":
            inputs.pop()
        self.nodes.append(helper.make_node(op_type, inputs, outputs,
                                           **{k: v for k, v in attrs.items() if v is not None}))
        return outputs[0] if len(outputs) == 1 else outputs

    def const(self, value, dtype=None, name=None):
        """An initializer holding `value` (as `dtype`); returns its name."""
        array = np.asarray(value, dtype=dtype)
        name = name or self.fresh("const")
        self._define([name])
        self.initializers.append(numpy_helper.from_array(array, name))
        self.known[name] = array
        return name

    def require(self, opset, what):
        if self.opset < opset:
            raise NeedsOpset(opset, what)

    def identity(self, x, out):
        return self.node("Identity", [x], out)

    def cast(self, x, dtype, out=None):
        return self.node("Cast", [x], out, to=onnx_dtype(dtype))

    def int64(self, x):
        """`x` (the name of a program's int tensor) as int64, the type ONNX's shape and index inputs take."""
        if x in self.known:
            return self.const(self.known[x].astype(np.int64))
        return x if self.metas.get(x, (None, np.dtype(np.int64)))[1] == np.int64 else self.cast(x, np.int64)

    def shape_of(self, x):
        """x's shape as a 1-D int64 tensor (a constant when the program knows every dim)."""
        if x in self.metas and -1 not in self.shape(x):
            return self.const(self.shape(x), np.int64)
        return self.node("Shape", [x])

    def int_arg(self, op, tensor_slot, list_slot, attr):
        """An argument Paddle takes as ints, as one 1-D int tensor (`tensor_slot`) or as one 1-element tensor per entry
        (`list_slot`) -- the tensor wins, then the list, then `attr` (ops/tensor_args.int_values). Returns a list of
        Python ints when the values are known now, else the name of a 1-D int64 tensor."""
        tensor = op.input(tensor_slot) if tensor_slot else None
        parts = op.inputs(list_slot) if list_slot else []
        if tensor is not None:
            if tensor in self.known:
                return [int(v) for v in self.known[tensor].reshape(-1)]
            return self.node("Reshape", [self.int64(tensor), self.const([-1], np.int64)])
        if parts:
            if all(p in self.known for p in parts):
                return [int(self.known[p].reshape(-1)[0]) for p in parts]
            return self.node("Concat", [self.node("Reshape", [self.int64(p), self.const([1], np.int64)])
                                        for p in parts], axis=0)
        return [int(v) for v in attr]

    def ints_tensor(self, values):
        """A 1-D int64 tensor of `values` (a list of ints, or already such a tensor's name)."""
        return values if isinstance(values, str) else self.const(list(values), np.int64)

    def scalar(self, value, dtype):
        """A 0-D constant of `dtype`."""
        return self.const(np.asarray(value).astype(np.dtype(dtype)))

    # ---- ONNX ops whose spelling depends on the opset ---------------------------------------------------------
    def unsqueeze(self, x, axes, out=None):
        """Insert size-1 dims at `axes` (positions in the output)."""
        if self.opset >= 13:
            return self.node("Unsqueeze", [x, self.const(list(axes), np.int64)], out)
        return self.node("Unsqueeze", [x], out, axes=list(axes))

    def squeeze(self, x, axes, out=None):
        if self.opset >= 13:
            return self.node("Squeeze", [x, self.const(list(axes), np.int64)], out)
        return self.node("Squeeze", [x], out, axes=list(axes))

    def slice(self, x, starts, ends, axes, steps=None, out=None):
        """x[starts:ends:steps] along `axes`; starts/ends/steps are lists of ints or names of 1-D int64 tensors."""
        if self.opset < 10:
            if any(isinstance(v, str) for v in (starts, ends, steps)) or (steps and any(s != 1 for s in steps)):
                raise NeedsOpset(10, "a slice with strides or with bounds known only when the model runs")
            return self.node("Slice", [x], out, starts=list(starts), ends=list(ends), axes=list(axes))
        return self.node("Slice", [x, self.ints_tensor(starts), self.ints_tensor(ends), self.const(list(axes), np.int64),
                                   None if steps is None else self.ints_tensor(steps)], out)

    def reduce(self, op_type, x, axes, keepdims, out=None):
        """ReduceSum / ReduceMean / ReduceMax / ... over `axes` (None: every dim)."""
        axes_input = self.opset >= (13 if op_type == "ReduceSum" else 18)
        if axes is None:
            return self.node(op_type, [x], out, keepdims=int(keepdims))
        if axes_input:
            return self.node(op_type, [x, self.const(list(axes), np.int64)], out, keepdims=int(keepdims))
        return self.node(op_type, [x], out, axes=list(axes), keepdims=int(keepdims))

    def split(self, x, axis, sizes, outs):
        """Split x along `axis` into `outs` (names): sizes a list of ints, a 1-D int64 tensor's name, or None for
        equal parts."""
        if sizes is None:
            extra = {"num_outputs": len(outs)} if self.opset >= 18 else {}
            return self.node("Split", [x], outs, axis=axis, **extra)
        if self.opset >= 13:
            return self.node("Split", [x, self.ints_tensor(sizes)], outs, axis=axis)
        if isinstance(sizes, str):
            raise NeedsOpset(13, "a split whose sizes are known only when the model runs")
        return self.node("Split", [x], outs, axis=axis, split=list(sizes))

    def clip(self, x, lo, hi, dtype, out=None):
        """x limited to [lo, hi] (Python numbers, None for no bound, or names of 0-D tensors of x's dtype)."""
        if lo is None and hi is None:
            return self.identity(x, out)
        floating = convert_dtype(dtype).is_floating_point
        if self.opset >= 12 or self.opset >= 11 and floating:
            bound = [None if v is None else v if isinstance(v, str) else self.scalar(v, dtype) for v in (lo, hi)]
            return self.node("Clip", [x, *bound], out)
        if floating and not any(isinstance(v, str) for v in (lo, hi)):
            return self.node("Clip", [x], out, min=None if lo is None else float(lo),
                             max=None if hi is None else float(hi))
        # integers before opset 12 (and tensor bounds before 11): the max and min of broadcast pairs
        if lo is not None:
            x = self.node("Max", [x, lo if isinstance(lo, str) else self.scalar(lo, dtype)],
                          out if hi is None else None)
        if hi is not None:
            x = self.node("Min", [x, hi if isinstance(hi, str) else self.scalar(hi, dtype)], out)
        return x

    def softmax(self, op_type, x, axis, rank, out=None):
        """Softmax / LogSoftmax along `axis`. Before opset 13 ONNX's takes the dims from `axis` on as one, which is
        Paddle's only for the last axis: another axis is moved last and back."""
        axis = axis % max(rank, 1)
        if self.opset >= 13 or axis == rank - 1:
            return self.node(op_type, [x], out, axis=axis)
        perm = [d for d in range(rank) if d != axis] + [axis]
        moved = self.node(op_type, [self.node("Transpose", [x], perm=perm)], axis=rank - 1)
        return self.node("Transpose", [moved], out, perm=[int(i) for i in np.argsort(perm)])

    def pad(self, x, pads, mode, value, dtype, out=None):
        """Pad with ONNX's `pads` ([begins..., ends...]: ints or a 1-D int64 tensor's name); mode constant / reflect /
        edge / wrap."""
        if mode == "wrap":
            self.require(19, "circular padding")
        if self.opset >= 11:
            fill = self.scalar(value, dtype) if mode == "constant" else None
            return self.node("Pad", [x, self.ints_tensor(pads), fill], out, mode=mode)
        if isinstance(pads, str):
            raise NeedsOpset(11, "padding known only when the model runs")
        return self.node("Pad", [x], out, mode=mode, pads=list(pads), value=float(value))

    def transpose_last2(self, x, rank):
        perm = list(range(rank))
        perm[-2:] = perm[-1], perm[-2]
        return self.node("Transpose", [x], perm=perm)
