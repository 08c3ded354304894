"""Graphviz dumps of an eager backward graph, its forward graph, and where each op was created."""
import os
import time

from .node import OpNode


def _collect(roots):
    nodes, stack, seen = [], [t._node for t in roots if t._node is not None], set()
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        nodes.append(n)
        stack.extend(e[0] for e in n.edges if e is not None and e.__class__ is tuple)
    nodes.sort(key=lambda n: n.seq)
    return nodes


def _tensor_label(data, place):
    return f"{place} {data.dtype} {list(data.shape)}"


def _node_outputs(n):
    if isinstance(n, OpNode) and n.outputs is not None:
        return [(a, n.place) for a in n.outputs]
    return [None] * n.n_outputs


def _edge_label(target_node, idx):
    outs = _node_outputs(target_node)
    o = outs[idx] if idx < len(outs) else None
    return "" if o is None else _tensor_label(*o)


def _backward_dot(roots, nodes, ids, leaf_ids):
    back = ["digraph backward_graph {", "  rankdir=TB;", '  node [shape=box, fontname="monospace"];']
    for n in nodes:
        back.append(f'  {ids[n]} [label="{n.name}"];')
    for k, t in enumerate(roots):
        back.append(f'  root{k} [label="loss {k}: {_tensor_label(t._data, t._place)}", shape=ellipse];')
        if t._node is not None:
            back.append(f'  root{k} -> {ids[t._node]} [label="grad of output {t._out_index}"];')
    for n in nodes:
        for e in n.edges:
            if e is None:
                continue
            if e.__class__ is tuple:
                back.append(f'  {ids[n]} -> {ids[e[0]]} [label="{_edge_label(e[0], e[1])}"];')
            else:
                lid = leaf_ids.setdefault(id(e), f"leaf{len(leaf_ids)}")
                name = e.name or "leaf"
                back.append(f'  {lid} [label="AccumulateGrad {name}", shape=ellipse];')
                back.append(f'  {ids[n]} -> {lid} [label="{_tensor_label(e._data, e._place)}"];')
    back.append("}")
    return back


def _forward_dot(nodes, ids, leaf_ids):
    fwd = ["digraph ref_forward_graph {", "  rankdir=BT;", '  node [shape=box, fontname="monospace"];']
    for n in nodes:
        fwd.append(f'  {ids[n]} [label="{n.forward_name}"];')
    for n in nodes:
        for e in n.edges:
            if e is None:
                continue
            if e.__class__ is tuple:
                fwd.append(f'  {ids[e[0]]} -> {ids[n]} [label="{_edge_label(e[0], e[1])}"];')
            else:
                lid = leaf_ids.setdefault(id(e), f"leaf{len(leaf_ids)}")
                fwd.append(f'  {lid} [label="{e.name or "leaf"}", shape=ellipse];')
                fwd.append(f'  {lid} -> {ids[n]} [label="{_tensor_label(e._data, e._place)}"];')
    fwd.append("}")
    return fwd


def _call_stack_log(nodes, ids):
    log = []
    for n in nodes:
        where = "unknown (call-stack recording is off)" if n.where is None else \
            f'File "{n.where[0]}", line {n.where[1]}, in {n.where[2]}'
        log.append(f"{ids[n]} {n.name}: forward op created at {where}")
    return log


def dump_graphs(roots, directory):
    """Write <stamp>_backward_graph.dot, <stamp>_ref_forward_graph.dot and <stamp>_call_stack.log."""
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise NotADirectoryError(f"dump_backward_graph_path: '{directory}' exists and is not a directory")
    os.makedirs(directory, exist_ok=True)
    stamp = time.strftime("%Y%m%d_%H%M%S") + f"_{time.time_ns() % 1_000_000_000:09d}"
    nodes = _collect(roots)
    ids = {n: f"n{k}" for k, n in enumerate(nodes)}
    leaf_ids = {}
    back = _backward_dot(roots, nodes, ids, leaf_ids)
    fwd = _forward_dot(nodes, ids, leaf_ids)
    log = _call_stack_log(nodes, ids)
    base = os.path.join(directory, stamp)
    paths = (base + "_backward_graph.dot", base + "_ref_forward_graph.dot", base + "_call_stack.log")
    for path, lines in zip(paths, (back, fwd, log)):
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
    return paths
