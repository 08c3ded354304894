"""Paddle's fleet.utils.mix_precision_utils: float32 `main_grad` accumulation for low-precision parameters in hybrid
parallel training (MixPrecisionLayer, MixPrecisionOptimizer, MixPrecisionScaler) -- not implemented in paddlelite;
single-process mixed precision is paddle.amp's (decorate with master_weight / master_grad)."""
from ...unsupported import unsupported_class

__all__ = []

_FEATURE = "fleet's main-grad mixed precision for hybrid parallelism (use paddle.amp.decorate's master_grad)"
MixPrecisionLayer, MixPrecisionOptimizer, MixPrecisionScaler = (
    unsupported_class("paddle.distributed.fleet.utils.mix_precision_utils", name, _FEATURE)
    for name in ("MixPrecisionLayer", "MixPrecisionOptimizer", "MixPrecisionScaler"))
