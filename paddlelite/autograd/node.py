"""Grad nodes of the eager graph, and the eager binding of the registry's grad makers."""
import itertools
import operator
import os
import sys

from ..framework.tensor import Tensor, wrap_array
from ..ops import dispatch
from ..ops.formula import Sym, unwrap, wrap
from ..ops.registry import OPS as _OPS, GradBuilder, get_op
from .saved_tensors_hooks import SavedTensor, _active as _packing, pack_all, pack_arrays

_new_sym = object.__new__
_ref_of = operator.attrgetter("ref")
_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_record_stack = [True]
_seq = itertools.count()  # creation order: the engine runs later nodes first among ready ones


def set_record_call_stack(flag):
    """Record where each op was created (for backward error messages and graph dumps)."""
    _record_stack[0] = bool(flag)


_in_package = {}  # filename -> whether it belongs to paddlelite (str hashes are cached: this runs per op)


def _user_frame(depth):
    """(code, instruction offset) of the innermost caller outside paddlelite, from frame `depth` outward. Its line
    is looked up when asked for (GradNode.where): f_lineno would walk the code's line table for every op."""
    f = sys._getframe(depth)
    while f is not None:
        code = f.f_code
        name = code.co_filename
        inside = _in_package.get(name)
        if inside is None:
            inside = _in_package[name] = name.startswith(_PKG_DIR)
        if not inside:
            return (code, f.f_lasti)
        f = f.f_back
    return None


def _line_at(code, offset):
    for start, end, line in code.co_lines():
        if start <= offset < end:
            return line
    return None


class GradNode:
    """One backward step. `edges[k]` says where the gradient for flat input k goes:
    None (not needed), a leaf Tensor, or (node, output_index)."""

    __slots__ = ("edges", "n_outputs", "hooks", "zero_edges", "out_boxes", "site", "released", "seq",
                 "__weakref__")

    # Whether the gradients apply() returns are the user's own tensors (PyLayer: their stop_gradient is
    # kept) rather than the engine's (an op's gradient reads stop_gradient=False, as in Paddle).
    grads_from_user = False
    # Frames of paddlelite code known to lie between GradNode.__init__ and the user's code (the subclass's
    # __init__, ...): the call-stack walk that runs for every recorded op starts past them.
    package_frames = 1
    name = "GradNode"  # subclasses (OpNode, PyLayerNode) define name, apply(grads, create_graph), zeros_for_output

    def __init__(self, edges, n_outputs):
        self.edges = edges
        self.n_outputs = n_outputs
        self.hooks = None       # {output_index: {handle_id: fn}}: gradient hooks and retain_grads, in order
        self.zero_edges = None  # [(edge, tensor)]: inputs this node reaches with a zero gradient (see OpNode.apply)
        self.out_boxes = None   # {output_index: version counter} of outputs that got one after this node saved them
        self.site = _user_frame(2 + self.package_frames) if _record_stack[0] else None
        self.released = False
        self.seq = next(_seq)

    @property
    def where(self):
        """(file, line, function) of the user code that created this node; None while recording is off."""
        if self.site is None:
            return None
        code, offset = self.site
        return (code.co_filename, _line_at(code, offset), code.co_name)

    @property
    def forward_name(self):
        """The op (or PyLayer) this node differentiates: its name without the '_grad' suffix."""
        name = self.name
        return name[:-5] if name.endswith("_grad") else name

    def watch_output(self, i, box):
        """Output i got a version counter (at version 0, the values this node saved): keep it, so reading
        the saved output in backward can tell whether an in-place op changed it since."""
        if self.out_boxes is None:
            self.out_boxes = {}
        self.out_boxes[i] = box

    def release(self):
        self.released = True

    def location(self):
        where = self.where
        return "" if where is None else f" (created at {where[0]}:{where[1]} in {where[2]})"


def _edge_of(t):
    if t.stop_gradient:
        return None
    return t if t._node is None else (t._node, t._out_index)


def _grouped_edges(op, inputs):
    """Edges and saved versions of an op with list-valued input slots, flattened."""
    edges, flat_ins = [], []
    for k, t in enumerate(inputs):
        for e in (t if isinstance(t, (list, tuple)) else (t,)):
            diff = e is not None and not e.stop_gradient and op.diff_inputs_mask[k]
            edges.append((e if e._node is None else (e._node, e._out_index)) if diff else None)
            flat_ins.append(e)
    versions = None
    if any(e is not None and e._vbox is not None for e in flat_ins):
        versions = [0 if e is None or e._vbox is None else e._vbox[0] for e in flat_ins]
    return edges, versions


