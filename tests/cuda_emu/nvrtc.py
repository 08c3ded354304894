"""Compile CUDA source with NVRTC (the compiler CuPy uses) without a GPU, through NVRTC's C API.

libnvrtc comes from the pip wheel `nvidia-cuda-nvrtc-cu12` (or `nvidia-cuda-nvrtc` for CUDA 13,
or a CUDA toolkit); only the compiler library is needed: no driver, no device.
"""
import ctypes
import glob
import os


def _candidates():
    env = os.environ.get("PADDLELITE_NVRTC")
    if env:
        yield env
    try:
        import nvidia.cuda_nvrtc as pkg  # nvidia-cuda-nvrtc-cu12
        for d in pkg.__path__:
            yield from sorted(glob.glob(os.path.join(d, "lib", "libnvrtc.so*")))
    except ImportError:
        pass
    try:
        import nvidia.cu13 as pkg  # nvidia-cuda-nvrtc (CUDA 13 layout)
        for d in pkg.__path__:
            yield from sorted(glob.glob(os.path.join(d, "lib", "libnvrtc.so*")))
    except ImportError:
        pass
    for d in ("/usr/local/cuda/lib64", "/usr/local/cuda/lib", "/usr/lib/x86_64-linux-gnu"):
        yield from sorted(glob.glob(os.path.join(d, "libnvrtc.so*")))


def load():
    """The NVRTC library, or None when none is installed."""
    for path in _candidates():
        if "builtins" in path or ".alt." in path:
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        return lib
    return None


def version(lib):
    major, minor = ctypes.c_int(), ctypes.c_int()
    lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    return major.value, minor.value


def compile_ptx(lib, source, name="kernel.cu", arch="sm_80", options=("--std=c++17",)):
    """PTX text for `source`; raises RuntimeError with the compiler log on failure."""
    prog = ctypes.c_void_p()
    rc = lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None)
    if rc:
        raise RuntimeError(f"nvrtcCreateProgram: {lib.nvrtcGetErrorString(rc).decode()}")
    try:
        opts = [f"--gpu-architecture=compute_{arch.split('_')[1]}".encode(), *(o.encode() for o in options)]
        arr = (ctypes.c_char_p * len(opts))(*opts)
        rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(prog, log)
        if rc:
            raise RuntimeError(f"NVRTC ({arch}) failed to compile {name}: "
                               f"{lib.nvrtcGetErrorString(rc).decode()}\n{log.value.decode(errors='replace')}")
        lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
        ptx = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetPTX(prog, ptx)
        return ptx.value.decode()
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(prog))
