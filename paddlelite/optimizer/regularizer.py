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


class L2Decay(WeightDecayRegularizer):
    def __call__(self, param, grad):
        decay = paddle.scale(param, self._coeff)
        if decay.dtype != grad.dtype:
            decay = decay.astype(grad.dtype)
        return paddle.add(grad, decay)

    def __str__(self):
        return f"L2Decay, coeff={self._coeff:f}"


class L1Decay(WeightDecayRegularizer):
    def __call__(self, param, grad):
        decay = paddle.scale(paddle.sign(param), self._coeff)
        if decay.dtype != grad.dtype:
            decay = decay.astype(grad.dtype)
        return paddle.add(grad, decay)

    def __str__(self):
        return f"L1Decay, coeff={self._coeff:f}"


# fluid-era names
L1DecayRegularizer = L1Decay
L2DecayRegularizer = L2Decay
