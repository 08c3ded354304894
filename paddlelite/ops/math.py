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
    return a.swapaxes(-1, -2) if a.ndim >= 2 else a  # the method skips NumPy's Python-level wrapper


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


# ---- linear: Out = X @ W (+ Bias), W is [in_features, out_features] ------------------------------------
def _linear_forward(xp, x, w, bias=None):
    out = xp.matmul(x, w)
    return out + bias if bias is not None else out


def _linear_infer(x, w, bias=None):
    if len(w.shape) != 2:
        raise ValueError(f"op 'linear': W must be 2-D [in_features, out_features], received shape {list(w.shape)}")
    out = _matmul_infer(x, w)
    if bias is not None:
        check_same_dtype("linear", x, bias, ("X", "Bias"))
        if len(bias.shape) != 1 or (bias.shape[0] != w.shape[1] and -1 not in (bias.shape[0], w.shape[1])):
            raise ValueError(f"op 'linear': Bias must be 1-D with {w.shape[1]} elements (out_features), "
                             f"received shape {list(bias.shape)}")
    return out


def _linear_grad(g):
    # one op in the forward, so one grad node: dX = dOut W^T, dW = X^T dOut (summed over batch dims), dBias
    x, w, dout = g.input("X"), g.input("W"), g.output_grad("Out")
    if g.needs("X"):
        g.set_input_grad("X", g.op("matmul", dout, w, transpose_y=True))
    if g.needs("W"):
        if len(g.shape(x)) == 1:  # a single sample: the outer product x dOut^T
            dw = g.op("matmul", g.op("unsqueeze", x, axis=[-1]), g.op("unsqueeze", dout, axis=[0]))
        else:
            dw = g.reduce_as(g.op("matmul", x, dout, transpose_x=True), w)
        g.set_input_grad("W", dw)
    if g.needs("Bias"):
        g.set_input_grad("Bias", g.reduce_as(dout, g.input("Bias")))


LINEAR = register_op("linear", inputs=("X", "W", "Bias"), outputs=("Out",), forward=_linear_forward,
                     infer=_linear_infer, grad=_linear_grad, optional_inputs=("Bias",), same_dtype=("X", "W"),
                     double_grad=True)


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


def check_float(op, x, slot="X"):
    """Shape rule helper: the input must be a floating-point tensor (no silent int -> float)."""
    if np.dtype(x.dtype).kind not in "fc":
        raise TypeError(f"op '{op}': input '{slot}' must be a floating-point tensor, received {np.dtype(x.dtype)}; "
                        "cast it first (e.g. x.astype('float32'))")
    return Meta(x.shape, x.dtype)


def _float_rule(name):
    return lambda x, **attrs: check_float(name, x)


def _float_only(name, fn):
    """Wrap a forward so an integer input fails (NumPy would silently return float64)."""
    def forward(xp, x, **attrs):
        if x.dtype.kind not in "fc":
            check_float(name, x)
        return fn(xp, x, **attrs)
    return forward


def _float_unary(name, fn, grad, attrs=None):
    return _unary(name, _float_only(name, fn), grad, infer=_float_rule(name), attrs=attrs)


def _zero_grad(g):
    """Piecewise-constant ops (floor, sign, ...): the gradient is zero almost everywhere, as in Paddle."""
    if g.needs("X"):
        g.set_input_grad("X", g.zeros_like(g.input("X")))


# out = x ** factor: dx = dout * factor * x ** (factor - 1)
def _pow_forward(xp, x, factor=1.0):
    if x.dtype.kind in "iu":
        if float(factor) != int(factor):
            raise TypeError(f"op 'pow': an integer tensor ({x.dtype}) needs an integer exponent, received {factor}; "
                            "cast the tensor to float first")
        return xp.power(x, x.dtype.type(int(factor)))
    return xp.power(x, x.dtype.type(factor))


def _pow_infer(x, factor=1.0):
    if np.dtype(x.dtype).kind in "iu" and float(factor) != int(factor):
        raise TypeError(f"op 'pow': an integer tensor ({x.dtype}) needs an integer exponent, received {factor}")
    if np.dtype(x.dtype).kind == "b":
        raise TypeError("op 'pow': input 'X' must be a numeric tensor, received bool")
    return Meta(x.shape, x.dtype)


def _pow_grad(g):
    if g.needs("X"):
        factor = g.attrs["factor"]
        deriv = g.op("scale", g.op("pow", g.input("X"), factor=factor - 1.0), scale=factor)
        g.set_input_grad("X", g.op("multiply", g.output_grad("Out"), deriv))


