"""Scale, matmul, and the unary math ops (exp, log, sqrt, ...)."""
import numpy as np

from ..device import cublas, threads
from ..device.cuda import cupyx_for
from ..framework.dtype import LOW_PRECISION, compute_dtype
from ..framework.flags import TF32, flag
from ..framework.dtype import kind as dtype_kind
from .complex import REAL_OF
from .elementwise import binary_rule, with_axis
from .formula import (conj, conj_if_complex, cos, cosh, exp, imag, isfinite, make_complex, matmul, real, reciprocal,
                      reshape, reshape_as, rsqrt, sign, sin, sinh, unsqueeze, where, zeros_like)
from .launch.generated import f32
from .registry import Meta, register_op
from .shape_rules import broadcast_shapes, check_same_dtype, float_only, float_rule, same_as_first


# ---- scale: out = scale * x + bias (or scale * (x + bias)) ---------------------------------------
def _scale_forward(xp, x, scale_t, scale, bias, bias_after_scale):
    if scale_t is not None:  # a 1-element tensor, read on the device
        scale = scale_t.reshape(()).astype(x.dtype)
    if bias_after_scale:
        out = x * scale + bias if bias else x * scale
    else:
        out = (x + bias) * scale
    return out.astype(x.dtype, copy=False)


def _scale_expr(x, scale_t, scale, bias, bias_after_scale):
    s, b = f32(scale), f32(bias)
    if scale_t is not None or s is None or b is None:
        return None
    if bias_after_scale:
        return f"({x} * {s} + {b})" if bias else f"({x} * {s})"
    return f"(({x} + {b}) * {s})"


def _scale_grad(g):
    if g.needs("X"):
        scale_t = g.input("ScaleTensor")
        g.set_input_grad("X", g.output_grad("Out") * g.attrs["scale"] if scale_t is None else
                         g.op("scale", g.output_grad("Out"), scale_t, bias=0.0))


# the factor: the attr, or a 1-element tensor (ScaleTensor; no gradient, as Paddle's)
SCALE = register_op("scale", inputs=("X", "ScaleTensor"), outputs=("Out",), optional_inputs=("ScaleTensor",),
                    nondiff_inputs=("ScaleTensor",), forward=_scale_forward, infer=lambda x, scale_t, **a: x,
                    grad=_scale_grad, attrs={"scale": 1.0, "bias": 0.0, "bias_after_scale": True},
                    double_grad=True, elementwise=_scale_expr)


# ---- matmul ---------------------------------------------------------------------------------------
def _mT(xp, a):
    return a.swapaxes(-1, -2) if a.ndim >= 2 else a  # the method skips NumPy's Python-level wrapper


def matmul_array(xp, x, y, tf32_switch="cublas", bias=None):
    """x @ y (+ bias, over the last dim); float16/bfloat16 multiply-accumulate in float32 and round once, as Paddle's
    kernels. On a GPU through cuBLAS's own handle (device/cublas.py: a CUDA-graph capture can hold it; a bias in
    cuBLASLt's epilogue), float32 in TF32 while Paddle's `tf32_switch` allows it ("cublas" for the matmul family,
    "cudnn" for convolutions)."""
    if x.ndim > 2 and y.ndim == 2 and x.flags.c_contiguous:
        # a batch of rows times one matrix is one GEMM over the flattened rows: NumPy would run a GEMM per
        # batch entry (10-40% slower at [16, 64, 256] @ [256, 256], most with a transposed y)
        rows = x.reshape(_prod(x.shape[:-1]), x.shape[-1])
        return matmul_array(xp, rows, y, tf32_switch, bias).reshape(x.shape[:-1] + y.shape[-1:])
    if xp is not np:
        out = cublas.matmul(xp, x, y, TF32[tf32_switch], flag("FLAGS_gemm_use_half_precision_compute_type"), bias)
        if out is not None:
            return out
        out = xp.matmul(x, y)  # integers and bool: CuPy's kernels, without cuBLAS
    elif x.dtype in LOW_PRECISION:  # compute_dtype(x.dtype) is float32, inlined: this runs for every matmul
        out = matmul_array(xp, x.astype(compute_dtype(x.dtype)), y.astype(compute_dtype(x.dtype))).astype(x.dtype)
    # x.size * n bounds one product's multiply-adds from above: the cheap test every small product stops at
    elif x.size * y.shape[-1] >= threads.wide_from and threads.large_product(x, y):
        with threads.wide():  # a large product on the CPU runs on the free cores (device/threads.py)
            out = np.matmul(x, y)
    else:
        out = xp.matmul(x, y)
        out = out if out.ndim else xp.asarray(out)  # 1-D @ 1-D gives NumPy a scalar
    if bias is not None:
        out += bias  # out is a fresh array
    return out


