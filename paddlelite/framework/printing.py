"""How paddlelite objects print: Paddle's text, byte for byte.

Tensors follow the rules of Paddle's `paddle.tensor.to_string`: a header line, then the values
indented under its opening parenthesis; floats with `precision` decimals, except whole numbers
(`2.`); every element padded to the widest one, with a leading space where some element is
negative; more than `threshold` elements are summarised with `...`, keeping `edgeitems` at each end
of every dimension; rows of a 1-D tensor wrap at `linewidth`. Paddle measures the widest element
among the ones a summary would show even when it shows them all; so do we, so the text is the same.

Classes print under Paddle's names (`<class 'paddle.Tensor'>`) through `PaddleNamedType`, while
their `__module__` stays paddlelite's, so pickling and introspection find the real class.
"""
import numpy as np

from ..device import cuda
from .dtype import kind as dtype_kind
from .sparse import is_sparse


class _PrintOptions:
    precision = 8
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = False


OPTIONS = _PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None, linewidth=None):
    """Paddle's `paddle.set_printoptions`: how many decimals, when to summarise, line width."""
    given = {"precision": (precision, int), "threshold": (threshold, int), "edgeitems": (edgeitems, int),
             "linewidth": (linewidth, int), "sci_mode": (sci_mode, bool)}
    for name, (value, kind) in given.items():
        if value is not None and not isinstance(value, kind):
            raise TypeError(f"set_printoptions: {name} must be {kind.__name__}, received {type(value).__name__}")
    for name, (value, _) in given.items():
        if value is not None:
            setattr(OPTIONS, name, value)


def _item_text(v):
    """One element (a NumPy scalar) as Paddle writes it."""
    kind = dtype_kind(v.dtype)
    p = OPTIONS.precision
    style = "e" if OPTIONS.sci_mode else "f"
    if kind == "f":
        if not OPTIONS.sci_mode and np.ceil(v) == v:
            return f"{v:.0f}."
        return f"{v:.{p}{style}}"
    if kind == "c":
        sign = "+" if v.imag >= 0 else ""
        return f"({v.real:.{p}{style}}{sign}{v.imag:.{p}{style}}j)"
    return f"{v}"


def _padded(v, width, signed):
    text = _item_text(v)
    if len(text) >= width:
        return text
    if signed and not v < 0:
        return " " + text.ljust(width - 1)
    return text.ljust(width)


def _edges(a, k):
    """The elements a summary shows: the first and last k along every dimension longer than 2k."""
    for axis, n in enumerate(a.shape):
        if n > 2 * k:
            a = a.take(list(range(k)) + list(range(n - k, n)), axis=axis)
    return a


def _format(a, full_shape, indent, width, signed, summarise):
    """`a` holds the shown elements of an array of `full_shape` (its edges only, when summarised)."""
    if a.ndim == 0:
        return _padded(a[()], width, signed)
    k = OPTIONS.edgeitems
    n = a.shape[0]
    if summarise and full_shape[0] > 2 * k:
        rows = list(range(k)) + [None] + list(range(n - k, n))
    else:
        rows = range(n)
    if a.ndim == 1:
        items = ["..." if i is None else _padded(a[i], width, signed) for i in rows]
        per_line = max(1, (OPTIONS.linewidth - indent) // (width + 2))
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    parts = ["..." if i is None else _format(a[i], full_shape[1:], indent + 1, width, signed, summarise)
             for i in rows]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def array_to_string(array, indent):
    """The values part of a tensor's text; `array` is NumPy or CuPy (only the shown part is copied)."""
    summarise = array.size > OPTIONS.threshold
    k = OPTIONS.edgeitems
    shown = cuda.as_module(np, _edges(array, k) if summarise else array)
    edges = _edges(shown, k).ravel()
    signed = bool(edges.size) and bool((edges < 0).any())
    width = max((len(_item_text(v)) for v in edges), default=0)
    return _format(shown, array.shape, indent, width, signed, summarise)


def tensor_to_string(tensor, prefix="Tensor"):
    indent = len(prefix) + 1
    if is_sparse(tensor._data):
        return _sparse_to_string(tensor, prefix, indent)
    return (f"{prefix}(shape={list(tensor.shape)}, dtype={tensor.dtype.name}, place={tensor.place}, "
            f"stop_gradient={tensor.stop_gradient},\n{' ' * indent}{array_to_string(tensor._data, indent)})")


def _sparse_to_string(tensor, prefix, indent):
    """A sparse tensor: its index arrays and values, each under its name (Paddle prints the dtype as
    `paddle.float32` and ends the header and each part but the last with ', ')."""
    data = tensor._data
    names = ("indices", "values") if data.format == "coo" else ("crows", "cols", "values")
    parts = [f"{name}={array_to_string(array, indent + len(name) + 1)}" for name, array in zip(names, data.arrays())]
    return (f"{prefix}(shape={list(tensor.shape)}, dtype={tensor.dtype}, place={tensor.place}, "
            f"stop_gradient={tensor.stop_gradient}, \n{' ' * indent}" + f", \n{' ' * indent}".join(parts) + ")")


class PaddleNamedType(type):
    """Metaclass: a class that sets `_paddle_name` prints as Paddle's class of that name."""

    def __repr__(cls):
        name = cls.__dict__.get("_paddle_name")
        return super().__repr__() if name is None else f"<class '{name}'>"