POW = _unary("pow", _pow_forward, _pow_grad, infer=_pow_infer, attrs={"factor": 1.0})


def _sqrt_grad(g):  # dx = dout / (2 sqrt(x))
    if g.needs("X"):
        g.set_input_grad("X", g.op("divide", g.op("scale", g.output_grad("Out"), scale=0.5), g.output("Out")))


def _rsqrt_grad(g):  # out = x^-1/2: dx = -dout * out^3 / 2
    if g.needs("X"):
        out = g.output("Out")
        cube = g.op("multiply", out, g.op("square", out))
        g.set_input_grad("X", g.op("multiply", g.output_grad("Out"), g.op("scale", cube, scale=-0.5)))


def _numeric_rule(name):
    def infer(x, **attrs):
        if np.dtype(x.dtype).kind == "b":
            raise TypeError(f"op '{name}': input 'X' must be a numeric tensor, received bool")
        return Meta(x.shape, x.dtype)
    return infer


SQRT = _float_unary("sqrt", lambda xp, x: xp.sqrt(x), _sqrt_grad)
RSQRT = _float_unary("rsqrt", lambda xp, x: (1 / xp.sqrt(x)).astype(x.dtype, copy=False), _rsqrt_grad)
SIGN = _unary("sign", lambda xp, x: xp.sign(x), _zero_grad, infer=_numeric_rule("sign"))
ABS = _unary("abs", lambda xp, x: xp.abs(x), _grad_times(lambda g: g.op("sign", g.input("X"))),
             infer=_numeric_rule("abs"))
SQUARE = _unary("square", lambda xp, x: xp.square(x),
                _grad_times(lambda g: g.op("scale", g.input("X"), scale=2.0)), infer=_numeric_rule("square"))
SIN = _float_unary("sin", lambda xp, x: xp.sin(x), _grad_times(lambda g: g.op("cos", g.input("X"))))
COS = _float_unary("cos", lambda xp, x: xp.cos(x),
                   _grad_times(lambda g: g.op("scale", g.op("sin", g.input("X")), scale=-1.0)))
TAN = _float_unary("tan", lambda xp, x: xp.tan(x),  # dx = dout * (1 + out^2)
                   _grad_times(lambda g: g.op("scale", g.op("square", g.output("Out")), bias=1.0)))
# asin' = 1/sqrt(1-x^2), acos' = -asin', atan' = 1/(1+x^2)
ASIN = _float_unary("asin", lambda xp, x: xp.arcsin(x), _grad_times(
    lambda g: g.op("rsqrt", g.op("scale", g.op("square", g.input("X")), scale=-1.0, bias=1.0))))
ACOS = _float_unary("acos", lambda xp, x: xp.arccos(x), _grad_times(
    lambda g: g.op("scale", g.op("rsqrt", g.op("scale", g.op("square", g.input("X")), scale=-1.0, bias=1.0)),
                   scale=-1.0)))
ATAN = _float_unary("atan", lambda xp, x: xp.arctan(x), _grad_times(
    lambda g: g.op("reciprocal", g.op("scale", g.op("square", g.input("X")), bias=1.0))))
SINH = _float_unary("sinh", lambda xp, x: xp.sinh(x), _grad_times(lambda g: g.op("cosh", g.input("X"))))
COSH = _float_unary("cosh", lambda xp, x: xp.cosh(x), _grad_times(lambda g: g.op("sinh", g.input("X"))))


def _reciprocal_grad(g):  # dx = -dout * out^2
    if g.needs("X"):
        g.set_input_grad("X", g.op("multiply", g.output_grad("Out"),
                                   g.op("scale", g.op("square", g.output("Out")), scale=-1.0)))


RECIPROCAL = _float_unary("reciprocal", lambda xp, x: (1 / x).astype(x.dtype, copy=False), _reciprocal_grad)
LOG1P = _float_unary("log1p", lambda xp, x: xp.log1p(x), lambda g: g.needs("X") and g.set_input_grad(
    "X", g.op("divide", g.output_grad("Out"), g.op("scale", g.input("X"), bias=1.0))))
LOG2 = _float_unary("log2", lambda xp, x: xp.log2(x), lambda g: g.needs("X") and g.set_input_grad(
    "X", g.op("divide", g.output_grad("Out"), g.op("scale", g.input("X"), scale=float(np.log(2.0))))))
