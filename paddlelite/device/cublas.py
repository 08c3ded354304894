"""Matrix products of CuPy arrays through cuBLAS itself, so that a CUDA-graph capture can hold them.

CuPy's cuBLAS wrappers -- `cupy.matmul` and the low-level `cupy_backends.cuda.libs.cublas` alike -- bind the
handle to the current stream before every call and raise NotImplementedError when that stream is capturing.
cuBLAS supports capture (NVIDIA's cuBLAS guide, "CUDA Graphs Support") once the handle has a workspace of its
own: `cublasSetStream` resets a handle to the library's default workspace pool, whose allocations a graph does
not own, so every rebinding to a stream is followed by `cublasSetWorkspace`. This module keeps one handle per
thread and device, a workspace per stream the handle served (allocated outside any capture: a step is run once
on its capture stream before it is captured), and calls `cublasGemmEx` / `cublasGemmStridedBatchedEx` of the
libcublas the process already loaded for CuPy (ctypes: a handful of C calls, no further dependency).

A row-major product C = A @ B is the column-major product C^T = B^T A^T, so the operands go to cuBLAS
swapped; each operand's matrices are read where they are when one of their two strides is 1 (a transposed
view is just the other cuBLAS op) and its batch dimensions collapse to one stride (broadcast ones: stride 0),
else it is copied contiguous first.

Compute types are the caller's choice (ops/math.py applies Paddle's rules): float16/bfloat16 multiply in
float32 (`half_accumulate`: float16 accumulates in float16), float32/complex64 in TF32 tensor-core math when
`tf32`, else in float32, float64/complex128 in double.
"""
import contextlib
import ctypes
import ctypes.util
import math
import threading

import numpy as np

from .graph_capture import CaptureRefused

OP_N, OP_T = 0, 1
GEMM_DEFAULT = -1
COMPUTE_16F, COMPUTE_32F, COMPUTE_64F, COMPUTE_32F_FAST_TF32 = 64, 68, 70, 77
# cudaDataType_t of the dtypes cuBLAS multiplies (CuPy computes the others, integers and bool, without cuBLAS)
DATA_TYPES = {"float16": 2, "bfloat16": 14, "float32": 0, "float64": 1, "complex64": 4, "complex128": 5}
_STATUS = {1: "NOT_INITIALIZED", 3: "ALLOC_FAILED", 7: "INVALID_VALUE", 8: "ARCH_MISMATCH", 11: "MAPPING_ERROR",
           13: "EXECUTION_FAILED", 14: "INTERNAL_ERROR", 15: "NOT_SUPPORTED", 16: "LICENSE_ERROR"}
_INT_MAX = 2 ** 31 - 1


def compute_type(dtype, tf32, half_accumulate=False):
    """The cublasComputeType_t a GEMM of `dtype` (a NumPy dtype cuBLAS multiplies) runs in."""
    name = dtype.name
    if name in ("float64", "complex128"):
        return COMPUTE_64F
    if name == "float16" and half_accumulate:
        return COMPUTE_16F
    if name in ("float32", "complex64") and tf32:
        return COMPUTE_32F_FAST_TF32
    return COMPUTE_32F


# alpha = 1 and beta = 0 of each scale type, in host memory (cuBLAS reads them when called, a capture included)
_SCALES = {np.dtype(t): np.array([1, 0], t) for t in (np.float16, np.float32, np.float64, np.complex64, np.complex128)}


def _scales(dtype, compute):
    """Addresses of alpha = 1 and beta = 0 for a GEMM of `dtype` in `compute` (its scale type: the compute
    precision, complex for complex data)."""
    if compute == COMPUTE_64F:
        scale = np.complex128 if dtype.kind == "c" else np.float64
    elif compute == COMPUTE_16F:
        scale = np.float16
    else:
        scale = np.complex64 if dtype.kind == "c" else np.float32
    pair = _SCALES[np.dtype(scale)]
    return pair.ctypes.data, pair.ctypes.data + pair.itemsize


