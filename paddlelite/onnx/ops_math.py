"""Converters of the math ops: elementwise arithmetic with Paddle's `axis` broadcasting, activations and unary
functions, comparisons and logic, reductions, matmul, cast, scale and clip."""
import math

import numpy as np

from ..ops.shape_rules import axis_padding, normalize_axes
from .graph import Unsupported, converter

# registry op -> (ONNX op of the same function, the opset that has it for the types Paddle's op takes)
_SAME = {"abs": ("Abs", 9), "acos": ("Acos", 9), "asin": ("Asin", 9), "atan": ("Atan", 9), "acosh": ("Acosh", 9),
         "asinh": ("Asinh", 9), "atanh": ("Atanh", 9), "ceil": ("Ceil", 9), "cos": ("Cos", 9), "cosh": ("Cosh", 9),
         "exp": ("Exp", 9), "floor": ("Floor", 9), "log": ("Log", 9), "reciprocal": ("Reciprocal", 9),
         "round": ("Round", 11), "sign": ("Sign", 9), "sin": ("Sin", 9), "sinh": ("Sinh", 9), "sqrt": ("Sqrt", 9),
         "tan": ("Tan", 9), "tanh": ("Tanh", 9), "erf": ("Erf", 9), "sigmoid": ("Sigmoid", 9), "relu": ("Relu", 9),
         "logical_not": ("Not", 9), "isnan": ("IsNaN", 9), "isinf": ("IsInf", 10), "assign": ("Identity", 9)}


@converter(*_SAME)
def _same(g, op):
    onnx_op, opset = _SAME[op.type]
    g.require(opset, f"op {op.type}")
    g.node(onnx_op, [op.input("X")], op.output("Out"))


def _const_like(g, x, value):
    return g.scalar(value, g.dtype(x))


# ---- unary functions ONNX spells as a few ops ---------------------------------------------------------------------
@converter("log2", "log10", "log1p", "rsqrt", "square", "expm1", "silu", "isfinite")
def _composed(g, op):
    x, out = op.input("X"), op.output("Out")
    if op.type in ("log2", "log10"):
        g.node("Div", [g.node("Log", [x]), _const_like(g, x, math.log(2.0 if op.type == "log2" else 10.0))], out)
    elif op.type == "log1p":
        g.node("Log", [g.node("Add", [x, _const_like(g, x, 1)])], out)
    elif op.type == "rsqrt":
        g.node("Reciprocal", [g.node("Sqrt", [x])], out)
    elif op.type == "square":
        g.node("Mul", [x, x], out)
    elif op.type == "expm1":
        g.node("Sub", [g.node("Exp", [x]), _const_like(g, x, 1)], out)
    elif op.type == "silu":
        g.node("Mul", [x, g.node("Sigmoid", [x])], out)
    else:  # isfinite
        g.require(10, "op isfinite")
        g.node("Not", [g.node("Or", [g.node("IsNaN", [x]), g.node("IsInf", [x])])], out)


@converter("relu6", "leaky_relu", "elu", "celu", "hardsigmoid", "hardswish", "gelu", "softplus", "mish")
def _activation(g, op):
    x, out, a = op.input("X"), op.output("Out"), op.attrs
    if op.type == "relu6":
        g.clip(x, 0.0, a["threshold"], g.dtype(x), out)
    elif op.type == "leaky_relu":
        g.node("LeakyRelu", [x], out, alpha=float(a["alpha"]))
    elif op.type == "elu":
        g.node("Elu", [x], out, alpha=float(a["alpha"]))
    elif op.type == "celu":  # alpha elu(x / alpha): ONNX's Celu is float32 only
        inner = g.node("Elu", [g.node("Mul", [x, _const_like(g, x, 1.0 / a["alpha"])])], alpha=1.0)
        g.node("Mul", [inner, _const_like(g, x, a["alpha"])], out)
    elif op.type == "hardsigmoid":
        g.node("HardSigmoid", [x], out, alpha=float(a["slope"]), beta=float(a["offset"]))
    elif op.type == "hardswish":  # x * relu6(x + 3) / 6
        if g.opset >= 14:
            g.node("HardSwish", [x], out)
        else:
            g.node("Mul", [x, g.node("HardSigmoid", [x], alpha=1.0 / 6.0, beta=0.5)], out)
    elif op.type == "gelu":
        _gelu(g, x, out, a["approximate"])
    elif op.type == "softplus":
        _softplus(g, x, out, a["beta"], a["threshold"])
    else:  # mish: x tanh(softplus(x)); past the threshold softplus(x) is x
        g.node("Mul", [x, g.node("Tanh", [_softplus(g, x, None, 1.0, a["threshold"])])], out)