def _matmul_forward(xp, x, y, transpose_x, transpose_y):
    if transpose_x:
        x = _mT(xp, x)
    if transpose_y:
        y = _mT(xp, y)
    return matmul_array(xp, x, y)


def _matmul_infer(x, y, transpose_x, transpose_y):
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
        x2 = unsqueeze(x, axis=[0]) if len(xs) == 1 else x
        y2 = unsqueeze(y, axis=[-1]) if len(ys) == 1 else y
        d2 = dout
        if len(xs) == 1:
            d2 = unsqueeze(d2, axis=[-2 if len(ys) > 1 else 0])
        if len(ys) == 1:
            d2 = unsqueeze(d2, axis=[-1])
        tx = tx and len(xs) > 1
        ty = ty and len(ys) > 1
        dx, dy = _matmul_grads_2d(g, x2, y2, d2, tx, ty)
        if dx is not None:
            dx = reshape(g.reduce_as(dx, x2), shape=list(xs)) if len(xs) == 1 else g.reduce_as(dx, x)
            g.set_input_grad("X", dx)
        if dy is not None:
            dy = reshape(g.reduce_as(dy, y2), shape=list(ys)) if len(ys) == 1 else g.reduce_as(dy, y)
            g.set_input_grad("Y", dy)
        return
    # a 2-D y shared by a batch of x rows: its gradient is one GEMM over the flattened rows
    shared_y = len(ys) == 2 and len(xs) > 2 and not tx and -1 not in ys
    dx, dy = _matmul_grads_2d(g, x, y, dout, tx, ty, need_y=not shared_y)
    if shared_y and g.needs("Y"):
        k, n = (ys[1], ys[0]) if ty else ys
        xc = conj_if_complex(x)
        dy = _rows_product(dout, xc, n, k) if ty else _rows_product(xc, dout, k, n)
    batched = len(xs) > 2 or len(ys) > 2  # only batch dims can have been broadcast
    if dx is not None:
        g.set_input_grad("X", g.reduce_as(dx, x) if batched else dx)
    if dy is not None:
        g.set_input_grad("Y", g.reduce_as(dy, y) if batched and not shared_y else dy)


def _rows_product(a, b, a_cols, b_cols):
    """a^T b with the batch dims of a and b flattened into rows: the gradient of a weight that every row of a
    batch shares, as one GEMM (no batch of products summed afterwards)."""
    return matmul(reshape(a, shape=[-1, a_cols]), reshape(b, shape=[-1, b_cols]), transpose_x=True)


def _matmul_grads_2d(g, x, y, dout, tx, ty, need_y=True):
    dx = dy = None
    x, y = conj_if_complex(x), conj_if_complex(y)
    if g.needs("X"):
        # dA = dout @ B^T where B = y^T if ty; dx = dA (or dA^T if tx)
        if tx:
            dx = matmul(y, dout, transpose_x=ty, transpose_y=True)
        else:
            dx = matmul(dout, y, transpose_x=False, transpose_y=not ty)
    if need_y and g.needs("Y"):
        if ty:
            dy = matmul(dout, x, transpose_x=True, transpose_y=tx)
        else:
            dy = matmul(x, dout, transpose_x=not tx, transpose_y=False)
    return dx, dy


MATMUL = register_op("matmul", inputs=("X", "Y"), outputs=("Out",), forward=_matmul_forward,
                     infer=_matmul_infer, grad=_matmul_grad, same_dtype=("X", "Y"),
                     attrs={"transpose_x": False, "transpose_y": False}, double_grad=True)


# ---- mul: fluid's flattening matmul (what static.nn.fc builds, as in Paddle) ------------------------------
def _prod(dims):
    n = 1
    for d in dims:
        n *= d
    return n


