"""In-place variants `name_` of the functional APIs (paddle.cos_(x), x.cos_(), x.reshape_(...), ...).

Two kinds: value updates write the out-of-place result into x's storage (`inplace_apply`: every view of x
sees it); layout updates (reshape_, squeeze_, transpose_, cast_, ...) make x itself the result -- a view
of the same storage for view ops. Both move x to the result's place in the graph and bump the version
counter, and refuse a leaf that needs a gradient (ValueError, as Paddle).
"""
import inspect

import numpy as np

from ..framework import dtype as _dtype
from ..ops import dispatch
from ..ops.registry import get_op
from . import (aliases, creation, elementwise, manipulation, math, matrix_functions, nanreduce, products, reduce,
               scattering, search, special_math, stacking)
from .manipulation import inplace_apply, inplace_layout

# name_ -> the out-of-place API whose result is written into x
_VALUE_UPDATES = {
    "add_": math.add, "subtract_": math.subtract, "multiply_": math.multiply, "divide_": math.divide,
    "scale_": math.scale, "exp_": math.exp, "log_": math.log, "clip_": math.clip, "sqrt_": math.sqrt,
    "tanh_": math.tanh, "abs_": math.abs, "floor_": math.floor, "ceil_": math.ceil,
    "reciprocal_": math.reciprocal, "pow_": math.pow, "neg_": math.neg,
    "acos_": math.acos, "asin_": math.asin, "atan_": math.atan, "cos_": math.cos, "cosh_": math.cosh,
    "sin_": math.sin, "sinh_": math.sinh, "tan_": math.tan, "log10_": math.log10, "log1p_": math.log1p,
    "log2_": math.log2, "round_": math.round, "rsqrt_": math.rsqrt, "sigmoid_": math.sigmoid,
    "square_": math.square, "trunc_": math.trunc,
    "floor_divide_": math.floor_divide, "remainder_": math.remainder, "floor_mod_": math.floor_mod,
    "mod_": math.mod, "bitwise_not_": math.bitwise_not,
    "masked_fill_": search.masked_fill, "scatter_": manipulation.scatter, "tril_": manipulation.tril,
    "triu_": manipulation.triu,
    "addmm_": products.addmm, "baddbmm_": products.baddbmm, "bitwise_and_": elementwise.bitwise_and,
    "bitwise_or_": elementwise.bitwise_or, "bitwise_xor_": elementwise.bitwise_xor,
    "bitwise_left_shift_": elementwise.bitwise_left_shift, "bitwise_right_shift_": elementwise.bitwise_right_shift,
    "bitwise_invert_": elementwise.bitwise_invert, "copysign_": elementwise.copysign, "div_": aliases.div,
    "sub_": aliases.sub, "mul_": aliases.mul, "clamp_": aliases.clamp, "erf_": math.erf, "expm1_": math.expm1,
    "frac_": elementwise.frac, "gcd_": elementwise.gcd, "lcm_": elementwise.lcm, "hypot_": elementwise.hypot,
    "lerp_": elementwise.lerp, "logit_": elementwise.logit, "nan_to_num_": elementwise.nan_to_num,
    "sinc_": elementwise.sinc, "index_add_": scattering.index_add, "index_fill_": scattering.index_fill,
    "scatter_add_": scattering.scatter_add,
    "masked_scatter_": scattering.masked_scatter, "acosh_": elementwise.acosh, "asinh_": elementwise.asinh, "atanh_": elementwise.atanh,
    "digamma_": special_math.digamma, "lgamma_": special_math.lgamma, "gammaln_": special_math.gammaln,
    "gammainc_": special_math.gammainc, "gammaincc_": special_math.gammaincc, "i0_": special_math.i0,
    "polygamma_": special_math.polygamma, "multigammaln_": special_math.multigammaln, "erfinv_": special_math.erfinv,
    "ldexp_": special_math.ldexp, "renorm_": matrix_functions.renorm,
}
# name_ -> how many in-place ops Paddle's API is made of (1 when not listed): each bumps x.inplace_version there,
# so a program reading the count, or a backward that saved x, sees Paddle's number
_PADDLE_INPLACE_STEPS = {"hypot_": 3, "gammainc_": 3, "index_fill_": 3, "lcm_": 4, "ldexp_": 2, "nan_to_num_": 3,
                         "sinc_": 4}