def _gelu(g, x, out, approximate):
    if g.opset >= 20:
        return g.node("Gelu", [x], out, approximate="tanh" if approximate else "none")
    if approximate:  # 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
        cube = g.node("Mul", [g.node("Mul", [x, x]), x])
        inner = g.node("Mul", [g.node("Add", [x, g.node("Mul", [cube, _const_like(g, x, 0.044715)])]),
                               _const_like(g, x, math.sqrt(2.0 / math.pi))])
        core = g.node("Tanh", [inner])
    else:  # 0.5 x (1 + erf(x / sqrt(2)))
        core = g.node("Erf", [g.node("Mul", [x, _const_like(g, x, 1.0 / math.sqrt(2.0))])])
    half = g.node("Mul", [x, _const_like(g, x, 0.5)])
    return g.node("Mul", [half, g.node("Add", [core, _const_like(g, x, 1.0)])], out)


def _softplus(g, x, out, beta, threshold):
    """log(1 + exp(beta x)) / beta, and x where beta x > threshold (Paddle's softplus)."""
    bx = x if beta == 1.0 else g.node("Mul", [x, _const_like(g, x, beta)])
    soft = g.node("Softplus", [bx])
    if beta != 1.0:
        soft = g.node("Div", [soft, _const_like(g, x, beta)])
    return g.node("Where", [g.node("Greater", [bx, _const_like(g, x, threshold)]), x, soft], out)


@converter("prelu")
def _prelu(g, op):
    """x where x > 0, else slope * x: one slope ('all') or one per channel, shaped to broadcast against x."""
    x, alpha, rank = op.input("X"), op.input("Alpha"), g.rank(op.input("X"))
    channel = 1 if op.attrs["data_format"][1] == "C" else rank - 1
    shape = [] if op.attrs["mode"] == "all" else [-1 if i == channel else 1 for i in range(rank)]
    g.node("PRelu", [x, g.node("Reshape", [alpha, g.const(shape, np.int64)])], op.output("Out"))


# ---- binary elementwise ops ---------------------------------------------------------------------------------------
def _aligned(g, op):
    """X and Y with the lower-rank operand given the trailing 1-dims Paddle's `axis` attribute asks for."""
    x, y = op.input("X"), op.input("Y")
    tx, ty = axis_padding(op.type, g.shape(x), g.shape(y), op.attrs.get("axis", -1))
    if tx:
        x = g.unsqueeze(x, list(range(g.rank(x), g.rank(x) + tx)))
    if ty:
        y = g.unsqueeze(y, list(range(g.rank(y), g.rank(y) + ty)))
    return x, y


_ARITHMETIC = {"add": "Add", "subtract": "Sub", "multiply": "Mul", "divide": "Div", "maximum": "Max",
               "minimum": "Min", "elementwise_pow": "Pow"}


@converter(*_ARITHMETIC)
def _arithmetic(g, op):
    x, y = _aligned(g, op)
    out = op.output("Out")
    dtype = g.dtype(out)
    if not g.is_float(out) and op.type in ("maximum", "minimum", "elementwise_pow"):
        g.require(12, f"op {op.type} on integers")
    if g.dtype(op.input("X")) != dtype:  # divide of integers gives floats
        x, y = g.cast(x, dtype), g.cast(y, dtype)
    g.node(_ARITHMETIC[op.type], [x, y], out)


