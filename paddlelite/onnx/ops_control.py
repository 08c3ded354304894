"""Converters of the control-flow ops (static/control_flow.py): a conditional_block as ONNX's If, a while as Loop.

Their sub-blocks become sub-graphs, converted op by op as the main graph is (Graph.subgraph, Graph.convert_ops);
they read the outer values by name. static.nn.cond builds one conditional_block per branch, the second on the
negated predicate, both writing the cond's outputs: each becomes an If whose other branch passes on the value the
output held before (or, where it held none yet, an empty tensor that the other branch's If replaces: branches of
unlike shapes, so opset 11).
"""
import numpy as np
from onnx import TensorProto, helper

from .graph import Unsupported, converter


def _scalar_bool(g, name):
    """Paddle's [1]-shaped condition as the 0-D bool ONNX's If and Loop take."""
    return g.node("Reshape", [name, g.const(np.zeros(0, np.int64))])


def _converted(sub, block, what):
    problems = sub.convert_ops(block.ops)
    if problems:
        raise Unsupported(f"its {what} holds ops that cannot be written as ONNX:\n" + "\n".join(problems))


def _results(sub, values):
    """Sub-graph outputs: a fresh copy of each of `values` (a sub-graph's outputs are its own values)."""
    outs = [sub.identity(v, sub.fresh(v)) for v in values]
    for out, v in zip(outs, values):
        sub.metas[out] = sub.metas[v]
    return [sub.value_info(o, shape=False) for o in outs]


@converter("conditional_block")
def conditional_block(g, op):
    block = op.attrs["sub_block"]
    written = op.program_outputs.get("Out", [])
    taken = g.subgraph(block)
    _converted(taken, block, "branch")
    then_branch = taken.graph("then", [], _results(taken, [taken.current.get(n, n) for n in written]))
    kept = g.subgraph(block)
    before = []
    for n in written:
        if g.current.get(n, n) in g.visible:
            before.append(g.current.get(n, n))
        else:  # no value yet: the other branch's If writes it
            g.require(11, "a cond output written by one branch at a time (If with branches of unlike shapes)")
            shape, dtype = g.metas[n]
            before.append(kept.const(np.zeros([0] * len(shape), dtype)))
            kept.metas[before[-1]] = g.metas[n]
    else_branch = kept.graph("else", [], _results(kept, before))
    g.node("If", [_scalar_bool(g, op.input("Cond"))], [op.written(g, n) for n in written],
           then_branch=then_branch, else_branch=else_branch)


@converter("while")
def while_(g, op):
    block = op.attrs["sub_block"]
    cond_name = op.program_inputs["Condition"][0]
    carried = [n for n in op.program_outputs.get("Out", []) if n != cond_name]
    unset = [n for n in carried if g.current.get(n, n) not in g.visible]
    if unset:
        raise Unsupported(f"the loop carries {unset}, which hold no value before the loop")
    body = g.subgraph(block)
    step, cond_in = body.fresh("iteration"), body.fresh(cond_name)
    inputs = [body.fresh(n) for n in carried]
    for name, n in zip(inputs, carried):
        body.metas[name] = g.metas[n]
    body._define([step, cond_in, *inputs])
    body.current.update(zip(carried, inputs))
    body.current[cond_name] = cond_in
    _converted(body, block, "loop body")
    cond_out = _scalar_bool(body, body.current[cond_name])
    results = [helper.make_tensor_value_info(cond_out, TensorProto.BOOL, [])]
    results += _results(body, [body.current[n] for n in carried])
    signature = [helper.make_tensor_value_info(step, TensorProto.INT64, []),
                 helper.make_tensor_value_info(cond_in, TensorProto.BOOL, []),
                 *(body.value_info(name, shape=False) for name in inputs)]
    g.node("Loop", [None, _scalar_bool(g, op.input("Condition")), *(g.current.get(n, n) for n in carried)],
           [op.written(g, n) for n in carried], body=body.graph("loop_body", signature, results))
