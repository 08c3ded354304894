"""nn: layers and the functional API (mode-agnostic: the same code builds static programs)."""
from . import decode, functional, init, initializer, layer, quant, utils
from .layer import loss  # Paddle shows paddle.nn.layer.loss as paddle.nn.loss too
from .decode import BeamSearchDecoder, dynamic_decode
from ..framework.tensor import Parameter  # Paddle's EagerParamBase
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from .layer import *  # noqa: F401,F403

__all__ = [*layer.__all__, "ClipGradByGlobalNorm", "ClipGradByNorm", "ClipGradByValue", "BeamSearchDecoder",
           "dynamic_decode", "Parameter"]
