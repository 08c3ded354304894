"""paddlelite: PaddlePaddle's programming model on NumPy (CPU) and CuPy (NVIDIA GPU).

`import paddlelite as paddle` -- this module only re-exports the public surface: `__all__` lists the
Paddle 3.3.1 names paddlelite implements (tests/test_public_api.py checks them against Paddle), and
the subpackages are Paddle's namespaces. Helpers are imported under a leading underscore.
"""
import math as _math
import sys as _sys

from . import ops as _ops  # noqa: F401  (registers every op)
from . import autograd, device
from .autograd import enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled
from .device import CPUPlace, CUDAPlace, get_device, is_compiled_with_cuda, set_device
from .framework import random as _framework_random
from .framework.dtype import DTYPES as _DTYPES
from .framework.dtype import get_default_dtype, set_default_dtype
from .framework.mode import disable_static, enable_static, in_dynamic_mode
from .framework.printing import set_printoptions
from .framework.size import Size
from .framework.tensor import Tensor
from . import tensor
from .tensor import *  # noqa: F401,F403  (the functional API)
from .tensor import methods as _methods
from .tensor.aliases import cat, concatenate  # top-level only, as in Paddle
from .framework.typeinfo import finfo, iinfo
from .tensor.dlpack import from_dlpack, to_dlpack
from .tensor.tensor_extras import tolist
from .tensor.inplace import erf_, expm1_
from .tensor.products import ger
from .tensor.matrix_functions import pdist
from .tensor.sampling import (bernoulli, get_cuda_rng_state, get_rng_state, manual_seed, set_cuda_rng_state,
                              set_rng_state, standard_gamma)

pi, e, inf, nan, newaxis = _math.pi, _math.e, _math.inf, _math.nan, None

_methods.install(Tensor)

bool = _DTYPES["bool"]
int8, uint8, int16 = _DTYPES["int8"], _DTYPES["uint8"], _DTYPES["int16"]
int32, int64 = _DTYPES["int32"], _DTYPES["int64"]
float16, float32, float64 = _DTYPES["float16"], _DTYPES["float32"], _DTYPES["float64"]
bfloat16, float8_e4m3fn, float8_e5m2 = _DTYPES["bfloat16"], _DTYPES["float8_e4m3fn"], _DTYPES["float8_e5m2"]
complex64, complex128 = _DTYPES["complex64"], _DTYPES["complex128"]

# ---- subpackages (helpers append their exports below this line, and their names to __all__) ----
from . import fft, fluid, io, linalg, metric, signal, special, nn, optimizer, regularizer, static, utils  # noqa: E402
from . import base  # noqa: E402  (Paddle 3's name for fluid)
from .autograd import backward_mode as _backward_mode  # noqa: E402,F401  (paddle.autograd.backward_mode, on fluid's floor)
from .framework.flags import get_flags, set_flags  # noqa: E402

from .static import layer_apis as _static_layer_apis  # noqa: E402

_methods.install(static.Variable)
_static_layer_apis.install(static)
autograd.functional.set_static_gradients(static.gradients)
# paddle.device's generator functions act on one device's generator (framework.random: above device)
device.get_rng_state = _framework_random.device_get_rng_state
device.set_rng_state = _framework_random.device_set_rng_state
device.manual_seed = _framework_random.device_manual_seed
device.manual_seed_all = _framework_random.device_manual_seed_all
device.__all__ += ["get_rng_state", "set_rng_state", "manual_seed", "manual_seed_all"]

__version__ = "0.4.0.dev0"  # CHANGELOG.md
from .framework.io import load, save  # noqa: E402
from .nn.layer.param_attr import ParamAttr, create_parameter  # noqa: E402

# paddle.framework (floor 1) files names that live higher up, as Paddle's does
from . import framework as _framework  # noqa: E402
_framework.ParamAttr = ParamAttr
_framework.__all__ += ["ParamAttr"]
_framework_random._manual_program_seed = static.framework.manual_program_seed
from . import distributed  # noqa: E402
from . import jit  # noqa: E402
from . import inference  # noqa: E402
from .distributed.parallel import DataParallel  # noqa: E402
from . import amp  # noqa: E402
from .amp.auto_cast import autocast  # noqa: E402
from .amp import get_autocast_cpu_dtype, get_autocast_dtype, get_autocast_gpu_dtype, is_autocast_enabled  # noqa: E402
from . import callbacks, hapi, pir, pir_utils, vision  # noqa: E402
from . import distribution, sparse  # noqa: E402
from . import dataset, reader  # noqa: E402
from . import text  # noqa: E402
from . import onnx  # noqa: E402  (paddle.onnx.export; the onnx package is the optional extra [onnx])
from . import geometric  # noqa: E402
from . import incubate  # noqa: E402
from . import audio  # noqa: E402
from . import quantization  # noqa: E402
from . import profiler  # noqa: E402
from .audio.functional.window import (bartlett_window, blackman_window, hamming_window, hann_window,  # noqa: E402
                                      kaiser_window)
