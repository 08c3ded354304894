"""paddle.distributed.fleet.layers: mpu, Paddle's model-parallel layers at model-parallel degree 1 with the
model-parallel collectives and random states."""
from . import mpu  # noqa: F401

__all__ = []
