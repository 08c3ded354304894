"""nn: layers and the functional API (mode-agnostic: the same code builds static programs)."""
from . import decode, functional, init, initializer, layer, quant, utils
from .layer import loss  # Paddle shows paddle.nn.layer.loss as paddle.nn.loss too
from .decode import BeamSearchDecoder, dynamic_decode
from ..framework.tensor import Parameter  # Paddle's EagerParamBase
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from .layer import *  # noqa: F401,F403
from . import attention  # noqa: F401  (paddle.nn.attention: SDPBackend, sdpa_kernel)
from .utils import spectral_norm  # noqa: F401  (shown outside __all__, as in Paddle)

# PyTorch's spellings Paddle 3.3.1 also shows in paddle.nn (outside its __all__)
AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d = AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D  # noqa: F405
MaxUnpool1d, MaxUnpool2d, MaxUnpool3d = MaxUnPool1D, MaxUnPool2D, MaxUnPool3D  # noqa: F405
UpsamplingBilinear2d, UpsamplingNearest2d = UpsamplingBilinear2D, UpsamplingNearest2D  # noqa: F405
ZeroPad1d, ZeroPad2d, ZeroPad3d = ZeroPad1D, ZeroPad2D, ZeroPad3D  # noqa: F405
HuberLoss = SmoothL1Loss  # noqa: F405

__all__ = [*layer.__all__, "ClipGradByGlobalNorm", "ClipGradByNorm", "ClipGradByValue", "BeamSearchDecoder",
           "dynamic_decode", "Parameter"]
