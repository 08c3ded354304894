"""paddle.static.Print: the `print` op, which passes its input through and prints it when the executor runs
it, as Paddle's print op does (name, message, lod, place, shape, layout, dtype, the first `summarize`
values); its gradient is a `print` op too (is_forward=False) that prints the gradient it passes back.

The op is structural (a block runner, like control flow): printing needs the variable's name and a
per-op count for `first_n`, which only the executor's plan holds.
"""
import sys

import numpy as np

from ..ops.registry import register_op
from .framework import OP_ROLE_ATTR, OP_ROLE_BACKWARD, Operator, Variable, require_static

_PRINT_DTYPES = ("uint16", "float16", "float32", "float64", "int32", "int64", "bool", "float8_e4m3fn",
                 "float8_e5m2")
_PHASES = ("FORWARD", "BACKWARD", "BOTH")


def format_tensor(name, value, place, attrs):
    """The text Paddle's TensorFormatter writes for one tensor."""
    lines = []
    if attrs["print_tensor_name"]:
        lines.append(f"Variable: {name}")
    if attrs["message"]:
        lines.append(f"  - message: {attrs['message']}")
    if attrs["print_tensor_lod"]:
        lines.append("  - lod: {}")
    lines.append(f"  - place: {place}")
    if attrs["print_tensor_shape"]:
        lines.append(f"  - shape: [{', '.join(str(d) for d in value.shape)}]")
    if attrs["print_tensor_layout"]:
        lines.append("  - layout: NCHW")
    host = np.asarray(value if isinstance(value, np.ndarray) else value.get()).reshape(-1)
    if attrs["print_tensor_type"]:
        from ..framework.dtype import convert_dtype
        lines.append(f"  - dtype: {convert_dtype(host.dtype).name}")
    n = host.size if attrs["summarize"] == -1 else min(attrs["summarize"], host.size)
    lines.append(f"  - data: [{' '.join(f'{float(v):.6f}' for v in host[:n])}]")  # every dtype, as Paddle
    return "\n".join(lines) + "\n"


def Print(input, first_n=-1, message=None, summarize=20, print_tensor_name=True, print_tensor_type=True,
          print_tensor_shape=True, print_tensor_layout=True, print_tensor_lod=True, print_phase="both"):
    """Returns a copy of `input` whose op prints `input` each time the executor runs it (the first `first_n`
    times when first_n >= 0); print_phase 'forward', 'backward' or 'both' says whether the forward value,
    the gradient or both are printed."""
    require_static("paddle.static.Print")
    api = "paddle.static.Print"
    if not isinstance(input, Variable):
        raise TypeError(f"The type of 'input' in {api} must be (Variable, Value), but received {type(input)}. ")
    if input.dtype.name not in _PRINT_DTYPES:
        raise TypeError(f"The data type of 'input' in {api} must be {list(_PRINT_DTYPES)}, but received "
                        f"{input.dtype.name}. ")
    if not isinstance(print_phase, str) or print_phase.upper() not in _PHASES:
        raise ValueError(f"{api}: print_phase must be 'forward', 'backward' or 'both', received {print_phase!r}")
    from .framework import default_main_program
    program = default_main_program()
    block = program.current_block()
    out = block.create_var(program._name_generator(program._name_generator("print") + ".tmp"),
                           input._shape, input.dtype, stop_gradient=input.stop_gradient)
    attrs = {"first_n": int(first_n), "summarize": int(summarize), "message": message or "",
             "print_tensor_name": bool(print_tensor_name), "print_tensor_type": bool(print_tensor_type),
             "print_tensor_shape": bool(print_tensor_shape), "print_tensor_layout": bool(print_tensor_layout),
             "print_tensor_lod": bool(print_tensor_lod), "print_phase": print_phase.upper(), "is_forward": True,
             OP_ROLE_ATTR: program._op_role}
    block._append_operator(Operator(block, "print", {"In": [input.name]}, {"Out": [out.name]}, attrs))
    program._bump()
    return out


def _run_print(plan, op):
    name = op.input("In")[0]
    x_i, out_i = plan.slot(name), plan.slot(op.output("Out")[0])
    attrs = {k: op.attr(k) for k in PRINT.attrs}
    phase = "FORWARD" if attrs["is_forward"] else "BACKWARD"
    prints = attrs["print_phase"] in (phase, "BOTH")
    count = [0]

    def run(env):
        value = env[x_i]
        env[out_i] = value.copy()
        if prints and (attrs["first_n"] < 0 or count[0] < attrs["first_n"]):
            count[0] += 1
            sys.stdout.write(format_tensor(name, value, plan.place, attrs))
            sys.stdout.flush()
    return run


def _print_grad(bp, op):
    out, x = op.output("Out")[0], op.input("In")[0]
    if out not in bp.available or x in bp.no_grad:
        return [], []
    attrs = {k: op.attr(k) for k in PRINT.attrs}
    gop = Operator(bp.block, "print", {"In": [bp.grad_name_of(out)]}, {"Out": [bp.grad_var(x).name]},
                   {**attrs, "is_forward": False, OP_ROLE_ATTR: OP_ROLE_BACKWARD})
    return [gop], [x]


PRINT = register_op("print", inputs=["In"], outputs=["Out"],
                    attrs={"first_n": -1, "summarize": 20, "message": "", "print_tensor_name": True,
                           "print_tensor_type": True, "print_tensor_shape": True, "print_tensor_layout": True,
                           "print_tensor_lod": True, "print_phase": "BOTH", "is_forward": True},
                    block_runner=_run_print, block_grad=_print_grad,
                    host_sync="prints the values")
