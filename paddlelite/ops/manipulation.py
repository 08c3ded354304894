"""Shape and layout ops: cast, reshape, transpose, (un)squeeze, ..."""
import numpy as np

from ..framework.dtype import FLOAT8_E4M3FN, FLOAT8_MAX, convert_dtype
from ..framework.tensor import storage_of
from . import grad_support as _grad_support
from .formula import cast, concat, flip, reshape_as, roll, stack, transpose, unstack
from .registry import Meta, VALUE_CHECK, register_op
from .shape_rules import broadcast_shapes, normalize_axis
from .tensor_args import int_values, known_ints


# ---- cast -----------------------------------------------------------------------------------------
def _cast_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", cast(g.output_grad("Out"), dtype=g.input("X").dtype.name))


def _cast_forward(xp, x, dtype):
    to = convert_dtype(dtype).np
    if to in FLOAT8_MAX and x.dtype.kind != "b":
        # Paddle's float8 casts saturate: out-of-range and infinite values become the largest finite
        # value (e4m3fn, which has no infinity, maps NaN there too); ml_dtypes would give NaN/inf
        top = FLOAT8_MAX[to]
        wide = x.astype(np.float32) if x.dtype.kind != "c" else x.real.astype(np.float32)
        if to == FLOAT8_E4M3FN:
            wide = xp.where(xp.isnan(wide), np.float32(top), wide)
        return xp.clip(wide, -top, top).astype(to)
    if x.dtype.kind == "c" and to.kind != "c":
        x = x.real  # complex to real keeps the real part, as Paddle (NumPy would warn)
    return x.astype(to)


CAST = register_op("cast", inputs=("X",), outputs=("Out",), forward=_cast_forward,
                   infer=lambda x, dtype: Meta(x.shape, convert_dtype(dtype).np), grad=_cast_grad,
                   attrs={"dtype": "float32"}, double_grad=True)


# ---- reshape --------------------------------------------------------------------------------------
def resolve_shape(op, in_shape, shape):
    """Paddle's reshape rule: 0 copies the input dim at its index (a zero-size input keeps a literal 0), one -1
    is inferred."""
    zero_size = 0 in in_shape
    out = []
    for i, d in enumerate(shape):
        if d < -1:
            raise ValueError(f"op '{op}': shape {list(shape)} has {d}; dims must be >= 0, or -1 (once) to infer one")
        if d == 0 and not zero_size:
            if i >= len(in_shape):
                raise ValueError(f"op '{op}': shape {list(shape)} has 0 at index {i}, which copies the input's dim "
                                 f"{i}, but the input of shape {list(in_shape)} has {len(in_shape)} dims")
            d = in_shape[i]
        out.append(d)
    if out.count(-1) > 1:
        raise ValueError(f"op '{op}': shape {list(shape)} has more than one -1")
    known = int(np.prod([d for d in out if d != -1])) if out else 1
    total = int(np.prod(in_shape)) if -1 not in in_shape else -1
    if -1 in out:
        if total != -1:
            if known == 0 or total % known:
                raise ValueError(f"op '{op}': cannot reshape an input of shape {list(in_shape)} "
                                 f"({total} elements) to {list(shape)}")
            out[out.index(-1)] = total // known
    elif total != -1 and known != total:
        raise ValueError(f"op '{op}': cannot reshape an input of shape {list(in_shape)} ({total} elements) "
                         f"to {list(shape)} ({known} elements)")
    return tuple(out)


def _reshape_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", reshape_as(g.output_grad("Out"), g.input("X")))


def _reshape_infer(x, shape_t, shape_list, shape):
    if shape_t is None and not shape_list:
        return Meta(resolve_shape("reshape", x.shape, shape), x.dtype)
    known = known_ints(shape_t, [-1] * len(shape_list or ()))
    if known is None:
        raise ValueError("op 'reshape': the length of the Shape tensor must be known when the program is built, "
                         f"received a tensor of shape {list(shape_t.shape)}")
    return Meta(tuple(known), x.dtype)


# the target shape: the attr, or a 1-D int tensor (Shape), or one 1-element tensor per dim (ShapeTensor)
RESHAPE = register_op("reshape", inputs=("X", "Shape", "ShapeTensor"), outputs=("Out",),
                      variadic_inputs=("ShapeTensor",), host_inputs=("Shape", "ShapeTensor"),
                      forward=lambda xp, x, shape_t, shape_list, shape: x.reshape(
                          resolve_shape("reshape", x.shape, int_values(shape_t, shape_list, shape))),
                      infer=_reshape_infer, grad=_reshape_grad, attrs={"shape": []}, double_grad=True, view=True)


def _reshape_as_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", reshape_as(g.output_grad("Out"), g.input("X")))


RESHAPE_AS = register_op("reshape_as", inputs=("X", "Target"), meta_inputs=("Target",), outputs=("Out",),
                         forward=lambda xp, x, t: x.reshape(t.shape),
                         infer=lambda x, t: Meta(t.shape, x.dtype), grad=_reshape_as_grad,
                         nondiff_inputs=("Target",), double_grad=True, view=True)


# ---- transpose ------------------------------------------------------------------------------------
def _check_perm(x, perm):
    if sorted(p % max(len(x.shape), 1) for p in perm) != list(range(len(x.shape))):
        raise ValueError(f"op 'transpose': perm {list(perm)} is not a permutation of the {len(x.shape)} "
                         f"dims of an input of shape {list(x.shape)}")
    return [p % len(x.shape) for p in perm]


def _transpose_grad(g):
    if g.needs("X"):
        perm = g.attrs["perm"]
        inverse = list(np.argsort([p % len(perm) for p in perm]))
        g.set_input_grad("X", transpose(g.output_grad("Out"), perm=[int(i) for i in inverse]))


TRANSPOSE = register_op("transpose", inputs=("X",), outputs=("Out",),
                        forward=lambda xp, x, perm: xp.transpose(x, perm),
                        infer=lambda x, perm: Meta(tuple(x.shape[p] for p in _check_perm(x, perm)), x.dtype),
                        grad=_transpose_grad, attrs={"perm": []}, double_grad=True, view=True)


# ---- unsqueeze / squeeze --------------------------------------------------------------------------
def unsqueeze_shape(shape, axes):
    """Paddle's rule: the axes are inserted one after another, each in [-(r + 1), r] for the rank r so far."""
    out = list(shape)
    for a in axes:
        rank = len(out)
        if not -rank - 1 <= a <= rank:
            raise ValueError(f"op 'unsqueeze': axis {a} of axis={list(axes)} is out of range: with {rank} dims so "
                             f"far it must lie in [{-rank - 1}, {rank}] (input shape {list(shape)})")
        out.insert(a if a >= 0 else a + rank + 1, 1)
    return tuple(out)


UNSQUEEZE = register_op("unsqueeze", inputs=("X",), outputs=("Out",),
                        forward=lambda xp, x, axis: x.reshape(unsqueeze_shape(x.shape, axis)),
                        infer=lambda x, axis: Meta(unsqueeze_shape(x.shape, axis), x.dtype),
                        grad=_reshape_grad, attrs={"axis": []}, double_grad=True, view=True)


# ---- helpers for shape rules (-1 = unknown, compatible with anything) ------------------------------
def _dims_match(a, b):
    return a == b or a == -1 or b == -1


def _axis_list(op, axis, ndim, name="axis"):
    """A list of axes (ints, may be negative) -> sorted non-negative axes; repeats are an error."""
    out = [normalize_axis(op, a, ndim, name) for a in axis]
    if len(set(out)) != len(out):
        raise ValueError(f"op '{op}': {name}={list(axis)} repeats an axis")
    return sorted(out)


def _slice_len(d, start, stop, step):
    if d == -1:
        return -1
    return len(range(*slice(start, stop, step).indices(d)))


def _grad_like_input(g):
    """d(reshape-like op)/dX: the output grad reshaped back to X's shape."""
    if g.needs("X"):
        g.set_input_grad("X", reshape_as(g.output_grad("Out"), g.input("X")))


