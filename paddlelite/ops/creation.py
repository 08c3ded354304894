"""Ops with no tensor inputs: constants, ranges, identity matrices, random tensors."""
import numpy as np

from ..framework.random import rng_for
from .registry import DATA_DEPENDENT_SHAPE, Meta, VALUE_CHECK, register_op
from .shape_rules import broadcast_shapes, float_only, float_rule
from .tensor_args import int_values, known_ints, scalar_value

# Ops without inputs take their place from the 'place' attr when given, else the current device.


def _dt(dtype):
    return np.dtype(dtype)


def _fill_constant_forward(xp, shape_t, shape_list, value_t, shape, value, dtype, place, force_cpu):
    shape, value = int_values(shape_t, shape_list, shape), scalar_value(value_t, value)
    dt = _dt(dtype)
    with np.errstate(over="ignore", invalid="ignore"):  # out-of-range values cast like C (Paddle: -1 -> 255)
        fill = np.asarray(value).astype(dt)[()]
    return xp.full(tuple(shape), fill, dtype=dt)


# force_cpu: Paddle keeps such constants (arange's bounds) in host memory; recorded for its op desc, as every op
# here runs on its program's place
def _fill_constant_infer(shape_t, shape_list, value_t, shape, value, dtype, place, force_cpu):
    known = known_ints(shape_t, shape)
    if known is None:
        raise ValueError("op 'fill_constant': the length of the ShapeTensor must be known when the program is "
                         f"built, received a tensor of shape {list(shape_t.shape)}")
    return Meta(tuple(known), _dt(dtype))


# the shape: the attr, a 1-D int tensor (ShapeTensor) or one tensor per dim (ShapeTensorList, the attr -1 there);
# the value: the attr, or a 1-element tensor (ValueTensor; the attr None)
FILL_CONSTANT = register_op(
    "fill_constant", inputs=("ShapeTensor", "ShapeTensorList", "ValueTensor"), outputs=("Out",),
    variadic_inputs=("ShapeTensorList",), host_inputs=("ShapeTensor", "ShapeTensorList", "ValueTensor"),
    forward=_fill_constant_forward, infer=_fill_constant_infer,
    attrs={"shape": [], "value": 0.0, "dtype": "float32", "place": None, "force_cpu": False})


def _range_len(start, end, step):
    return max(0, int(np.ceil((end - start) / step)))


def _range_forward(xp, start_t, end_t, step_t, start, end, step, dtype, place):
    if start is None:  # a static program's bounds: 1-element tensors, as Paddle's range op reads them
        start, end, step = (t.reshape(-1)[0].item() for t in (start_t, end_t, step_t))
    return xp.arange(start, end, step, dtype=_dt(dtype))


def _range_infer(start_t, end_t, step_t, start, end, step, dtype, place):
    return Meta((-1,) if start is None else (_range_len(start, end, step),), _dt(dtype))


# The bounds are the attrs (eager arange), or with start=end=step=None the Start/End/Step tensors (static
# programs, as Paddle's range op takes them)
RANGE = register_op(
    "range", inputs=("Start", "End", "Step"), outputs=("Out",), host_inputs=("Start", "End", "Step"),
    forward=_range_forward, infer=_range_infer,
    attrs={"start": 0, "end": 1, "step": 1, "dtype": "int64", "place": None},
    host_sync=lambda attrs: DATA_DEPENDENT_SHAPE if attrs["start"] is None else None)


LINSPACE = register_op(
    "linspace", inputs=(), outputs=("Out",),
    forward=lambda xp, start, stop, num, dtype, place: xp.linspace(start, stop, num, dtype=_dt(dtype)),
    infer=lambda start, stop, num, dtype, place: Meta((num,), _dt(dtype)),
    attrs={"start": 0.0, "stop": 1.0, "num": 1, "dtype": "float32", "place": None})

EYE = register_op(
    "eye", inputs=(), outputs=("Out",),
    forward=lambda xp, num_rows, num_columns, dtype, place: xp.eye(num_rows, num_columns, dtype=_dt(dtype)),
    infer=lambda num_rows, num_columns, dtype, place: Meta((num_rows, num_columns), _dt(dtype)),
    attrs={"num_rows": 1, "num_columns": 1, "dtype": "float32", "place": None})


def _random_infer(shape_t, shape_list, shape, dtype, **attrs):
    return _fill_constant_infer(shape_t, shape_list, None, shape, None, dtype, None, False)


def _uniform_infer(shape_t, shape_list, shape, dtype, **attrs):  # Paddle's rule: a ShapeTensorList's dims unknown
    return _random_infer(shape_t, shape_list, [-1] * len(shape) if shape_list else shape, dtype)


