"""Graphviz .dot of a static program: ops as boxes (grad ops shaded, linked to their forward op),
variables as ellipses labelled with shape and dtype; one cluster per block."""
import os

from .op_role import OP_ROLE_ATTR, OP_ROLE_BACKWARD, OP_ROLE_OPTIMIZE


def _q(s):
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') + '"'


def program_to_dot(program, path=None):
    """The .dot text of `program`'s blocks; written to `path` when given (returns the text)."""
    lines = ["digraph program {", "  rankdir=TB;", '  node [fontname="monospace", fontsize=10];']
    op_ids = {}
    for b in program.blocks:
        lines.append(f"  subgraph cluster_block{b.idx} {{")
        title = f"block {b.idx}" + (f" (grad of block {b.forward_block_idx})" if b.forward_block_idx >= 0 else "")
        lines.append(f"    label={_q(title)};")
        for k, op in enumerate(b.ops):
            oid = f"op_{b.idx}_{k}"
            op_ids[id(op)] = oid
            role = op._attrs.get(OP_ROLE_ATTR, 0)
            color = "lightpink" if role & OP_ROLE_BACKWARD else ("lightyellow" if role & OP_ROLE_OPTIMIZE else
                                                                 "lightblue")
            where = op.where
            label = f"{op.type}\\n{os.path.basename(where)}" if where != "unknown location" else op.type
            lines.append(f"    {oid} [shape=box, style=filled, fillcolor={color}, label={_q(label)}];")
        lines.append("  }")
    declared = set()

    def var_node(block, name):
        vid = f"var_{name}"
        if vid not in declared:
            declared.add(vid)
            v = block._lookup(name)
            label = name if v is None else f"{name}\\n{v.dtype.name} {v.shape}"
            lines.append(f"  {_q(vid)} [shape=ellipse, label={_q(label)}];")
        return _q(vid)

    for b in program.blocks:
        for op in b.ops:
            oid = op_ids[id(op)]
            for slot, names in op._inputs.items():
                for n in names:
                    lines.append(f"  {var_node(b, n)} -> {oid} [label={_q(slot)}];")
            for slot, names in op._outputs.items():
                for n in names:
                    lines.append(f"  {oid} -> {var_node(b, n)} [label={_q(slot)}];")
            if op._fwd_op is not None and id(op._fwd_op) in op_ids:
                lines.append(f"  {oid} -> {op_ids[id(op._fwd_op)]} [style=dotted, constraint=false, "
                             f"label=\"grad of\"];")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    if path is not None:
        with open(path, "w") as f:
            f.write(text)
    return text
