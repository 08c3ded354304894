"""paddle.base.core: the parts of Paddle's C++ core module that Paddle code calls directly -- its TF32 switches,
and set_num_threads.

`set_cublas_switch(False)` keeps float32 matmul-family GEMMs in full float32 on GPUs with TF32 tensor cores,
`set_cudnn_switch(False)` does the same for convolutions; both are on by default, as in Paddle's CUDA build
(paddlelite reads them in ops/math.matmul_array; NVIDIA_TF32_OVERRIDE=0 still turns TF32 off below either).
"""
import operator

from ..device import is_compiled_with_cuda
from ..device import threads as _threads
from ..framework.flags import TF32


def _switch(library, api):
    def set_switch(on):
        if isinstance(on, (str, bytes)):  # Paddle's binding takes anything with a truth value but text
            raise TypeError(f"{api}: expected a bool, received {type(on).__name__}")
        TF32[library] = bool(on)
    return set_switch


set_cublas_switch = _switch("cublas", "set_cublas_switch")
set_cudnn_switch = _switch("cudnn", "set_cudnn_switch")


def get_cublas_switch():
    """Whether float32 matmul-family GEMMs may use TF32 tensor cores."""
    return TF32["cublas"]


def get_cudnn_switch():
    """Whether float32 convolutions may use TF32 tensor cores."""
    return TF32["cudnn"]


def set_num_threads(num_threads):
    """The BLAS threads a large matrix product may use (device/threads.py; below 1 means 1). As Paddle's, it
    sets the math library directly and leaves FLAGS_paddle_num_threads as it was."""
    try:
        num_threads = operator.index(num_threads)
    except TypeError:  # Paddle's binding takes an int (a bool too) and nothing else
        raise TypeError(f"set_num_threads: expected an int, received {type(num_threads).__name__}")
    _threads.set_num_threads(num_threads)


__all__ = ["get_cublas_switch", "get_cudnn_switch", "is_compiled_with_cuda", "set_cublas_switch", "set_cudnn_switch",
           "set_num_threads"]