# ---- squeeze / flatten ----------------------------------------------------------------------------
def squeeze_shape(shape, axis):
    """Paddle's rule: without axes drop every size-1 dim; with axes drop those that are 1 (others stay)."""
    nd = len(shape)
    if not axis:
        return tuple(d for d in shape if d != 1)
    axes = {normalize_axis("squeeze", a, nd) for a in axis}
    return tuple(d for i, d in enumerate(shape) if not (i in axes and d == 1))


def _squeeze_infer(x, axis):  # a named axis of unknown size is taken to be 1, as Paddle's shape rule does
    nd = len(x.shape)
    named = {normalize_axis("squeeze", a, nd) for a in axis}
    return Meta(squeeze_shape(tuple(1 if i in named and d == -1 else d for i, d in enumerate(x.shape)), axis),
                x.dtype)


SQUEEZE = register_op("squeeze", inputs=("X",), outputs=("Out",),
                      forward=lambda xp, x, axis: x.reshape(squeeze_shape(x.shape, axis)), infer=_squeeze_infer,
                      grad=_grad_like_input, attrs={"axis": []}, double_grad=True, view=True)


def flatten_shape(shape, start_axis, stop_axis):
    nd = len(shape)
    s = normalize_axis("flatten", start_axis, nd, "start_axis")
    e = normalize_axis("flatten", stop_axis, nd, "stop_axis")
    if nd == 0:  # a 0-D input (axes 0 or -1) becomes [1]
        return (1,)
    if s > e:
        raise ValueError(f"op 'flatten': start_axis ({start_axis}) must not be after stop_axis ({stop_axis}) "
                         f"for a {nd}-D input")
    middle = shape[s:e + 1]
    n = -1 if -1 in middle else int(np.prod(middle))
    return tuple(shape[:s]) + (n,) + tuple(shape[e + 1:])


FLATTEN = register_op("flatten", inputs=("X",), outputs=("Out",),
                      forward=lambda xp, x, start_axis, stop_axis: x.reshape(
                          flatten_shape(x.shape, start_axis, stop_axis)),
                      infer=lambda x, start_axis, stop_axis: Meta(flatten_shape(x.shape, start_axis, stop_axis),
                                                                  x.dtype),
                      grad=_grad_like_input, attrs={"start_axis": 0, "stop_axis": -1}, double_grad=True, view=True)


# ---- concat / split -------------------------------------------------------------------------------
def _concat_infer(xs, axis):
    if not xs:
        raise ValueError("op 'concat': X must hold at least one tensor, received an empty list")
    first = xs[0]
    nd = len(first.shape)
    if nd == 0:
        raise ValueError("op 'concat': inputs must be at least 1-D, X[0] is 0-D")
    ax = normalize_axis("concat", axis, nd)
    total = 0
    for k, m in enumerate(xs):
        if m.dtype != first.dtype:
            raise ValueError(f"op 'concat': X[{k}] has dtype {m.dtype} but X[0] has {first.dtype}; "
                             "cast explicitly")
        if len(m.shape) != nd or not all(_dims_match(a, b) for i, (a, b) in enumerate(zip(m.shape, first.shape))
                                         if i != ax):
            raise ValueError(f"op 'concat': X[{k}] has shape {list(m.shape)} but X[0] has {list(first.shape)}; "
                             f"all dims except axis {axis} must match")
        total = -1 if total == -1 or m.shape[ax] == -1 else total + m.shape[ax]
    out = list(first.shape)
    out[ax] = total
    for i in range(nd):
        if i != ax and out[i] == -1:
            out[i] = max(m.shape[i] for m in xs)
    return Meta(tuple(out), first.dtype)


def _concat_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("concat_grad", g.output_grad("Out"), g.input("X"), axis=g.attrs["axis"]))


def _check_dtypes(op, xs):
    """Variadic inputs must share a dtype (NumPy would promote silently)."""
    for k, a in enumerate(xs):
        if a.dtype != xs[0].dtype:
            raise ValueError(f"op '{op}': X[{k}] has dtype {a.dtype} but X[0] has {xs[0].dtype}; cast explicitly")
    return xs


CONCAT = register_op("concat", inputs=("X",), outputs=("Out",), variadic_inputs=("X",),
                     forward=lambda xp, xs, axis: xp.concatenate(_check_dtypes("concat", xs), axis=axis),
                     infer=_concat_infer, grad=_concat_grad, attrs={"axis": 0}, double_grad=True)


def _split_at(xp, a, sizes, axis):
    """Copies, not views: Paddle's split/chunk outputs own their storage."""
    bounds = np.cumsum(sizes)[:-1].tolist()
    return [p.copy() for p in xp.split(a, bounds, axis=axis)]


def _concat_grad_forward(xp, dout, xs, axis):
    ax = axis % dout.ndim
    return _split_at(xp, dout, [x.shape[ax] for x in xs], ax)


def _concat_grad_infer(dout, xs, axis):
    return ([Meta(tuple(x.shape), dout.dtype) for x in xs],)  # one variadic output slot


def _concat_grad_grad(g):
    if g.needs("OutGrad"):
        g.set_input_grad("OutGrad", concat(g.output_grad_or_zeros("XGrad"), axis=g.attrs["axis"]))


# dOut split back into pieces shaped like the forward inputs (read at run time, so -1 dims are fine).
CONCAT_GRAD = register_op("concat_grad", inputs=("OutGrad", "X"), meta_inputs=("X",), outputs=("XGrad",), variadic_inputs=("X",),
                          variadic_outputs=("XGrad",), nondiff_inputs=("X",), forward=_concat_grad_forward,
                          infer=_concat_grad_infer, grad=_concat_grad_grad, attrs={"axis": 0}, double_grad=True)