def _flat_outputs(outs):
    """The outputs flattened, and per output slot (offset, length or None for a single tensor)."""
    flat, layout = [], []
    for o in outs:
        if isinstance(o, list):
            layout.append((len(flat), len(o)))
            flat.extend(o)
        else:
            layout.append((len(flat), None))
            flat.append(o)
    return flat, layout


def _read_as_constant(node, t):
    """Whether grad node `node` (of a simple op) takes `t` only through inputs its op does not differentiate."""
    op = getattr(node, "op", None)
    if op is None or not op.simple or node.inputs is None:
        return False
    slots = [k for k, x in enumerate(node.inputs) if x is t]
    return bool(slots) and not any(op.diff_inputs_mask[k] for k in slots)


class OpNode(GradNode):
    """The grad node of a registry op: runs the op's grad maker with an EagerGradBuilder."""

    __slots__ = ("op", "inputs", "attrs", "outputs", "versions", "place", "out_layout")
    package_frames = 2  # OpNode.__init__ and dispatch.apply

    def __init__(self, op, inputs, attrs, outs):
        if op.simple:  # the hot path: runs for every recorded op
            versions = None
            edges = []
            mask = op.diff_inputs_mask
            k = 0
            for t in inputs:
                if t is None:
                    edges.append(None)
                else:
                    edges.append(None if t.stop_gradient or not mask[k] else
                                 t if t._node is None else (t._node, t._out_index))
                    if t._vbox is not None:
                        if versions is None:
                            versions = [0] * len(inputs)
                        versions[k] = t._vbox[0]
                k += 1
            flat_outs = outs
            self.out_layout = None
        else:
            edges, versions = _grouped_edges(op, inputs)
            flat_outs, self.out_layout = _flat_outputs(outs)
        GradNode.__init__(self, edges, len(flat_outs))
        self.op = op
        self.inputs = inputs
        self.attrs = attrs
        self.versions = versions
        self.place = flat_outs[0]._place
        outputs = self.outputs = []  # filled in a loop: a comprehension's own frame costs more per op
        i = 0
        for o in flat_outs:
            outputs.append(o._data)
            o._node = self
            o._out_index = i
            i += 1
        if _packing:  # saved_tensors_hooks: what this node saves goes through pack_hook
            self.inputs = pack_all(inputs)
            self.outputs = pack_arrays(self.outputs, self.place)

    @property
    def name(self):
        return self.op.type + "_grad"

    def apply(self, grads, create_graph):
        builder = EagerGradBuilder(self, grads, create_graph)
        first_new = next(_seq) if create_graph else None  # only higher orders tie grads to saved inputs
        self.op.grad(builder)
        if builder.value_used:
            self._tie_to_saved_inputs(builder, first_new)
        return builder.input_grads

    def _tie_to_saved_inputs(self, builder, first_new):
        """Higher orders, as Paddle: the grad op of this node reads the saved inputs, so a later backward
        through the gradients it made reaches those inputs -- with a zero gradient where no formula term
        depends on them (Paddle's `x.grad` is zeros, not None, after `grad(matmul(x, y), [x, y],
        create_graph=True)[0].backward()`)."""
        ties = [(self.edges[k], t) for k, t in builder.value_used.items() if self.edges[k] is not None]
        if not ties:
            return
        tied = set()
        for g in builder.input_grads:
            node = None if g is None else g._node
            if node is not None and node.seq > first_new and node not in tied:
                tied.add(node)
                # not an input its grad op reads only as a constant (leaky_relu_grad's X, a mask): Paddle's double
                # grad op has no gradient for it, so a later backward leaves it None
                node_ties = [(e, t) for e, t in ties if not _read_as_constant(node, t)]
                if node_ties:
                    node.zero_edges = node_ties if node.zero_edges is None else node.zero_edges + node_ties

    def zeros_for_output(self, i):
        out = self.outputs[i]
        return wrap_array(self.place.xp.zeros(out.shape, out.dtype), self.place, True)

    def release(self):
        self.released = True
        self.inputs = None
        self.outputs = None


dispatch.set_node_factory(OpNode)


