"""paddle.tensor.random: Paddle's module path for the random creators (implemented in creation.py, sampling.py
and, for the in-place fills, inplace.py)."""
from .creation import gaussian, normal, rand, randint, randn, randperm, standard_normal, uniform
from .inplace import exponential_, log_normal_, random_
from .sampling import binomial, log_normal, standard_gamma

__all__ = ["binomial", "exponential_", "gaussian", "log_normal", "log_normal_", "normal", "rand", "randint", "randn",
           "randperm", "random_", "standard_gamma", "standard_normal", "uniform"]
