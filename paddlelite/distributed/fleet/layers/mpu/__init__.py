"""paddle.distributed.fleet.layers.mpu: mp_ops, the model-parallel collectives with gradients."""
from . import mp_ops  # noqa: F401

__all__ = []
