"""Constraints: the sets a distribution's values or a transform's domain lie in, as checks on tensors."""
from .. import tensor as _pt


class Constraint:
    """A set of values; calling it on a tensor says, elementwise, which values lie in it."""

    def __call__(self, value):
        raise NotImplementedError

    def check(self, value):
        return self(value)


class Real(Constraint):
    def __call__(self, value):
        return value == value  # False at NaN


class Range(Constraint):
    def __init__(self, lower, upper):
        self._lower, self._upper = lower, upper
        super().__init__()

    def __call__(self, value):
        return _pt.logical_and(self._lower <= value, value <= self._upper)


class Positive(Constraint):
    def __call__(self, value):
        return value >= 0.0


class Simplex(Constraint):
    def __call__(self, value):
        return _pt.logical_and(_pt.all(value >= 0, axis=-1), (value.sum(-1) - 1).abs() < 1e-6)


real = Real()
positive = Positive()
simplex = Simplex()