LOG10 = _float_unary("log10", lambda xp, x: xp.log10(x), lambda g: g.needs("X") and g.set_input_grad(
    "X", g.op("divide", g.output_grad("Out"), g.op("scale", g.input("X"), scale=float(np.log(10.0))))))
EXPM1 = _float_unary("expm1", lambda xp, x: xp.expm1(x),
                     _grad_times(lambda g: g.op("scale", g.output("Out"), bias=1.0)))
FLOOR = _float_unary("floor", lambda xp, x: xp.floor(x), _zero_grad)
CEIL = _float_unary("ceil", lambda xp, x: xp.ceil(x), _zero_grad)
ROUND = _float_unary("round", lambda xp, x: xp.round(x), _zero_grad)  # half to even, as Paddle's CPU kernel
TRUNC = _float_unary("trunc", lambda xp, x: xp.trunc(x), _zero_grad)


# ---- erf: no scipy; a positive-term series below 2.5, the erfc continued fraction above -----------
_SQRT_PI = float(np.sqrt(np.pi))


def erf_array(xp, x):
    """erf of a float array to ~1e-15 (computed in float64, returned in x's dtype)."""
    if xp is not np:
        try:
            from cupyx.scipy.special import erf as _cupy_erf
            return _cupy_erf(x)
        except ImportError:
            pass
    a = xp.abs(x.astype(np.float64))
    s = xp.minimum(a, 2.5)
    s2 = s * s
    term = s.copy()
    total = s.copy()
    for n in range(1, 45):  # erf(s) = 2/sqrt(pi) exp(-s^2) sum 2^n s^(2n+1) / (2n+1)!!
        term *= (2.0 / (2 * n + 1)) * s2
        total += term
    small = (2.0 / _SQRT_PI) * xp.exp(-s2) * total
    c = xp.maximum(a, 2.5)
    frac = c.copy()
    for k in range(30, 0, -1):  # erfc(c) = exp(-c^2) / (sqrt(pi) (c + 1/2 / (c + 1 / (c + 3/2 / ...))))
        frac = c + (k / 2.0) / frac
    large = 1.0 - xp.exp(-c * c) / (_SQRT_PI * frac)
    return (xp.sign(x) * xp.where(a < 2.5, small, large)).astype(x.dtype, copy=False)


def _erf_grad(g):  # erf'(x) = 2/sqrt(pi) exp(-x^2)
    if g.needs("X"):
        deriv = g.op("scale", g.op("exp", g.op("scale", g.op("square", g.input("X")), scale=-1.0)),
                     scale=2.0 / _SQRT_PI)
        g.set_input_grad("X", g.op("multiply", g.output_grad("Out"), deriv))


ERF = _float_unary("erf", erf_array, _erf_grad)


# ---- non-differentiable predicates -----------------------------------------------------------------
def _predicate(name, fn, float_only=False):
    def infer(x, **attrs):
        if float_only:
            check_float(name, x)
        return Meta(x.shape, np.dtype(bool))
    return register_op(name, inputs=("X",), outputs=("Out",), forward=fn, infer=infer)


ISNAN = _predicate("isnan", lambda xp, x: xp.isnan(x) if x.dtype.kind in "fc" else xp.zeros(x.shape, bool))
ISINF = _predicate("isinf", lambda xp, x: xp.isinf(x) if x.dtype.kind in "fc" else xp.zeros(x.shape, bool))
ISFINITE = _predicate("isfinite", lambda xp, x: xp.isfinite(x) if x.dtype.kind in "fc" else xp.ones(x.shape, bool))
LOGICAL_NOT = _predicate("logical_not", lambda xp, x: xp.logical_not(x))


def _bitwise_not_infer(x, **attrs):
    if np.dtype(x.dtype).kind not in "iub":
        raise TypeError(f"op 'bitwise_not': input 'X' must be an integer or bool tensor, received {x.dtype}")
    return Meta(x.shape, x.dtype)


BITWISE_NOT = register_op("bitwise_not", inputs=("X",), outputs=("Out",), forward=lambda xp, x: xp.invert(x),
                          infer=_bitwise_not_infer)


# ---- clip: out = min(max(x, min), max); the gradient passes where min < x < max (Paddle's rule) -------
def _clip_forward(xp, x, min=float("-inf"), max=float("inf")):
    if x.dtype.kind == "b":
        raise TypeError("op 'clip': input 'X' must be a numeric tensor, received bool")
    out = x
    if min != float("-inf"):
        out = xp.maximum(out, xp.asarray(min).astype(x.dtype))
    if max != float("inf"):
        out = xp.minimum(out, xp.asarray(max).astype(x.dtype))
    return out.copy() if out is x else out


