"""paddle.tensor.random: Paddle's module path for the random creators (implemented in creation.py)."""
from .creation import gaussian, normal, rand, randint, randn, randperm, standard_normal, uniform

__all__ = ["gaussian", "normal", "rand", "randint", "randn", "randperm", "standard_normal", "uniform"]