# name_ -> the API whose result x becomes (shape or dtype change)
_LAYOUT_UPDATES = {
    "reshape_": manipulation.reshape, "squeeze_": manipulation.squeeze, "unsqueeze_": manipulation.unsqueeze,
    "flatten_": manipulation.flatten, "transpose_": manipulation.transpose, "t_": math.t,
    "cast_": manipulation.cast, "logical_not_": math.logical_not,
}
# comparisons and logical ops make x their bool result, as in Paddle, but never of another shape
_COMPARISON_UPDATES = {
    "equal_": math.equal, "not_equal_": math.not_equal, "greater_equal_": math.greater_equal,
    "greater_than_": math.greater_than, "less_": aliases.less, "less_equal_": math.less_equal,
    "less_than_": math.less_than, "logical_and_": math.logical_and, "logical_or_": math.logical_or,
    "logical_xor_": math.logical_xor,
}


# name_ -> its second operand, which broadcasts against x: Paddle checks the broadcast shape is x's (ValueError) before
# anything else
_BROADCAST_OPERAND = {name: "y" for name in (
    "add_", "subtract_", "multiply_", "divide_", "floor_divide_", "remainder_", "floor_mod_", "mod_", "bitwise_and_",
    "bitwise_or_", "bitwise_xor_", "bitwise_left_shift_", "bitwise_right_shift_", "copysign_", "div_", "sub_", "mul_",
    "gcd_", "lcm_", "hypot_", "ldexp_", "lerp_")}
# name_ -> the argument Paddle's in-place API takes only as a Python number (its pow_ has no Tensor exponent)
_SCALAR_OPERAND = {"pow_": "y"}


def _check_broadcast(name, x, y):
    """ValueError, as Paddle's, when x op y would not keep x's shape."""
    if getattr(x, "_is_variable", False) or not hasattr(y, "shape"):
        return
    shape = stacking.broadcast_shape(list(x.shape), list(y.shape))
    if list(shape) != list(x.shape):
        raise ValueError(f"{name}: the shape of broadcast output {list(shape)} is different from that of inplace "
                         f"tensor {list(x.shape)} in the Inplace operation")


def _argument(fn, first, name, args, kwargs):
    """The value of parameter `name` of fn(target, *args, **kwargs), or None."""
    names = list(inspect.signature(fn).parameters)[1:]
    return kwargs.get(name, args[names.index(name)] if name in names and names.index(name) < len(args) else None)


def _value_update(name, fn):
    first = next(iter(inspect.signature(fn).parameters))  # the tensor written into: `x`, or addmm_'s `input`
    steps = _PADDLE_INPLACE_STEPS.get(name, 1)

    def update(*args, **kwargs):
        target, args = (args[0], args[1:]) if args else (kwargs.pop(first), ())
        if not math.is_tensor_like(target):  # TypeError, Paddle's wording
            raise TypeError(f"{name}: {first} must be tensor type, but got {type(target)}")
        if name in _SCALAR_OPERAND:
            arg = _SCALAR_OPERAND[name]
            value = _argument(fn, first, arg, args, kwargs)
            if not isinstance(value, (int, float)):
                raise TypeError(f"{name}: {arg} must be scalar type, but received: {type(value)} (an int or a float; "
                                f"the out-of-place {fn.__name__} takes a Tensor)")
        if name in _BROADCAST_OPERAND:
            _check_broadcast(name, target, _argument(fn, first, _BROADCAST_OPERAND[name], args, kwargs))
        return inplace_apply(target, name, lambda a: fn(a, *args, **kwargs), steps)
    update.__name__ = name
    update.__doc__ = f"In-place {fn.__name__}: the result of {fn.__name__}(x, ...) is written into x."
    return update


