"""The op registry: every op is declared here once, for both modes.

An op declares its input/output slots, attrs with defaults, a shape-and-dtype rule (`infer`, used by
static mode and to explain eager failures), a forward written against the array module `xp`,
optional device kernels (`gpu=`: a binding that launches a fused CUDA kernel, see ops/launch/), and
a *grad maker*.

A grad maker computes nothing itself: it writes the gradient as formulas over symbolic references
(`ops/formula.py`), e.g. `dx = dout / y; dy = -dx * out / y`, each operator recording a registered op
through a `GradBuilder`. Eager mode binds the references to Tensors and runs the ops through the
dispatcher (recording them again under create_graph); static mode binds them to Variables and appends
the ops to a block. Because grad ops are registered ops, they have grad makers of their own: double
backward is free.
"""
from collections import namedtuple

import numpy as np

from .launch import generated as _generated
from .legacy import REGISTRY_TYPES as _BY_LEGACY_TYPE


Meta = namedtuple("Meta", ["shape", "dtype"])  # shape: tuple of int, -1 = unknown; dtype: numpy dtype

# the usual reasons an op's forward reads device values on the host (OpDef.host_sync). A value check is a
# validation; an op checking through device.deferred_checks reads nothing on the host and declares none (its
# check waits for the next read of device values, and skips itself while a CUDA graph is captured, as Paddle's
# in-kernel checks do not stop a graph)
DATA_DEPENDENT_SHAPE = "its output shape depends on the input values"
VALUE_CHECK = "checks its input values on the host"