# ---- the library ----------------------------------------------------------------------------------
_PROTOTYPES = {  # C signatures of what this module calls (cublas_api.h); every one returns a cublasStatus_t
    "cublasCreate_v2": [ctypes.POINTER(ctypes.c_void_p)],
    "cublasSetStream_v2": [ctypes.c_void_p, ctypes.c_void_p],
    "cublasSetWorkspace_v2": [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t],
    "cublasGemmEx": [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                     ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_int,
                     ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                     ctypes.c_int],
    "cublasGemmStridedBatchedEx": [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                   ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                   ctypes.c_longlong, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_longlong,
                                   ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_longlong,
                                   ctypes.c_int, ctypes.c_int, ctypes.c_int],
}
_state = {"library": None}
_local = threading.local()  # .handles: device id -> _Handle (a cuBLAS handle is not to be shared by threads)


def _loaded_libcublas():
    """The path of the libcublas this process has mapped (CuPy's), or None."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:  # address perms offset device inode path
                fields = line.split(None, 5)
                if len(fields) == 6 and "/libcublas.so" in fields[5]:
                    return fields[5].strip()
    except OSError:
        return None
    return None


def _open_library(cp):
    """libcublas with the prototypes above: the copy CuPy loaded (one library, one set of handles per process),
    else the one the dynamic loader finds."""
    with contextlib.suppress(Exception):
        cp.cuda.device.get_cublas_handle()  # makes CuPy load its libcublas
    path = _loaded_libcublas() or ctypes.util.find_library("cublas")
    if path is None:
        raise RuntimeError("paddlelite: libcublas was not found (CuPy's CUDA libraries are not installed?)")
    lib = ctypes.CDLL(path)
    for name, argtypes in _PROTOTYPES.items():
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = argtypes, ctypes.c_int
    return lib


def library(cp):
    lib = _state["library"]
    if lib is None:
        lib = _state["library"] = _open_library(cp)
    return lib


@contextlib.contextmanager
def use_library(lib):
    """Run with `lib` (an object with the cuBLAS functions above) as libcublas: the tests' emulator."""
    saved, handles = _state["library"], getattr(_local, "handles", None)
    _state["library"], _local.handles = lib, {}
    try:
        yield lib
    finally:
        _state["library"], _local.handles = saved, handles


def _check(status, call):
    if status:
        raise RuntimeError(f"cuBLAS {call} failed: CUBLAS_STATUS_{_STATUS.get(status, status)}")


def workspace_bytes(cp):
    """cuBLAS's recommended user workspace: 32 MiB on Hopper and later, 4 MiB before."""
    major = int(cp.cuda.Device().compute_capability) // 10
    return (32 if major >= 9 else 4) << 20


class _Handle:
    """One cuBLAS handle of one device, and the workspace it uses on each stream it has served."""

    def __init__(self, lib):
        ptr = ctypes.c_void_p()
        _check(lib.cublasCreate_v2(ctypes.byref(ptr)), "cublasCreate")
        self.ptr = ptr.value
        self.stream = None      # the stream it is bound to
        self.workspaces = {}    # stream pointer -> device memory (cupy.cuda.Memory), never freed

    def bind(self, lib, cp):
        """Bind the handle to CuPy's current stream, with that stream's workspace."""
        stream = cp.cuda.get_current_stream()
        if stream.ptr == self.stream:
            return
        workspace = self.workspaces.get(stream.ptr)
        if workspace is None:
            if stream.is_capturing():
                raise CaptureRefused("a CUDA graph cannot hold a stream's first cuBLAS call: its workspace is "
                                     "allocated then (run the step once on that stream before capturing it)")
            workspace = self.workspaces[stream.ptr] = cp.cuda.memory.Memory(workspace_bytes(cp))
        _check(lib.cublasSetStream_v2(self.ptr, stream.ptr), "cublasSetStream")  # resets the workspace, so:
        _check(lib.cublasSetWorkspace_v2(self.ptr, workspace.ptr, workspace.size), "cublasSetWorkspace")
        self.stream = stream.ptr


def handle(cp):
    """This thread's cuBLAS handle for CuPy's current device, bound to CuPy's current stream."""
    lib = library(cp)
    handles = getattr(_local, "handles", None)
    if handles is None:
        handles = _local.handles = {}
    device = cp.cuda.Device().id
    h = handles.get(device)
    if h is None:
        h = handles[device] = _Handle(lib)
    h.bind(lib, cp)
    return lib, h


# ---- operands -------------------------------------------------------------------------------------
def _pointer(a):
    return a.data.ptr


def _batch_stride(shape, strides):
    """The one stride (elements) stepping through batch dims `shape` with `strides`, or None when they do not
    collapse to one (a batch of one, or dims broadcast alike, give 0)."""
    stride = None
    for size, step in zip(reversed(shape), reversed(strides)):
        if size == 1:
            continue
        if stride is None:
            stride, span = step, step * size
        elif step != span:
            return None
        else:
            span = step * size
    return 0 if stride is None else stride


