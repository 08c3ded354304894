"""Arguments Paddle's APIs also take as tensors (a shape, slice bounds, repeat counts, a size, a fill value), which
its ops read from input slots when the program runs (ops/tensor_args.py). A list mixing ints and tensors becomes
one tensor per entry, the ints as constants kept on the CPU, as Paddle's static helpers build them."""
from ..framework import dtype as _dtype
from ..framework.mode import in_static_mode
from ..framework.tensor import Tensor


def is_tensor_like(x):
    """Tensor (eager) or Variable (static): anything the dispatcher accepts as an op input."""
    return isinstance(x, Tensor) or getattr(x, "_is_variable", False)


def plain_ints(value):
    """`value` as a list when it is a list or tuple of Python ints (the usual argument: no tensor among them, nothing
    to convert), else None."""
    if value.__class__ is list or value.__class__ is tuple:
        for v in value:
            if v.__class__ is not int:
                return None
        return list(value)
    return None


def holds_tensors(value):
    """Whether list `value` has a tensor among its entries."""
    return isinstance(value, (list, tuple)) and any(is_tensor_like(v) for v in value)


def tensor_argument(value, api, arg, kinds="iu"):
    """A tensor argument marked stop_gradient in static mode (as Paddle's APIs mark it), its dtype checked."""
    if value.dtype.np.kind not in kinds:
        wanted = "an int32 or int64" if kinds == "iu" else "a numeric"
        raise TypeError(f"{api}: {arg} given as a Tensor must be {wanted} Tensor, received {value.dtype.name}")
    if in_static_mode():
        value.stop_gradient = True
    return value


def tensor_list(values, api, arg, dtype="int32", shape=(1,), cast=False, into_helper=False):
    """Paddle's list of tensors for a list mixing ints and tensors: each int a `dtype` constant of `shape` kept on
    the CPU (fill_constant, force_cpu=True); each tensor as it is (`cast`: cast to `dtype` where it differs).
    `into_helper`: the constants are written into variables of the enclosing layer helper, as strided_slice's
    fill_constant(out=...) (which still takes fill_constant's name counters)."""
    from ..static.appender import op_helper_name
    from .creation import fill_constant
    from .manipulation import cast as cast_to
    out = []
    for k, v in enumerate(values):
        if is_tensor_like(v):
            v = tensor_argument(v, api, f"{arg}[{k}]")
            out.append(cast_to(v, dtype) if cast and v.dtype != _dtype.convert_dtype(dtype) else v)
        else:
            if into_helper:
                op_helper_name("fill_constant")
            out.append(fill_constant(list(shape), dtype, v, force_cpu=True))
    return out


def placeholders(values, unknown=-1):
    """The attr Paddle's op desc shows for such a list: the ints, `unknown` where a tensor gives the entry."""
    return [unknown if is_tensor_like(v) else int(v) for v in values]
