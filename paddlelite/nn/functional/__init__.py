"""nn.functional: activation, attention (scaled_dot_product_attention, flash_attention; flash_attention is
also Paddle's module path of its flash-attention APIs), common (dropout, linear, pad, interpolate,
...), conv, pooling, norm, input (embedding), loss, distance, sampling (affine_grid, grid_sample), vision (pixel/channel shuffles), extension
(sequence_mask), gpu_kernels (Paddle's GPU-only APIs, which raise as in its CPU build)."""
from . import activation, attention, common, conv, distance, extension, gpu_kernels, input, loss, norm, pooling, sampling, vision
from . import flash_attention  # Paddle's module path of flash_attention (the function is not in F's namespace)
from .activation import *  # noqa: F401,F403
from .attention import *  # noqa: F401,F403
from .common import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .distance import *  # noqa: F401,F403
from .extension import *  # noqa: F401,F403
from .gpu_kernels import *  # noqa: F401,F403
from .input import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .norm import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .sampling import *  # noqa: F401,F403
from .vision import *  # noqa: F401,F403
# names Paddle shows here outside __all__
from .attention import sdp_kernel  # noqa: F401
from .input import embedding_renorm_  # noqa: F401
from ...tensor.diagonals import diag_embed  # noqa: F401  (Paddle's deprecated alias of paddle.diag_embed)
from ...tensor.matrix_functions import pdist  # noqa: F401

__all__ = [*activation.__all__, *attention.__all__, *common.__all__, *conv.__all__, *distance.__all__, *extension.__all__, *gpu_kernels.__all__, *input.__all__,
           *loss.__all__, *norm.__all__, *pooling.__all__, *sampling.__all__, *vision.__all__]