def _matrix_layout(rows, cols, s0, s1):
    """(op, ld) reading a [rows, cols] row-major operand with element strides (s0, s1) as cuBLAS's transposed
    operand (the swapped product), or None when neither stride is 1."""
    if rows == 1:
        s0 = max(cols, 1)
    if cols == 1:
        s1 = 1
    if s1 == 1 and max(cols, 1) <= s0 <= _INT_MAX:
        return OP_N, s0  # row-major: in column-major terms it is already the transpose
    if s0 == 1 and max(rows, 1) <= s1 <= _INT_MAX:
        return OP_T, s1  # column-major (a transposed view)
    return None


def _operand(cp, x, batch):
    """x broadcast to `batch` + its matrix shape as cuBLAS reads it: (array, op, ld, batch stride)."""
    if x.shape[:-2] != batch:
        x = cp.broadcast_to(x, batch + x.shape[-2:])
    itemsize = x.itemsize
    if all(s >= 0 and s % itemsize == 0 for s in x.strides):
        strides = [s // itemsize for s in x.strides]
        layout = _matrix_layout(*x.shape[-2:], *strides[-2:])
        stride = _batch_stride(x.shape[:-2], strides[:-2])
        if layout is not None and stride is not None:
            return (x,) + layout + (stride,)
    x = cp.ascontiguousarray(x)
    rows, cols = x.shape[-2:]
    return x, OP_N, max(cols, 1), rows * cols


def matmul(cp, a, b, tf32=True, half_accumulate=False):
    """a @ b (NumPy's matmul: 1-D operands, broadcast batch dims) of two CuPy arrays of one dtype cuBLAS
    multiplies, as a new C-contiguous array; None for other dtypes or sizes past cuBLAS's int32 dimensions."""
    data_type = DATA_TYPES.get(a.dtype.name)
    if data_type is None or b.dtype != a.dtype or a.ndim == 0 or b.ndim == 0:
        return None
    vector_a, vector_b = a.ndim == 1, b.ndim == 1
    if vector_a:
        a = a.reshape(1, -1)
    if vector_b:
        b = b.reshape(-1, 1)
    (m, k), (k2, n) = a.shape[-2:], b.shape[-2:]
    if k != k2:
        raise ValueError(f"matmul: the contracted dims differ: {k} (x's last) and {k2} (y's second last)")
    batch = a.shape[:-2] if a.shape[:-2] == b.shape[:-2] else np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    if max(m, n, k, math.prod(batch)) > _INT_MAX:
        return None
    out = cp.empty(batch + (m, n), a.dtype)
    if out.size and not k:
        out.fill(0)
    elif out.size:
        _gemm(cp, a, b, out, batch, data_type, compute_type(a.dtype, tf32, half_accumulate))
    if vector_a or vector_b:
        out = out.reshape(out.shape[:-2] + out.shape[-2:][vector_a:2 - vector_b])
    return out


def _gemm(cp, a, b, out, batch, data_type, compute):
    """out[...] = a @ b for operands already broadcast-compatible with `batch` (out: C-contiguous)."""
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    a, op_a, ld_a, stride_a = _operand(cp, a, batch)
    b, op_b, ld_b, stride_b = _operand(cp, b, batch)
    alpha, beta = _scales(out.dtype, compute)
    lib, h = handle(cp)
    count = math.prod(batch)
    # out^T (n x m, column-major) = op(b) op(a): cuBLAS's A is b, its B is a
    if count == 1:
        _check(lib.cublasGemmEx(h.ptr, op_b, op_a, n, m, k, alpha, _pointer(b), data_type, ld_b, _pointer(a),
                                data_type, ld_a, beta, _pointer(out), data_type, max(n, 1), compute, GEMM_DEFAULT),
               "cublasGemmEx")
    else:
        _check(lib.cublasGemmStridedBatchedEx(
            h.ptr, op_b, op_a, n, m, k, alpha, _pointer(b), data_type, ld_b, stride_b, _pointer(a), data_type, ld_a,
            stride_a, beta, _pointer(out), data_type, max(n, 1), m * n, count, compute, GEMM_DEFAULT),
            "cublasGemmStridedBatchedEx")