class OpDef:
    __slots__ = ("type", "inputs", "outputs", "attrs", "forward", "infer", "grad", "impls",
                 "variadic_inputs", "optional_inputs", "variadic_outputs", "intermediate_outputs",
                 "nondiff_inputs", "meta_inputs", "same_dtype", "double_grad", "diff_inputs_mask", "n_in",
                 "n_out", "simple", "input_index", "output_index", "view", "block_runner", "block_grad",
                 "block_locals", "host_sync", "lacks_higher_grad", "host_inputs", "absent_tails", "callable_attrs",
                 "elementwise", "batched", "_forwards", "sparse", "draws", "seed_input")

    def __init__(self, type, inputs, outputs, forward=None, infer=None, grad=None, attrs=None,
                 variadic_inputs=(), optional_inputs=(), variadic_outputs=(), intermediate_outputs=(),
                 nondiff_inputs=(), meta_inputs=(), same_dtype=(), double_grad=False, view=False,
                 block_runner=None, block_grad=None, block_locals=None, host_sync=None, host_inputs=(),
                 callable_attrs=(), elementwise=None, batched=None, sparse=False, draws=False, seed_input=None):
        self.type = type
        # the forward draws random numbers (advancing the generator): running it again gives other values, so a
        # recomputing backward keeps its outputs instead (tests/test_op_declarations.py checks the flag)
        self.draws = draws
        # the input slot that fixes such an op's draws (a seed tensor): given one, the op can run again alike
        self.seed_input = seed_input
        self.inputs = tuple(inputs)
        self.outputs = tuple(outputs)
        self.forward = forward
        self.infer = infer
        self.grad = grad
        self.attrs = dict(attrs or {})
        self.impls = {}  # device -> forward (register_impl)
        self._forwards = {}  # array module -> the forward it runs (forward_for)
        # elementwise(*input expressions, **attrs) -> the op's value as a CUDA expression over float values (an input
        # None where the op was given none), or None where these attrs or inputs are not covered: what generated
        # kernels are written from (ops/launch/generated.py) -- an elementwise op of one output, its output shaped
        # as its inputs broadcast together and of their (float) dtype
        self.elementwise = elementwise
        # batched(attrs) -> (list op type, shared attrs, per-item attrs) or None: the op over lists of which calls
        # of this op with equal shared attrs are one call (an optimizer update per parameter -> one over every
        # parameter), its inputs and outputs this op's slots as lists and the per-item attrs as lists; what
        # static/batching.py merges a plan's independent calls into
        self.batched = batched
        self.variadic_inputs = frozenset(variadic_inputs)
        # host inputs: arguments Paddle's op also takes as tensors (a reshape's Shape, a slice's StartsTensorList),
        # optional, read on the host when given, so a step holding them waits for the device (a value known only
        # when the program runs; shape rules give -1 for what depends on it)
        self.host_inputs = tuple(host_inputs)
        self.optional_inputs = frozenset(optional_inputs) | frozenset(host_inputs)
        self.variadic_outputs = frozenset(variadic_outputs)
        self.intermediate_outputs = frozenset(intermediate_outputs)
        # meta inputs are read for their shape/dtype only: no gradient, and an in-place change of their
        # values after the forward does not invalidate a backward that passes them there
        self.meta_inputs = frozenset(meta_inputs)
        self.nondiff_inputs = frozenset(nondiff_inputs) | self.meta_inputs | frozenset(host_inputs)
        self.same_dtype = tuple(self.inputs.index(s) for s in same_dtype)
        self.double_grad = double_grad
        # a gradient op (Paddle's `<type>_grad` naming) without a grad maker of its own: a higher-order
        # gradient through it must fail where it is asked for, not come out silently zero
        self.lacks_higher_grad = grad is None and type.endswith("_grad")
        # view: the outputs are views of the first input's storage (Paddle's view ops): True, or a
        # predicate on the attrs for ops that are views for some attrs only (basic vs advanced indexing)
        self.view = view
        # Structural ops (control flow: they hold sub-blocks) have no array forward: the static executor
        # compiles them with block_runner(plan, op) -> run(env), and static backward builds their grad
        # ops with block_grad(backward_pass, op) -> ([grad Operators], [names whose grads they write]).
        self.block_runner = block_runner
        self.block_grad = block_grad
        # block_locals(op) -> the names a structural op's runner binds itself before running its block (while_grad's
        # gradients of the loop vars under their original names): its block's reads of them are not reads of the
        # names outside
        self.block_locals = block_locals
        # host_sync: the forward reads device values on the host (a data-dependent output shape, a value
        # check, a predicate), so a step holding it cannot be one CUDA graph: a short reason, or a
        # predicate on the attrs giving the reason or None (plans report these: Plan.host_syncs)
        self.host_sync = host_sync
        # callable_attrs: attrs holding the id of a Python function of this process (static/callables.py), -1 for
        # none; a program read from a file may hold no other value there (a file must not choose code to run)
        self.callable_attrs = tuple(callable_attrs)
        # sparse: the forward takes (or makes) sparse tensors (framework/sparse.py); a dense op handed one fails
        # with a TypeError saying so (dispatch._explain_failure)
        self.sparse = sparse
        self.diff_inputs_mask = tuple(s not in self.nondiff_inputs for s in self.inputs)
        self.n_in = len(self.inputs)
        self.n_out = len(self.outputs)
        # {number of inputs given: the Nones that stand for the trailing optional inputs left out}
        self.absent_tails = {}
        for n in range(self.n_in - 1, -1, -1):
            if self.inputs[n] not in self.optional_inputs:
                break
            self.absent_tails[n] = (None,) * (self.n_in - n)
        self.input_index = {slot: i for i, slot in enumerate(self.inputs)}  # grad makers look slots up by name
        self.output_index = {slot: i for i, slot in enumerate(self.outputs)}
        # no variadic slots: slot i <-> flat position i, which the hot paths exploit
        self.simple = not (self.variadic_inputs or self.variadic_outputs)
        for slot in (*self.variadic_inputs, *self.optional_inputs, *self.nondiff_inputs, *same_dtype):
            if slot not in self.inputs:
                raise ValueError(f"op '{type}': unknown input slot '{slot}'")
        for slot in (*self.variadic_outputs, *self.intermediate_outputs):
            if slot not in self.outputs:
                raise ValueError(f"op '{type}': unknown output slot '{slot}'")

    @property
    def differentiable(self):
        return self.grad is not None

    def host_sync_reason(self, attrs):
        """Why this op, with `attrs`, reads device values on the host; None when it does not."""
        return self.host_sync(attrs) if callable(self.host_sync) else self.host_sync

    def host_inputs_reason(self, given):
        """Why this op reads input values on the host given the input slots `given` ({slot: names}) hold; None
        when none of its host inputs is given."""
        slots = [s for s in self.host_inputs if given.get(s)]
        return f"reads its tensor arguments {', '.join(slots)} on the host" if slots else None

    def forward_for(self, xp):
        """The forward to run for arrays of module `xp`: NumPy's, or on CuPy the GPU binding when one is registered.
        An array module that stands in for CuPy (device/launch_count.py) says what runs: `xp.instrument(op)`."""
        if xp is np:
            return self.forward
        fn = self._forwards.get(xp)
        if fn is None:
            instrument = getattr(xp, "instrument", None)
            fn = self._forwards[xp] = self.impls.get("gpu", self.forward) if instrument is None else instrument(self)
        return fn

    def fill_attrs(self, attrs):
        """Defaults merged with the given attrs; unknown attr names are an error."""
        if not attrs:
            return self.attrs
        merged = {**self.attrs, **attrs}
        if len(merged) != len(self.attrs):
            unknown = sorted(set(attrs) - set(self.attrs))
            raise TypeError(f"op '{self.type}': unknown attribute(s) {unknown}; "
                            f"expected some of {sorted(self.attrs)}")
        return merged

    def __repr__(self):
        return f"OpDef({self.type}: {self.inputs} -> {self.outputs})"

    def __deepcopy__(self, memo):
        """An op is its registry's: a deep copy of something holding it (a layer, a program) shares it, and never
        copies the forwards it resolved for array modules (the launch counter's cannot be copied)."""
        return self


