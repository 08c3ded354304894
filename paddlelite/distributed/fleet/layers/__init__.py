"""paddle.distributed.fleet.layers: of Paddle's model-parallel layers, the collective ops with gradients
(mpu.mp_ops); the parallel layers themselves (ColumnParallelLinear, ...) are not implemented."""
from . import mpu  # noqa: F401

__all__ = []