@converter("floor_divide", "remainder")
def _floor_ops(g, op):
    g.require(10, f"op {op.type}")
    x, y = _aligned(g, op)
    out = op.output("Out")
    if g.is_float(out):  # x // y = floor(x / y); x % y = x - floor(x / y) y (the sign of y, as Python's)
        q = g.node("Floor", [g.node("Div", [x, y])], out if op.type == "floor_divide" else None)
        if op.type == "remainder":
            g.node("Sub", [x, g.node("Mul", [q, y])], out)
    elif op.type == "remainder":
        g.node("Mod", [x, y], out, fmod=0)
    else:  # integers: (x - x mod y) / y is exact, and floors as Python does
        g.node("Div", [g.node("Sub", [x, g.node("Mod", [x, y], fmod=0)]), y], out)


@converter("pow")
def _pow(g, op):
    x = op.input("X")
    if not g.is_float(x):
        g.require(12, "op pow on integers")
    g.node("Pow", [x, _const_like(g, x, op.attrs["factor"])], op.output("Out"))


@converter("sum")
def _sum(g, op):
    xs = op.inputs("X")
    if len(xs) > 1:
        g.node("Sum", xs, op.output("Out"))
    else:
        g.identity(xs[0], op.output("Out"))


# ---- comparisons and logic ----------------------------------------------------------------------------------------
@converter("equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal")
def _compare(g, op):
    x, y, out = op.input("X"), op.input("Y"), op.output("Out")
    if op.type in ("equal", "not_equal", "less_equal", "greater_equal") and g.is_float(x):
        g.require(11, f"op {op.type} on floating point numbers")
    if op.type == "equal":
        g.node("Equal", [x, y], out)
    elif op.type == "not_equal":
        g.node("Not", [g.node("Equal", [x, y])], out)
    elif op.type in ("less_than", "greater_than"):
        g.node("Less" if op.type == "less_than" else "Greater", [x, y], out)
    elif g.opset >= 12:
        g.node("LessOrEqual" if op.type == "less_equal" else "GreaterOrEqual", [x, y], out)
    else:
        strict = g.node("Less" if op.type == "less_equal" else "Greater", [x, y])
        g.node("Or", [strict, g.node("Equal", [x, y])], out)


@converter("logical_and", "logical_or", "logical_xor")
def _logical(g, op):
    x, y = (v if g.dtype(v) == np.bool_ else g.cast(v, np.bool_) for v in (op.input("X"), op.input("Y")))
    g.node({"logical_and": "And", "logical_or": "Or", "logical_xor": "Xor"}[op.type], [x, y], op.output("Out"))


@converter("where")
def _where(g, op):
    g.node("Where", [op.input("Condition"), op.input("X"), op.input("Y")], op.output("Out"))


# ---- reductions ---------------------------------------------------------------------------------------------------
_REDUCE = {"reduce_sum": "ReduceSum", "mean": "ReduceMean", "max": "ReduceMax", "min": "ReduceMin", "amax": "ReduceMax",
           "amin": "ReduceMin", "prod": "ReduceProd", "logsumexp": "ReduceLogSumExp", "all": "ReduceMin",
           "any": "ReduceMax"}


def _axes(g, x, axis):
    """Paddle's axis attribute of a reduction as the ONNX axes (None: every dim)."""
    rank = g.rank(x)
    if axis is None or axis == [] or rank == 0:
        return None
    return list(normalize_axes("reduce", axis, rank))


