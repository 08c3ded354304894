"""Paddle's products built on matmul: addmm, baddbmm, mv, outer/ger, inner, tensordot."""
from . import manipulation as _manip
from . import math as _math
from . import reduce as _reduce
from .aliases import _deliver
from .manipulation import _int, _int_list
from .math import _check_tensor, check_static_dtype


def _scaled_sum(input, product, beta, alpha):
    beta, alpha = float(beta), float(alpha)
    product = product if alpha == 1.0 else _math.scale(product, alpha)
    return _math.add(input if beta == 1.0 else _math.scale(input, beta), product)


def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """beta * input + alpha * (x @ y) for 2-D x [M, K] and y [K, N]; input broadcasts to [M, N]."""
    for arg, t in (("input", input), ("x", x), ("y", y)):
        _check_tensor(t, "addmm", arg)
    if len(x.shape) != 2 or len(y.shape) != 2 or x.shape[1] != y.shape[0]:
        raise ValueError(f"addmm: x [M, K] and y [K, N] must be 2-D and agree on K, received shapes "
                         f"{list(x.shape)} and {list(y.shape)}")
    return _scaled_sum(input, _math.matmul(x, y), beta, alpha)


def baddbmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """beta * input + alpha * bmm(x, y) for x [B, M, K] and y [B, K, N]."""
    for arg, t in (("input", input), ("x", x), ("y", y)):
        _check_tensor(t, "baddbmm", arg)
    return _scaled_sum(input, _math.bmm(x, y), beta, alpha)


def mv(x, vec, name=None):
    """The matrix-vector product of 2-D x [M, N] and 1-D vec [N]."""
    _check_tensor(x, "mv")
    _check_tensor(vec, "mv", "vec")
    if len(x.shape) != 2 or len(vec.shape) != 1 or x.shape[1] != vec.shape[0]:
        raise ValueError(f"mv: x must be 2-D [M, N] and vec 1-D [N], received shapes {list(x.shape)} and "
                         f"{list(vec.shape)}")
    return _math.matmul(x, vec)


def outer(x, y, name=None, *, out=None):
    """The outer product of x and y, each flattened: [x.numel(), y.numel()]."""
    _check_tensor(x, "outer")
    _check_tensor(y, "outer", "y")
    return _deliver(_math.multiply(_manip.reshape(x, [-1, 1]), _manip.reshape(y, [1, -1])), out)


def ger(x, y, name=None, *, out=None):
    """Paddle's other name for outer."""
    return outer(x, y, out=out)


def inner(x, y, name=None):
    """Sum over the last axes of x and y: shape x.shape[:-1] + y.shape[:-1] (a product for 0-D operands)."""
    for t, arg in ((x, "x"), (y, "y")):
        _check_tensor(t, "inner", arg)
        check_static_dtype(t, "inner", arg, ("float16", "float32", "float64"))
    if not x.shape or not y.shape:
        return _math.multiply(x, y)
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"inner: the last dims of x {list(x.shape)} and y {list(y.shape)} must agree")
    k = x.shape[-1]
    flat = _math.matmul(_manip.reshape(x, [-1, k]), _manip.reshape(y, [-1, k]), transpose_y=True)
    return _manip.reshape(flat, list(x.shape[:-1]) + list(y.shape[:-1]))


def _axes_list(value, arg):
    """A list of axes given as ints, or (eager) as an int Tensor."""
    if hasattr(value, "numpy"):
        if getattr(value, "_is_variable", False):
            raise TypeError("tensordot: axes given as a Tensor are not available in static graph mode; pass ints, "
                            "tuples or lists")
        value = value.numpy().tolist()
    return value if isinstance(value, list) and value and isinstance(value[0], list) else \
        _int_list(value, "tensordot", arg)


def tensordot(x, y, axes=2, name=None):
    """Contract x's `axes[0]` with y's `axes[1]` (an int n: x's last n with y's first n; one flat list: the same axes
    of both; lists of unequal length: the shorter one continues with the longer one's entries, as Paddle's). A
    contracted dim of size 1 on one side is summed out on the other."""
    _check_tensor(x, "tensordot")
    _check_tensor(y, "tensordot", "y")
    nx, ny = len(x.shape), len(y.shape)
    if isinstance(axes, (list, tuple)) or hasattr(axes, "numpy"):
        axes = _axes_list(axes, "axes") if hasattr(axes, "numpy") else list(axes)
        if axes and (isinstance(axes[0], (list, tuple)) or hasattr(axes[0], "numpy")):
            ax = _axes_list(axes[0], "axes[0]")
            ay = _axes_list(axes[1], "axes[1]") if len(axes) > 1 else []
        else:
            ax, ay = _int_list(axes, "tensordot", "axes"), []
    else:
        n = _int(axes, "tensordot", "axes")
        if n < 0:  # Paddle's classes: an assertion, then the index its loop runs past
            raise AssertionError(f"tensordot: the 'axes' should not be negative, but received axes={n}")
        if n > min(nx, ny):
            raise IndexError(f"tensordot: axes={n} must be in [0, {min(nx, ny)}] for shapes {list(x.shape)} and "
                             f"{list(y.shape)}")
        ax, ay = list(range(nx - n, nx)), list(range(n))
    ax, ay = ax + ay[len(ax):], ay + ax[len(ay):]
    ax, ay = [a % nx for a in ax], [a % ny for a in ay]
    for a, b in zip(ax, ay):
        if x.shape[a] == 1 and y.shape[b] != 1:  # as Paddle: the other side's dim is summed to size 1
            y = _reduce.sum(y, b, keepdim=True)
        elif y.shape[b] == 1 and x.shape[a] != 1:
            x = _reduce.sum(x, a, keepdim=True)
        elif x.shape[a] != y.shape[b]:  # AssertionError, as Paddle's
            raise AssertionError(f"tensordot: the dimensional size of x and y must match, but x has size "
                                 f"{x.shape[a]} in dim {a} while y has size {y.shape[b]} in dim {b}")
    fx, fy = [a for a in range(nx) if a not in ax], [b for b in range(ny) if b not in ay]
    k = 1
    for a in ax:
        k *= x.shape[a]
    x2 = _manip.reshape(_manip.transpose(x, fx + ax), [-1, k])
    y2 = _manip.reshape(_manip.transpose(y, ay + fy), [k, -1])
    return _manip.reshape(_math.matmul(x2, y2), [x.shape[a] for a in fx] + [y.shape[b] for b in fy])


__all__ = ["addmm", "baddbmm", "inner", "mv", "outer", "tensordot"]  # ger: top-level only, as in Paddle
TENSOR_METHODS = [*__all__, "ger"]