def _layout_update(name, fn, steps=1):
    def update(x, *args, **kwargs):
        return inplace_layout(x, name, lambda a: fn(a, *args, **kwargs), steps)
    update.__name__ = name
    update.__doc__ = f"In-place {fn.__name__}: x becomes {fn.__name__}(x, ...) (same storage for a view)."
    return update


def _comparison_update(name, fn):
    layout = _layout_update(name, fn)

    def update(x, y, *args, **kwargs):
        _check_broadcast(name, x, y)
        return layout(x, y, *args, **kwargs)
    update.__name__ = name
    update.__doc__ = layout.__doc__
    return update


def _running_update(name, fn):
    """cumsum_/cumprod_ as Paddle's kernels: written into x along an axis; with axis=None (x flattened) or another
    dtype x becomes the result instead (another dtype: Paddle's cast_ then the op, two in-place ops)."""
    value, layout, cast_first = _value_update(name, fn), _layout_update(name, fn), _layout_update(name, fn, 2)

    def update(x, *args, **kwargs):
        axis = args[0] if args else kwargs.get("axis", kwargs.get("dim"))
        dtype = args[1] if len(args) > 1 else kwargs.get("dtype")
        same_dtype = dtype is None or _dtype.convert_dtype(dtype).name == x.dtype.name
        if not same_dtype:
            return cast_first(x, *args, **kwargs)
        return (value if axis is not None else layout)(x, *args, **kwargs)
    update.__name__ = name
    update.__doc__ = value.__doc__
    return update


for _name, _fn in _VALUE_UPDATES.items():
    globals()[_name] = _value_update(_name, _fn)
for _name, _fn in _LAYOUT_UPDATES.items():
    globals()[_name] = _layout_update(_name, _fn)
for _name, _fn in _COMPARISON_UPDATES.items():
    globals()[_name] = _comparison_update(_name, _fn)
_RUNNING_UPDATES = {"cumsum_": reduce.cumsum, "cumprod_": nanreduce.cumprod}
for _name, _fn in _RUNNING_UPDATES.items():
    globals()[_name] = _running_update(_name, _fn)


def uniform_(x, min=0.0, max=1.0, seed=0, name=None):
    """Fill x with values drawn uniformly from [min, max)."""
    return inplace_apply(x, "uniform_", lambda a: dispatch.apply(
        get_op("uniform_random"), shape=list(a.shape), dtype=a.dtype.name, min=float(min), max=float(max),
        seed=int(seed)))


def bernoulli_(x, p=0.5, name=None):
    """Fill x with 0/1 samples, 1 with probability p (a number or a Tensor broadcast to x)."""
    def draw(a):
        draws = dispatch.apply(get_op("uniform_random"), shape=list(a.shape), dtype=a.dtype.name, min=0.0, max=1.0,
                               seed=0)
        probs = p if math.is_tensor_like(p) else creation.full_like(a, float(p))
        return math.less_than(draws, probs).astype(a.dtype)
    return inplace_apply(x, "bernoulli_", draw)


def normal_(x, mean=0.0, std=1.0, name=None):
    """Fill x with values drawn from N(mean, std^2)."""
    return inplace_apply(x, "normal_", lambda a: dispatch.apply(
        get_op("gaussian_random"), shape=list(a.shape), dtype=a.dtype.name, mean=float(mean), std=float(std),
        seed=0))


def _uniform_like(a, low=0.0, high=1.0):
    return dispatch.apply(get_op("uniform_random"), shape=list(a.shape), dtype=a.dtype.name, min=float(low),
                          max=float(high), seed=0)


def log_normal_(x, mean=1.0, std=2.0, name=None):
    """Fill x with exp of N(mean, std^2) samples."""
    math.check_float_tensor(x, "log_normal_")
    return inplace_apply(x, "log_normal_", lambda a: math.exp(dispatch.apply(
        get_op("gaussian_random"), shape=list(a.shape), dtype=a.dtype.name, mean=float(mean), std=float(std),
        seed=0)))


