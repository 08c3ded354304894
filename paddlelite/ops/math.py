"""Scale, matmul, and the unary math ops (exp, log, sqrt, ...)."""
import numpy as np

from .registry import Meta, register_op
from .shape_rules import broadcast_shapes, check_same_dtype, same_as_first


# ---- scale: out = scale * x + bias (or scale * (x + bias)) ---------------------------------------
def _scale_forward(xp, x, scale=1.0, bias=0.0, bias_after_scale=True):
    if bias_after_scale:
        out = x * scale + bias if bias else x * scale
    else:
        out = (x + bias) * scale
    return out.astype(x.dtype, copy=False)


def _scale_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("scale", g.output_grad("Out"), scale=g.attrs["scale"]))


SCALE = register_op("scale", inputs=("X",), outputs=("Out",), forward=_scale_forward, infer=same_as_first,
                    grad=_scale_grad, attrs={"scale": 1.0, "bias": 0.0, "bias_after_scale": True},
                    double_grad=True)


# ---- matmul ---------------------------------------------------------------------------------------
def _mT(xp, a):
    return xp.swapaxes(a, -1, -2) if a.ndim >= 2 else a


def _matmul_forward(xp, x, y, transpose_x=False, transpose_y=False):
    if transpose_x:
        x = _mT(xp, x)
    if transpose_y:
        y = _mT(xp, y)
    return xp.asarray(xp.matmul(x, y))


def _matmul_infer(x, y, transpose_x=False, transpose_y=False):
    check_same_dtype("matmul", x, y)
    xs, ys = list(x.shape), list(y.shape)
    if not xs or not ys:
        raise ValueError(f"op 'matmul': inputs must be at least 1-D, received shapes {xs} and {ys}")
    if transpose_x and len(xs) >= 2:
        xs[-1], xs[-2] = xs[-2], xs[-1]
    if transpose_y and len(ys) >= 2:
        ys[-1], ys[-2] = ys[-2], ys[-1]
    x1, y1 = len(xs) == 1, len(ys) == 1
    if x1:
        xs = [1] + xs
    if y1:
        ys = ys + [1]
    k1, k2 = xs[-1], ys[-2]
    if k1 != k2 and k1 != -1 and k2 != -1:
        raise ValueError(f"op 'matmul': the contracted dims differ: X {list(x.shape)} (transpose_x={transpose_x}) "
                         f"has {k1}, Y {list(y.shape)} (transpose_y={transpose_y}) has {k2}")
    batch = broadcast_shapes("matmul", tuple(xs[:-2]), tuple(ys[:-2]))
    out = list(batch) + ([] if x1 else [xs[-2]]) + ([] if y1 else [ys[-1]])
    return Meta(tuple(out), x.dtype)


def _matmul_grad(g):
    # With A = op(x), B = op(y), out = A @ B: dA = dout @ B^T, dB = A^T @ dout, then undo the transposes.
    # 1-D operands are lifted to 2-D by reshaping through `unsqueeze`/`squeeze` ops in the grad.
    x, y, dout = g.input("X"), g.input("Y"), g.output_grad("Out")
    tx, ty = g.attrs["transpose_x"], g.attrs["transpose_y"]
    xs, ys = g.shape(x), g.shape(y)
    if len(xs) == 1 or len(ys) == 1:
        x2 = g.op("unsqueeze", x, axis=[0]) if len(xs) == 1 else x
        y2 = g.op("unsqueeze", y, axis=[-1]) if len(ys) == 1 else y
        d2 = dout
        if len(xs) == 1:
            d2 = g.op("unsqueeze", d2, axis=[-2 if len(ys) > 1 else 0])
        if len(ys) == 1:
            d2 = g.op("unsqueeze", d2, axis=[-1])
        tx = tx and len(xs) > 1
        ty = ty and len(ys) > 1
        dx, dy = _matmul_grads_2d(g, x2, y2, d2, tx, ty)
        if dx is not None:
            dx = g.op("reshape", g.reduce_as(dx, x2), shape=list(xs)) if len(xs) == 1 else g.reduce_as(dx, x)
            g.set_input_grad("X", dx)
        if dy is not None:
            dy = g.op("reshape", g.reduce_as(dy, y2), shape=list(ys)) if len(ys) == 1 else g.reduce_as(dy, y)
            g.set_input_grad("Y", dy)
        return
    dx, dy = _matmul_grads_2d(g, x, y, dout, tx, ty)
    if dx is not None:
        g.set_input_grad("X", g.reduce_as(dx, x))
    if dy is not None:
        g.set_input_grad("Y", g.reduce_as(dy, y))


def _matmul_grads_2d(g, x, y, dout, tx, ty):
    dx = dy = None
    if g.needs("X"):
        # dA = dout @ B^T where B = y^T if ty; dx = dA (or dA^T if tx)
        if tx:
            dx = g.op("matmul", y, dout, transpose_x=ty, transpose_y=True)
        else:
            dx = g.op("matmul", dout, y, transpose_x=False, transpose_y=not ty)
    if g.needs("Y"):
        if ty:
            dy = g.op("matmul", dout, x, transpose_x=True, transpose_y=tx)
        else:
            dy = g.op("matmul", x, dout, transpose_x=not tx, transpose_y=False)
    return dx, dy


MATMUL = register_op("matmul", inputs=("X", "Y"), outputs=("Out",), forward=_matmul_forward,
                     infer=_matmul_infer, grad=_matmul_grad, same_dtype=("X", "Y"),
                     attrs={"transpose_x": False, "transpose_y": False}, double_grad=True)


# ---- unary math -----------------------------------------------------------------------------------
def _unary(name, forward, grad, infer=same_as_first, attrs=None):
    return register_op(name, inputs=("X",), outputs=("Out",), forward=forward, infer=infer, grad=grad,
                       attrs=attrs, double_grad=grad is not None)


def _grad_times(factor_fn):
    """Grad maker for out = f(x) with dx = dout * factor_fn(g) (factor built from g's refs)."""
    def grad(g):
        if g.needs("X"):
            g.set_input_grad("X", g.op("multiply", g.output_grad("Out"), factor_fn(g)))
    return grad


EXP = _unary("exp", lambda xp, x: xp.exp(x), _grad_times(lambda g: g.output("Out")))
LOG = _unary("log", lambda xp, x: xp.log(x), lambda g: g.needs("X") and g.set_input_grad(
    "X", g.op("divide", g.output_grad("Out"), g.input("X"))))