def split_sizes(op, dim, num, sections):
    """Section sizes for a dim of size `dim` (-1 = unknown): `num` equal parts, or `sections` with one -1."""
    if num:
        if dim != -1 and dim % num:
            raise ValueError(f"op '{op}': the dim of size {dim} cannot be split into {num} equal parts")
        return [-1 if dim == -1 else dim // num] * num
    if not sections:
        raise ValueError(f"op '{op}': give num_or_sections as an int > 0 or a non-empty list, received "
                         f"num={num}, sections={sections}")
    if sum(1 for s in sections if s == -1) > 1:
        raise ValueError(f"op '{op}': sections {list(sections)} may hold at most one -1")
    if any(s < -1 for s in sections):
        raise ValueError(f"op '{op}': sections {list(sections)} must be >= 0 (or one -1)")
    known = sum(s for s in sections if s != -1)
    if dim == -1:
        return list(sections)
    if -1 in sections:
        if known > dim:
            raise ValueError(f"op '{op}': sections {list(sections)} add up to more than the dim's size {dim}")
        return [dim - known if s == -1 else s for s in sections]
    if known != dim:
        raise ValueError(f"op '{op}': sections {list(sections)} add up to {known}, but the dim has size {dim}")
    return list(sections)


def _split_forward(xp, x, num, sections, axis):
    ax = normalize_axis("split", axis, x.ndim)
    return _split_at(xp, x, split_sizes("split", x.shape[ax], num, sections), ax)


def _split_infer(x, num, sections, axis):
    ax = normalize_axis("split", axis, len(x.shape))
    out = []
    for s in split_sizes("split", x.shape[ax], num, sections):
        shape = list(x.shape)
        shape[ax] = s
        out.append(Meta(tuple(shape), x.dtype))
    return (out,)  # one variadic output slot


def _split_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", concat(g.output_grad_or_zeros("Out"), axis=g.attrs["axis"]))


SPLIT = register_op("split", inputs=("X",), outputs=("Out",), variadic_outputs=("Out",),
                    forward=_split_forward, infer=_split_infer, grad=_split_grad,
                    attrs={"num": 0, "sections": [], "axis": 0}, double_grad=True)


# ---- stack / unstack ------------------------------------------------------------------------------
def _stack_infer(xs, axis):
    if not xs:
        raise ValueError("op 'stack': X must hold at least one tensor, received an empty list")
    first = xs[0]
    for k, m in enumerate(xs):
        if m.dtype != first.dtype:
            raise ValueError(f"op 'stack': X[{k}] has dtype {m.dtype} but X[0] has {first.dtype}; cast explicitly")
        if len(m.shape) != len(first.shape) or not all(_dims_match(a, b) for a, b in zip(m.shape, first.shape)):
            raise ValueError(f"op 'stack': X[{k}] has shape {list(m.shape)} but X[0] has {list(first.shape)}; "
                             "stacked tensors must have the same shape")
    ax = normalize_axis("stack", axis, len(first.shape) + 1)
    shape = list(first.shape)
    shape.insert(ax, len(xs))
    return Meta(tuple(shape), first.dtype)


def _stack_grad(g):
    if g.needs("X"):
        n = len(g.input("X"))
        g.set_input_grad("X", unstack(g.output_grad("Y"), axis=g.attrs["axis"], num=n))


STACK = register_op("stack", inputs=("X",), outputs=("Y",), variadic_inputs=("X",),
                    forward=lambda xp, xs, axis: xp.stack(_check_dtypes("stack", xs), axis=axis), infer=_stack_infer, grad=_stack_grad,
                    attrs={"axis": 0}, double_grad=True)


def _unstack_forward(xp, x, axis, num):
    ax = normalize_axis("unstack", axis, x.ndim)
    return [xp.take(x, i, axis=ax) for i in range(x.shape[ax])]


def _unstack_infer(x, axis, num):
    ax = normalize_axis("unstack", axis, len(x.shape))
    n = x.shape[ax]
    if n == -1:
        if not num:
            raise ValueError("op 'unstack': the unstacked dim is unknown (-1); give num")
        n = num
    elif num and num != n:
        raise ValueError(f"op 'unstack': num={num} but the dim {axis} of the input has size {n}")
    shape = tuple(d for i, d in enumerate(x.shape) if i != ax)
    return ([Meta(shape, x.dtype) for _ in range(n)],)  # one variadic output slot


def _unstack_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", stack(g.output_grad_or_zeros("Y"), axis=g.attrs["axis"]))


UNSTACK = register_op("unstack", inputs=("X",), outputs=("Y",), variadic_outputs=("Y",),
                      forward=_unstack_forward, infer=_unstack_infer, grad=_unstack_grad,
                      attrs={"axis": 0, "num": 0}, double_grad=True)


def _unbind_forward(xp, x, axis):
    ax = normalize_axis("unbind", axis, x.ndim)
    return [x[(slice(None),) * ax + (i, Ellipsis)] for i in range(x.shape[ax])]


def _unbind_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", stack(g.output_grad_or_zeros("Out"), axis=g.attrs["axis"]))


# unbind is unstack's view twin: its outputs view X's storage (Paddle's unbind), unstack's are copies
UNBIND = register_op("unbind", inputs=("X",), outputs=("Out",), variadic_outputs=("Out",),
                     forward=_unbind_forward, infer=lambda x, axis: _unstack_infer(x, axis, 0),
                     grad=_unbind_grad, attrs={"axis": 0}, double_grad=True, view=True)


# ---- as_strided: a view of the input's storage with explicit element strides and a byte offset --------
def _strided_extent(shape, stride):
    """How many elements from the first one a strided view reaches (0 for an empty view)."""
    if any(d == 0 for d in shape):
        return 0
    return sum((d - 1) * s for d, s in zip(shape, stride)) + 1


def _as_strided_infer(x, dims, stride, offset):
    if len(dims) != len(stride):
        raise ValueError(f"op 'as_strided': shape {list(dims)} and stride {list(stride)} must have the same length")
    if offset < 0 or any(s < 0 for s in stride) or any(d < 0 for d in dims):
        raise ValueError(f"op 'as_strided': shape, stride and offset must be >= 0, received shape {list(dims)}, "
                         f"stride {list(stride)}, offset {offset}")
    if offset % np.dtype(x.dtype).itemsize:
        raise ValueError(f"op 'as_strided': offset is in bytes and must be a multiple of the element size "
                         f"{np.dtype(x.dtype).itemsize} of {np.dtype(x.dtype)}, received {offset}")
    return Meta(tuple(dims), x.dtype)


def _storage_view(xp, x, dims, stride, offset):
    """The view (dims, element strides) of x's whole storage, `offset` bytes from the storage's start."""
    root, _ = storage_of(x)
    if not root.flags.c_contiguous:
        root = x = xp.ascontiguousarray(x)  # a storage NumPy cannot address linearly: x's own values
    start = offset // x.itemsize
    if start + _strided_extent(dims, stride) > root.size:
        raise ValueError(f"op 'as_strided': shape {list(dims)} with stride {list(stride)} and offset {offset} "
                         f"bytes reaches beyond the storage of {root.size} elements")
    flat = root.reshape(-1)[start:]
    return xp.lib.stride_tricks.as_strided(flat, tuple(dims), tuple(s * x.itemsize for s in stride))


def _as_strided_forward(xp, x, dims, stride, offset):
    _as_strided_infer(Meta(x.shape, x.dtype), dims, stride, offset)
    return _storage_view(xp, x, dims, stride, offset)


def _as_strided_grad_forward(xp, x, dout, dims, stride, offset):
    """Each element of x gets the sum of the output gradients at the positions that view it (where the view
    overlaps itself, PyTorch's sum; Paddle 3.3.1 keeps one of them)."""
    root, x_offset = storage_of(x)
    positions = xp.arange(root.size).reshape(root.shape)
    seen = _storage_view(xp, positions, dims, stride, offset * positions.itemsize // x.itemsize)
    storage_grad = xp.bincount(seen.reshape(-1), weights=dout.reshape(-1).astype(np.float64), minlength=root.size)
    x_positions = _storage_view(xp, positions, x.shape, [s // x.itemsize for s in x.strides],
                                x_offset * positions.itemsize // x.itemsize)
    return storage_grad[x_positions].astype(dout.dtype)


def _as_strided_grad(g):
    if g.needs("X"):
        a = g.attrs
        g.set_input_grad("X", g.op("as_strided_grad", g.input("X"), g.output_grad("Out"), dims=a["dims"],
                                   stride=a["stride"], offset=a["offset"]))


AS_STRIDED = register_op("as_strided", inputs=("X",), outputs=("Out",), forward=_as_strided_forward,
                         infer=_as_strided_infer, grad=_as_strided_grad,
                         attrs={"dims": [], "stride": [], "offset": 0}, view=True)
AS_STRIDED_GRAD = register_op("as_strided_grad", inputs=("X", "OutGrad"), meta_inputs=("X",), outputs=("XGrad",),
                              nondiff_inputs=("X",), forward=_as_strided_grad_forward,
                              infer=lambda x, dout, **a: Meta(x.shape, dout.dtype),
                              attrs={"dims": [], "stride": [], "offset": 0})


# ---- diagonal: a view of the `offset` diagonal over dims (axis1, axis2), as the last dim (Paddle 3) ---------
def diagonal_length(rows, cols, offset):
    """How long the `offset` diagonal of a rows x cols matrix is (-1 when a dim is unknown)."""
    if rows == -1 or cols == -1:
        return -1
    return max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))


def _diagonal_infer(x, offset, axis1, axis2):
    ndim = len(x.shape)
    a1, a2 = normalize_axis("diagonal", axis1, ndim, "axis1"), normalize_axis("diagonal", axis2, ndim, "axis2")
    if a1 == a2:
        raise ValueError(f"op 'diagonal': axis1 and axis2 must name different dims, received {axis1} and {axis2}")
    others = tuple(d for i, d in enumerate(x.shape) if i not in (a1, a2))
    return Meta(others + (diagonal_length(x.shape[a1], x.shape[a2], offset),), x.dtype)


def _diagonal_forward(xp, x, offset, axis1, axis2):
    """A writable view (NumPy's own diagonal is read-only): the two dims moved last, the offset sliced off,
    then one dim stepping along both."""
    _diagonal_infer(Meta(x.shape, x.dtype), offset, axis1, axis2)
    moved = xp.moveaxis(x, (axis1, axis2), (-2, -1))
    moved = moved[..., :, offset:] if offset >= 0 else moved[..., -offset:, :]
    n = min(moved.shape[-2:])
    return xp.lib.stride_tricks.as_strided(moved, moved.shape[:-2] + (n,),
                                           moved.strides[:-2] + (moved.strides[-2] + moved.strides[-1],))


def _diagonal_grad_forward(xp, x, dout, offset, axis1, axis2):
    dx = xp.zeros(x.shape, dout.dtype)
    _diagonal_forward(xp, dx, offset, axis1, axis2)[...] = dout
    return dx


def _diagonal_grad(g):
    if g.needs("Input"):
        g.set_input_grad("Input", g.op("diagonal_grad", g.input("Input"), g.output_grad("Out"), **g.attrs))


def _diagonal_grad_grad(g):  # diagonal_grad is linear in Out@GRAD: its own gradient is the diagonal again
    if g.needs("OutGrad"):
        g.set_input_grad("OutGrad", g.op("diagonal", g.output_grad("InputGrad"), **g.attrs))


_DIAGONAL_ATTRS = {"offset": 0, "axis1": 0, "axis2": 1}
DIAGONAL = register_op("diagonal", inputs=("Input",), outputs=("Out",), forward=_diagonal_forward,
                       infer=_diagonal_infer, grad=_diagonal_grad, attrs=_DIAGONAL_ATTRS, double_grad=True,
                       view=True)
DIAGONAL_GRAD = register_op("diagonal_grad", inputs=("Input", "OutGrad"), meta_inputs=("Input",),
                            outputs=("InputGrad",), nondiff_inputs=("Input",), forward=_diagonal_grad_forward,
                            infer=lambda x, dout, **a: Meta(x.shape, dout.dtype), grad=_diagonal_grad_grad,
                            attrs=_DIAGONAL_ATTRS, double_grad=True)


# ---- diag (Paddle's diag_v2): a 1-D x on the `offset` diagonal of a square matrix, padding_value elsewhere; a
# 2-D x's `offset` diagonal, copied ----------------------------------------------------------------------------
def _diag_infer(x, offset, padding_value):
    if len(x.shape) == 2:
        return Meta((diagonal_length(x.shape[0], x.shape[1], offset),), x.dtype)
    if len(x.shape) != 1:
        raise ValueError(f"op 'diag_v2': X must be 1-D or 2-D, received shape {list(x.shape)}")
    n = -1 if x.shape[0] == -1 else x.shape[0] + abs(offset)
    return Meta((n, n), x.dtype)


def _diag_forward(xp, x, offset, padding_value):
    _diag_infer(Meta(x.shape, x.dtype), offset, padding_value)
    if x.ndim == 2:
        return xp.diagonal(x, offset).copy()
    n = x.shape[0] + abs(offset)
    out = xp.full((n, n), padding_value, dtype=x.dtype)
    _diagonal_forward(xp, out, offset, 0, 1)[...] = x
    return out


def _diag_grad(g):  # the matrix's diagonal is the vector: each direction's gradient is the other direction
    if g.needs("X"):
        x, dout, offset = g.input("X"), g.output_grad("Out"), g.attrs["offset"]
        if len(g.shape(x)) == 2:
            dx = g.op("diagonal_grad", x, dout, offset=offset, axis1=0, axis2=1)
        else:
            dx = g.op("diagonal", dout, offset=offset, axis1=0, axis2=1)
        g.set_input_grad("X", dx)


DIAG = register_op("diag", inputs=("X",), outputs=("Out",), forward=_diag_forward, infer=_diag_infer,
                   grad=_diag_grad, attrs={"offset": 0, "padding_value": 0.0}, double_grad=True)


# ---- view as another dtype: the same bytes reinterpreted (not differentiable) ---------------------
def _view_dtype_infer(x, dtype):
    new, old = np.dtype(dtype), np.dtype(x.dtype)
    shape = list(x.shape)
    if new.itemsize != old.itemsize:
        if not shape or shape[-1] == -1 or (shape[-1] * old.itemsize) % new.itemsize:
            raise ValueError(f"op 'view_dtype': cannot view an input of shape {list(x.shape)} and dtype {old} as "
                             f"{new}: the last dim's bytes ({shape[-1] if shape else 0} x {old.itemsize}) must be a "
                             f"multiple of {new.itemsize}")
        shape[-1] = shape[-1] * old.itemsize // new.itemsize
    return Meta(tuple(shape), new)


def _view_dtype_forward(xp, x, dtype):
    _view_dtype_infer(Meta(x.shape, x.dtype), dtype)
    return x.view(np.dtype(dtype))


VIEW_DTYPE = register_op("view_dtype", inputs=("X",), outputs=("Out",), forward=_view_dtype_forward,
                         infer=_view_dtype_infer, attrs={"dtype": "float32"}, view=True)


# ---- slice / strided_slice ------------------------------------------------------------------------
# Paddle's slots and attrs: Input, and decrease_axis (sliced axes of length 1 that the result drops, as x[0]
# does); infer_flags (1 per axis) only tells Paddle's shape inference the bounds are constants.
def _slices(op, ndim, axes, starts, ends, strides=None, decrease_axis=()):
    strides = strides or [1] * len(axes)
    if not len(axes) == len(starts) == len(ends) == len(strides):
        raise ValueError(f"op '{op}': axes, starts, ends{', strides' if op == 'strided_slice' else ''} must "
                         f"have the same length, received {len(axes)}, {len(starts)}, {len(ends)}"
                         + (f", {len(strides)}" if op == "strided_slice" else ""))
    idx = [slice(None)] * ndim
    for a, s, e, st in zip(axes, starts, ends, strides):
        if st == 0:
            raise ValueError(f"op '{op}': strides must not be 0, received {list(strides)}")
        idx[normalize_axis(op, a, ndim, "axes")] = slice(s, e, st)
    for a in decrease_axis:  # an int index drops the axis (its slice must hold exactly one element)
        a = normalize_axis(op, a, ndim, "decrease_axis")
        if not isinstance(idx[a], slice) or idx[a].step != 1:
            raise ValueError(f"op '{op}': decrease_axis {list(decrease_axis)} must name sliced axes of step 1")
        idx[a] = idx[a].start
    return tuple(idx) + (Ellipsis,)  # Ellipsis: an all-int index still views a 0-D array


def _strided_shape(op, shape, axes, starts, ends, strides=None, decrease_axis=()):
    idx = _slices(op, len(shape), axes, starts, ends, strides, decrease_axis)
    out = []
    for d, s in zip(shape, idx):
        if isinstance(s, slice):
            out.append(d if s == slice(None) else _slice_len(d, s.start, s.stop, s.step))
        elif d != -1 and not -d <= s < d:
            raise IndexError(f"op '{op}': index {s} is out of bounds for an axis of size {d}")
    return tuple(out)


def _slice_infer(op, x, axes, starts, ends, strides, infer_flags, decrease_axis, whole=()):
    """The sliced shape; an axis whose bounds are tensors (infer_flags -1, or every axis where one of `whole`,
    the 1-D bound tensors, is given) has an unknown length, unless decrease_axis drops it."""
    if any(t is not None for t in whole):
        runtime = range(len(axes))
        starts, ends, strides = [0] * len(axes), [1] * len(axes), strides and [1] * len(axes)
    else:
        runtime = [i for i, flag in enumerate(infer_flags) if flag == -1]
        starts, ends = list(starts), list(ends)
    for i in runtime:
        starts[i], ends[i] = 0, 1
    shape = list(_strided_shape(op, x.shape, axes, starts, ends, strides, decrease_axis))
    dropped = {normalize_axis(op, a, len(x.shape), "decrease_axis") for a in decrease_axis}
    kept = [d for d in range(len(x.shape)) if d not in dropped]
    for i in runtime:
        axis = normalize_axis(op, axes[i], len(x.shape), "axes")
        if axis in kept:
            shape[kept.index(axis)] = -1
    return Meta(tuple(shape), x.dtype)


def _runtime_bounds(attrs):
    return "reads the slice bounds given as tensors" if -1 in attrs["infer_flags"] else None


def _strided_slice_grad(g):
    if g.needs("Input"):
        a = g.attrs
        whole = [g.input(slot) for slot in _WHOLE_BOUNDS] + ([g.input("StridesTensor")] if "strides" in a else [None])
        g.set_input_grad("Input", g.op("strided_slice_grad", g.input("Input"), g.output_grad("Out"),
                                       g.input("StartsTensorList"), g.input("EndsTensorList"), *whole,
                                       g.input("StridesTensorList") if "strides" in a else None, axes=a["axes"], starts=a["starts"], ends=a["ends"],
                                       strides=a.get("strides") or [1] * len(a["axes"]),
                                       decrease_axis=a["decrease_axis"]))


_SLICE_ATTRS = {"axes": [], "starts": [], "ends": [], "infer_flags": [], "decrease_axis": []}
_BOUND_TENSORS = ("StartsTensorList", "EndsTensorList")
# a 1-D int tensor of all the starts (ends, strides): read when the op runs, every sliced dim unknown before
_WHOLE_BOUNDS = ("StartsTensor", "EndsTensor")
_STRIDES = ("StridesTensor", "StridesTensorList")

SLICE = register_op("slice", inputs=("Input", *_BOUND_TENSORS, *_WHOLE_BOUNDS), outputs=("Out",),
                    variadic_inputs=_BOUND_TENSORS, optional_inputs=_BOUND_TENSORS, nondiff_inputs=_BOUND_TENSORS,
                    host_inputs=_WHOLE_BOUNDS,
                    forward=lambda xp, x, s, e, st, et, axes, starts, ends, infer_flags, decrease_axis: x[_slices(
                        "slice", x.ndim, axes, int_values(st, s, starts), int_values(et, e, ends), None,
                        decrease_axis)],
                    infer=lambda x, s, e, st, et, axes, starts, ends, infer_flags, decrease_axis: _slice_infer(
                        "slice", x, axes, starts, ends, None, infer_flags, decrease_axis, (st, et)),
                    grad=_strided_slice_grad, attrs=_SLICE_ATTRS, double_grad=True, view=True,
                    host_sync=_runtime_bounds)

def _strided_bounds(s, e, st, et, stt, stl, starts, ends, strides):
    return int_values(st, s, starts), int_values(et, e, ends), int_values(stt, stl, strides)


STRIDED_SLICE = register_op(
    "strided_slice", inputs=("Input", *_BOUND_TENSORS, *_WHOLE_BOUNDS, *_STRIDES), outputs=("Out",),
    variadic_inputs=(*_BOUND_TENSORS, "StridesTensorList"), optional_inputs=_BOUND_TENSORS,
    nondiff_inputs=_BOUND_TENSORS, host_inputs=(*_WHOLE_BOUNDS, *_STRIDES),
    forward=lambda xp, x, *t, axes, starts, ends, strides, infer_flags, decrease_axis: x[_slices(
        "strided_slice", x.ndim, axes, *_strided_bounds(*t, starts, ends, strides), decrease_axis)],
    infer=lambda x, s, e, st, et, stt, stl, axes, starts, ends, strides, infer_flags, decrease_axis: _slice_infer(
        "strided_slice", x, axes, starts, ends, strides, infer_flags, decrease_axis, (st, et, stt, stl or None)),
    grad=_strided_slice_grad, attrs={**_SLICE_ATTRS, "strides": []}, double_grad=True, view=True,
    host_sync=_runtime_bounds)


def _strided_slice_grad_forward(xp, x, dout, *t, axes, starts, ends, strides, decrease_axis):
    dx = xp.zeros(x.shape, dtype=dout.dtype)
    dx[_slices("strided_slice", x.ndim, axes, *_strided_bounds(*t, starts, ends, strides), decrease_axis)] = dout
    return dx


def _strided_slice_grad_grad(g):
    if g.needs("OutGrad"):
        a = g.attrs
        g.set_input_grad("OutGrad", g.op("strided_slice", g.output_grad("XGrad"), g.input("StartsTensorList"),
                                         g.input("EndsTensorList"), *[g.input(s) for s in (*_WHOLE_BOUNDS, *_STRIDES)],
                                         axes=a["axes"], starts=a["starts"],
                                         ends=a["ends"], strides=a["strides"], decrease_axis=a["decrease_axis"],
                                         infer_flags=[1 if not g.input("StartsTensorList") else -1] * len(a["axes"])))


# dOut written into zeros shaped like X at the sliced positions.
STRIDED_SLICE_GRAD = register_op(
    "strided_slice_grad", inputs=("X", "OutGrad", *_BOUND_TENSORS, *_WHOLE_BOUNDS, *_STRIDES), meta_inputs=("X",),
    outputs=("XGrad",), variadic_inputs=(*_BOUND_TENSORS, "StridesTensorList"), optional_inputs=_BOUND_TENSORS,
    nondiff_inputs=("X", *_BOUND_TENSORS), host_inputs=(*_WHOLE_BOUNDS, *_STRIDES),
    forward=_strided_slice_grad_forward, infer=lambda x, dout, *t, **a: Meta(x.shape, dout.dtype),
    grad=_strided_slice_grad_grad, attrs={"axes": [], "starts": [], "ends": [], "strides": [], "decrease_axis": []},
    double_grad=True)


# ---- crop_tensor ----------------------------------------------------------------------------------
# the box's shape and offsets: the attrs, a 1-D int tensor each (Shape, Offsets) or one 1-element tensor per dim
# (ShapeTensor, OffsetsTensor); a shape of -1 takes the rest of the dim
_CROP_LISTS = ("ShapeTensor", "OffsetsTensor")


def _crop_slices(x_shape, shape, offsets):
    if len(shape) != len(x_shape) or len(offsets) != len(x_shape):
        raise ValueError(f"op 'crop_tensor': shape and offsets must have x's rank {len(x_shape)}, received "
                         f"{list(shape)} and {list(offsets)}")
    box = []
    for d, (n, o, s) in enumerate(zip(x_shape, offsets, shape)):
        s = n - o if s == -1 else s
        if o < 0 or s < 0 or o + s > n:
            raise ValueError(f"op 'crop_tensor': offsets[{d}] + shape[{d}] = {o} + {s} must lie within x's dim {d} "
                             f"of size {n}")
        box.append(slice(o, o + s))
    return tuple(box) + (Ellipsis,)  # Ellipsis: a 0-D x stays a view


def _crop_forward(xp, x, shape_t, offsets_t, shape_list, offsets_list, shape, offsets):
    return x[_crop_slices(x.shape, int_values(shape_t, shape_list, shape),
                          int_values(offsets_t, offsets_list, offsets))]


def _crop_infer(x, shape_t, offsets_t, shape_list, offsets_list, shape, offsets):
    """Paddle's rule: a dim is known where the shape attr gives it (> 0), unknown where a tensor or -1 does."""
    if shape_t is not None or shape_list:
        return Meta((-1,) * len(x.shape), x.dtype)
    return Meta(tuple(s if s > 0 else -1 for s in shape), x.dtype)


def _crop_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("crop_tensor_grad", g.input("X"), g.output_grad("Out"), g.input("Offsets"),
                                   g.input("OffsetsTensor"), offsets=g.attrs["offsets"]))


def _crop_grad_forward(xp, x, dout, offsets_t, offsets_list, offsets):
    dx = xp.zeros(x.shape, dtype=dout.dtype)
    dx[_crop_slices(x.shape, dout.shape, int_values(offsets_t, offsets_list, offsets))] = dout
    return dx


def _runtime_box(attrs):
    """Tensors give the box where the attrs hold Paddle's placeholders: no shape (Shape), 0 sizes (a ShapeTensor
    entry; a true empty box reads nothing but is counted too), -1 offsets (Offsets, OffsetsTensor)."""
    shape = attrs.get("shape", [1])  # crop_tensor_grad has none: dOut's shape is the box's
    if not shape or 0 in shape or -1 in attrs["offsets"]:
        return "reads the crop's shape or offsets given as tensors"
    return None


CROP_TENSOR = register_op(
    "crop_tensor", inputs=("X", "Shape", "Offsets", *_CROP_LISTS), outputs=("Out",), variadic_inputs=_CROP_LISTS,
    host_inputs=("Shape", "Offsets", *_CROP_LISTS), forward=_crop_forward, infer=_crop_infer, grad=_crop_grad,
    attrs={"shape": [], "offsets": []}, view=True, host_sync=_runtime_box)
# dOut written into zeros shaped like X at the box's positions
CROP_TENSOR_GRAD = register_op(
    "crop_tensor_grad", inputs=("X", "OutGrad", "Offsets", "OffsetsTensor"), meta_inputs=("X",),
    outputs=("XGrad",), variadic_inputs=("OffsetsTensor",), host_inputs=("Offsets", "OffsetsTensor"),
    forward=_crop_grad_forward, infer=lambda x, dout, *t, offsets: Meta(x.shape, dout.dtype),
    attrs={"offsets": []}, host_sync=_runtime_box)


# ---- expand / tile --------------------------------------------------------------------------------
def expand_shape(op, shape, target):
    nd = len(shape)
    if len(target) < nd:
        raise ValueError(f"op '{op}': shape {list(target)} has fewer dims than the input's {list(shape)}")
    lead = len(target) - nd
    out = []
    for i, t in enumerate(target):
        d = shape[i - lead] if i >= lead else None
        if t == -1:
            if d is None:
                raise ValueError(f"op '{op}': shape {list(target)} has -1 at new leading dim {i}; "
                                 "-1 may only keep an existing dim")
            out.append(d)
        elif t < 0:
            raise ValueError(f"op '{op}': shape {list(target)} has a negative size {t}")
        elif d is None or d == 1 or d == -1 or d == t:
            out.append(t)
        else:
            raise ValueError(f"op '{op}': cannot expand the input of shape {list(shape)} to {list(target)} "
                             f"(dim {i}: {d} is neither 1 nor {t})")
    return tuple(out)


def _expand_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.reduce_as(g.output_grad("Out"), g.input("X")))


