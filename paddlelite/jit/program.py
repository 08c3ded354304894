"""Tracing a Python function into a static Program, and running that program as one eager op.

`trace` runs the function under static mode (every API builds program ops through the one dispatcher):
its Tensor arguments become data Variables, and every eager Tensor an op receives (a Layer's
parameters and buffers, a captured constant) becomes a persistable Variable named after it. The
backward is appended once with `static.gradients`, seeded by one gradient-input variable per
differentiable output. A `PartialProgram` then runs the forward ops and the backward ops as two
executor plans; the `run_program` op (ops/run_program.py) calls them, so the traced forward is one
eager grad node and `loss.backward()` reaches the Layer's parameters.
"""

import inspect
import threading

import numpy as np

from ..device.place import Place, current_place, place_of_array
from ..framework import mode as _mode
from ..framework.tensor import Parameter, Tensor
from ..ops import instrument
from ..ops.registry import Meta
from ..static import appender as _appender
from ..static.backward import gradients
from ..static.executor import FixedStep, Plan
from ..static.framework import Program, Variable, program_guard
from ..static.input import InputSpec, data
from ..utils.structure import flatten


# Whether a traced step owns fixed input and output arrays (FixedStep): None -- on a GPU when the step may be
# replayed from a CUDA graph (elsewhere the copies in and out would be device work buying nothing: two copies per
# fetched value, one per fed one); True/False -- always/never.
fixed_io = [None]


class _OpsView:
    """The part of a program's global block an executor plan runs (forward ops or backward ops)."""

    def __init__(self, program, ops):
        self._program = program
        self._block = program.global_block()
        self.ops = ops

    # Plan reads program.global_block() and, from the block, .ops, .vars and _lookup
    def global_block(self):
        return self

    @property
    def vars(self):
        return self._block.vars

    def _lookup(self, name):
        return self._block._lookup(name)


