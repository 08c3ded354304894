"""A static Program (the inference form: normalize_program's) as an ONNX model: each op through the converter of its
registry type (graph.CONVERTERS), parameters as initializers.

Every op of the program is checked first, so a program with ops that have no ONNX form fails once, with one error
listing all of them (op type, how many, where the first was added). A converter that needs a newer opset than the one
asked for restarts the conversion at that opset, with a warning (paddle2onnx's auto_upgrade_opset).
"""
import warnings

from onnx import helper

from ..ops.legacy import REGISTRY_TYPES
from ..ops.registry import get_op
from . import ops_math, ops_nn, ops_tensor  # noqa: F401  (fill CONVERTERS)
from .graph import CONVERTERS, MIN_OPSET, Graph, NeedsOpset, OpView, Unsupported, onnx_dtype


class UnsupportedOpsError(NotImplementedError):
    """The program holds ops (or op settings) that have no ONNX form here; the message lists every one."""


def _registry_type(op):
    return REGISTRY_TYPES.get(op.type, op.type)


def check_convertible(ops, api):
    """Raise one UnsupportedOpsError naming every op type of `ops` that has no converter."""
    missing = {}
    for op in ops:
        if _registry_type(op) not in CONVERTERS:
            missing.setdefault(op.type, []).append(op.where)
    if missing:
        lines = [f"  {t} (x{len(w)}, first added at {w[0]})" for t, w in sorted(missing.items())]
        raise UnsupportedOpsError(f"{api}: {len(missing)} op type(s) of the program have no ONNX converter:\n"
                                  + "\n".join(lines))


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
    produced = set(feed_names)
    for name in sorted(values):
        if name in g.metas:
            g.const(values[name], name=name)
            produced.add(name)
    problems = []
    for op in block.ops:
        view = OpView(op, get_op(op.type))
        absent = [n for slot in op._inputs for n in view.inputs(slot) if n not in produced and n not in g.known]
        if absent:
            problems.append(f"  {op.type} (added at {op.where}): its input(s) {absent} are not computed by the "
                            "exported ops (an output their converter leaves out, or a variable without a value)")
            continue
        start = len(g.nodes)
        try:
            CONVERTERS[view.type](g, view)
        except Unsupported as e:
            problems.append(f"  {op.type} (added at {op.where}): {e}")
            continue
        produced.update(n for node in g.nodes[start:] for n in node.output)
    if problems:
        raise UnsupportedOpsError(f"{api}: {len(problems)} op(s) cannot be written as ONNX:\n" + "\n".join(problems))
    missing = [n for n in fetch_names if n not in produced and n not in g.known]
    if missing:
        raise UnsupportedOpsError(f"{api}: the outputs {missing} are not computed by the exported ops")
    read = {n for node in g.nodes for n in node.input} | set(fetch_names)
    initializers = [t for t in g.initializers if t.name in read]  # parameters a converter rewrote (rnn) go
    graph = helper.make_graph(g.nodes, "paddlelite", [_value_info(g, n) for n in feed_names],
                              [_value_info(g, n) for n in fetch_names], initializers)
    opsets = [helper.make_opsetid("", opset)]
    return helper.make_model(graph, opset_imports=opsets, producer_name="paddlelite",
                             ir_version=helper.find_min_ir_version_for(opsets))


def _value_info(g, name):
    shape, dtype = g.metas[name]
    return helper.make_tensor_value_info(name, onnx_dtype(dtype), [None if d == -1 else d for d in shape])

