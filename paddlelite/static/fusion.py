"""Chains of elementwise ops in an executor plan, each run as one generated kernel (ops/launch/generated.py).

On a GPU each registry op of a plan is at least one launch and one pass over memory. This pass walks a compiled
block's steps in order and gathers runs of consecutive elementwise ops (ops declaring `elementwise=`, whose
expressions cover their attrs) in which each op after the first reads a value an earlier one made -- a bias add
and its activation, a residual add and a scale, an activation's gradient times the incoming gradient. Each run
of two or more becomes one step: a `FusedOp` whose GPU binding launches the chain's kernel, writing only the
values read after the run (or kept: fetched, persistable); the values used inside it stay in registers. Where the
kernel does not cover the arrays it meets (another dtype, an output shaped unlike the loop), the ops run one by
one, as they would unfused. The pass knows no op by name: what an op computes is its own declaration.

It runs for plans on a GPU and on the launch counter's stand-in (device/launch_count.py), which counts the fused
step as the one launch it is; on NumPy a chain would gain nothing, and plans run their ops.
"""
from ..ops.launch.generated import Chain, launch
from ..ops.registry import OpDef, attach_impl, get_op


class FusedOp(OpDef):
    """A plan's elementwise chain as one op (never registered): inputs X0.., outputs Out0..; its forward runs the
    chain's ops one by one, its GPU binding the generated kernel."""

    def __init__(self, chain):
        self.chain = chain
        super().__init__(f"fused({chain.label})", [f"X{k}" for k in range(chain.n_in)],
                         [f"Out{m}" for m in range(len(chain.outputs))], forward=self._one_by_one)
        attach_impl(self, "gpu", self._kernel)

    def _one_by_one(self, xp, *arrays):
        values = []
        for op, attrs, args in self.chain.steps:
            ins = [None if a is None else arrays[a[1]] if a[0] == "in" else values[a[1]] for a in args]
            values.append(op.forward_for(xp)(xp, *ins, **attrs))
        outs = [values[j] for j in self.chain.outputs]
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _kernel(self, xp, *arrays):
        outs = launch(xp, self.chain, arrays)
        return outs if outs is None or len(outs) > 1 else outs[0]


def _fusable(step):
    """(OpDef, input slots) of a plan step that can join a chain, else None."""
    kind, _, ins, outs, attrs, op, _ = step
    if kind not in (0, 1, 3, 4):
        return None
    opdef = get_op(op.type)
    if opdef.elementwise is None or not all(i is None or type(i) is int for i in ins):
        return None
    if kind == 1 and not (len(outs) == 1 and type(outs[0]) is int):
        return None
    if opdef.elementwise(*[None if i is None else "v" for i in ins], **attrs) is None:
        return None
    return opdef, ins


def fuse(steps, xp, shape_of):
    """`steps` (a compiled block's, with their frees) with each elementwise chain of two or more ops replaced by
    one step running its FusedOp (resolved for array module `xp`). `shape_of(slot)`: the shape the program gives a
    slot's variable (-1: unknown), or None."""
    out = []
    for item in _runs(steps, shape_of):
        if type(item) is tuple:
            out.append(item)
            continue
        chain, inputs, outputs, frees = chain_of(item)
        out.append((1, FusedOp(chain).forward_for(xp), inputs, outputs, {}, item[0][0][5], frees))
    return out


def chains(steps, shape_of):
    """The Chains `fuse` makes of `steps`, with their input slots: [(Chain, input slots)] (for tests and reports)."""
    return [chain_of(item)[:2] for item in _runs(steps, shape_of) if type(item) is not tuple]


def _runs(steps, shape_of):
    """`steps` as a list of steps (tuples) and runs of two or more fusable steps ([(step, (opdef, ins))]): a step
    joins the run before it when it reads a value the run made and its output has the run's shape (a chain is one
    loop: the gradient clipping's scale applied to parameters of several shapes is one chain per shape)."""
    out, run = [], []
    for step in steps:
        found = _fusable(step)
        if found is not None and run and any(i in {_out_slot(s) for s, _ in run} for i in found[1] if i is not None) \
                and _same_shape(shape_of(_out_slot(step)), shape_of(_out_slot(run[0][0]))):
            run.append((step, found))
            continue
        out.extend([run] if len(run) > 1 else [s for s, _ in run])
        run = [(step, found)] if found is not None else []
        if found is None:
            out.append(step)
    out.extend([run] if len(run) > 1 else [s for s, _ in run])
    return out


def _same_shape(a, b):
    """Whether two variables' shapes (-1: unknown) can be the same: known, one rank, every known dim equal."""
    return a is not None and b is not None and len(a) == len(b) and all(x == y or -1 in (x, y) for x, y in zip(a, b))


def _out_slot(step):
    outs = step[3]
    return outs if type(outs) is int else outs[0]


def chain_of(run):
    """(Chain, input slots, output slots, frees) of a run [(step, (opdef, ins))]: the chain's inputs are the slots
    it reads before making them, its outputs the values it makes that are read after it or kept (fetched,
    persistable: never freed)."""
    inputs, producer, chain_steps, frees = [], {}, [], []
    for j, (step, (opdef, ins)) in enumerate(run):
        args = []
        for i in ins:
            if i is None:
                args.append(None)
            elif i in producer:
                args.append(("step", producer[i]))
            else:
                if i not in inputs:
                    inputs.append(i)
                args.append(("in", inputs.index(i)))
        chain_steps.append((opdef, step[4], args))
        producer[_out_slot(step)] = j
        frees.extend(step[6])
    freed = set(frees)
    written = [(slot, j) for slot, j in producer.items() if slot not in freed]
    if not written:  # nothing reads the chain's value: it is still made, as the ops would make it
        written = [(_out_slot(run[-1][0]), len(run) - 1)]
    chain = Chain(chain_steps, len(inputs), [j for _, j in written])
    return chain, inputs, [slot for slot, _ in written], tuple(frees)
