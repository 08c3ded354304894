"""paddle.utils.cpp_extension: building and loading custom C++/CUDA operators against Paddle's C++ library.
paddlelite has no C++ core to build against (its ops are Python over NumPy/CuPy, its kernels CUDA compiled by NVRTC:
see docs/CONTRIBUTING.md for adding an op), so every entry point raises NotImplementedError; the module paths and
names exist because Paddle code imports them at its top (PaddleNLP's ops package)."""
from .cpp_extension import (CUDA_HOME, BuildExtension, CppExtension, CUDAExtension, get_build_directory,  # noqa: F401
                            load, load_op_meta_info_and_register_op, setup)
from . import extension_utils  # noqa: F401

__all__ = ["CppExtension", "CUDAExtension", "load", "setup", "get_build_directory"]