class EagerGradBuilder(GradBuilder):
    """Binds a grad maker's symbolic references (Syms) to Tensors and runs its ops eagerly."""

    __slots__ = ("node", "grads", "create_graph", "input_grads", "attrs", "_in_offsets", "_unchecked",
                 "value_used", "_simple_index")

    def __init__(self, node, grads, create_graph):
        self.node = node
        self.grads = grads
        self.create_graph = create_graph
        self.attrs = node.attrs
        self.input_grads = [None] * len(node.edges)
        self._simple_index = node.op.input_index if node.op.simple else None
        self._in_offsets = None
        # Saved inputs handed out but not yet used for their values: id -> flat index. Their version is
        # checked when they reach an op slot that reads values (not a meta slot: shape only).
        self._unchecked = None
        # With create_graph: the saved inputs used for their values, flat index -> tensor (OpNode.apply).
        self.value_used = None

    # -- slot plumbing ---------------------------------------------------------------------------
    def _in_slot(self, slot):
        op = self.node.op
        i = op.input_index.get(slot)
        if i is None:
            raise KeyError(f"grad maker of '{op.type}': no input slot '{slot}'")
        if op.simple:
            return i, i, None
        if self._in_offsets is None:
            offs, k = [], 0
            for t in self.node.inputs:
                offs.append(k)
                k += len(t) if isinstance(t, (list, tuple)) else 1
            self._in_offsets = offs
        t = self.node.inputs[i]
        return i, self._in_offsets[i], (len(t) if isinstance(t, (list, tuple)) else None)

    def _out_slot(self, slot):
        op = self.node.op
        i = op.output_index.get(slot)
        if i is None:
            raise KeyError(f"grad maker of '{op.type}': no output slot '{slot}'")
        return (i, None) if self.node.out_layout is None else self.node.out_layout[i]

    def _checked(self, t, flat_k):
        versions = self.node.versions
        saved = 0 if versions is None else versions[flat_k]
        now = 0 if t._vbox is None else t._vbox[0]
        self._check_version(now, saved)
        return t

    def _check_version(self, now, saved):
        if now != saved:
            raise RuntimeError(  # the Hint wording is Paddle's (its tests match on it)
                f"backward of '{self.node.op.type}': one of the tensors it saved for the gradient was "
                f"modified by an in-place operation (version {saved} when saved, {now} now); use an "
                "out-of-place op or clone() the tensor before modifying it. [Hint: Expected tensor_version == "
                f"wrapper_version_snapshot, but received tensor_version:{now} != wrapper_version_snapshot:{saved}.]")

    def _wrap_output(self, k):
        node = self.node
        out = node.outputs[k]
        if out.__class__ is SavedTensor:
            out = out.unpack(f"backward of '{node.op.type}'")._data
        t = wrap_array(out, node.place, not self.create_graph)
        if self.create_graph:  # the saved output stays connected to this node for higher orders
            t._node = node
            t._out_index = k
        if node.out_boxes is not None and k in node.out_boxes:  # checked when used for its values
            if self._unchecked is None:
                self._unchecked = {}
            self._unchecked[id(t)] = -k - 1
        return Sym(self, t)

    # -- the vocabulary --------------------------------------------------------------------------
    # needs/input/set_input_grad run a few times per node in every backward: ops without variadic slots
    # (slot i is flat input i) skip the general slot plumbing
    def input(self, slot):
        if self._simple_index is not None:
            i = self._simple_index.get(slot)
            if i is not None:
                t = self.node.inputs[i]
                if t is None or t.__class__ is SavedTensor or t._vbox is not None or self.create_graph:
                    return None if t is None else self._handed_out(t, i)
                s = _new_sym(Sym)  # never modified, no higher order: nothing to unpack or check later
                s.builder = self
                s.ref = t
                return s
        i, k, n = self._in_slot(slot)
        t = self.node.inputs[i]
        if n is None:
            return None if t is None else self._handed_out(t, k)
        return [self._handed_out(e, k + j) for j, e in enumerate(t)]

    def _unpacked(self, saved, flat_k):
        """A saved input packed by saved_tensors_hooks, unpacked. A new tensor with the saved values (not
        sharing the saved one's version counter) is the baseline its later in-place changes are checked against."""
        node = self.node
        t = saved.unpack(f"backward of '{node.op.type}'")
        if t._vbox is not saved.box:
            if node.versions is None:
                node.versions = [0] * len(node.edges)
            node.versions[flat_k] = 0 if t._vbox is None else t._vbox[0]
        return t

    def _handed_out(self, t, flat_k):
        if t.__class__ is SavedTensor:
            t = self._unpacked(t, flat_k)
        # A tensor never modified (nor detached) has no version box: nothing to check, unless higher
        # orders need to know whether it is used for its values.
        if t._vbox is not None or self.create_graph:
            if self._unchecked is None:
                self._unchecked = {}
            self._unchecked[id(t)] = flat_k
        s = _new_sym(Sym)  # Sym(self, t) without the __init__ call: this runs for every reference handed out
        s.builder = self
        s.ref = t
        return s

    def _check_values_used(self, value):
        """`value` (a ref or list of refs) is about to be used for its values: verify saved inputs."""
        for t in (value if isinstance(value, (list, tuple)) else (value,)):
            k = self._unchecked.get(id(t)) if t is not None else None
            if k is not None and k < 0:  # a saved output (numbered -1, -2, ...): saved at version 0
                self._check_version(self.node.out_boxes[-k - 1][0], 0)
            elif k is not None:
                self._checked(t, k)
                if self.create_graph:
                    if self.value_used is None:
                        self.value_used = {}
                    self.value_used[k] = t

    def output(self, slot):
        k, n = self._out_slot(slot)
        if n is None:
            return self._wrap_output(k)
        return [self._wrap_output(k + j) for j in range(n)]

    def output_grad(self, slot):
        k = self.node.op.output_index.get(slot) if self.node.out_layout is None else None  # slot i is output i
        n = None
        if k is None:
            k, n = self._out_slot(slot)
        if n is None:
            g = self.grads[k]
            if g is None:
                return None
            s = _new_sym(Sym)
            s.builder = self
            s.ref = g
            return s
        return wrap(self, self.grads[k:k + n])

    def needs(self, slot):
        if self._simple_index is not None:
            i = self._simple_index.get(slot)
            if i is not None:
                return self.node.edges[i] is not None
        i, k, n = self._in_slot(slot)
        edges = self.node.edges
        if n is None:
            return edges[k] is not None
        return any(edges[k + j] is not None for j in range(n))

    def needs_at(self, slot, j):
        i, k, n = self._in_slot(slot)
        return self.node.edges[k + j] is not None

    def set_input_grad(self, slot, value):
        value = value.ref if value.__class__ is Sym else unwrap(value)
        if self._unchecked and (id(value) in self._unchecked or value.__class__ is list):
            self._check_values_used(value)
        if self._simple_index is not None:
            i = self._simple_index.get(slot)
            if i is not None:
                self.input_grads[i] = value
                return
        i, k, n = self._in_slot(slot)
        if n is None:
            self.input_grads[k] = value
        else:
            if len(value) != n:
                raise ValueError(f"grad maker of '{self.node.op.type}': {n} grads expected for '{slot}', "
                                 f"received {len(value)}")
            self.input_grads[k:k + n] = value

    def record(self, type, inputs, attrs):
        opdef = _OPS.get(type) or get_op(type)
        n = len(inputs)
        try:  # all Syms, the common case: one or two spelled out, as tuple(map(...)) costs more than the op's glue
            refs = (inputs[0].ref, inputs[1].ref) if n == 2 else (inputs[0].ref,) if n == 1 else tuple(map(_ref_of, inputs))
        except AttributeError:  # None, lists of Syms, Tensors
            refs = [v.ref if v.__class__ is Sym else unwrap(v) for v in inputs]
        unchecked = self._unchecked
        if unchecked:
            for slot, value in zip(opdef.inputs, refs):
                if (id(value) in unchecked or value.__class__ is list) and slot not in opdef.meta_inputs:
                    self._check_values_used(value)
        out = dispatch.apply(opdef, *refs, **attrs)
        if out.__class__ is not Tensor:
            return wrap(self, out)
        s = _new_sym(Sym)
        s.builder = self
        s.ref = out
        return s

    def shape(self, ref):
        return tuple(ref.ref._data.shape)

    def is_complex(self, ref):  # every complex-aware grad rule asks, so skip the DType lookup
        return ref.ref._data.dtype.kind == "c"

    def reduce_as(self, value, like):
        if value.ref._data.shape == like.ref._data.shape:  # eager shapes are concrete: nothing was broadcast
            return value
        return self.op("reduce_as", value, like)