def _mul_forward(xp, x, y, x_num_col_dims, y_num_col_dims):
    xs, ys = x.shape, y.shape
    out = matmul_array(xp, x.reshape(_prod(xs[:x_num_col_dims]), -1), y.reshape(_prod(ys[:y_num_col_dims]), -1))
    return out.reshape(xs[:x_num_col_dims] + ys[y_num_col_dims:])


def _mul_infer(x, y, x_num_col_dims, y_num_col_dims):
    check_same_dtype("mul", x, y)
    xs, ys = tuple(x.shape), tuple(y.shape)
    if not 0 < x_num_col_dims < len(xs) or not 0 < y_num_col_dims < len(ys):
        raise ValueError(f"op 'mul': x_num_col_dims and y_num_col_dims must lie in [1, rank) of X {list(xs)} and "
                         f"Y {list(ys)}, received {x_num_col_dims} and {y_num_col_dims}")
    inner = xs[x_num_col_dims:] + ys
    if any(d < 0 for d in inner):
        raise ValueError(f"op 'mul': the flattened dims of X from x_num_col_dims on and all of Y must be known, "
                         f"received X {list(xs)} and Y {list(ys)}")
    if _prod(xs[x_num_col_dims:]) != _prod(ys[:y_num_col_dims]):
        raise ValueError(f"op 'mul': X {list(xs)} flattened at {x_num_col_dims} has {_prod(xs[x_num_col_dims:])} "
                         f"columns but Y {list(ys)} flattened at {y_num_col_dims} has {_prod(ys[:y_num_col_dims])} rows")
    return Meta(xs[:x_num_col_dims] + ys[y_num_col_dims:], x.dtype)


def _mul_grad(g):
    x, y, dout = g.input("X"), g.input("Y"), g.output_grad("Out")
    xn, yn = g.attrs["x_num_col_dims"], g.attrs["y_num_col_dims"]
    xs, ys = g.shape(x), g.shape(y)
    k, n = _prod(xs[xn:]), _prod(ys[yn:])
    x_2d, y_2d = len(xs) == 2, len(ys) == 2  # (then the column dims are 1, and no reshape is needed)
    d2 = dout if x_2d and y_2d else reshape(dout, shape=[-1, n])
    y2 = y if y_2d else reshape(y, shape=[k, n])
    if g.needs("X"):
        dx = matmul(d2, y2, transpose_y=True)
        g.set_input_grad("X", dx if x_2d else reshape_as(dx, x))
    if g.needs("Y"):
        dy = matmul(x if x_2d else reshape(x, shape=[-1, k]), d2, transpose_x=True)
        g.set_input_grad("Y", dy if y_2d else reshape_as(dy, y))


MUL = register_op("mul", inputs=("X", "Y"), outputs=("Out",), forward=_mul_forward, infer=_mul_infer,
                  grad=_mul_grad, same_dtype=("X", "Y"), attrs={"x_num_col_dims": 1, "y_num_col_dims": 1},
                  double_grad=True)


# ---- linear: Out = X @ W (+ Bias), W is [in_features, out_features] ------------------------------------
def _linear_forward(xp, x, w, bias=None):
    return matmul_array(xp, x, w, bias=bias)


def _linear_infer(x, w, bias=None):
    if len(w.shape) != 2:
        raise ValueError(f"op 'linear': W must be 2-D [in_features, out_features], received shape {list(w.shape)}")
    out = _matmul_infer(x, w, False, False)
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
        g.set_input_grad("X", matmul(dout, w, transpose_y=True))
    if g.needs("W"):
        xs, in_features = g.shape(x), g.shape(w)[0]
        if len(xs) == 1:  # a single sample: the outer product x dOut^T
            dw = matmul(unsqueeze(x, axis=[-1]), unsqueeze(dout, axis=[0]))
        elif len(xs) == 2 or in_features == -1:
            dw = g.reduce_as(matmul(x, dout, transpose_x=True), w)
        else:
            dw = _rows_product(x, dout, in_features, g.shape(w)[1])
        g.set_input_grad("W", dw)
    if g.needs("Bias"):
        g.set_input_grad("Bias", g.reduce_as(dout, g.input("Bias")))


LINEAR = register_op("linear", inputs=("X", "W", "Bias"), outputs=("Out",), forward=_linear_forward,
                     infer=_linear_infer, grad=_linear_grad, optional_inputs=("Bias",), same_dtype=("X", "W"),
                     double_grad=True)


