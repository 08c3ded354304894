"""Converters of the tensor-manipulation ops: reshape / transpose / flatten / squeeze / unsqueeze, concat / split /
stack / unstack, slice / strided_slice / gather, expand / tile, padding, and the ops that make tensors (fill_constant,
fill_any_like, assign_value, range, one_hot, shape). Shapes and bounds Paddle takes as tensors stay tensors, so a
model with a dynamic batch size stays dynamic."""
import numpy as np
from onnx import numpy_helper

from ..framework.dtype import convert_dtype
from .graph import Unsupported, converter


# ---- shapes -------------------------------------------------------------------------------------------------------
@converter("reshape")
def _reshape(g, op):
    """Paddle's 0 (copy the input's dim) and -1 (infer) mean what they mean to ONNX's Reshape."""
    shape = g.int_arg(op, "Shape", "ShapeTensor", op.attrs["shape"])
    g.node("Reshape", [op.input("X"), g.ints_tensor(shape)], op.output("Out"))


@converter("transpose")
def _transpose(g, op):
    x = op.input("X")
    perm = [p % g.rank(x) for p in op.attrs["perm"]]
    g.node("Transpose", [x], op.output("Out"), perm=perm)


@converter("flatten")
def _flatten(g, op):
    x, out = op.input("X"), op.output("Out")
    rank = g.rank(x)
    if rank == 0:
        g.node("Reshape", [x, g.const([1], np.int64)], out)
        return
    start, stop = op.attrs["start_axis"] % rank, op.attrs["stop_axis"] % rank
    trailing = g.shape(x)[stop + 1:]
    if -1 not in trailing:
        shape = g.const([0] * start + [-1] + list(trailing), np.int64)  # Reshape's 0 copies a leading dim
    else:
        shape = g.node("Concat", [g.const([0] * start + [-1], np.int64),
                                  g.slice(g.node("Shape", [x]), [stop + 1], [rank], [0])], axis=0)
    g.node("Reshape", [x, shape], out)


@converter("squeeze")
def _squeeze(g, op):
    """Paddle squeezes only the listed dims (every dim when none) that are 1; the others stay."""
    x, out = op.input("X"), op.output("Out")
    shape, rank = g.shape(x), g.rank(x)
    listed = sorted({a % rank for a in op.attrs["axis"]}) if op.attrs["axis"] and rank else list(range(rank))
    if any(shape[a] == -1 for a in listed):
        raise Unsupported(f"squeezing dims {listed} of shape {list(shape)}: whether a dim known only when the model "
                          "runs is 1")
    axes = [a for a in listed if shape[a] == 1]
    if axes:
        g.squeeze(x, axes, out)
    else:
        g.identity(x, out)


@converter("unsqueeze")
def _unsqueeze(g, op):
    """Paddle inserts the axes one after another, each relative to the tensor so far; ONNX names output positions."""
    x = op.input("X")
    dims = list(range(g.rank(x)))
    for a in op.attrs["axis"]:
        dims.insert(a if a >= 0 else a + len(dims) + 1, None)
    g.unsqueeze(x, [i for i, d in enumerate(dims) if d is None], op.output("Out"))


# ---- joining and splitting ----------------------------------------------------------------------------------------
@converter("concat")
def _concat(g, op):
    xs = op.inputs("X")
    g.node("Concat", xs, op.output("Out"), axis=op.attrs["axis"] % max(g.rank(xs[0]), 1))


@converter("split")
def _split(g, op):
    x, outs, a = op.input("X"), op.outputs("Out"), op.attrs
    axis = a["axis"] % g.rank(x)
    sections = list(a["sections"])
    if not sections:
        g.split(x, axis, None, outs)
        return
    if -1 in sections:  # the one section Paddle infers
        size = g.shape(x)[axis]
        if size == -1:
            raise Unsupported(f"sections {sections} along a dim known only when the model runs")
        sections[sections.index(-1)] = size - sum(s for s in sections if s != -1)
    g.split(x, axis, sections, outs)


@converter("stack")
def _stack(g, op):
    xs = op.inputs("X")
    axis = op.attrs["axis"] % (g.rank(xs[0]) + 1)
    g.node("Concat", [g.unsqueeze(x, [axis]) for x in xs], op.output("Y"), axis=axis)


@converter("unstack", "unbind")
def _unstack(g, op):
    x = op.input("X")
    outs = op.outputs("Y" if op.type == "unstack" else "Out")
    axis = op.attrs["axis"] % g.rank(x)
    parts = [g.fresh("unstack") for _ in outs] if len(outs) > 1 else [x]
    if len(outs) > 1:
        g.split(x, axis, [1] * len(outs), parts)
    for part, out in zip(parts, outs):
        g.squeeze(part, [axis], out)