def _expand_forward(xp, x, shape_t, shape_list, shape):
    return xp.broadcast_to(x, expand_shape("expand", x.shape, int_values(shape_t, shape_list, shape))).copy()


def _expand_infer(x, shape_t, shape_list, shape):
    known = known_ints(shape_t, shape)  # a Shape tensor's entries keep x's dims, as Paddle's rule shows them
    if known is None:
        raise ValueError("op 'expand': the length of the Shape tensor must be known when the program is built, "
                         f"received a tensor of shape {list(shape_t.shape)}")
    # a dim given by a tensor (-2) is unknown (-1), as Paddle's rule shows it; checked as one keeping x's dim
    lead = len(known) - len(x.shape)  # the new leading dims
    out = expand_shape("expand", x.shape, [(-1 if i >= lead else 1) if d == -2 else d for i, d in enumerate(known)])
    return Meta(tuple(-1 if d == -2 else o for d, o in zip(known, out)), x.dtype)


# the target shape: the attr, a 1-D int tensor (Shape), or one tensor per dim (expand_shapes_tensor; the attr -2
# there, Paddle's placeholder)
EXPAND = register_op("expand", inputs=("X", "Shape", "expand_shapes_tensor"), outputs=("Out",),
                     variadic_inputs=("expand_shapes_tensor",), host_inputs=("Shape", "expand_shapes_tensor"),
                     forward=_expand_forward, infer=_expand_infer, grad=_expand_grad, attrs={"shape": []},
                     double_grad=True)