@converter(*_REDUCE)
def _reduce(g, op):
    x, out = op.input("X"), op.output("Out")
    axes, keep = _axes(g, x, op.attrs["axis"]), op.attrs["keepdim"]
    if op.type in ("all", "any"):  # ONNX reduces booleans from opset 20 only: as int32 ones and zeros
        r = g.reduce(_REDUCE[op.type], g.cast(x, np.int32), axes, keep)
        g.cast(r, np.bool_, out)
        return
    if g.dtype(x) != g.dtype(out):  # a sum in another dtype (reduce_sum's dtype; integers summed as int64)
        x = g.cast(x, g.dtype(out))
    if g.rank(x) == 0:
        g.identity(x, out)
        return
    g.reduce(_REDUCE[op.type], x, axes, keep, out)


@converter("var")
def _var(g, op):
    """The mean square deviation over the reduced elements, divided by their count less one when unbiased."""
    x, out, a = op.input("X"), op.output("Out"), op.attrs
    axes = _axes(g, x, a["axis"])
    reduced = [g.shape(x)[d] for d in (range(g.rank(x)) if axes is None else axes)]
    if -1 in reduced:
        raise Unsupported(f"a variance over dims {reduced} known only when the model runs")
    deviation = g.node("Sub", [x, g.reduce("ReduceMean", x, axes, True)])
    total = g.reduce("ReduceSum", g.node("Mul", [deviation, deviation]), axes, a["keepdim"])
    count = int(np.prod(reduced)) - int(bool(a["unbiased"]))
    g.node("Div", [total, _const_like(g, x, max(count, 0))], out)


@converter("argmax", "argmin")
def _arg(g, op):
    x, out, a = op.input("X"), op.output("Out"), op.attrs
    onnx_op = "ArgMax" if op.type == "argmax" else "ArgMin"
    if a["axis"] is None:  # over the flattened input
        flat = g.node("Reshape", [x, g.const([-1], np.int64)])
        index = g.node(onnx_op, [flat], axis=0, keepdims=0)
        if g.rank(out):  # keepdim: every dim 1
            index = g.node("Reshape", [index, g.const([1] * g.rank(out), np.int64)])
    else:
        index = g.node(onnx_op, [x], axis=a["axis"] % max(g.rank(x), 1), keepdims=int(a["keepdim"]))
    if g.dtype(out) != np.int64:
        g.cast(index, g.dtype(out), out)
    else:
        g.identity(index, out)


@converter("cumsum")
def _cumsum(g, op):
    g.require(11, "op cumsum")
    x, out, a = op.input("X"), op.output("Out"), op.attrs
    axis = a["axis"]
    if axis is None:
        x, axis = g.node("Reshape", [x, g.const([-1], np.int64)]), 0
    g.node("CumSum", [x, g.const(axis, np.int64)], out, reverse=int(a["reverse"]))


# ---- products -----------------------------------------------------------------------------------------------------
@converter("matmul")
def _matmul(g, op):
    x, y = op.input("X"), op.input("Y")
    if op.attrs["transpose_x"] and g.rank(x) >= 2:
        x = g.transpose_last2(x, g.rank(x))
    if op.attrs["transpose_y"] and g.rank(y) >= 2:
        y = g.transpose_last2(y, g.rank(y))
    g.node("MatMul", [x, y], op.output("Out"))


@converter("linear")
def _linear(g, op):
    bias = op.input("Bias")
    product = g.node("MatMul", [op.input("X"), op.input("W")], None if bias else op.output("Out"))
    if bias:
        g.node("Add", [product, bias], op.output("Out"))


@converter("mul")
def _mul(g, op):
    """Paddle's legacy `mul`: X flattened to 2-D at x_num_col_dims, Y at y_num_col_dims, the product shaped back
    to X's leading dims and Y's trailing ones."""
    x, y, out, a = op.input("X"), op.input("Y"), op.output("Out"), op.attrs
    xn, yn = a["x_num_col_dims"], a["y_num_col_dims"]
    x2 = g.node("Reshape", [x, _flat2(g, x, xn)]) if g.rank(x) != 2 or xn != 1 else x
    y2 = g.node("Reshape", [y, _flat2(g, y, yn)]) if g.rank(y) != 2 or yn != 1 else y
    shape = g.node("Concat", [g.slice(g.shape_of(x), [0], [xn], [0]), g.slice(g.shape_of(y), [yn], [g.rank(y)], [0])],
                   axis=0)
    g.node("Reshape", [g.node("MatMul", [x2, y2]), shape], out)


