"""Weight-decay regularizers (paddle.regularizer): L2Decay adds coeff * param to the gradient, L1Decay
adds coeff * sign(param). Applied through the public tensor APIs, so static programs get the ops."""
from .. import tensor as paddle

__all__ = ["WeightDecayRegularizer", "L1Decay", "L2Decay"]


class WeightDecayRegularizer:
    def __init__(self, coeff=0.0):
        if not isinstance(coeff, (int, float)) or isinstance(coeff, bool):
            raise TypeError(f"{type(self).__name__}: coeff must be a number, received {type(coeff).__name__}")
        self._coeff = float(coeff)

    @property
    def coeff(self):
        return self._coeff

    def __call__(self, param, grad):
        """The regularized gradient (a new tensor / variable)."""
        raise TypeError(f"{type(self).__name__} does not define how to regularize")


class _TermRegularizer(WeightDecayRegularizer):
    """Adds a term of the parameter (its subclass's `_steps()` applied to it in turn) to the gradient."""

    def __call__(self, param, grad):
        if getattr(param, "_is_variable", False):
            return _regularize_in_program(param, grad, self._steps())
        decay = param
        for step in self._steps():
            decay = step(decay)
        if decay.dtype != grad.dtype:
            decay = decay.astype(grad.dtype)
        return paddle.add(grad, decay)


def _regularize_in_program(param, grad, steps):
    """Paddle's static regularization (append_regularization_ops, inside the optimizer's 'regularization' name
    scope): each step's op writes a `_generated_var_<n>`, and a sum op adds the term into the gradient variable
    itself."""
    from ..ops import dispatch
    from ..ops.registry import get_op
    from ..static.appender import output_name_guard
    from ..static.framework import program_unique_name, role_var_guard
    with role_var_guard(param, grad):
        decay = param
        for step in steps:
            with output_name_guard(program_unique_name("_generated_var")):
                decay = step(decay)
        if decay.dtype != grad.dtype:
            decay = decay.astype(grad.dtype)
        # a SELECTED_ROWS gradient (a sparse embedding's) is not written in place: the sum is a dense `<grad>@NEWGRAD@`
        with output_name_guard(grad.name + ("@NEWGRAD@" if grad.type == "SELECTED_ROWS" else "")):
            return dispatch.apply(get_op("sum"), [grad, decay])


class L2Decay(_TermRegularizer):
    def _steps(self):
        return [lambda p: paddle.scale(p, self._coeff)]

    def __str__(self):
        return f"L2Decay, coeff={self._coeff:f}"


class L1Decay(_TermRegularizer):
    def _steps(self):
        return [paddle.sign, lambda p: paddle.scale(p, self._coeff)]

    def __str__(self):
        return f"L1Decay, coeff={self._coeff:f}"


# fluid-era names
L1DecayRegularizer = L1Decay
L2DecayRegularizer = L2Decay