# ---- unary math: one line each, the forward and dx as a formula of x, out, dout (and attrs) ------------
# (the style of HIPS autograd's numpy_vjps.py). The dtype rule: ANY dtype as NumPy computes it, NUMERIC
# (not bool), FLOAT (floating point only: NumPy would silently compute integers in float64).
def unary_grad(dx):
    """Grad maker of out = f(x) from its formula dx(x, out, dout, **attrs)."""
    def grad(g):
        if not g.needs("X"):
            return
        x = g.input("X")
        if x.is_complex:  # holomorphic f: dx = dout * conj(f'(x)) = conj(formula(conj(dout)))
            g.set_input_grad("X", conj(dx(x, g.output("Out"), conj(g.output_grad("Out")), **g.attrs)))
        else:
            g.set_input_grad("X", dx(x, g.output("Out"), g.output_grad("Out"), **g.attrs))
    return grad


def _unary(name, kind, forward, dx, attrs=None, elementwise=None):
    infer, forward = kind(name, forward)
    return register_op(name, inputs=("X",), outputs=("Out",), forward=forward, infer=infer, grad=unary_grad(dx),
                       attrs=attrs, double_grad=True, elementwise=elementwise)


def _numeric_rule(name):
    def infer(x, **attrs):
        if np.dtype(x.dtype).kind == "b":
            raise TypeError(f"op '{name}': input 'X' must be a numeric tensor, received bool")
        return Meta(x.shape, x.dtype)
    return infer


def ANY(name, forward):
    return same_as_first, forward


def NUMERIC(name, forward):
    return _numeric_rule(name), forward


def FLOAT(name, forward):
    return float_rule(name), float_only(name, forward)


# out = x ** factor; an integer tensor needs an integer factor
def _pow_forward(xp, x, factor):
    if x.dtype.kind in "iu":
        if float(factor) != int(factor):
            raise TypeError(f"op 'pow': an integer tensor ({x.dtype}) needs an integer exponent, received {factor}; "
                            "cast the tensor to float first")
        return xp.power(x, x.dtype.type(int(factor)))
    return xp.power(x, x.dtype.type(factor))


def _pow_infer(x, factor):
    if np.dtype(x.dtype).kind in "iu" and float(factor) != int(factor):
        raise TypeError(f"op 'pow': an integer tensor ({x.dtype}) needs an integer exponent, received {factor}")
    if np.dtype(x.dtype).kind == "b":
        raise TypeError("op 'pow': input 'X' must be a numeric tensor, received bool")
    return Meta(x.shape, x.dtype)


def POW_RULE(name, forward):
    return _pow_infer, forward


# ---- erf: no scipy; a positive-term series below 2.5, the erfc continued fraction above -----------
_SQRT_PI = float(np.sqrt(np.pi))


def erf_array(xp, x):
    """erf of a float array to ~1e-15 (computed in float64, returned in x's dtype)."""
    if xp is not np:
        try:
            return cupyx_for(xp).scipy.special.erf(x)
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
    large = 1.0 - erfc_fraction(xp, xp.maximum(a, 2.5))
    return (xp.sign(x) * xp.where(a < 2.5, small, large)).astype(x.dtype, copy=False)


def erfc_fraction(xp, c):
    """erfc(c) of a float64 array c >= 2.5 by its continued fraction (full relative precision)."""
    frac = c.copy()
    for k in range(30, 0, -1):  # erfc(c) = exp(-c^2) / (sqrt(pi) (c + 1/2 / (c + 1 / (c + 3/2 / ...))))
        frac = c + (k / 2.0) / frac
    return xp.exp(-c * c) / (_SQRT_PI * frac)


_LN2, _LN10, _ERF_SCALE = float(np.log(2.0)), float(np.log(10.0)), 2.0 / _SQRT_PI


def _zero(x, out, dout):  # piecewise constant: the gradient is zero almost everywhere, as in Paddle
    return zeros_like(x)


# CONSTANT = _unary(type, dtypes, forward(xp, x, **attrs), dx(x, out, dout, **attrs))
EXP = _unary("exp", ANY, lambda xp, x: xp.exp(x), lambda x, out, dout: dout * out,
             elementwise=lambda x: f"expf({x})")