# ---- slicing and gathering ----------------------------------------------------------------------------------------
def _sliced(g, op, steps):
    """Slice / strided_slice: x[starts:ends:steps] along axes, then the decrease_axis dims dropped."""
    x, out, a = op.input("Input"), op.output("Out"), op.attrs
    axes = [ax % g.rank(x) for ax in a["axes"]]
    starts = g.int_arg(op, "StartsTensor", "StartsTensorList", a["starts"])
    ends = g.int_arg(op, "EndsTensor", "EndsTensorList", a["ends"])
    decrease = [d % g.rank(x) for d in a["decrease_axis"]]
    y = g.slice(x, starts, ends, axes, steps, None if decrease else out)
    if decrease:
        if len(decrease) == g.rank(x):  # every dim dropped: Paddle 3 gives a 0-D tensor
            g.node("Reshape", [y, g.const([], np.int64)], out)
        else:
            g.squeeze(y, decrease, out)


@converter("slice")
def _slice(g, op):
    _sliced(g, op, None)


@converter("strided_slice")
def _strided_slice(g, op):
    steps = g.int_arg(op, "StridesTensor", "StridesTensorList", op.attrs["strides"])
    _sliced(g, op, steps)


@converter("gather")
def _gather(g, op):
    x = op.input("X")
    g.node("Gather", [x, op.input("Index")], op.output("Out"), axis=op.attrs["axis"] % g.rank(x))


@converter("index_select")
def _index_select(g, op):
    x = op.input("X")
    g.node("Gather", [x, op.input("Index")], op.output("Out"), axis=op.attrs["dim"] % g.rank(x))


@converter("gather_nd")
def _gather_nd(g, op):
    g.require(11, "op gather_nd")
    g.node("GatherND", [op.input("X"), g.int64(op.input("Index"))], op.output("Out"))


@converter("flip")
def _flip(g, op):
    x = op.input("X")
    axes = [ax % g.rank(x) for ax in op.attrs["axis"]]
    g.slice(x, [-1] * len(axes), [-(2 ** 63)] * len(axes), axes, [-1] * len(axes), op.output("Out"))


@converter("roll")
def _roll(g, op):
    """Each axis's last `shift` elements moved to its front (over the flattened tensor when no axis is given)."""
    x, out, a = op.input("X"), op.output("Out"), op.attrs
    shape = g.shape(x)
    axes = [ax % g.rank(x) for ax in a["axis"]]
    if not axes:
        if -1 in shape:
            raise Unsupported(f"rolling the flattened tensor of shape {list(shape)} known only when the model runs")
        flat = g.node("Reshape", [x, g.const([-1], np.int64)])
        g.node("Reshape", [_rolled(g, flat, int(np.prod(shape)), a["shifts"][0], 0), g.const(shape, np.int64)], out)
        return
    for k, (shift, axis) in enumerate(zip(a["shifts"], axes)):
        if shape[axis] == -1:
            raise Unsupported(f"rolling dim {axis}, known only when the model runs")
        x = _rolled(g, x, shape[axis], shift, axis, out if k == len(axes) - 1 else None)


def _rolled(g, x, n, shift, axis, out=None):
    s = int(shift) % n if n else 0
    if s == 0:
        return g.identity(x, out)
    return g.node("Concat", [g.slice(x, [n - s], [n], [axis]), g.slice(x, [0], [n - s], [axis])], out, axis=axis)


# ---- broadcasting and repeating -----------------------------------------------------------------------------------
@converter("expand")
def _expand(g, op):
    """Paddle's -1 keeps the input's dim; ONNX's Expand broadcasts, so a 1 there does the same."""
    shape = g.int_arg(op, "Shape", "expand_shapes_tensor", op.attrs["shape"])
    if isinstance(shape, str):
        minus_one = g.node("Equal", [shape, g.const(-1, np.int64)])
        shape = g.node("Where", [minus_one, g.const(1, np.int64), shape])
    else:
        shape = g.const([1 if d == -1 else d for d in shape], np.int64)
    g.node("Expand", [op.input("X"), shape], op.output("Out"))


@converter("expand_as")
def _expand_as(g, op):
    g.node("Expand", [op.input("X"), g.shape_of(op.input("Target"))], op.output("Out"))


