"""Pruning a Program to what some targets need: Paddle's Program._prune_with_input (its core.prune), what
Executor.run(use_prune=True) runs and what save_inference_model saves.

A target is a variable or an op. Walking the global block backwards, an op is kept when it is a target op or writes a
target variable or a variable a kept op reads -- except an optimizer op, which is kept only as a target (it reads and
writes the parameters, so every reader of a parameter would pull it in). An op writes what its sub-blocks write
(control flow's branches write the variables of the block around them), so every writer of a needed variable is
kept. Fed variables cut the walk: what computes them is not needed. Sub-blocks of kept ops are kept whole, with every
block they reach.
"""
from .executor import op_io
from .framework import Block, Operator, Program, Variable


def _generatable(block, fed):
    """The names the global block's ops can compute from `fed` and the persistable variables (Paddle's rule for a
    fed variable that is also a target: it stays a target only when an op can compute it from the feeds)."""
    computed = set()
    for op in block.ops:
        reads, writes = op_io(op)
        if all(n in computed or n in fed for n in reads if block.has_var(n) and not block.vars[n].persistable):
            computed.update(writes)
    return computed


def _target_names(block, fed, targets):
    names = []
    for t in targets:
        if isinstance(t, (Variable, str)):
            names.append(t.name if isinstance(t, Variable) else t)
        elif not isinstance(t, Operator):  # ValueError, as Paddle
            raise ValueError(f"All targets of Program._prune_with_input() can only be Variable or Operator, but "
                             f"received {type(t)}.")
    if any(n in fed for n in names):
        generatable = _generatable(block, fed)
        names = [n for n in names if n not in fed or n in generatable]  # fed, and nothing computes it: no target
    return names


def kept_ops(block, fed, target_ops, target_names):
    """The ops of `block` that `target_ops` and the variables `target_names` need, in program order, given the
    `fed` names."""
    targets = {id(op) for op in target_ops}
    needed, kept = set(target_names), []
    for op in reversed(block.ops):
        reads, writes = op_io(op)
        if id(op) in targets or (not op._is_optimize_op() and any(n in needed for n in writes)):
            kept.append(op)
            needed.update(n for n in reads if n not in fed)
    kept.reverse()
    return kept


def program_of(program, kept, names):
    """A new Program of `program`'s global block ops `kept`, the blocks they reach (renumbered in their old order)
    and, in the global block, the variables they use and those of `names` it has."""
    reach, stack = {0}, list(kept)
    while stack:
        op = stack.pop()
        for v in op._attrs.values():
            if isinstance(v, Block) and v.idx not in reach:
                reach.add(v.idx)
                stack.extend(v.ops)
    order = sorted(reach)
    new_idx = {old: i for i, old in enumerate(order)}
    out = Program()
    out.random_seed = program.random_seed
    out._name_generator = program._name_generator.clone()
    out.blocks = []
    for old in order:
        ob = program.blocks[old]
        nb = Block(out, new_idx[old], new_idx.get(ob.parent_idx, -1))
        nb.forward_block_idx = new_idx.get(ob.forward_block_idx, -1)
        out.blocks.append(nb)
    used = set(names)
    for op in kept:
        reads, writes = op_io(op)
        used.update(reads)
        used.update(writes)
    for old, nb in zip(order, out.blocks):
        ob = program.blocks[old]
        for name, v in ob.vars.items():
            if old == 0 and name not in used:
                continue
            nv = object.__new__(type(v))
            nv.__dict__.update(v.__dict__)
            nv.block, nv.op = nb, None
            nb.vars[name] = nv
        for op in kept if old == 0 else ob.ops:
            attrs = {k: (out.blocks[new_idx[v.idx]] if isinstance(v, Block) else v) for k, v in op._attrs.items()}
            nop = op._copy_to(nb, attrs)
            nb.ops.append(nop)
            nb._mark_outputs(nop)
    return out


def prune_with_input(program, feeded_var_names, targets):
    """Paddle's Program._prune_with_input: a new Program of the ops `targets` need, the ops computing
    `feeded_var_names` left out."""
    if not isinstance(feeded_var_names, list):
        feeded_var_names = [feeded_var_names]
    if not isinstance(targets, list):
        targets = [targets]
    for n in feeded_var_names:
        if not isinstance(n, str):  # ValueError, as Paddle
            raise ValueError(f"All feeded_var_names of Program._prune_with_input() can only be str, but received "
                             f"{type(n)}.")
    fed, block = set(feeded_var_names), program.global_block()
    names = _target_names(block, fed, targets)
    kept = kept_ops(block, fed, [t for t in targets if isinstance(t, Operator)], names)
    return program_of(program, kept, names)