def _flat2(g, x, n):
    """The 2-D shape [prod(dims[:n]), prod(dims[n:])] of x, as an int64 tensor."""
    shape = g.shape_of(x)
    parts = [g.reduce("ReduceProd", g.slice(shape, [a], [b], [0]), [0], True) for a, b in ((0, n), (n, g.rank(x)))]
    return g.node("Concat", parts, axis=0)


# ---- cast, scale, clip --------------------------------------------------------------------------------------------
@converter("cast")
def _cast(g, op):
    g.cast(op.input("X"), op.attrs["dtype"], op.output("Out"))


@converter("scale")
def _scale(g, op):
    x, out, a = op.input("X"), op.output("Out"), op.attrs
    if not g.is_float(x) and not (float(a["scale"]).is_integer() and float(a["bias"]).is_integer()):
        raise Unsupported(f"scale={a['scale']}, bias={a['bias']} of an integer tensor (the ONNX ops would round)")
    scale = op.input("ScaleTensor")
    if scale is not None:
        scale = g.node("Reshape", [scale if g.dtype(scale) == g.dtype(x) else g.cast(scale, g.dtype(x)),
                                   g.const([], np.int64)])
    elif a["scale"] == 1.0:
        scale = None
    else:
        scale = _const_like(g, x, a["scale"])
    bias = _const_like(g, x, a["bias"]) if a["bias"] else None
    if bias is not None and not a["bias_after_scale"]:
        x = g.node("Add", [x, bias], None if scale else out)
        bias = None
    if scale is not None:
        x = g.node("Mul", [x, scale], None if bias else out)
    if bias is not None:
        x = g.node("Add", [x, bias], out)
    if x != out:
        g.identity(x, out)


@converter("clip")
def _clip(g, op):
    x, a = op.input("X"), op.attrs
    dtype = g.dtype(x)
    bounds = []
    for slot, value in (("Min", a["min"]), ("Max", a["max"])):
        t = op.input(slot)
        if t is not None:
            t = g.node("Reshape", [t if g.dtype(t) == dtype else g.cast(t, dtype), g.const([], np.int64)])
        bounds.append(t if t is not None else None if math.isinf(value) else value)
    g.clip(x, bounds[0], bounds[1], dtype, op.output("Out"))


# ---- sorting ------------------------------------------------------------------------------------------------------
def _top_k(g, x, k, axis, largest, sorted_, outs):
    """ONNX TopK (k a 1-element int64 tensor); the smallest / unsorted forms need opset 11."""
    g.require(10, "op top_k")
    if not largest or not sorted_:
        g.require(11, "the smallest or unsorted top_k")
    extra = {"largest": int(largest), "sorted": int(sorted_)} if g.opset >= 11 else {}
    return g.node("TopK", [x, k], outs, axis=axis % g.rank(x), **extra)


@converter("top_k_v2")
def _top_k_v2(g, op):
    x, a = op.input("X"), op.attrs
    k = op.input("K")
    k = g.const([int(a["k"])], np.int64) if k is None else g.node("Reshape", [g.int64(k), g.const([1], np.int64)])
    _top_k(g, x, k, a["axis"], a["largest"], a["sorted"], [op.output("Out"), op.output("Indices")])


@converter("argsort")
def _argsort(g, op):
    """A full TopK along the axis (ties keep their order, as Paddle's stable sort)."""
    x, a = op.input("X"), op.attrs
    axis = a["axis"] % g.rank(x)
    k = g.slice(g.shape_of(x), [axis], [axis + 1], [0])
    _top_k(g, x, k, axis, a["descending"], True, [op.output("Out"), op.output("Indices")])