def _uniform(xp, shape_t, shape_list, shape, dtype, min, max, seed, place):
    shape = int_values(shape_t, shape_list, shape)
    return rng_for(xp, seed).uniform(min, max, size=tuple(shape), dtype=_dt(dtype))


def _gaussian(xp, shape_t, shape_list, shape, dtype, mean, std, seed, place):
    shape = int_values(shape_t, shape_list, shape)
    return rng_for(xp, seed).normal(mean, std, size=tuple(shape), dtype=_dt(dtype))


def _randint(xp, shape, low, high, dtype, seed, place):
    return rng_for(xp, seed).integers(low, high, size=tuple(shape)).astype(_dt(dtype))


# the shape: the attr, a 1-D int tensor (ShapeTensor) or one tensor per dim (ShapeTensorList), as fill_constant's
_SHAPE_TENSORS = ("ShapeTensor", "ShapeTensorList")
UNIFORM_RANDOM = register_op("uniform_random", inputs=_SHAPE_TENSORS, outputs=("Out",), variadic_inputs=_SHAPE_TENSORS[1:],
                             host_inputs=_SHAPE_TENSORS, forward=_uniform, infer=_uniform_infer,
                             attrs={"shape": [], "dtype": "float32", "min": -1.0, "max": 1.0, "seed": 0,
                                    "place": None}, draws=True)
GAUSSIAN_RANDOM = register_op("gaussian_random", inputs=_SHAPE_TENSORS, outputs=("Out",),
                              variadic_inputs=_SHAPE_TENSORS[1:], host_inputs=_SHAPE_TENSORS, forward=_gaussian,
                              infer=_random_infer,
                              attrs={"shape": [], "dtype": "float32", "mean": 0.0, "std": 1.0, "seed": 0,
                                     "place": None}, draws=True)
RANDINT = register_op("randint", inputs=(), outputs=("Out",), forward=_randint,
                      infer=lambda shape, dtype, **a: Meta(tuple(shape), _dt(dtype)),
                      attrs={"shape": [], "low": 0, "high": 1, "dtype": "int64", "seed": 0, "place": None}, draws=True)
def _seed(xp, seed, deterministic, rng_name, force_cpu):
    """Paddle's seed op: an int32 [1] seed for a random op's Seed input -- the attr when nonzero, else one drawn
    from the generator (so one draw gives an op and its recomputation the same randomness)."""
    value = seed if seed else int(rng_for(xp, 0).integers(1, 2 ** 31 - 1))
    return xp.full((1,), value, dtype=np.int32)


SEED = register_op("seed", inputs=(), outputs=("Out",), forward=_seed,
                   infer=lambda **attrs: Meta((1,), np.dtype(np.int32)),
                   attrs={"seed": 0, "deterministic": False, "rng_name": "", "force_cpu": False}, draws=True)
RANDPERM = register_op(
    "randperm", inputs=(), outputs=("Out",),
    forward=lambda xp, n, dtype, seed, place: rng_for(xp, seed).permutation(n).astype(_dt(dtype)),
    infer=lambda n, dtype, seed, place: Meta((n,), _dt(dtype)),
    attrs={"n": 1, "dtype": "int64", "seed": 0, "place": None}, draws=True)


def _truncated_gaussian(xp, shape, dtype, mean, std, a, b, seed, place):
    """Normal(mean, std) samples redrawn until they lie in [a, b] (absolute bounds, as Paddle's a/b)."""
    if not a < b:
        raise ValueError(f"op 'truncated_gaussian_random': a ({a}) must be less than b ({b})")
    rng = rng_for(xp, seed)
    out = rng.normal(mean, std, size=tuple(shape))
    bad = (out < a) | (out > b)
    for _ in range(100):  # each round keeps >95% of draws for the usual +-2 std bounds
        n = int(bad.sum())
        if n == 0:
            break
        out = out.copy()
        out[bad] = rng.normal(mean, std, size=n)
        bad = (out < a) | (out > b)
    else:
        out = xp.clip(out, a, b)  # bounds far in a tail: clip what 100 rounds could not place
    return out.astype(dtype)


TRUNCATED_GAUSSIAN_RANDOM = register_op(
    "truncated_gaussian_random", inputs=(), outputs=("Out",), forward=_truncated_gaussian,
    infer=lambda shape, dtype, **attrs: Meta(tuple(shape), np.dtype(dtype)),
    attrs={"shape": [], "dtype": "float32", "mean": 0.0, "std": 1.0, "a": -2.0, "b": 2.0, "seed": 0,
           "place": None},
    host_sync="counts the samples to redraw on the host", draws=True)