class PartialProgram:
    """A traced program: forward plan, backward plan, and the names binding them to eager values. It runs on
    whichever place its inputs are on (the plans are compiled once per place).

    The backward plan is fed the output gradients, the inputs and captures it reads (`saved_x`,
    `saved_params`: positions) and the forward's intermediates it reads (`saved`: names); it fetches
    the gradients of the differentiated inputs and captures (`grad_x`, `grad_params`: positions).
    """

    def __init__(self, program, n_forward_ops, inputs, captures, outputs, grad_inputs, input_grads,
                 capture_grads, place, cuda_graph=False):
        self.program = program
        self.cuda_graph = cuda_graph
        self.inputs = inputs            # data Variables, one per Tensor argument
        self.captures = captures        # [(Variable, Tensor)]: parameters, buffers, constants
        self.outputs = outputs          # output Variables
        ops = program.global_block().ops
        in_names = [v.name for v in inputs]
        capture_names = [v.name for v, _ in captures]
        self.grad_x = [k for k, g in enumerate(input_grads) if g is not None]
        self.grad_params = [k for k, g in enumerate(capture_grads) if g is not None]
        self._grad_vars = [g for g in input_grads + capture_grads if g is not None]
        fetch = [g.name for g in self._grad_vars]
        dout_names = [v.name for v in grad_inputs.values()]
        self._dout_names = [(k, v.name) for k, v in grad_inputs.items()]
        self.saved_x, self.saved_params, self.saved = [], [], []
        self._backward_ops = self.backward = None
        if fetch:
            self._backward_ops = _OpsView(program, ops[n_forward_ops:])
            reads = [n for _, n in Plan(self._backward_ops, dout_names, fetch, place).external]
            self.saved_x = [k for k, n in enumerate(in_names) if n in reads]
            self.saved_params = [k for k, n in enumerate(capture_names) if n in reads]
            known = set(in_names) | set(capture_names)
            self.saved = [n for n in reads if n not in known]
            saved_inputs = [in_names[k] for k in self.saved_x] + [capture_names[k] for k in self.saved_params]
            self._backward_feeds = dout_names + saved_inputs + self.saved
            # with fixed_io, the output gradients, inputs and saved intermediates are copied into the step's arrays
            self._backward_copied = ([True] * (len(dout_names) + len(self.saved_x)) + [False] * len(self.saved_params)
                                     + [True] * len(self.saved))
        self._fetch = fetch
        self._forward_ops = _OpsView(program, ops[:n_forward_ops])
        self._forward_feeds = in_names + capture_names
        self._forward_fetch = [v.name for v in outputs] + self.saved
        # captures (parameters and buffers, updated in place) are read as given, never copied
        self._forward_copied = [True] * len(in_names) + [False] * len(capture_names)
        self._steps = {}  # (Place, array module): (forward FixedStep, backward FixedStep or None), made at first use
        forward_step, backward_step = self.steps_at(place)
        self.forward = forward_step.plan  # the traced place's plans: what host_syncs() reports
        if backward_step is not None:
            self.backward = backward_step.plan
        self.capture_tensors = [t for _, t in captures]
        self._capture_stop_gradients = [t.stop_gradient for t in self.capture_tensors]
        self._written = threading.local()  # .buffers: [(Tensor, array)] this thread's last forward updated
        by_name = {v.name: t for v, t in captures}
        self._write_back = [by_name[n] for _, n in self.forward.write_back if n in by_name]

    def steps_at(self, place):
        """The forward and backward steps (FixedStep; the backward None without gradients) running this program
        on `place`: one program runs wherever its run_program op's inputs are, each place with its own plans."""
        # plans compiled while launches are counted (device.count_launches) or a profiler records stay apart
        key = (place, place.xp, instrument.token[0])
        steps = self._steps.get(key)
        if steps is None:
            fixed = fixed_io[0] if fixed_io[0] is not None or self.cuda_graph else False
            forward = FixedStep(Plan(self._forward_ops, self._forward_feeds, self._forward_fetch, place),
                                self._forward_copied, fixed, self.cuda_graph)
            # an intermediate of a branch not taken this time has no value: it travels as a boxed None
            forward.scope._values.update((n, _box(None)) for n in self.saved)
            backward = None
            if self._fetch:
                backward = FixedStep(Plan(self._backward_ops, self._backward_feeds, self._fetch, place),
                                     self._backward_copied, fixed, self.cuda_graph)
            steps = self._steps[key] = (forward, backward)
        return steps

    def traced_with_current_stop_gradients(self):
        """Whether each capture's stop_gradient is what it was when traced (which gradients the backward computes)."""
        return [t.stop_gradient for t in self.capture_tensors] == self._capture_stop_gradients

    # ---- the run_program op's callbacks -------------------------------------------------------
    def run_forward(self, xp, xs, params):
        feeds = list(xs) + list(params)
        step = self.steps_at(_call_place(xp, feeds))[0]
        with step.lock:  # another thread's run would write its own buffer values into the scope
            values = step.run(feeds)
            scope = step.scope._values
            self._written.buffers = [(t, scope.pop(t.name)) for t in self._write_back if t.name in scope]
        n = len(self.outputs)
        return values[:n], [v if hasattr(v, "dtype") else _box(_step_scopes_by_name(v, step.plan))
                            for v in values[n:]]

    def run_backward(self, xp, xs, params, saved, out_grads):
        step = self.steps_at(_call_place(xp, list(out_grads) + list(xs) + list(params)))[1]
        feeds = [out_grads[k] for k, _ in self._dout_names] + list(xs) + list(params)
        feeds += [_unbox(v[()], step.plan) if v.dtype == object else v for v in saved]
        grads = step.run(feeds)
        n = len(self.grad_x)
        return grads[:n], grads[n:]

    def take_written(self):
        """The buffers (BatchNorm's running statistics) the last forward run in this thread updated, as
        [(Tensor, new array)], once: the caller writes them into the tensors after the run_program op."""
        written = getattr(self._written, "buffers", [])
        self._written.buffers = []
        return written

    def host_syncs(self):
        """The ops of the forward and backward steps that read device values on the host (Plan.host_syncs): a
        paddlelite extension, for making sure a step can be captured as one CUDA graph."""
        return self.forward.host_syncs() + (self.backward.host_syncs() if self.backward is not None else [])

    def out_metas(self):
        block = self.program.global_block()
        return ([Meta(tuple(v.shape), v.dtype.np) for v in self.outputs],
                [_saved_meta(block._lookup(n)) for n in self.saved])

    def grad_metas(self):
        metas = [Meta(tuple(v.shape), v.dtype.np) for v in self._grad_vars]
        n = len(self.grad_x)
        return metas[:n], metas[n:]


def _call_place(xp, arrays):
    """Where a run_program call runs: on its arrays' place (the dispatcher checked they share one), else, with no
    arrays, on the current device of `xp`'s kind."""
    for a in arrays:
        if a.dtype != object:
            return place_of_array(a)
    place = current_place()
    return place if place.xp is xp else Place("cpu")


def _box(value):
    """A 0-D object array holding a value that is no array (a while loop's per-step scopes), so it can travel
    as an intermediate output."""
    box = np.empty((), dtype=object)
    box[()] = value
    return box


# A while loop's per-step scopes (static/control_flow.py) are {plan slot: value} dicts: between the forward
# and the backward plan they travel keyed by variable name.
def _step_scopes_by_name(snaps, plan):
    return [{plan.names[i]: v for i, v in snap.items()} for snap in snaps]


def _unbox(value, plan):
    """A boxed intermediate for the backward plan: None (not computed), or a while loop's step scopes."""
    if value is None:
        return None
    return [{plan.index[n]: v for n, v in snap.items() if n in plan.index} for snap in value]