LOG = _unary("log", ANY, lambda xp, x: xp.log(x), lambda x, out, dout: dout / x, elementwise=lambda x: f"logf({x})")
def _pow_grad(x, out, dout, factor):
    """dout * factor * x ** (factor - 1); x ** 0 is constant: 0 even at x = 0 (not 0 * inf), still a product with
    dout so higher orders reach dout with a zero, as Paddle's pow_triple_grad."""
    return dout * zeros_like(x) if factor == 0 else dout * (x ** (factor - 1.0) * factor)


POW = _unary("pow", POW_RULE, _pow_forward, _pow_grad, attrs={"factor": 1.0})
SQRT = _unary("sqrt", FLOAT, lambda xp, x: xp.sqrt(x), lambda x, out, dout: dout * 0.5 / out,
              elementwise=lambda x: f"sqrtf({x})")
RSQRT = _unary("rsqrt", FLOAT, lambda xp, x: (1 / xp.sqrt(x)).astype(x.dtype, copy=False),
               lambda x, out, dout: dout * (out * out ** 2 * -0.5))
SIGN = _unary("sign", NUMERIC, lambda xp, x: xp.sign(x), _zero)


def _abs_infer(x, **attrs):  # |complex| is real
    dtype = np.dtype(x.dtype)
    _numeric_rule("abs")(x)
    return Meta(x.shape, REAL_OF.get(dtype, dtype))


def _abs_grad(g):  # complex x: dout * x / |x| (the conjugate convention makes it x, not conj(x))
    if not g.needs("X"):
        return
    x, dout = g.input("X"), g.output_grad("Out")
    if x.is_complex:
        out = g.output("Out")
        nonzero = out > 0
        s = where(nonzero, dout / where(nonzero, out, 1.0), 0.0)  # 0 at x = 0, as Paddle
        g.set_input_grad("X", make_complex(s * real(x), s * imag(x)))
    else:
        g.set_input_grad("X", dout * sign(x))


ABS = register_op("abs", inputs=("X",), outputs=("Out",), forward=lambda xp, x: xp.abs(x), infer=_abs_infer,
                  grad=_abs_grad, double_grad=True)
SQUARE = _unary("square", NUMERIC, lambda xp, x: xp.square(x), lambda x, out, dout: dout * (x * 2.0),
                elementwise=lambda x: f"({x} * {x})")
SIN = _unary("sin", FLOAT, lambda xp, x: xp.sin(x), lambda x, out, dout: dout * cos(x))
COS = _unary("cos", FLOAT, lambda xp, x: xp.cos(x), lambda x, out, dout: dout * -sin(x))
TAN = _unary("tan", FLOAT, lambda xp, x: xp.tan(x), lambda x, out, dout: dout * (out ** 2 + 1.0))
ASIN = _unary("asin", FLOAT, lambda xp, x: xp.arcsin(x), lambda x, out, dout: dout * rsqrt(1.0 - x ** 2))
ACOS = _unary("acos", FLOAT, lambda xp, x: xp.arccos(x), lambda x, out, dout: dout * -rsqrt(1.0 - x ** 2))
ATAN = _unary("atan", FLOAT, lambda xp, x: xp.arctan(x), lambda x, out, dout: dout * reciprocal(x ** 2 + 1.0))
SINH = _unary("sinh", FLOAT, lambda xp, x: xp.sinh(x), lambda x, out, dout: dout * cosh(x))
COSH = _unary("cosh", FLOAT, lambda xp, x: xp.cosh(x), lambda x, out, dout: dout * sinh(x))
ACOSH = _unary("acosh", FLOAT, lambda xp, x: xp.arccosh(x), lambda x, out, dout: dout * rsqrt(x ** 2 - 1.0))
ASINH = _unary("asinh", FLOAT, lambda xp, x: xp.arcsinh(x), lambda x, out, dout: dout * rsqrt(x ** 2 + 1.0))
ATANH = _unary("atanh", FLOAT, lambda xp, x: xp.arctanh(x), lambda x, out, dout: dout / (1.0 - x ** 2))
RECIPROCAL = _unary("reciprocal", FLOAT, lambda xp, x: (1 / x).astype(x.dtype, copy=False),
                    lambda x, out, dout: dout * -out ** 2)
