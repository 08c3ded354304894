"""Independent calls of one op in an executor plan, run as one call of its list form (a GPU launch for all of them).

A program updates each parameter with an op of its own (Paddle's static optimizers append one `adam`, `momentum`
or `sgd` per parameter), so a GPU step would launch a kernel per parameter. An op declaring `batched` (ops/registry.py)
names its list form -- `merged_adam`, `merged_momentum`, `merged_sgd` -- and the attrs that must agree. This pass
walks a compiled block's steps and gathers each run of consecutive batchable steps none of which reads or writes
what another writes; within a run, the steps whose op has the same list form and shared attrs become one step of
the list op, at the place of the group's first step, with their inputs and outputs as lists. The list op returns
new arrays, as the ops it replaces did (the step's write-back puts them in the scope): written in place, a value
the program made as a view of a parameter (a reshape of it, fetched) would change with the update. The pass knows
no op by name: what may be batched, and into what, is each op's declaration.

It runs where the fusion pass does: for plans on a GPU and on the launch counter's stand-in.
"""
from ..ops.registry import get_op


def batch(steps, xp):
    """`steps` (a compiled block's, with their frees) with each group of batchable calls made one step."""
    out, run = [], []
    for step in steps:
        found = _batchable(step)
        if found is not None and _independent(run, step):
            run.append((step, found))
            continue
        out.extend(_merged(run, xp))
        run = [(step, found)] if found is not None else []
        if found is None:
            out.append(step)
    out.extend(_merged(run, xp))
    return out


def _batchable(step):
    """(list op type, shared attrs, per-item attrs) of a step that can join a batch, else None."""
    kind, _, _, outs, attrs, op, _ = step
    if kind != 1 or any(type(o) is not int and o is not None for o in outs):
        return None
    declared = get_op(op.type).batched
    return None if declared is None else declared(**attrs)


def _slots(step):
    ins, outs = step[2], step[3]
    return {i for i in ins if type(i) is int}, {o for o in outs if o is not None}


def _independent(run, step):
    """Whether `step` neither reads nor writes a slot a step of `run` writes, nor writes one they read."""
    reads, writes = _slots(step)
    for other, _ in run:
        r, w = _slots(other)
        if writes & (r | w) or reads & w:
            return False
    return True


def _merged(run, xp):
    """The steps of `run`: each group of two or more with one list form, one step; the others as they were."""
    groups = {}
    for step, (list_type, shared, per_item) in run:
        key = (list_type, tuple(sorted(shared.items())), tuple(sorted(per_item)))
        groups.setdefault(key, []).append((step, per_item))
    batched = [(key, items) for key, items in groups.items() if len(items) > 1]
    firsts = {id(items[0][0]): (key, items) for key, items in batched}
    merged = {id(s) for _, items in batched for s, _ in items}
    out = []
    for step, _ in run:
        if id(step) in firsts:
            key, items = firsts[id(step)]
            out.append(_list_step(key[0], dict(key[1]), items, xp))
        elif id(step) not in merged:
            out.append(step)
    return out


def _list_step(list_type, shared, items, xp):
    """One step running op `list_type` over the steps `items` [(step, per-item attrs)]."""
    first = items[0][0]
    item_op, list_op = get_op(first[5].type), get_op(list_type)
    ins = []
    for slot in list_op.inputs:
        k = item_op.inputs.index(slot)
        column = [s[2][k] for s, _ in items]
        ins.append(None if all(i is None for i in column) else column)
    outs = []
    for slot in list_op.outputs:
        k = item_op.outputs.index(slot) if slot in item_op.outputs else None
        outs.append(None if k is None else [s[3][k] for s, _ in items])
    attrs = list_op.fill_attrs({**shared, **{name: [per[name] for _, per in items] for name in items[0][1]}})
    frees = tuple(f for s, _ in items for f in s[6])
    return (1, list_op.forward_for(xp), ins, outs, attrs, first[5], frees)
