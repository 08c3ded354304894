"""paddle.static.accuracy: Paddle's static spelling of paddle.metric.accuracy (top-k, registry ops)."""
from ..metric import accuracy

__all__ = ["accuracy"]