def cauchy_(x, loc=0, scale=1, name=None):
    """Fill x with Cauchy(loc, scale) samples: loc + scale tan(pi (u - 1/2)), u uniform in [0, 1)."""
    math.check_float_tensor(x, "cauchy_")
    return inplace_apply(x, "cauchy_", lambda a: math.scale(
        math.tan(math.scale(_uniform_like(a), scale=float(np.pi), bias=-0.5, bias_after_scale=False)),
        scale=float(scale), bias=float(loc)))


def geometric_(x, probs, name=None):
    """Fill x with log(u) / log1p(-probs), u uniform in [tiny, 1) (Paddle's formula: the continuous
    counterpart of the number of trials to the first success)."""
    math.check_float_tensor(x, "geometric_")

    def draw(a):
        p = probs.astype(a.dtype) if math.is_tensor_like(probs) else creation.full_like(a, float(probs))
        return math.divide(math.log(_uniform_like(a, np.finfo(a.dtype.np).tiny)), math.log1p(math.neg(p)))
    return inplace_apply(x, "geometric_", draw)


def exponential_(x, lam=1.0, name=None, *, lambd=None):
    """Fill x with Exponential(rate lam) samples: -log(1 - u) / lam (`lambd`: Paddle's alias of lam)."""
    math.check_float_tensor(x, "exponential_")
    lam = lam if lambd is None else lambd
    return inplace_apply(x, "exponential_", lambda a: math.scale(
        math.log1p(math.neg(_uniform_like(a))), scale=-1.0 / float(lam)))


_MANTISSA_BITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}


def random_(x, from_=0, to=None, *, generator=None):
    """Fill x with integers uniform in [from_, to): to=None draws [0, from_), or with from_=0 too every integer
    x's dtype holds exactly (2**mantissa bits for floats, the type's max for integers)."""
    math._check_tensor(x, "random_")
    dtype = x.dtype.name
    if to is None:
        if from_ == 0:
            if dtype in _MANTISSA_BITS:
                to = 2 ** _MANTISSA_BITS[dtype]
            elif x.dtype.np.kind in "iu":
                to = int(np.iinfo(x.dtype.np).max)
            else:
                raise ValueError(f"random_: x must hold integers or floats, received {dtype}")
        else:
            from_, to = 0, from_
    if from_ >= to:
        raise ValueError(f"random_: 'from' must be less than 'to', received from={from_} >= to={to}")
    return inplace_apply(x, "random_", lambda a: dispatch.apply(
        get_op("randint"), shape=list(a.shape), low=int(from_), high=int(to), dtype="int64", seed=0).astype(dtype))


# erf_ and expm1_ are Paddle top-level functions only (paddlelite/__init__.py exports them)
_FUNCTIONS_ONLY = {"erf_", "expm1_"}
_FILLS = ("uniform_", "normal_", "bernoulli_", "log_normal_", "cauchy_", "geometric_", "exponential_", "random_")
TENSOR_METHODS = [n for n in (*_VALUE_UPDATES, *_LAYOUT_UPDATES, *_COMPARISON_UPDATES, *_RUNNING_UPDATES, *_FILLS) if n not in _FUNCTIONS_ONLY]
# Paddle's namespace has most of them, not all (there is no paddle.add_ or paddle.sigmoid_)
_METHODS_ONLY = {"add_", "scale_", "exp_", "clip_", "sqrt_", "floor_", "ceil_", "reciprocal_", "round_", "rsqrt_",
                 "sigmoid_", "uniform_", "mul_", "clamp_", "lerp_", "erfinv_", "exponential_", "random_"}
__all__ = [n for n in (*_VALUE_UPDATES, *_LAYOUT_UPDATES, *_COMPARISON_UPDATES, *_RUNNING_UPDATES, *_FILLS)
           if n not in _METHODS_ONLY | _FUNCTIONS_ONLY]