def _broadcast_tensors_infer(xs):
    if not xs:
        raise ValueError("op 'broadcast_tensors': X must hold at least one tensor, received an empty list")
    shape = ()
    for k, x in enumerate(xs):
        if x.dtype != xs[0].dtype:  # a ValueError, as Paddle's op raises
            raise ValueError(f"op 'broadcast_tensors': X[{k}] has dtype {x.dtype} but X[0] has {xs[0].dtype}; "
                             "all the Tensors must have the same data type")
        shape = broadcast_shapes("broadcast_tensors", shape, tuple(x.shape), names=("X[:k]", f"X[{k}]"))
    return ([Meta(shape, x.dtype) for x in xs],)  # one variadic output slot


def _broadcast_tensors_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("broadcast_tensors_grad", g.input("X"), g.output_grad_or_zeros("Out")))


def _broadcast_tensors_grad_grad(g):
    if g.needs("OutGrad"):
        g.set_input_grad("OutGrad", g.op("broadcast_tensors", g.output_grad_or_zeros("XGrad")))


BROADCAST_TENSORS = register_op(
    "broadcast_tensors", inputs=("X",), outputs=("Out",), variadic_inputs=("X",), variadic_outputs=("Out",),
    forward=lambda xp, xs: [a.copy() for a in xp.broadcast_arrays(*xs)], infer=_broadcast_tensors_infer,
    grad=_broadcast_tensors_grad, double_grad=True)