@converter("tile")
def _tile(g, op):
    x = op.input("X")
    repeats = g.int_arg(op, "RepeatTimes", "repeat_times_tensor", op.attrs["repeat_times"])
    if isinstance(repeats, str):
        raise Unsupported("repeat_times known only when the model runs (its length sets the output rank)")
    rank = g.rank(x)
    if len(repeats) > rank:  # Paddle adds leading dims
        x, rank = g.unsqueeze(x, list(range(len(repeats) - rank))), len(repeats)
    repeats = [1] * (rank - len(repeats)) + list(repeats)
    g.node("Tile", [x, g.const(repeats, np.int64)], op.output("Out"))


@converter("pad3d")
def _pad3d(g, op):
    """Paddle's paddings [left, right, top, bottom, front, back] (innermost spatial dim first) as ONNX's pads."""
    x, a = op.input("X"), op.attrs
    rank = g.rank(x)
    tensor = op.input("Paddings")
    if tensor is not None and tensor not in g.known:
        raise Unsupported("paddings known only when the model runs")
    p = [int(v) for v in (g.known[tensor].reshape(-1) if tensor is not None else a["paddings"])]
    nd = len(p) // 2
    begins, ends = [0] * rank, [0] * rank
    first = 1 if a["data_format"][1] != "C" else 2  # the first spatial dim
    for k in range(nd):  # k-th pair pads the (nd - 1 - k)-th spatial dim
        dim = first + nd - 1 - k
        begins[dim], ends[dim] = p[2 * k], p[2 * k + 1]
    mode = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}[a["mode"]]
    g.pad(x, begins + ends, mode, float(a["value"]), g.dtype(x), op.output("Out"))


@converter("pad")
def _pad(g, op):
    x, a = op.input("X"), op.attrs
    p = [int(v) for v in a["paddings"]]
    g.pad(x, p[0::2] + p[1::2], "constant", float(a["pad_value"]), g.dtype(x), op.output("Out"))


@converter("tril_triu")
def _tril_triu(g, op):
    g.require(14, "op tril_triu")
    g.node("Trilu", [op.input("X"), g.const(int(op.attrs["diagonal"]), np.int64)], op.output("Out"),
           upper=int(not op.attrs["lower"]))


# ---- tensors made by the program ----------------------------------------------------------------------------------
def _filled(g, shape, value, dtype, out):
    """A tensor of `shape` (ints or a 1-D int64 tensor's name) holding `value` of `dtype`."""
    if isinstance(shape, str):
        return g.node("ConstantOfShape", [shape], out, value=_tensor_attr(value, dtype))
    return g.node("Identity", [g.const(np.full(shape, value, dtype=convert_dtype(dtype).np))], out)


def _tensor_attr(value, dtype):
    return numpy_helper.from_array(np.array([value], dtype=convert_dtype(dtype).np))


@converter("fill_constant")
def _fill_constant(g, op):
    a, out = op.attrs, op.output("Out")
    shape = g.int_arg(op, "ShapeTensor", "ShapeTensorList", a["shape"])
    value = op.input("ValueTensor")
    if value is None:
        _filled(g, shape, a["value"], a["dtype"], out)
        return
    value = g.node("Reshape", [g.cast(value, a["dtype"]), g.const([], np.int64)])
    g.node("Expand", [value, g.ints_tensor(shape)], out)


@converter("fill_any_like")
def _fill_any_like(g, op):
    x, a = op.input("X"), op.attrs
    dtype = g.dtype(x) if a["dtype"] is None else a["dtype"]
    _filled(g, g.shape_of(x) if -1 in g.shape(x) else list(g.shape(x)), a["value"], dtype, op.output("Out"))


@converter("assign_value")
def _assign_value(g, op):
    a = op.attrs
    g.identity(g.const(np.asarray(a["values"], convert_dtype(a["dtype"]).np).reshape(a["shape"])), op.output("Out"))


@converter("shape")
def _shape(g, op):
    x, out = op.input("Input"), op.output("Out")
    if g.dtype(out) == np.int64:
        g.node("Shape", [x], out)
    else:
        g.cast(g.node("Shape", [x]), g.dtype(out), out)


@converter("range")
def _range(g, op):
    g.require(11, "op range")
    out = op.output("Out")
    dtype = g.dtype(out)
    bounds = []
    for slot in ("Start", "End", "Step"):
        name = op.input(slot)
        if name is None:
            bounds.append(g.scalar(op.attrs[slot.lower()], dtype))
        else:
            bounds.append(g.node("Reshape", [name if g.dtype(name) == dtype else g.cast(name, dtype),
                                             g.const([], np.int64)]))
    g.node("Range", bounds, out)


@converter("one_hot")
def _one_hot(g, op):
    x, out = op.input("X"), op.output("Out")
    dtype = g.dtype(out)
    values = g.const([0, 1], dtype)
    g.node("OneHot", [x, g.const([int(op.attrs["depth"])], np.int64), values], out, axis=-1)
