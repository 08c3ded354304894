"""Custom C++/CUDA operators (see the package's docstring): names that raise NotImplementedError when used."""
import os
import shutil

__all__ = ["CppExtension", "CUDAExtension", "load", "setup", "get_build_directory", "BuildExtension"]


def _message(name):
    return (f"paddle.utils.cpp_extension.{name}: custom C++/CUDA operators are not implemented in paddlelite (it has "
            "no C++ core to build them against; ops are written in Python, see docs/CONTRIBUTING.md)")


def _not_implemented(name):
    def not_implemented(*args, **kwargs):
        raise NotImplementedError(_message(name))
    not_implemented.__name__ = not_implemented.__qualname__ = name
    return not_implemented


class BuildExtension:
    """Paddle's setuptools command building custom operators (subclassed by Paddle code): creating one raises."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(_message("BuildExtension"))

    @classmethod
    def with_options(cls, **options):
        raise NotImplementedError(_message("BuildExtension.with_options"))


def _cuda_home():
    """The CUDA toolkit's root, found as Paddle finds it: $CUDA_HOME, $CUDA_PATH, then nvcc on the PATH."""
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if home is None and shutil.which("nvcc"):
        home = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("nvcc"))))
    return home if home and os.path.exists(home) else None


CUDA_HOME = _cuda_home()
CppExtension, CUDAExtension = _not_implemented("CppExtension"), _not_implemented("CUDAExtension")
load, setup, load_op_meta_info_and_register_op = (_not_implemented(n) for n in ("load", "setup",
                                                                                 "load_op_meta_info_and_register_op"))
get_build_directory = _not_implemented("get_build_directory")