# each dOut summed back to the shape of its input
BROADCAST_TENSORS_GRAD = register_op(
    "broadcast_tensors_grad", inputs=("X", "OutGrad"), meta_inputs=("X",), outputs=("XGrad",),
    variadic_inputs=("X", "OutGrad"), variadic_outputs=("XGrad",), nondiff_inputs=("X",),
    forward=lambda xp, xs, douts: [_grad_support.REDUCE_AS.forward(xp, d, x) for x, d in zip(xs, douts)],
    infer=lambda xs, douts: ([Meta(tuple(x.shape), d.dtype) for x, d in zip(xs, douts)],),
    grad=_broadcast_tensors_grad_grad, double_grad=True)


def _tile_reps(op, ndim, repeat_times):
    if any((not isinstance(r, int)) or r < 0 for r in repeat_times):
        raise ValueError(f"op '{op}': repeat_times must be non-negative ints, received {list(repeat_times)}")
    n = max(ndim, len(repeat_times))
    return [1] * (n - len(repeat_times)) + list(repeat_times), n - ndim


def _tile_infer(x, reps_t, reps_list, repeat_times):
    if reps_t is None and not reps_list:
        reps, lead = _tile_reps("tile", len(x.shape), repeat_times)
        shape = (1,) * lead + tuple(x.shape)
        return Meta(tuple(-1 if d == -1 else d * r for d, r in zip(shape, reps)), x.dtype)
    known = known_ints(reps_t, repeat_times)  # -1 where a tensor gives the count
    if known is None:
        raise ValueError("op 'tile': the length of the RepeatTimes tensor must be known when the program is built, "
                         f"received a tensor of shape {list(reps_t.shape)}")
    n = max(len(x.shape), len(known))
    reps, shape = [1] * (n - len(known)) + list(known), (1,) * (n - len(x.shape)) + tuple(x.shape)
    return Meta(tuple(-1 if d == -1 or r == -1 else d * r for d, r in zip(shape, reps)), x.dtype)


def _tile_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("tile_grad", g.input("X"), g.output_grad("Out"), g.input("RepeatTimes"),
                                   g.input("repeat_times_tensor"), repeat_times=g.attrs["repeat_times"]))


# the counts: the attr, a 1-D int tensor (RepeatTimes) or one tensor per count (repeat_times_tensor; the attr -1
# there)
TILE = register_op("tile", inputs=("X", "RepeatTimes", "repeat_times_tensor"), outputs=("Out",),
                   variadic_inputs=("repeat_times_tensor",), host_inputs=("RepeatTimes", "repeat_times_tensor"),
                   forward=lambda xp, x, reps_t, reps_list, repeat_times: xp.tile(
                       x, _tile_reps("tile", x.ndim, int_values(reps_t, reps_list, repeat_times))[0]),
                   infer=_tile_infer, grad=_tile_grad, attrs={"repeat_times": []}, double_grad=True)