def _saved_meta(v):
    return Meta((), np.dtype(object)) if v is None else Meta(tuple(v.shape), v.dtype.np)


def _is_float(v):
    return np.issubdtype(v.dtype.np, np.floating)


class _Capture:
    """Maps each eager Tensor an op receives while tracing to one persistable Variable."""

    def __init__(self, program):
        self.block = program.global_block()
        self.by_id = {}
        self.pairs = []

    def __call__(self, t):
        entry = self.by_id.get(id(t))
        if entry is None:
            name = t.name if getattr(t, "name", None) else f"_jst.capture_{len(self.pairs)}"
            while self.block.has_var(name):
                name += "_"
            shape = tuple(t._data.shape)
            if isinstance(t, Parameter):  # stays a parameter in a saved inference model
                v = self.block.create_parameter(name, shape, t.dtype, trainable=t.trainable)
                v.stop_gradient = t.stop_gradient
            else:
                v = self.block.create_var(name, shape, t.dtype, stop_gradient=t.stop_gradient, persistable=True)
            entry = self.by_id[id(t)] = (v, t)
            self.pairs.append(entry)
        return entry[0]


def trace(fn, args, kwargs, specs, place, cuda_graph=False):
    """Trace `fn(*args, **kwargs)`; `specs` gives one InputSpec (or None) per Tensor leaf of args. With `cuda_graph`
    its steps on a GPU are replayed from CUDA graphs once they repeat (static.executor.FixedStep).

    Returns (PartialProgram, rebuild): rebuild(output values) gives fn's result structure.
    """
    program = Program()
    capture = _Capture(program)
    tensors, rebuild = flatten((args, kwargs), lambda v: isinstance(v, Tensor))
    with _mode.static_guard(True), program_guard(program, Program()), _appender.tensor_capture(capture):
        inputs = []
        arg_names = _argument_names(fn, args, kwargs, len(tensors))
        for k, (t, spec) in enumerate(zip(tensors, specs)):
            shape = list(spec.shape) if spec is not None else list(t._data.shape)
            name = spec.name if spec is not None and spec.name else arg_names[k]
            if name is None or program.global_block().has_var(name):
                name = f"_jst.input_{k}"
            v = data(name, shape, t.dtype)
            v.stop_gradient = t.stop_gradient
            inputs.append(v)
        call_args, call_kwargs = rebuild(inputs)
        outputs, out_rebuild = flatten(fn(*call_args, **call_kwargs), lambda v: isinstance(v, Variable))
    return partial_program(program, inputs, capture.pairs, outputs, place, cuda_graph), out_rebuild


def _argument_names(fn, args, kwargs, n):
    """The name of the parameter each of the `n` Tensor leaves of (args, kwargs) is passed as, None for a Tensor inside
    a structure: Paddle names an input without an InputSpec name after its argument (`forward(self, x)`: `x`)."""
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):  # a builtin or an object without a signature
        params = []
    names = []
    tops = [(params[i].name if i < len(params) else None, a) for i, a in enumerate(args)] + list(kwargs.items())
    for name, value in tops:
        leaves = flatten(value, lambda v: isinstance(v, Tensor))[0]
        names += [name if leaf is value else None for leaf in leaves]
    return names if len(names) == n else [None] * n


def partial_program(program, inputs, captures, outputs, place, cuda_graph=False):
    """A PartialProgram of `program`'s forward ops (feeding `inputs`, reading `captures` [(Variable, Tensor)],
    computing `outputs`), with their backward appended."""
    n_forward = len(program.global_block().ops)
    with _mode.static_guard(True), program_guard(program, Program()):
        grad_inputs, input_grads, capture_grads = _append_backward(program, inputs, captures, outputs)
    return PartialProgram(program, n_forward, inputs, captures, outputs, grad_inputs, input_grads, capture_grads,
                          place, cuda_graph)


def _append_backward(program, inputs, captures, outputs):
    targets = {k: v for k, v in enumerate(outputs) if _is_float(v) and not v.stop_gradient}
    wrt = [v for v in inputs if not v.stop_gradient] + [v for v, _ in captures if not v.stop_gradient]
    if not targets or not wrt:
        return {}, [None] * len(inputs), [None] * len(captures)
    grad_inputs = {k: data(f"_jst.out_grad_{k}", list(v.shape), v.dtype) for k, v in targets.items()}
    grads = iter(gradients([targets[k] for k in targets], wrt, target_gradients=list(grad_inputs.values())))
    input_grads = [None if v.stop_gradient else next(grads) for v in inputs]
    capture_grads = [None if v.stop_gradient else next(grads) for v, _ in captures]
    return grad_inputs, input_grads, capture_grads


__all__ = ["InputSpec", "PartialProgram", "partial_program", "trace"]
