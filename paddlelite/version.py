"""paddle.version: what this build is, with Paddle 3.3.1's names and formats.

The version numbers are those of the Paddle API paddlelite implements (programs compare them to choose code
paths); `paddlelite.__version__` is paddlelite's own release. The CUDA, cuDNN and NCCL versions are CuPy's,
read on first use (importing paddle.version never imports CuPy); without a CUDA GPU stack they are the
string 'False', as Paddle's CPU build reports.
"""
import inspect as _inspect

from .device import cuda as _cuda
from .device.info import get_cudnn_version as _get_cudnn_version

full_version = "3.3.1"
major, minor, patch = full_version.split(".")
rc = "0"
is_tagged = True
commit = ""
hip_version = None
hip = hip_version
xpu_xre_version = xpu_xccl_version = xpu_xhpc_version = "False"
with_mkl = "OFF"  # NumPy's BLAS, not Paddle's MKL build
with_hml = ""
cinn_version = "False"
tensorrt_version = "None"
with_pip_cuda_libraries = "OFF"
with_pip_tensorrt = "OFF"


class CudaVersion(str):
    """Paddle's `paddle.version.cuda`: the CUDA version string, callable (`cuda()`) for the older spelling."""

    def __call__(self):
        return str(self)

    def __repr__(self):
        return f"CudaVersion('{self}')"

    @property
    def __signature__(self):
        return _inspect.Signature(parameters=[], return_annotation=str)


def _cupy():
    return _cuda.cupy() if _cuda.is_available() else None


def _cuda_version():
    cp = _cupy()
    if cp is None:
        return "False"
    version = cp.cuda.runtime.runtimeGetVersion()  # 12040 -> '12.4'
    return f"{version // 1000}.{version % 1000 // 10}"


def _cudnn_version():
    version = _get_cudnn_version() if _cupy() is not None else None
    if not version:
        return "False"
    big, rest = divmod(version, 10000) if version >= 10000 else divmod(version, 1000)  # 90501 / 8907
    return f"{big}.{rest // 100}.{rest % 100}"


def _nccl_version():
    if _cupy() is None:
        return "0"
    try:
        from cupy.cuda import nccl
    except ImportError:  # CuPy built without NCCL
        return "0"
    return str(nccl.get_version())


def _cuda_archs():
    cp = _cupy()
    return [] if cp is None else sorted({int(cp.cuda.Device(i).compute_capability)
                                         for i in range(cp.cuda.runtime.getDeviceCount())})


_LAZY = {"cuda_version": _cuda_version, "cudnn_version": _cudnn_version, "nccl_version": _nccl_version,
         "compiled_cuda_archs": _cuda_archs, "cuda": lambda: CudaVersion(_value("cuda_version"))}


def _value(name):
    """A value of _LAZY, computed on first use and kept as the module's attribute."""
    if name not in globals():
        globals()[name] = _LAZY[name]()
    return globals()[name]


def __getattr__(name):  # the GPU stack's versions, asked for the first time
    if name in _LAZY:
        return _value(name)
    raise AttributeError(f"module 'paddle.version' has no attribute '{name}'")


def show():
    """Print the build's versions, as Paddle's paddle.version.show()."""
    if is_tagged:
        print("full_version:", full_version)
        print("major:", major)
        print("minor:", minor)
        print("patch:", patch)
        print("rc:", rc)
    else:
        print("commit:", commit)
    print("cuda:", _value("cuda_version"))
    print("cudnn:", _value("cudnn_version"))
    print("hip:", hip_version)
    print("nccl:", _value("nccl_version"))
    print("xpu_xre:", xpu_xre_version)
    print("xpu_xccl:", xpu_xccl_version)
    print("xpu_xhpc:", xpu_xhpc_version)
    print("cinn:", cinn_version)
    print("tensorrt_version:", tensorrt_version)
    print("cuda_archs:", _value("compiled_cuda_archs"))


def mkl():
    return with_mkl


def hml():
    return with_hml


def nccl():
    return _value("nccl_version")


def cudnn():
    return _value("cudnn_version")


def xpu():
    return xpu_xhpc_version


def xpu_xre():
    return xpu_xre_version


def xpu_xccl():
    return xpu_xccl_version


def xpu_xhpc():
    return xpu_xhpc_version


def cinn():
    return cinn_version


def tensorrt():
    return tensorrt_version


def cuda_archs():
    return _value("compiled_cuda_archs")


# cuda: made by __getattr__ on first use (it reads CuPy's CUDA version)
__all__ = ["cuda", "cudnn", "nccl", "show", "xpu", "xpu_xre", "xpu_xccl", "xpu_xhpc", "tensorrt", "cuda_archs", "hip"]  # noqa: F822