def _tile_grad_forward(xp, x, dout, reps_t, reps_list, repeat_times):
    reps, lead = _tile_reps("tile", x.ndim, int_values(reps_t, reps_list, repeat_times))
    shape = (1,) * lead + tuple(x.shape)
    split = []
    for r, d in zip(reps, shape):
        split += [r, d]
    summed = dout.reshape(split).sum(axis=tuple(range(0, 2 * len(reps), 2)))
    return xp.asarray(summed).reshape(x.shape)


def _tile_grad_grad(g):
    if g.needs("OutGrad"):
        g.set_input_grad("OutGrad", g.op("tile", g.output_grad("XGrad"), g.input("RepeatTimes"),
                                         g.input("repeat_times_tensor"), repeat_times=g.attrs["repeat_times"]))


# The sum of dOut over the tiles, shaped like X.
TILE_GRAD = register_op("tile_grad", inputs=("X", "OutGrad", "RepeatTimes", "repeat_times_tensor"),
                        meta_inputs=("X",), outputs=("XGrad",), nondiff_inputs=("X",),
                        variadic_inputs=("repeat_times_tensor",), host_inputs=("RepeatTimes", "repeat_times_tensor"),
                        forward=_tile_grad_forward, infer=lambda x, dout, *reps, **a: Meta(x.shape, dout.dtype),
                        grad=_tile_grad_grad, attrs={"repeat_times": []}, double_grad=True)


# ---- flip / roll ----------------------------------------------------------------------------------
def _flip_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", flip(g.output_grad("Out"), axis=g.attrs["axis"]))


FLIP = register_op("flip", inputs=("X",), outputs=("Out",),
                   forward=lambda xp, x, axis: xp.flip(x, axis=tuple(_axis_list("flip", axis, x.ndim))).copy(),
                   infer=lambda x, axis: (_axis_list("flip", axis, len(x.shape)), Meta(x.shape, x.dtype))[1],
                   grad=_flip_grad, attrs={"axis": []}, double_grad=True)


def _roll_args(op, ndim, shifts, axis):
    if axis and len(axis) != len(shifts):
        raise ValueError(f"op '{op}': shifts {list(shifts)} and axis {list(axis)} must have the same length")
    if not axis and len(shifts) != 1:
        raise ValueError(f"op '{op}': without axis, shifts must hold one value, received {list(shifts)}")
    return [normalize_axis(op, a, ndim) for a in axis] if axis else None


def _roll_forward(xp, x, shifts, axis):
    ax = _roll_args("roll", x.ndim, shifts, axis)
    if ax is None:
        return xp.roll(x.reshape(-1), shifts[0]).reshape(x.shape)
    return xp.roll(x, tuple(shifts), axis=tuple(ax))


def _roll_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", roll(g.output_grad("Out"), shifts=[-s for s in g.attrs["shifts"]],
                                   axis=g.attrs["axis"]))


ROLL = register_op("roll", inputs=("X",), outputs=("Out",), forward=_roll_forward,
                   infer=lambda x, shifts, axis: (_roll_args("roll", len(x.shape), shifts, axis),
                                                  Meta(x.shape, x.dtype))[1],
                   grad=_roll_grad, attrs={"shifts": [], "axis": []}, double_grad=True)


# ---- repeat_interleave ----------------------------------------------------------------------------
# repeats: the attr (one count for every element), or RepeatsTensor (a 1-D int tensor, a count per element of the
# axis; Paddle's legacy op takes it in this slot), read on the host
def _ri_axis(ndim, axis):
    return None if axis is None else normalize_axis("repeat_interleave", axis, ndim)


def _ri_counts(x, repeats_t, repeats, ax):
    """The repeat count(s) as xp.repeat takes them: the int, or the tensor's list (one per element of the axis)."""
    if repeats_t is None:
        return repeats
    counts = [int(v) for v in repeats_t.reshape(-1).tolist()]
    n = x.size if ax is None else x.shape[ax]
    if len(counts) != n or min(counts, default=0) < 0:
        raise ValueError(f"op 'repeat_interleave': RepeatsTensor must hold {n} non-negative counts (one per element "
                         f"along the axis), received {counts}")
    return counts


def _repeat_interleave_forward(xp, x, repeats_t, repeats, axis):
    ax = _ri_axis(x.ndim, axis)
    return xp.repeat(x, _ri_counts(x, repeats_t, repeats, ax), axis=ax)


def _repeat_interleave_infer(x, repeats_t, repeats, axis):
    ax = _ri_axis(len(x.shape), axis)
    if ax is None:
        n = -1 if -1 in x.shape or repeats_t is not None else int(np.prod(x.shape)) * repeats
        return Meta((n,), x.dtype)
    shape = list(x.shape)
    shape[ax] = -1 if shape[ax] == -1 or repeats_t is not None else shape[ax] * repeats
    return Meta(tuple(shape), x.dtype)


def _repeat_interleave_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("repeat_interleave_grad", g.input("X"), g.output_grad("Out"), g.input("RepeatsTensor"),
                                   repeats=g.attrs["repeats"], axis=g.attrs["axis"]))


REPEAT_INTERLEAVE = register_op(
    "repeat_interleave", inputs=("X", "RepeatsTensor"), outputs=("Out",), host_inputs=("RepeatsTensor",),
    forward=_repeat_interleave_forward, infer=_repeat_interleave_infer, grad=_repeat_interleave_grad,
    attrs={"repeats": 1, "axis": None}, double_grad=True)


def _repeat_interleave_grad_forward(xp, x, dout, repeats_t, repeats, axis):
    ax = _ri_axis(x.ndim, axis)
    counts = _ri_counts(x, repeats_t, repeats, ax)
    if isinstance(counts, int):
        if ax is None:
            return xp.asarray(dout.reshape(-1, counts).sum(axis=1)).reshape(x.shape)
        shape = x.shape[:ax] + (x.shape[ax], counts) + x.shape[ax + 1:]
        return xp.asarray(dout.reshape(shape).sum(axis=ax + 1))
    if ax is None:
        dout, ax = dout.reshape(-1), 0
    # a count per element: the sums of consecutive runs of dout, as differences of its running sum
    running = xp.cumsum(dout, axis=ax)
    running = xp.concatenate([xp.zeros_like(xp.take(running, [0], axis=ax)), running], axis=ax)
    ends = np.cumsum(counts)
    sums = xp.take(running, ends.tolist(), axis=ax) - xp.take(running, (ends - counts).tolist(), axis=ax)
    return sums.astype(dout.dtype, copy=False).reshape(x.shape)


def _repeat_interleave_grad_grad(g):
    if g.needs("OutGrad"):
        g.set_input_grad("OutGrad", g.op("repeat_interleave", g.output_grad("XGrad"), g.input("RepeatsTensor"),
                                         repeats=g.attrs["repeats"], axis=g.attrs["axis"]))


REPEAT_INTERLEAVE_GRAD = register_op(
    "repeat_interleave_grad", inputs=("X", "OutGrad", "RepeatsTensor"), meta_inputs=("X",), outputs=("XGrad",),
    nondiff_inputs=("X",), host_inputs=("RepeatsTensor",), forward=_repeat_interleave_grad_forward,
    infer=lambda x, dout, repeats_t, **a: Meta(x.shape, dout.dtype), grad=_repeat_interleave_grad_grad,
    attrs={"repeats": 1, "axis": None}, double_grad=True)


# ---- pad (constant) -------------------------------------------------------------------------------
_INT_MAX = 2147483647


def _pad_widths(op, ndim, paddings):
    if len(paddings) != 2 * ndim or any(p < 0 for p in paddings):
        raise ValueError(f"op '{op}': paddings must hold 2 non-negative ints per dim ({2 * ndim} for a "
                         f"{ndim}-D input), received {list(paddings)}")
    return [(paddings[2 * i], paddings[2 * i + 1]) for i in range(ndim)]


def _pad_infer(x, paddings, pad_value):
    w = _pad_widths("pad", len(x.shape), paddings)
    return Meta(tuple(-1 if d == -1 else d + a + b for d, (a, b) in zip(x.shape, w)), x.dtype)


