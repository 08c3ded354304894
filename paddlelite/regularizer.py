"""paddle.regularizer: weight decay added to a parameter's gradient by the optimizer."""
from .optimizer.regularizer import L1Decay, L2Decay

__all__ = ["L1Decay", "L2Decay"]