def _clip_infer(x, min=float("-inf"), max=float("inf")):
    if np.dtype(x.dtype).kind == "b":
        raise TypeError("op 'clip': input 'X' must be a numeric tensor, received bool")
    if min > max:
        raise ValueError(f"op 'clip': min ({min}) must not exceed max ({max})")
    return Meta(x.shape, x.dtype)


def _clip_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("clip_grad", g.input("X"), g.output_grad("Out"), min=g.attrs["min"],
                                   max=g.attrs["max"]))


def _clip_grad_forward(xp, x, dout, min=float("-inf"), max=float("inf")):
    inside = (x > min) & (x < max)
    return xp.where(inside, dout, xp.zeros((), dout.dtype))


def _clip_grad_grad(g):  # linear in DOut with the same mask; X only selects
    if g.needs("DOut"):
        g.set_input_grad("DOut", g.op("clip_grad", g.input("X"), g.output_grad("Out"), min=g.attrs["min"],
                                      max=g.attrs["max"]))


CLIP = register_op("clip", inputs=("X",), outputs=("Out",), forward=_clip_forward, infer=_clip_infer,
                   grad=_clip_grad, attrs={"min": float("-inf"), "max": float("inf")}, double_grad=True)
CLIP_GRAD = register_op("clip_grad", inputs=("X", "DOut"), outputs=("Out",), forward=_clip_grad_forward,
                        infer=lambda x, dout, **a: Meta(dout.shape, dout.dtype), grad=_clip_grad_grad,
                        attrs={"min": float("-inf"), "max": float("inf")}, nondiff_inputs=("X",),
                        same_dtype=("X", "DOut"), double_grad=True)


# ---- where(Condition, X, Y), broadcasting all three; the condition only selects ---------------------
def _where_infer(cond, x, y):
    if np.dtype(cond.dtype) != np.dtype(bool):
        raise TypeError(f"op 'where': input 'Condition' must be a bool tensor, received {np.dtype(cond.dtype)}")
    check_same_dtype("where", x, y)
    shape = broadcast_shapes("where", x.shape, y.shape)
    return Meta(broadcast_shapes("where", cond.shape, shape, names=("Condition", "X/Y")), x.dtype)


def _where_forward(xp, cond, x, y):
    if cond.dtype != np.bool_:
        _where_infer(cond, x, y)
    return xp.where(cond, x, y)


def _where_grad(g):
    cond, dout = g.input("Condition"), g.output_grad("Out")
    zeros = g.zeros_like(dout)
    if g.needs("X"):
        g.set_input_grad("X", g.reduce_as(g.op("where", cond, dout, zeros), g.input("X")))
    if g.needs("Y"):
        g.set_input_grad("Y", g.reduce_as(g.op("where", cond, zeros, dout), g.input("Y")))


WHERE = register_op("where", inputs=("Condition", "X", "Y"), outputs=("Out",), forward=_where_forward,
                    infer=_where_infer, grad=_where_grad, nondiff_inputs=("Condition",), same_dtype=("X", "Y"),
                    double_grad=True)


# ---- floor_divide / remainder: integer or float, not differentiable (as in Paddle) ------------------
def _int_binary(name, fn):
    def infer(x, y, **attrs):
        check_same_dtype(name, x, y)
        if np.dtype(x.dtype).kind == "b":
            raise TypeError(f"op '{name}': inputs must be numeric tensors, received bool")
        return Meta(broadcast_shapes(name, x.shape, y.shape), x.dtype)

    def forward(xp, x, y):
        if x.dtype.kind == "b":
            infer(x, y)
        if x.dtype.kind in "iu" and bool((y == 0).any()):
            raise ZeroDivisionError(f"op '{name}': integer division by zero (input 'Y' holds a 0)")
        return fn(xp, x, y)
    return register_op(name, inputs=("X", "Y"), outputs=("Out",), forward=forward, infer=infer,
                       same_dtype=("X", "Y"))


FLOOR_DIVIDE = _int_binary("floor_divide", lambda xp, x, y: xp.floor_divide(x, y))
REMAINDER = _int_binary("remainder", lambda xp, x, y: xp.remainder(x, y))  # sign of y, as Python's %
