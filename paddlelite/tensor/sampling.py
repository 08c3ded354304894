"""Random tensors shaped like another (rand_like, randn_like, randint_like) and the global generator's
state (manual_seed, get_rng_state / set_rng_state and their CUDA variants)."""
from ..device.place import device_to_place
from ..framework import random as _random
from ..ops import creation as _creation_ops
from ..ops import dispatch
from . import creation as _creation
from . import math as _math
from .aliases import _deliver
from .manipulation import _check_tensor
from .math import check_float_tensor


def _like_dtype(x, dtype):
    return x.dtype if dtype is None else dtype


def rand_like(input, name=None, *, dtype=None, device=None, requires_grad=False):
    """Uniform [0, 1) samples shaped like `input` (its dtype unless `dtype`)."""
    _check_tensor(input, "rand_like", "input")
    out = _creation.uniform(input.shape, _like_dtype(input, dtype), 0.0, 1.0)
    out.stop_gradient = not requires_grad
    return out


def randn_like(x, dtype=None, name=None, *, device=None, requires_grad=False):
    """Standard normal samples shaped like `x` (its dtype unless `dtype`)."""
    _check_tensor(x, "randn_like")
    out = _creation.gaussian(x.shape, dtype=_like_dtype(x, dtype))
    out.stop_gradient = not requires_grad
    return out


def randint_like(x, low=0, high=None, dtype=None, name=None):
    """Integers uniform in [low, high) (or [0, low) without high) shaped like `x`, in x's dtype unless `dtype`."""
    _check_tensor(x, "randint_like")
    dtype = _like_dtype(x, dtype)
    if high is None:
        low, high = 0, low
    return _creation.randint(low, high, x.shape, "int64").astype(dtype)


def bernoulli(x, p=None, name=None):
    """0/1 samples, 1 with probability x (or `p` for every element), in x's dtype."""
    check_float_tensor(x, "bernoulli")
    draws = _creation.uniform(x.shape, x.dtype, 0.0, 1.0)
    probs = x if p is None else _creation.full_like(x, float(p))
    return _math.less_than(draws, probs).astype(x.dtype)


def poisson(x, name=None):
    """Samples of Poisson(rate x), in x's dtype."""
    check_float_tensor(x, "poisson")
    return dispatch.apply(_creation_ops.POISSON, x, seed=0)


def binomial(count, prob, name=None):
    """Samples (int64) of Binomial(count, prob), count and prob broadcast together."""
    _check_tensor(count, "binomial", "count")
    check_float_tensor(prob, "binomial", "prob")
    return dispatch.apply(_creation_ops.BINOMIAL, count.astype(prob.dtype), prob, seed=0)


def standard_gamma(x, name=None):
    """Samples of Gamma(shape x, scale 1), in x's dtype (float32/float64)."""
    check_float_tensor(x, "standard_gamma")
    return dispatch.apply(_creation_ops.STANDARD_GAMMA, x, seed=0)


def log_normal(mean=1.0, std=2.0, shape=None, name=None):
    """exp of Normal(mean, std^2) samples: shaped `shape`, or like mean/std when either is a Tensor."""
    like = mean if _math.is_tensor_like(mean) else std if _math.is_tensor_like(std) else None
    if like is None:
        return _math.exp(_creation.normal(float(mean), float(std), shape))
    check_float_tensor(like, "log_normal", "mean" if like is mean else "std")
    normal = _creation.gaussian(like.shape, dtype=like.dtype) * std + mean  # operators: std/mean may be numbers
    return _math.exp(normal)


def multinomial(x, num_samples=1, replacement=False, name=None, *, out=None):
    """num_samples category indices (int64) per row of x's (unnormalised, non-negative) probabilities."""
    check_float_tensor(x, "multinomial")
    if len(x.shape) not in (1, 2):
        raise ValueError(f"multinomial: x must be 1-D or 2-D, received shape {list(x.shape)}")
    if not isinstance(num_samples, int) or num_samples < 1:
        raise ValueError(f"multinomial: num_samples must be a positive int, received {num_samples!r}")
    return _deliver(dispatch.apply(_creation_ops.MULTINOMIAL, x, num_samples=num_samples,
                                   replacement=bool(replacement), seed=0), out)


def manual_seed(seed):
    """Seed every generator (Paddle's other name for paddle.seed); returns the CPU's generator."""
    _random.seed(seed)
    return _random.default_cpu_generator()


def get_rng_state(device=None):
    """The states (a list of GeneratorState) of the generators of `device`'s kind: the CPU's, or one per GPU
    (default: the current device's kind, as Paddle)."""
    return _random.get_state(device_to_place(device, "paddle.get_rng_state").kind)


def set_rng_state(state_list, device=None):
    """Restore the generators from get_rng_state's list (each state names its device)."""
    device_to_place(device, "paddle.set_rng_state")
    _random.set_state(state_list)


def get_cuda_rng_state():
    """The GPU generators' states (empty before any GPU random op)."""
    return _random.get_state("gpu")


def set_cuda_rng_state(state_list):
    """Restore the GPU generators from get_cuda_rng_state's list."""
    _random.set_state(state_list)


# the generator-state functions are top-level only in Paddle (paddlelite/__init__.py exports them)
# bernoulli, standard_gamma: top-level only
__all__ = ["binomial", "log_normal", "multinomial", "poisson", "rand_like", "randint_like", "randn_like"]
TENSOR_METHODS = ["multinomial"]