_REGISTRY = {}
OPS = _REGISTRY  # type -> OpDef, for lookups on hot paths (read only: register_op writes it)


def register_op(type, gpu=None, **spec):
    """Declare an op. Returns its OpDef (module-level constants make call sites cheap).

    `gpu`: the op's kernel binding, fn(xp, *arrays, **attrs) with the forward's signature (see
    register_impl). An op declaring its `elementwise` CUDA expression and no binding runs, on a GPU, as one kernel
    generated from that expression.
    """
    if type in _REGISTRY or type in _BY_LEGACY_TYPE:
        raise ValueError(f"op '{type}' is registered twice (or is the legacy name of another op)")
    op = OpDef(type, **spec)
    _REGISTRY[type] = op
    if gpu is None and op.elementwise is not None:
        gpu = _generated.single_op(op)
    if gpu is not None:
        register_impl(type, "gpu", gpu)
    return op


def register_impl(type, device, fn):
    """Attach a device-specific forward (e.g. a fused CUDA kernel) to a registered op.

    `fn` receives the arrays and the filled-in attrs as the forward does and returns None for a
    configuration it does not cover (float64, an odd layout): the reference forward runs instead.
    """
    attach_impl(get_op(type), device, fn)


def attach_impl(op, device, fn):
    """register_impl for OpDef `op` (registered or not: static/fusion.py's fused chains are OpDefs of their own)."""
    forward = op.forward

    def run(xp, *arrays, **attrs):
        out = fn(xp, *arrays, **attrs)
        return forward(xp, *arrays, **attrs) if out is None else out

    run.__name__ = run.__qualname__ = f"{op.type}_{device}"
    run.__wrapped__ = fn  # inspect.signature shows the binding's own
    op.impls[device] = run
    op._forwards.clear()


def device_impls(device):
    """{op type: forward} of every op with an implementation for `device`."""
    return {type: op.impls[device] for type, op in _REGISTRY.items() if device in op.impls}


def no_grad_op_error(op_type):
    """Paddle's error for a higher-order gradient through grad op `op_type`, which has no grad op of its own."""
    return RuntimeError(f"The Op {op_type} doesn't have any grad op. If you don't intend calculating higher "
                        "order derivatives, please set `create_graph` to False.")


def get_op(type):
    """The op registered as `type`, or the one Paddle's legacy IR calls `type` (ops/legacy.py)."""
    op = _REGISTRY.get(type)
    if op is None:
        op = _REGISTRY.get(_BY_LEGACY_TYPE.get(type))
        if op is None:
            raise KeyError(f"no op named '{type}' is registered")
    return op


def all_ops():
    return dict(_REGISTRY)


class GradBuilder:
    """The vocabulary grad makers are written in. Eager and static modes subclass it.

    Subclasses bind the references: input, output, output_grad (Syms: see ops/formula.py), needs,
    needs_at, set_input_grad, record (apply an op: Syms in, Syms out), shape.
    """

    attrs = None  # the forward op's attrs

    def op(self, type, *inputs, **attrs):
        """Apply registered op `type` to `inputs` (Syms, lists of Syms, None) with `attrs`."""
        return self.record(type, inputs, attrs)

    def output_grad_or_zeros(self, slot):
        """The gradient of an output, or zeros shaped like it where no gradient reaches it."""
        g = self.output_grad(slot)
        if isinstance(g, list):
            outs = self.output(slot)
            return [gi if gi is not None else self.zeros_like(o) for gi, o in zip(g, outs)]
        return g if g is not None else self.zeros_like(self.output(slot))

    def needs_any(self, *slots):
        return any(self.needs(s) for s in slots)

    def set_input_grads(self, slots, grads):
        """Set the gradient of each slot that needs one, from `grads` (one per slot: the outputs of one
        dedicated grad op that computes them together)."""
        for slot, grad in zip(slots, grads):
            if self.needs(slot):
                self.set_input_grad(slot, grad)

    def zeros_like(self, ref):
        return self.op("fill_any_like", ref, value=0.0)

    def is_complex(self, ref):
        return ref.ref.dtype.is_complex

    def reduce_as(self, value, like):
        """Sum `value` over the dims it was broadcast along, to `like`'s shape (the one unbroadcast)."""
        vs, ls = self.shape(value), self.shape(like)
        if vs == ls and -1 not in vs:
            return value
        return self.op("reduce_as", value, like)
