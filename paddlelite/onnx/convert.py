"""A static Program (the inference form: normalize_program's) as an ONNX model: each op through the converter of its
registry type (graph.CONVERTERS), parameters as initializers.

Every op of the program is checked first, so a program with ops that have no ONNX form fails once, with one error
listing all of them (op type, how many, where the first was added). A converter that needs a newer opset than the one
asked for restarts the conversion at that opset, with a warning (paddle2onnx's auto_upgrade_opset).
"""
import warnings

from onnx import helper

from ..ops.legacy import REGISTRY_TYPES
from . import ops_control, ops_math, ops_nn, ops_tensor  # noqa: F401  (fill CONVERTERS)
from .graph import CONVERTERS, MIN_OPSET, Graph, NeedsOpset


class UnsupportedOpsError(NotImplementedError):
    """The program holds ops (or op settings) that have no ONNX form here; the message lists every one."""


def _registry_type(op):
    return REGISTRY_TYPES.get(op.type, op.type)


def check_convertible(ops, api):
    """Raise one UnsupportedOpsError naming every op type of `ops` that has no converter."""
    missing = {}
    for op in _all_ops(ops):
        if _registry_type(op) not in CONVERTERS:
            missing.setdefault(op.type, []).append(op.where)
    if missing:
        lines = [f"  {t} (x{len(w)}, first added at {w[0]})" for t, w in sorted(missing.items())]
        raise UnsupportedOpsError(f"{api}: {len(missing)} op type(s) of the program have no ONNX converter:\n"
                                  + "\n".join(lines))


def _all_ops(ops):
    """`ops` and the ops of their sub-blocks (branches, loop bodies), depth first."""
    for op in ops:
        yield op
        sub = op._attrs.get("sub_block")
        if sub is not None:
            yield from _all_ops(sub.ops)


def program_to_onnx(program, feed_names, fetch_names, values, opset, api, auto_upgrade=True):
    """(onnx.ModelProto, the opset it was written at) of the global block of `program`, whose persistable variables
    hold `values` ({name: NumPy array}); inputs `feed_names`, outputs `fetch_names`."""
    block = program.global_block()
    check_convertible(block.ops, api)
    asked = opset
    reasons = []
    if opset < MIN_OPSET:
        opset = _upgrade(reasons, NeedsOpset(MIN_OPSET, "the converters"), asked, auto_upgrade, api)
    while True:
        try:
            model = _build(block, feed_names, fetch_names, values, opset, api)
            break
        except NeedsOpset as e:
            opset = _upgrade(reasons, e, asked, auto_upgrade, api)
    if reasons:
        warnings.warn(f"{api}: exported with ONNX opset {opset}, not opset_version={asked}: {'; '.join(reasons)}",
                      stacklevel=3)
    return model, opset


def _upgrade(reasons, need, asked, auto_upgrade, api):
    if not auto_upgrade:
        raise UnsupportedOpsError(f"{api}: {need}, but opset_version={asked} was asked for with "
                                  "auto_upgrade_opset=False") from None
    reasons.append(str(need))
    return need.opset


def _metas(block):
    return {name: (tuple(v.shape), v.dtype.np) for name, v in block.vars.items()}


def _build(block, feed_names, fetch_names, values, opset, api):
    g = Graph(opset, _metas(block))
    g._define(feed_names)
    for name in sorted(values):
        if name in g.metas:
            g.const(values[name], name=name)
    problems = g.convert_ops(block.ops)
    if problems:
        raise UnsupportedOpsError(f"{api}: {len(problems)} op(s) cannot be written as ONNX:\n" + "\n".join(problems))
    missing = [n for n in fetch_names if g.current.get(n, n) not in g.visible]
    if missing:
        raise UnsupportedOpsError(f"{api}: the outputs {missing} are not computed by the exported ops")
    outputs = _name_outputs(g, fetch_names, set(feed_names) | set(values))
    read = {n for node in g.nodes for n in _reads(node)} | set(outputs)
    initializers = [t for t in g.initializers if t.name in read]  # parameters a converter rewrote (rnn) go
    graph = helper.make_graph(g.nodes, "paddlelite", [g.value_info(n) for n in feed_names],
                              [g.value_info(n) for n in outputs], initializers)
    opsets = [helper.make_opsetid("", opset)]
    return helper.make_model(graph, opset_imports=opsets, producer_name="paddlelite",
                             ir_version=helper.find_min_ir_version_for(opsets))


def _name_outputs(g, fetch_names, fixed):
    """The model's output names: each fetched variable's own name, its newest version renamed to it where the
    program wrote the variable more than once (an earlier version holding the name gives it up), except where the
    name is an input's or a parameter's."""
    outputs = []
    for name in fetch_names:
        newest = g.current.get(name, name)
        if newest != name and name not in fixed:
            older = g.fresh(name)
            _rename(g.nodes, {name: older, newest: name})
            g.metas[older] = g.metas[name]
            newest = name
        outputs.append(newest)
    return outputs


def _subgraphs(node):
    for attr in node.attribute:
        if attr.HasField("g"):
            yield attr.g
        yield from attr.graphs


def _reads(node):
    """The values `node` reads, its sub-graphs' reads of outer values included."""
    yield from node.input
    for sub in _subgraphs(node):
        for inner in sub.node:
            yield from _reads(inner)


def _rename(nodes, mapping):
    """Rename values in `nodes` and their sub-graphs by `mapping` (old name -> new)."""
    for node in nodes:
        node.input[:] = [mapping.get(n, n) for n in node.input]
        node.output[:] = [mapping.get(n, n) for n in node.output]
        for sub in _subgraphs(node):
            _rename(sub.node, mapping)
            for info in sub.output:
                info.name = mapping.get(info.name, info.name)