def _assign_value(xp, shape, dtype, values, place):
    n = 1
    for d in shape:
        n *= d
    if len(values) != n:
        raise ValueError(f"op 'assign_value': {len(values)} values for shape {list(shape)} ({n} elements)")
    return xp.asarray(values, dtype=np.dtype(dtype)).reshape(tuple(shape))


ASSIGN_VALUE = register_op(
    "assign_value", inputs=(), outputs=("Out",), forward=_assign_value,
    infer=lambda shape, dtype, values, place: Meta(tuple(shape), np.dtype(dtype)),
    attrs={"shape": [], "dtype": "float32", "values": [], "place": None})


# ---- sampling from a tensor of parameters (no gradient, as in Paddle) ------------------------------
def _poisson(xp, x, seed):
    return rng_for(xp, seed).poisson(x, size=x.shape).astype(x.dtype)


def _multinomial(xp, x, num_samples, replacement, seed):
    # rows of (unnormalised) probabilities -> num_samples category indices per row
    rng = rng_for(xp, seed)
    probs = x.reshape(-1, x.shape[-1]).astype(np.float64)
    if bool((probs < 0).any()):
        raise ValueError("op 'multinomial': the probabilities must be >= 0, received a negative one")
    if not replacement and int((probs > 0).sum(-1).min()) < num_samples:
        raise ValueError(f"op 'multinomial': without replacement, num_samples ({num_samples}) must not exceed the "
                         "number of nonzero categories of each row")
    if replacement:  # inverse CDF of uniform draws
        cdf = xp.cumsum(probs, axis=-1)
        u = rng.random((probs.shape[0], num_samples)) * cdf[:, -1:]
        out = (cdf[:, None, :] <= u[:, :, None]).sum(-1)
    else:  # Gumbel top-k: the k largest of log p + Gumbel noise are a draw without replacement
        with np.errstate(divide="ignore"):
            keys = xp.log(probs) - xp.log(-xp.log(rng.random(probs.shape)))
        out = xp.argsort(-keys, axis=-1)[:, :num_samples]
    return out.reshape(x.shape[:-1] + (num_samples,)).astype(np.int64)


def _binomial(xp, count, prob, seed):
    n = count.astype(np.int64)
    if n.size and bool((n < 0).any() | ~((prob >= 0) & (prob <= 1)).all()):
        raise ValueError("op 'binomial': count must be >= 0 and prob in [0, 1] (not NaN) in every element")
    n, prob = xp.broadcast_arrays(n, prob.astype(np.float64))
    return xp.asarray(rng_for(xp, seed).binomial(n, prob, size=n.shape)).astype(np.int64)


def _binomial_infer(count, prob, seed):
    if np.dtype(prob.dtype).kind != "f":
        raise TypeError(f"op 'binomial': input 'Prob' must be a floating-point tensor, received {np.dtype(prob.dtype)}")
    return Meta(broadcast_shapes("binomial", count.shape, prob.shape), np.dtype(np.int64))


def _standard_gamma(xp, x, seed):
    # shapes <= 0 give the smallest normal float, as Paddle's kernel (which clamps every sample to it)
    tiny = np.finfo(x.dtype).tiny
    samples = rng_for(xp, seed).standard_gamma(xp.maximum(x, tiny).astype(np.float64), size=x.shape).astype(x.dtype)
    return xp.maximum(samples, x.dtype.type(tiny))


POISSON = register_op("poisson", inputs=("X",), outputs=("Out",), forward=_poisson,
                      infer=lambda x, seed: Meta(x.shape, x.dtype), attrs={"seed": 0}, draws=True)
MULTINOMIAL = register_op("multinomial", inputs=("X",), outputs=("Out",), forward=_multinomial,
                          infer=lambda x, num_samples, replacement, seed: Meta(tuple(x.shape[:-1]) + (num_samples,),
                                                                                np.dtype(np.int64)),
                          attrs={"num_samples": 1, "replacement": False, "seed": 0},
                          host_sync=VALUE_CHECK, draws=True)
BINOMIAL = register_op("binomial", inputs=("Count", "Prob"), outputs=("Out",), forward=_binomial,
                       infer=_binomial_infer, attrs={"seed": 0}, same_dtype=("Count", "Prob"),
                       host_sync=VALUE_CHECK, draws=True)
STANDARD_GAMMA = register_op("standard_gamma", inputs=("X",), outputs=("Out",), forward=float_only(
    "standard_gamma", _standard_gamma), infer=float_rule("standard_gamma"), attrs={"seed": 0}, draws=True)
