"""Shape-and-dtype rules shared by op families. Shapes are tuples; -1 means unknown (static batch dims).

A rule raises ValueError/TypeError naming the op and the argument when the inputs cannot work.
"""
import numpy as np

from ..framework.dtype import kind as dtype_kind
from .registry import Meta


def broadcast_shapes(op, a, b, names=("X", "Y")):
    """NumPy broadcasting of two shapes, with -1 treated as 'unknown, assumed compatible'."""
    out = []
    for k in range(1, max(len(a), len(b)) + 1):
        da = a[-k] if k <= len(a) else 1
        db = b[-k] if k <= len(b) else 1
        if da == db or db == 1:
            out.append(da)
        elif da == 1:
            out.append(db)
        elif da == -1 or db == -1:
            out.append(max(da, db))
        else:
            raise ValueError(f"op '{op}': shapes of '{names[0]}' {list(a)} and '{names[1]}' {list(b)} cannot be "
                             f"broadcast together (dim {-k}: {da} vs {db})")
    return tuple(reversed(out))


def axis_padding(op, a, b, axis, names=("X", "Y")):
    """Paddle's `axis` attribute of the elementwise ops: the operand of lower rank lines its dims up with the
    other's from dim `axis` on (-1: with its last dims, NumPy's rule). -> how many trailing 1-dims each shape
    takes so that NumPy broadcasting then lines them up so (one of the two is 0)."""
    diff = abs(len(a) - len(b))
    if axis == -1 or diff == 0:
        return 0, 0
    start = axis + diff + 1 if axis < 0 else axis  # Paddle counts a negative axis from the last aligned start
    if not 0 <= start <= diff:
        raise ValueError(f"op '{op}': axis must be in [{-diff - 1}, {diff}] for '{names[0]}' of shape {list(a)} "
                         f"and '{names[1]}' of shape {list(b)}, received {axis}")
    return (diff - start, 0) if len(a) < len(b) else (0, diff - start)


def padded(shape, ones):
    return tuple(shape) + (1,) * ones


def known_shapes_differ(shape, expected):
    """Whether two shapes differ in rank or in a dim both know (-1: unknown, matches any size)."""
    return len(shape) != len(expected) or any(a != b and -1 not in (a, b) for a, b in zip(shape, expected))


def check_same_dtype(op, x, y, names=("X", "Y")):
    if x.dtype != y.dtype:
        raise TypeError(f"op '{op}': input '{names[1]}' has dtype {y.dtype} but '{names[0]}' has {x.dtype}; "
                        "cast one of them explicitly")


def same_as_first(x, *rest, **attrs):
    """Output shaped and typed like the first input (unary elementwise ops)."""
    return Meta(x.shape, x.dtype)


def normalize_axis(op, axis, ndim, name="axis"):
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"op '{op}': {name} must be an int, received {type(axis).__name__}")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"op '{op}': {name}={axis} is out of range for a {ndim}-D input "
                         f"(expected -{max(ndim, 1)} <= {name} < {max(ndim, 1)})")
    return axis % max(ndim, 1)


def normalize_axes(op, axis, ndim, name="axis"):
    """None/int/list -> sorted tuple of non-negative axes (None = all)."""
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (list, tuple)) else [axis]
    out = sorted({normalize_axis(op, a, ndim, name) for a in axes})
    if len(out) != len(axes):
        raise ValueError(f"op '{op}': {name}={list(axes)} repeats an axis")
    return tuple(out)


def check_float(op, x, slot="X", real=False):
    """The input must be a floating-point (`real`: not complex) tensor, no silent int -> float: THE
    float-dtype check of ops."""
    if dtype_kind(np.dtype(x.dtype)) not in ("f" if real else "fc"):
        kind = "real floating-point" if real else "floating-point"
        raise TypeError(f"op '{op}': input '{slot}' must be a {kind} tensor, received {np.dtype(x.dtype)}; "
                        "cast it first (e.g. x.astype('float32'))")
    return Meta(x.shape, x.dtype)


def float_rule(name):
    """Shape rule of an elementwise op on floats: the output is shaped and typed like its float input."""
    return lambda x, **attrs: check_float(name, x)


def float_only(name, fn):
    """Wrap a forward so an integer input fails (NumPy would silently compute in float64)."""
    def forward(xp, x, **attrs):
        if x.dtype.kind not in "fc":
            check_float(name, x)
        return fn(xp, x, **attrs)
    forward.__wrapped__ = fn  # inspect.signature shows the forward's own
    return forward