from . import version  # noqa: E402
from .utils.install_check import run_check as _run_check  # noqa: E402

from .tensor import dlpack as _dlpack  # noqa: E402

utils.run_check = _run_check  # paddle.utils.run_check trains a layer: it lives above the utils floor
# paddle.utils.dlpack makes Tensors (the tensor floor): filed under utils here, importable by its path
utils.dlpack = _sys.modules[utils.__name__ + ".dlpack"] = _dlpack
utils.__all__ = [*utils.__all__, "run_check", "dlpack"]
from .hapi import Model, flops, summary  # noqa: E402

from .framework.dtype import DType as dtype, UNSUPPORTED as _UNSUPPORTED_DTYPES  # noqa: E402
from .framework.random import Generator  # noqa: E402
from .device.place import CUDAPinnedPlace, XPUPinnedPlace  # noqa: E402
from .tensor.constructors import *  # noqa: E402,F401,F403  (as_tensor, asarray, from_numpy, FloatTensor, ...)
from .tensor.constructors import __all__ as _constructors  # noqa: E402
from .tensor import constructors as _constructor_module  # noqa: E402

_TYPED_TENSORS = ["BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor",
                  "HalfTensor", "IntTensor", "LongTensor", "ShortTensor"]
for _name in _TYPED_TENSORS:  # paddle.device re-exports the typed factories, as Paddle does
    setattr(device, _name, getattr(_constructor_module, _name))
device.__all__ += _TYPED_TENSORS
from .tensor.windows import crop  # noqa: E402  (top level only, as in Paddle)
from .tensor.tensor_attrs import softmax  # noqa: E402  (PyTorch's spelling; nn.functional.softmax is Paddle's)
from .nn.functional import adaptive_avg_pool1d, conv1d, conv2d, conv3d, group_norm, layer_norm  # noqa: E402
from .nn.initializer import LazyGuard  # noqa: E402
from .io.reader import batch  # noqa: E402

Tensor.stft, Tensor.istft = signal.stft, signal.istft  # Tensor methods from the nn floor: installed here
Tensor.create_tensor, Tensor.create_parameter = tensor.create_tensor, create_parameter

uint16, uint32, uint64 = _UNSUPPORTED_DTYPES["uint16"], _UNSUPPORTED_DTYPES["uint32"], _UNSUPPORTED_DTYPES["uint64"]
pstring, raw = _UNSUPPORTED_DTYPES["pstring"], _UNSUPPORTED_DTYPES["raw"]
cfloat, cdouble, double, half = complex64, complex128, float64, float16
float = float32  # noqa: A001  (Paddle's name; the builtin is not used below)

from .compat import disable_compat, enable_compat, install_as_paddle  # noqa: E402
from .framework.flags import disable_signal_handler  # noqa: E402

__all__ = [
    *tensor.__all__, *_constructors, "enable_compat", "disable_compat", "install_as_paddle", "disable_signal_handler",
    "dtype", "Generator", "CUDAPinnedPlace", "XPUPinnedPlace", "crop", "softmax", "adaptive_avg_pool1d", "conv1d",
    "conv2d", "conv3d", "group_norm", "layer_norm", "LazyGuard", "batch", "uint16", "uint32", "uint64", "pstring", "raw",
    "cfloat", "cdouble", "double", "half", "float",
    "bartlett_window", "blackman_window", "hamming_window", "hann_window", "kaiser_window",
    "cat", "concatenate", "finfo", "iinfo", "pi", "e", "inf", "nan", "newaxis", "ger", "pdist", "standard_gamma", "erf_",
    "expm1_", "bernoulli",
    "from_dlpack", "to_dlpack", "tolist", "get_cuda_rng_state", "get_rng_state", "manual_seed", "set_cuda_rng_state",
    "set_rng_state", "Tensor", "Model", "summary", "flops", "Size", "ParamAttr", "create_parameter", "load", "save", "set_printoptions", "DataParallel",
    "bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64", "complex128",
    "bfloat16", "float8_e4m3fn", "float8_e5m2",
    "get_default_dtype", "set_default_dtype", "disable_static", "enable_static", "in_dynamic_mode",
    "grad", "no_grad", "enable_grad", "is_grad_enabled", "set_grad_enabled",
    "CPUPlace", "CUDAPlace", "get_device", "set_device", "is_compiled_with_cuda", "get_flags", "set_flags",
    "autocast", "get_autocast_cpu_dtype", "get_autocast_dtype", "get_autocast_gpu_dtype", "is_autocast_enabled",
]
