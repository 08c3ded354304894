"""run_program: a traced static program run as one op -- `paddle.jit.to_static`'s face in eager mode.

As Paddle's `run_program` op, it carries the program in an attr: `program` is an object (paddlelite.jit's
PartialProgram) with `run_forward(xp, xs, params) -> (outs, intermediates)`, `run_backward(xp, xs, params,
intermediates, out_grads) -> (x_grads, param_grads)`, `out_metas()`, and the positions the backward
needs: `saved_x`/`saved_params` (inputs whose values it reads) and `grad_x`/`grad_params` (inputs it
differentiates). The forward also returns the intermediate values the backward program reads, so the grad
op is a pure function of its inputs like every grad op, and the whole traced forward is one grad node.
The grad op receives only the inputs the backward reads: a buffer the program updates in place
(BatchNorm's running statistics) is not one of them, so updating it does not invalidate the backward.
"""
from .registry import register_op


def _forward(xp, xs, params, program):
    return program.run_forward(xp, xs, params)


def _infer(xs, params, program):
    return program.out_metas()


def _grad_forward(xp, xs, params, saved, out_grads, program):
    return program.run_backward(xp, xs, params, saved, out_grads)


def _grad_infer(xs, params, saved, out_grads, program):
    return program.grad_metas()


def _spread(grads, positions, n):
    """Gradients of the differentiated inputs placed at their positions among all n inputs (None elsewhere)."""
    full = [None] * n
    for k, g in zip(positions, grads):
        full[k] = g
    return full


def _run_program_grad(g):
    program = g.attrs["program"]
    xs, params = g.input("X"), g.input("Params")
    x_grads, param_grads = g.op("run_program_grad", [xs[k] for k in program.saved_x],
                                [params[k] for k in program.saved_params], g.output("Intermediates"),
                                g.output_grad_or_zeros("Out"), program=program)
    if g.needs("X"):
        g.set_input_grad("X", _spread(x_grads, program.grad_x, len(xs)))
    if g.needs("Params"):
        g.set_input_grad("Params", _spread(param_grads, program.grad_params, len(params)))


RUN_PROGRAM = register_op(
    "run_program", inputs=("X", "Params"), outputs=("Out", "Intermediates"), variadic_inputs=("X", "Params"),
    variadic_outputs=("Out", "Intermediates"), intermediate_outputs=("Intermediates",), attrs={"program": None},
    forward=_forward, infer=_infer, grad=_run_program_grad)
RUN_PROGRAM_GRAD = register_op(
    "run_program_grad", inputs=("X", "Params", "Intermediates", "Out@GRAD"), outputs=("X@GRAD", "Params@GRAD"),
    variadic_inputs=("X", "Params", "Intermediates", "Out@GRAD"), variadic_outputs=("X@GRAD", "Params@GRAD"),
    attrs={"program": None}, forward=_grad_forward, infer=_grad_infer)