LOG1P = _unary("log1p", FLOAT, lambda xp, x: xp.log1p(x), lambda x, out, dout: dout / (x + 1.0))
LOG2 = _unary("log2", FLOAT, lambda xp, x: xp.log2(x), lambda x, out, dout: dout / (x * _LN2))
LOG10 = _unary("log10", FLOAT, lambda xp, x: xp.log10(x), lambda x, out, dout: dout / (x * _LN10))
EXPM1 = _unary("expm1", FLOAT, lambda xp, x: xp.expm1(x), lambda x, out, dout: dout * (out + 1.0))
ERF = _unary("erf", FLOAT, erf_array, lambda x, out, dout: dout * (exp(-x ** 2) * _ERF_SCALE))
FLOOR = _unary("floor", FLOAT, lambda xp, x: xp.floor(x), _zero)
CEIL = _unary("ceil", FLOAT, lambda xp, x: xp.ceil(x), _zero)
ROUND = _unary("round", FLOAT, lambda xp, x: xp.round(x), _zero)  # half to even, as Paddle's CPU kernel
TRUNC = _unary("trunc", FLOAT, lambda xp, x: xp.trunc(x), _zero)
NAN_TO_NUM = _unary("nan_to_num", FLOAT, lambda xp, x, nan, posinf, neginf: xp.nan_to_num(
    x, nan=nan, posinf=posinf, neginf=neginf), lambda x, out, dout, **attrs: where(isfinite(x), dout, 0.0),
    attrs={"nan": 0.0, "posinf": 3.4028234663852886e38, "neginf": -3.4028234663852886e38})


# ---- non-differentiable predicates -----------------------------------------------------------------
def _predicate(name, fn):
    return register_op(name, inputs=("X",), outputs=("Out",), forward=fn,
                       infer=lambda x, **attrs: Meta(x.shape, np.dtype(bool)))


ISNAN = _predicate("isnan", lambda xp, x: xp.isnan(x) if dtype_kind(x.dtype) in "fc" else xp.zeros(x.shape, bool))
ISINF = _predicate("isinf", lambda xp, x: xp.isinf(x) if dtype_kind(x.dtype) in "fc" else xp.zeros(x.shape, bool))
ISFINITE = _predicate("isfinite", lambda xp, x: xp.isfinite(x) if dtype_kind(x.dtype) in "fc" else xp.ones(x.shape, bool))
LOGICAL_NOT = _predicate("logical_not", lambda xp, x: xp.logical_not(x))
SIGNBIT = _predicate("signbit", lambda xp, x: xp.signbit(x))


def _bitwise_not_infer(x, **attrs):
    if np.dtype(x.dtype).kind not in "iub":
        raise TypeError(f"op 'bitwise_not': input 'X' must be an integer or bool tensor, received {x.dtype}")
    return Meta(x.shape, x.dtype)


BITWISE_NOT = register_op("bitwise_not", inputs=("X",), outputs=("Out",), forward=lambda xp, x: xp.invert(x),
                          infer=_bitwise_not_infer)


# ---- clip: out = min(max(x, min), max); the gradient passes where min <= x <= max (Paddle's rule) -----
def _bound(xp, tensor, attr, dtype):
    """A clip bound: 1-element tensor `tensor` (Min / Max, read on the device), else the attr; None for an infinite
    attr (no bound)."""
    if tensor is not None:
        return tensor.reshape(()).astype(dtype)
    return None if attr in (float("-inf"), float("inf")) else xp.asarray(attr).astype(dtype)


def _clip_forward(xp, x, min_t, max_t, min, max):
    if x.dtype.kind == "b":
        raise TypeError("op 'clip': input 'X' must be a numeric tensor, received bool")
    out = x
    lo, hi = _bound(xp, min_t, min, x.dtype), _bound(xp, max_t, max, x.dtype)
    if lo is not None:
        out = xp.maximum(out, lo)
    if hi is not None:
        out = xp.minimum(out, hi)
    return out.copy() if out is x else out


def _clip_infer(x, min_t, max_t, min, max):
    if np.dtype(x.dtype).kind == "b":
        raise TypeError("op 'clip': input 'X' must be a numeric tensor, received bool")
    if min_t is None and max_t is None and min > max:
        raise ValueError(f"op 'clip': min ({min}) must not exceed max ({max})")
    return Meta(x.shape, x.dtype)


def _clip_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("clip_grad", g.input("X"), g.output_grad("Out"), g.input("Min"), g.input("Max"),
                                   min=g.attrs["min"], max=g.attrs["max"]))