def _pad_grad(g):
    if g.needs("X"):
        w = _pad_widths("pad", len(g.shape(g.output_grad("Out"))), g.attrs["paddings"])
        g.set_input_grad("X", g.op("slice", g.output_grad("Out"), axes=list(range(len(w))),
                                   starts=[a for a, _ in w], ends=[-b if b else _INT_MAX for _, b in w]))


PAD = register_op("pad", inputs=("X",), outputs=("Out",),
                  forward=lambda xp, x, paddings, pad_value: xp.pad(x, _pad_widths("pad", x.ndim, paddings),
                                                                    mode="constant", constant_values=pad_value),
                  infer=_pad_infer, grad=_pad_grad, attrs={"paddings": [], "pad_value": 0.0}, double_grad=True)


# ---- pad3d (Paddle's F.pad for 3-D to 5-D inputs, unsqueezed to 5-D) -------------------------------
_PAD3D_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def _pad3d_widths(x_shape, paddings, mode, data_format):
    """numpy.pad widths of every dim of the 5-D x: paddings lists [left, right, top, bottom, front, back]."""
    if mode not in _PAD3D_MODES:
        raise ValueError(f"op 'pad3d': mode must be one of {list(_PAD3D_MODES)}, received {mode!r}")
    if data_format not in ("NCDHW", "NDHWC"):
        raise ValueError(f"op 'pad3d': data_format must be 'NCDHW' or 'NDHWC', received {data_format!r}")
    if len(x_shape) != 5 or len(paddings) != 6 or any(p < 0 for p in paddings):
        raise ValueError(f"op 'pad3d': X must be 5-D and paddings 6 non-negative ints, received X of shape "
                         f"{list(x_shape)}, paddings {list(paddings)}")
    spatial = [(paddings[4], paddings[5]), (paddings[2], paddings[3]), (paddings[0], paddings[1])]
    widths = [(0, 0), (0, 0), *spatial] if data_format == "NCDHW" else [(0, 0), *spatial, (0, 0)]
    for n, (a, b) in zip(x_shape, widths):
        if n != -1 and (a or b) and (n == 0 or (mode == "reflect" and max(a, b) >= n)):
            raise ValueError(f"op 'pad3d': mode {mode!r} needs paddings smaller than the dim they pad, received "
                             f"({a}, {b}) for a dim of size {n}")
    return widths


def _pad3d_forward(xp, x, paddings_t, paddings, mode, value, data_format):
    widths = _pad3d_widths(x.shape, int_values(paddings_t, None, paddings), mode, data_format)
    if mode == "constant":
        return xp.pad(x, widths, mode="constant", constant_values=value)
    return xp.pad(x, widths, mode=_PAD3D_MODES[mode])


def _pad3d_infer(x, paddings_t, paddings, mode, value, data_format):
    if paddings_t is not None:  # read when the op runs: the padded (spatial) dims are unknown
        spatial = range(2, 5) if data_format == "NCDHW" else range(1, 4)
        return Meta(tuple(-1 if i in spatial else d for i, d in enumerate(x.shape)), x.dtype)
    widths = _pad3d_widths(x.shape, paddings, mode, data_format)
    return Meta(tuple(-1 if d == -1 else d + a + b for d, (a, b) in zip(x.shape, widths)), x.dtype)


def _pad3d_grad_forward(xp, x, dout, paddings_t, paddings, mode, value, data_format):
    """Each element of dout added into the element of x it copies: per padded dim, the inner part plus the pads
    folded back onto their sources (numpy.pad of the indices names them)."""
    dx = dout
    paddings = int_values(paddings_t, None, paddings)
    for axis, (before, after) in enumerate(_pad3d_widths(x.shape, paddings, mode, data_format)):
        if not (before or after):
            continue
        n = x.shape[axis]
        g = xp.moveaxis(dx, axis, 0)
        part = g[before:before + n].copy()
        if mode != "constant":
            source = np.pad(np.arange(n), (before, after), mode=_PAD3D_MODES[mode])
            for i in [*range(before), *range(before + n, before + n + after)]:
                part[int(source[i])] += g[i]
        dx = xp.moveaxis(part, 0, axis)
    return xp.ascontiguousarray(dx)


def _pad3d_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("pad3d_grad", g.input("X"), g.output_grad("Out"), g.input("Paddings"), **g.attrs))


def _pad3d_grad_grad(g):  # pad3d_grad is linear in DOut: its gradient pads again, with zeros
    if g.needs("DOut"):
        g.set_input_grad("DOut", g.op("pad3d", g.output_grad("DX"), g.input("Paddings"), **{**g.attrs, "value": 0.0}))


_PAD3D_ATTRS = {"paddings": [0] * 6, "mode": "constant", "value": 0.0, "data_format": "NCDHW"}
# paddings: the attr, or a 1-D int tensor of 6 (Paddings)
PAD3D = register_op("pad3d", inputs=("X", "Paddings"), outputs=("Out",), host_inputs=("Paddings",),
                    forward=_pad3d_forward, infer=_pad3d_infer, grad=_pad3d_grad, attrs=_PAD3D_ATTRS,
                    double_grad=True)
PAD3D_GRAD = register_op("pad3d_grad", inputs=("X", "DOut", "Paddings"), meta_inputs=("X",), outputs=("DX",),
                         host_inputs=("Paddings",), forward=_pad3d_grad_forward,
                         infer=lambda x, dout, paddings_t, **a: Meta(x.shape, dout.dtype),
                         grad=_pad3d_grad_grad, attrs=_PAD3D_ATTRS, double_grad=True)


# ---- one_hot (not differentiable) -----------------------------------------------------------------
def _one_hot_forward(xp, x, depth):
    if x.size and (int(x.min()) < 0 or int(x.max()) >= depth):
        raise ValueError(f"op 'one_hot': indices must lie in [0, {depth}), received values in "
                         f"[{int(x.min())}, {int(x.max())}]")
    return (x[..., None] == xp.arange(depth)).astype(np.float32)


def _one_hot_infer(x, depth):
    if x.dtype.kind not in "iu":
        raise TypeError(f"op 'one_hot': X must be an integer tensor, received {x.dtype}")
    if depth < 1:
        raise ValueError(f"op 'one_hot': depth (num_classes) must be >= 1, received {depth}")
    return Meta(tuple(x.shape) + (depth,), np.dtype(np.float32))


ONE_HOT = register_op("one_hot", inputs=("X",), outputs=("Out",), forward=_one_hot_forward,
                      infer=_one_hot_infer, attrs={"depth": 1},
                      host_sync=VALUE_CHECK)


# ---- tril_triu: the lower (or upper) triangle of the last two dims, the rest zeroed ----------------
def _tril_triu_forward(xp, x, diagonal, lower):
    if x.ndim < 2:
        raise ValueError(f"op 'tril_triu': X must be at least 2-D, received shape {list(x.shape)}")
    return xp.tril(x, diagonal) if lower else xp.triu(x, diagonal)


def _tril_triu_infer(x, diagonal, lower):
    if len(x.shape) < 2:
        raise ValueError(f"op 'tril_triu': X must be at least 2-D, received shape {list(x.shape)}")
    return Meta(tuple(x.shape), x.dtype)


def _tril_triu_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("tril_triu", g.output_grad("Out"), **g.attrs))


TRIL_TRIU = register_op("tril_triu", inputs=("X",), outputs=("Out",), forward=_tril_triu_forward,
                        infer=_tril_triu_infer, grad=_tril_triu_grad, attrs={"diagonal": 0, "lower": True},
                        double_grad=True)


# ---- shape / size: a tensor's dims (int32 [rank]) and element count (int64 []), as data ------------
SHAPE = register_op("shape", inputs=("Input",), outputs=("Out",),
                    forward=lambda xp, x: xp.asarray(x.shape, dtype=np.int32).reshape(x.ndim),
                    infer=lambda x: Meta((len(x.shape),), np.dtype(np.int32)))
SIZE = register_op("size", inputs=("Input",), outputs=("Out",),
                   forward=lambda xp, x: xp.asarray(x.size, dtype=np.int64),
                   infer=lambda x: Meta((), np.dtype(np.int64)))
