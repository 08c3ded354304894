"""run_program: a traced static program run as one op -- `paddle.jit.to_static`'s face in eager mode.

As Paddle's `run_program` op, it carries the program in an attr: `program` is an object with
`run_forward(xp, xs, params) -> (outs, saved)`, `run_backward(xp, xs, params, saved, out_grads) ->
(x_grads, param_grads)` and `out_metas()` (paddlelite.jit.program.PartialProgram builds it). The
forward also returns the intermediates the backward program reads (`Intermediates`), so the grad op is
a pure function of its inputs like every grad op, and the whole traced forward is one grad node. The
grad op reads X and Params for their shapes only: every value the backward program reads comes through
Intermediates (the forward's own arrays, not copies), so a buffer the program updates in place (BatchNorm's
running statistics) does not invalidate the backward.
"""
from .registry import register_op


def _forward(xp, xs, params, program):
    return program.run_forward(xp, xs, params)


def _infer(xs, params, program):
    return program.out_metas()


def _grad_forward(xp, xs, params, saved, out_grads, program):
    return program.run_backward(xp, xs, params, saved, out_grads)


def _grad_infer(xs, params, saved, out_grads, program):
    return list(xs), list(params)


def _run_program_grad(g):
    x_grads, param_grads = g.op("run_program_grad", g.input("X"), g.input("Params"), g.output("Intermediates"),
                                g.output_grad_or_zeros("Out"), program=g.attrs["program"])
    g.set_input_grads(("X", "Params"), (x_grads, param_grads))


RUN_PROGRAM = register_op(
    "run_program", inputs=("X", "Params"), outputs=("Out", "Intermediates"), variadic_inputs=("X", "Params"),
    variadic_outputs=("Out", "Intermediates"), intermediate_outputs=("Intermediates",), attrs={"program": None},
    forward=_forward, infer=_infer, grad=_run_program_grad)
RUN_PROGRAM_GRAD = register_op(
    "run_program_grad", inputs=("X", "Params", "Intermediates", "Out@GRAD"), outputs=("X@GRAD", "Params@GRAD"),
    variadic_inputs=("X", "Params", "Intermediates", "Out@GRAD"), variadic_outputs=("X@GRAD", "Params@GRAD"),
    meta_inputs=("X", "Params"), attrs={"program": None}, forward=_grad_forward, infer=_grad_infer)