def _clip_grad_forward(xp, x, dout, min_t, max_t, min, max):
    lo, hi = _bound(xp, min_t, min, x.dtype), _bound(xp, max_t, max, x.dtype)
    inside = (x >= (min if lo is None else lo)) & (x <= (max if hi is None else hi))
    return xp.where(inside, dout, xp.zeros((), dout.dtype))


def _clip_grad_grad(g):  # linear in DOut with the same mask; X only selects
    if g.needs("DOut"):
        g.set_input_grad("DOut", g.op("clip_grad", g.input("X"), g.output_grad("Out"), g.input("Min"),
                                      g.input("Max"), min=g.attrs["min"], max=g.attrs["max"]))


# the bounds: the attrs, or 1-element tensors (Min, Max; no gradient, as Paddle's)
_BOUNDS = ("Min", "Max")
CLIP = register_op("clip", inputs=("X", *_BOUNDS), outputs=("Out",), optional_inputs=_BOUNDS, nondiff_inputs=_BOUNDS,
                   forward=_clip_forward, infer=_clip_infer, grad=_clip_grad,
                   attrs={"min": float("-inf"), "max": float("inf")}, double_grad=True)
CLIP_GRAD = register_op("clip_grad", inputs=("X", "DOut", *_BOUNDS), outputs=("Out",), optional_inputs=_BOUNDS,
                        forward=_clip_grad_forward, infer=lambda x, dout, *bounds, **a: Meta(dout.shape, dout.dtype),
                        grad=_clip_grad_grad, attrs={"min": float("-inf"), "max": float("inf")},
                        nondiff_inputs=("X", *_BOUNDS), same_dtype=("X", "DOut"), double_grad=True)


# ---- clip_by_norm: X scaled down to L2 norm max_norm when its norm exceeds it (gradient clipping; no grad) --
def _clip_by_norm_forward(xp, x, max_norm):
    wide = x.astype(np.float32) if x.dtype in LOW_PRECISION else x
    norm = xp.sqrt((wide * wide).sum())
    scale = xp.minimum(max_norm / xp.maximum(norm, np.finfo(np.float32).tiny), 1.0)  # 1 unless norm > max_norm
    return (wide * scale).astype(x.dtype, copy=False)


CLIP_BY_NORM = register_op("clip_by_norm", inputs=("X",), outputs=("Out",), forward=_clip_by_norm_forward,
                           infer=float_rule("clip_by_norm"), attrs={"max_norm": 1.0})


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
        g.set_input_grad("X", g.reduce_as(where(cond, dout, zeros), g.input("X")))
    if g.needs("Y"):
        g.set_input_grad("Y", g.reduce_as(where(cond, zeros, dout), g.input("Y")))


WHERE = register_op("where", inputs=("Condition", "X", "Y"), outputs=("Out",), forward=_where_forward,
                    infer=_where_infer, grad=_where_grad, nondiff_inputs=("Condition",), same_dtype=("X", "Y"),
                    double_grad=True)


# ---- floor_divide / remainder: integer or float, not differentiable (as in Paddle) ------------------
def _int_binary(name, fn):
    infer_shape = binary_rule(name)

    def infer(x, y, axis):
        if np.dtype(x.dtype).kind == "b" and x.dtype == y.dtype:
            raise TypeError(f"op '{name}': inputs must be numeric tensors, received bool")
        return infer_shape(x, y, axis=axis)

    def forward(xp, x, y):
        if x.dtype.kind == "b":
            infer(x, y, -1)  # refuses bool
        if x.dtype.kind in "iu" and bool((y == 0).any()):
            raise ZeroDivisionError(f"op '{name}': integer division by zero (input 'Y' holds a 0)")
        return fn(xp, x, y)
    return register_op(name, inputs=("X", "Y"), outputs=("Out",), forward=with_axis(name, forward), infer=infer,
                       host_sync="checks an integer divisor for zeros on the host",
                       same_dtype=("X", "Y"), attrs={"axis": -1})


FLOOR_DIVIDE = _int_binary("floor_divide", lambda xp, x, y: xp.floor_divide(x, y))
REMAINDER = _int_binary("remainder", lambda xp, x, y: xp.remainder(x, y))  # sign of y, as Python's %
