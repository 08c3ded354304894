"""paddlelite: PaddlePaddle's programming model on NumPy (CPU) and CuPy (NVIDIA GPU).

`import paddlelite as paddle` -- this module only re-exports the public surface.
"""
from . import ops  # registers every op
from . import autograd
from .autograd import PyLayer, enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled
from .device import CPUPlace, CUDAPlace, get_device, is_compiled_with_cuda, set_device
from . import device
from .framework.dtype import (DTYPES as _DTYPES, get_default_dtype, set_default_dtype)
from .framework.mode import disable_static, enable_static, in_dynamic_mode
from .framework.printing import set_printoptions
from .framework.size import Size
from .framework.tensor import Parameter, Tensor
from .tensor import methods as _methods
from .tensor.creation import (arange, empty, empty_like, eye, full, full_like, linspace, normal, ones,
                              ones_like, rand, randint, randn, randperm, seed, standard_normal, to_tensor,
                              uniform, zeros, zeros_like, assign, clone)
from .tensor.manipulation import *  # noqa: F401,F403
from .tensor.math import *  # noqa: F401,F403
from .tensor.reduction import *  # noqa: F401,F403
from .tensor.search import *  # noqa: F401,F403

_methods.install(Tensor)

bool = _DTYPES["bool"]
int8, uint8, int16 = _DTYPES["int8"], _DTYPES["uint8"], _DTYPES["int16"]
int32, int64 = _DTYPES["int32"], _DTYPES["int64"]
float16, float32, float64 = _DTYPES["float16"], _DTYPES["float32"], _DTYPES["float64"]
complex64, complex128 = _DTYPES["complex64"], _DTYPES["complex128"]

# ---- subpackages (helpers append their exports below this line) ----
from . import fluid, io, metric, nn, optimizer, static, utils  # noqa: E402

_methods.install(static.Variable)

__version__ = "0.1.0"
from .framework.io import load, save  # noqa: E402
from .nn.layer.param_attr import ParamAttr, create_parameter  # noqa: E402
from .optimizer import regularizer  # noqa: E402
from . import distributed  # noqa: E402
from .distributed.parallel import DataParallel  # noqa: E402
