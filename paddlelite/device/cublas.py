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
import types
from collections import namedtuple

import ml_dtypes
import numpy as np

from .graph_capture import CaptureRefused

OP_N, OP_T = 0, 1
GEMM_DEFAULT = -1
COMPUTE_16F, COMPUTE_32F, COMPUTE_64F, COMPUTE_32F_FAST_TF32 = 64, 68, 70, 77
# cudaDataType_t of the dtypes cuBLAS multiplies (CuPy computes the others, integers and bool, without cuBLAS)
DATA_TYPES = {np.dtype(np.float16): 2, np.dtype(ml_dtypes.bfloat16): 14, np.dtype(np.float32): 0,
              np.dtype(np.float64): 1, np.dtype(np.complex64): 4, np.dtype(np.complex128): 5}
_STATUS = {1: "NOT_INITIALIZED", 3: "ALLOC_FAILED", 7: "INVALID_VALUE", 8: "ARCH_MISMATCH", 11: "MAPPING_ERROR",
           13: "EXECUTION_FAILED", 14: "INTERNAL_ERROR", 15: "NOT_SUPPORTED", 16: "LICENSE_ERROR"}
_INT_MAX = 2 ** 31 - 1
_DOUBLE = {np.dtype(np.float64), np.dtype(np.complex128)}
_SINGLE = {np.dtype(np.float32), np.dtype(np.complex64)}


def compute_type(dtype, tf32, half_accumulate=False):
    """The cublasComputeType_t a GEMM of `dtype` (a NumPy dtype cuBLAS multiplies) runs in."""
    if dtype in _DOUBLE:
        return COMPUTE_64F
    if half_accumulate and dtype == np.float16:
        return COMPUTE_16F
    return COMPUTE_32F_FAST_TF32 if tf32 and dtype in _SINGLE else COMPUTE_32F


# alpha = 1 and beta = 0 of each scale type, in host memory (cuBLAS reads them when called, a capture included)
_SCALES = {np.dtype(t): np.array([1, 0], t) for t in (np.float16, np.float32, np.float64, np.complex64, np.complex128)}
_scale_addresses = {}  # (dtype, compute) -> (alpha, beta) addresses


def _scales(dtype, compute):
    """Addresses of alpha = 1 and beta = 0 for a GEMM of `dtype` in `compute` (its scale type: the compute
    precision, complex for complex data)."""
    addresses = _scale_addresses.get((dtype, compute))
    if addresses is None:
        if compute == COMPUTE_64F:
            scale = np.complex128 if dtype.kind == "c" else np.float64
        elif compute == COMPUTE_16F:
            scale = np.float16
        else:
            scale = np.complex64 if dtype.kind == "c" else np.float32
        pair = _SCALES[np.dtype(scale)]
        addresses = _scale_addresses[dtype, compute] = (pair.ctypes.data, pair.ctypes.data + pair.itemsize)
    return addresses


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


_LT_PROTOTYPES = {  # cublasLt.h: the bias epilogue's calls
    "cublasLtCreate": [ctypes.POINTER(ctypes.c_void_p)],
    "cublasLtMatmulDescCreate": [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int, ctypes.c_int],
    "cublasLtMatmulDescSetAttribute": [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t],
    "cublasLtMatrixLayoutCreate": [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64,
                                   ctypes.c_int64],
    "cublasLtMatmulPreferenceCreate": [ctypes.POINTER(ctypes.c_void_p)],
    "cublasLtMatmulPreferenceSetAttribute": [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t],
    "cublasLtMatmulAlgoGetHeuristic": [ctypes.c_void_p] * 7 + [ctypes.c_int, ctypes.c_void_p,
                                                                ctypes.POINTER(ctypes.c_int)],
    "cublasLtMatmul": [ctypes.c_void_p] * 14 + [ctypes.c_size_t, ctypes.c_void_p],
    "cublasLtMatmulDescDestroy": [ctypes.c_void_p],
    "cublasLtMatrixLayoutDestroy": [ctypes.c_void_p],
    "cublasLtMatmulPreferenceDestroy": [ctypes.c_void_p],
}


def _loaded(name):
    """The path of library `name` (e.g. 'libcublas.so') this process has mapped (CuPy's), or None."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:  # address perms offset device inode path
                fields = line.split(None, 5)
                if len(fields) == 6 and f"/{name}" in fields[5]:
                    return fields[5].strip()
    except OSError:
        return None
    return None


def _bind(path, prototypes):
    lib = ctypes.CDLL(path)
    functions = {}
    for name, argtypes in prototypes.items():
        fn = functions[name] = getattr(lib, name)
        fn.argtypes, fn.restype = argtypes, ctypes.c_int
    return functions


def _open_library(cp):
    """libcublas's functions above (and libcublasLt's, when it loads): from the copies CuPy loaded (one library,
    one set of handles per process), else from those the dynamic loader finds."""
    with contextlib.suppress(Exception):
        cp.cuda.device.get_cublas_handle()  # makes CuPy load its libcublas (which loads libcublasLt)
    path = _loaded("libcublas.so") or ctypes.util.find_library("cublas")
    if path is None:
        raise RuntimeError("paddlelite: libcublas was not found (CuPy's CUDA libraries are not installed?)")
    functions = _bind(path, _PROTOTYPES)
    lt_path = _loaded("libcublasLt.so") or ctypes.util.find_library("cublasLt")
    with contextlib.suppress(OSError, AttributeError):  # without cuBLASLt, biases are added by a kernel of their own
        functions.update(_bind(lt_path, _LT_PROTOTYPES) if lt_path else {})
    return types.SimpleNamespace(**functions)


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


def _create(fn, *args):
    """An object a cuBLAS(Lt) create function makes (its first argument is where the handle goes)."""
    ptr = ctypes.c_void_p()
    _check(fn(ctypes.byref(ptr), *args), fn.__name__)
    return ptr.value


def _set(fn, obj, attribute, ctype, value):
    """Set one attribute of a cuBLASLt descriptor."""
    holder = ctype(value)
    _check(fn(obj, attribute, ctypes.byref(holder), ctypes.sizeof(holder)), fn.__name__)


class _Handle:
    """One cuBLAS handle of one device, the workspace it uses on each stream it has served, and cuBLASLt's."""

    def __init__(self, lib):
        self.ptr = _create(lib.cublasCreate_v2)
        self.stream = None      # the stream it is bound to
        self.workspaces = {}    # stream pointer -> device memory (cupy.cuda.Memory), never freed
        self.lt = None          # this thread's cuBLASLt handle, made on first use
        self.lt_matmuls = {}    # (plan key, compute) -> _BiasMatmul, or None where cuBLASLt cannot

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


# ---- the product's plan: what cuBLAS is called with, per operand shapes, strides and dtype -------------
_Operand = namedtuple("_Operand", ["copy", "op", "ld", "stride"])  # copy: None (read in place) or (shape, full)
_Plan = namedtuple("_Plan", ["data_type", "out_shape", "m", "n", "k", "count", "a", "b"])
_plans = {}  # (a shape, a strides, b shape, b strides, dtype) -> _Plan, or None (not cuBLAS's)
_MAX_PLANS = 4096


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


def _operand(shape, strides, itemsize, batch):
    """How cuBLAS reads an operand of `shape` (>= 2-D) and byte `strides` broadcast to `batch`: in place when its
    matrices have a unit stride and its batch dims collapse to one stride, else from a contiguous copy."""
    full = batch + shape[-2:]
    lead = len(full) - len(shape)
    elements = [0] * lead + [0 if size == 1 and want != 1 else step // itemsize
                             for size, want, step in zip(shape, full[lead:], strides)]
    if all(s >= 0 for s in strides) and all(step % itemsize == 0 for step in strides):
        layout = _matrix_layout(*full[-2:], *elements[-2:])
        stride = _batch_stride(full[:-2], elements[:-2])
        if layout is not None and stride is not None:
            return _Operand(None, *layout, stride)
    rows, cols = full[-2:]
    return _Operand((shape, full), OP_N, max(cols, 1), rows * cols)


def _plan(a_shape, a_strides, b_shape, b_strides, dtype):
    data_type = DATA_TYPES.get(dtype)
    if data_type is None or not a_shape or not b_shape:
        return None
    vector_a, vector_b = len(a_shape) == 1, len(b_shape) == 1
    if vector_a:  # a row
        a_shape, a_strides = (1,) + a_shape, (0,) + a_strides
    if vector_b:  # a column
        b_shape, b_strides = b_shape + (1,), b_strides + (0,)
    (m, k), (k2, n) = a_shape[-2:], b_shape[-2:]
    if k != k2:
        raise ValueError(f"matmul: the contracted dims differ: {k} (x's last) and {k2} (y's second last)")
    batch = a_shape[:-2] if a_shape[:-2] == b_shape[:-2] else np.broadcast_shapes(a_shape[:-2], b_shape[:-2])
    count = math.prod(batch)
    if max(m, n, k, count) > _INT_MAX:
        return None
    out_shape = batch + (m, n)[vector_a:] if not vector_b else batch + ((m,) if not vector_a else ())
    return _Plan(data_type, out_shape, m, n, k, count, _operand(a_shape, a_strides, dtype.itemsize, batch),
                 _operand(b_shape, b_strides, dtype.itemsize, batch))


def matmul(cp, a, b, tf32=True, half_accumulate=False, bias=None):
    """a @ b (NumPy's matmul: 1-D operands, broadcast batch dims) of two CuPy arrays of one dtype cuBLAS
    multiplies, plus `bias` (broadcast over the last dim) when given, as a new C-contiguous array; None for other
    dtypes or sizes past cuBLAS's int32 dimensions. A bias is added by cuBLASLt's epilogue where it can (a 2-D
    product of float16/bfloat16/float32 with 256-byte aligned arrays: one pass over the output fewer)."""
    if b.dtype != a.dtype:
        return None
    key = (a.shape, a.strides, b.shape, b.strides, a.dtype)
    plan = _plans.get(key, False)
    if plan is False:
        if len(_plans) >= _MAX_PLANS:
            _plans.clear()
        plan = _plans[key] = _plan(*key)
    if plan is None:
        return None
    out = cp.empty(plan.out_shape, a.dtype)
    if not out.size:
        return out
    compute = compute_type(a.dtype, tf32, half_accumulate)
    if not plan.k:
        out.fill(0)
    elif bias is not None and _bias_epilogue(cp, key, plan, a, b, bias, out, compute):
        return out
    else:
        _gemm(cp, plan, a, b, out, compute)
    if bias is not None:
        out += bias
    return out


def _read(cp, x, operand):
    """The array cuBLAS reads for operand x: x, or its contiguous copy (which must live until the call is queued:
    CuPy's pool hands a freed block to the next allocation on the stream)."""
    if operand.copy is None:
        return x
    shape, full = operand.copy
    return cp.ascontiguousarray(cp.broadcast_to(x.reshape(shape), full))


def _gemm(cp, plan, a, b, out, compute):
    """out[...] = a @ b by `plan` (out: C-contiguous)."""
    pa, pb = plan.a, plan.b
    a, b = _read(cp, a, pa), _read(cp, b, pb)
    a_ptr, b_ptr = _pointer(a), _pointer(b)
    alpha, beta = _scales(out.dtype, compute)
    lib, h = handle(cp)
    m, n, k, t = plan.m, plan.n, plan.k, plan.data_type
    # out^T (n x m, column-major) = op(b) op(a): cuBLAS's A is b, its B is a
    if plan.count == 1:
        _check(lib.cublasGemmEx(h.ptr, pb.op, pa.op, n, m, k, alpha, b_ptr, t, pb.ld, a_ptr, t, pa.ld, beta,
                                _pointer(out), t, max(n, 1), compute, GEMM_DEFAULT), "cublasGemmEx")
    else:
        _check(lib.cublasGemmStridedBatchedEx(
            h.ptr, pb.op, pa.op, n, m, k, alpha, b_ptr, t, pb.ld, pb.stride, a_ptr, t, pa.ld, pa.stride, beta,
            _pointer(out), t, max(n, 1), m * n, plan.count, compute, GEMM_DEFAULT), "cublasGemmStridedBatchedEx")


# ---- cuBLASLt: the product and its bias in one pass ----------------------------------------------------
_DESC_TRANSA, _DESC_TRANSB, _DESC_EPILOGUE, _DESC_BIAS_POINTER = 3, 4, 7, 8  # cublasLtMatmulDescAttributes_t
_EPILOGUE_BIAS = 4
_PREF_MAX_WORKSPACE_BYTES = 1
_SCALE_TYPES = {COMPUTE_32F: 0, COMPUTE_32F_FAST_TF32: 0, COMPUTE_16F: 2}  # cudaDataType_t of alpha and beta
_EPILOGUE_DTYPES = {np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32)}
_HEURISTIC_BYTES = 96  # sizeof(cublasLtMatmulHeuristicResult_t): the algorithm (64 bytes) first
_ALIGNMENT = 256  # what cuBLASLt's algorithms may assume of every pointer unless told otherwise


class _BiasMatmul:
    """One cuBLASLt matmul with a bias epilogue -- D^T = op(b) op(a) + bias, per row of D^T: per output column
    -- set up once per operand layout and compute type: its descriptors and the algorithm cuBLASLt picks."""

    def __init__(self, lib, lt, plan, compute, bias_ptr, workspace_size):
        self.lib = lib
        self.desc = self.a_layout = self.b_layout = self.out_layout = None
        self.desc = _create(lib.cublasLtMatmulDescCreate, compute, _SCALE_TYPES[compute])
        set_attribute = lib.cublasLtMatmulDescSetAttribute
        _set(set_attribute, self.desc, _DESC_TRANSA, ctypes.c_int32, plan.b.op)
        _set(set_attribute, self.desc, _DESC_TRANSB, ctypes.c_int32, plan.a.op)
        _set(set_attribute, self.desc, _DESC_EPILOGUE, ctypes.c_uint32, _EPILOGUE_BIAS)
        _set(set_attribute, self.desc, _DESC_BIAS_POINTER, ctypes.c_void_p, bias_ptr)  # the heuristic reads its alignment
        t, m, n, k = plan.data_type, plan.m, plan.n, plan.k
        layout = lib.cublasLtMatrixLayoutCreate  # the matrices as stored: cuBLAS's A is b, its B is a
        self.a_layout = _create(layout, t, *((n, k) if plan.b.op == OP_N else (k, n)), plan.b.ld)
        self.b_layout = _create(layout, t, *((k, m) if plan.a.op == OP_N else (m, k)), plan.a.ld)
        self.out_layout = _create(layout, t, n, m, max(n, 1))
        preference = _create(lib.cublasLtMatmulPreferenceCreate)
        try:
            _set(lib.cublasLtMatmulPreferenceSetAttribute, preference, _PREF_MAX_WORKSPACE_BYTES, ctypes.c_uint64,
                 workspace_size)
            self.heuristic = ctypes.create_string_buffer(_HEURISTIC_BYTES)
            found = ctypes.c_int(0)
            _check(lib.cublasLtMatmulAlgoGetHeuristic(lt, self.desc, self.a_layout, self.b_layout, self.out_layout,
                                                      self.out_layout, preference, 1, self.heuristic,
                                                      ctypes.byref(found)), "cublasLtMatmulAlgoGetHeuristic")
        finally:
            lib.cublasLtMatmulPreferenceDestroy(preference)
        if found.value < 1:
            raise RuntimeError("cuBLASLt has no algorithm for this product with a bias epilogue")

    def __call__(self, lt, a_ptr, b_ptr, out_ptr, bias_ptr, scales, workspace, stream):
        lib = self.lib
        _set(lib.cublasLtMatmulDescSetAttribute, self.desc, _DESC_BIAS_POINTER, ctypes.c_void_p, bias_ptr)
        alpha, beta = scales
        _check(lib.cublasLtMatmul(lt, self.desc, alpha, b_ptr, self.a_layout, a_ptr, self.b_layout, beta, out_ptr,
                                  self.out_layout, out_ptr, self.out_layout, ctypes.addressof(self.heuristic),
                                  workspace.ptr, workspace.size, stream), "cublasLtMatmul")

    def __del__(self):
        with contextlib.suppress(Exception):  # at exit the library may be gone
            for destroy, obj in ((self.lib.cublasLtMatmulDescDestroy, self.desc),
                                 (self.lib.cublasLtMatrixLayoutDestroy, self.a_layout),
                                 (self.lib.cublasLtMatrixLayoutDestroy, self.b_layout),
                                 (self.lib.cublasLtMatrixLayoutDestroy, self.out_layout)):
                if obj:
                    destroy(obj)


def _bias_epilogue(cp, key, plan, a, b, bias, out, compute):
    """out[...] = a @ b + bias by one cuBLASLt call; False (nothing done) where cuBLASLt cannot."""
    if plan.count != 1 or out.dtype not in _EPILOGUE_DTYPES or plan.a.copy or plan.b.copy \
            or bias.dtype != out.dtype or bias.shape != (plan.n,) or bias.strides != (bias.itemsize,) \
            or len(plan.out_shape) != 2:
        return False
    pointers = (_pointer(a), _pointer(b), _pointer(out), _pointer(bias))
    if any(ptr % _ALIGNMENT for ptr in pointers):
        return False
    lib, h = handle(cp)
    if not hasattr(lib, "cublasLtMatmul"):
        return False
    if h.lt is None:
        h.lt = _create(lib.cublasLtCreate)
    workspace = h.workspaces[h.stream]
    matmul_key = (key, compute)
    bias_matmul = h.lt_matmuls.get(matmul_key, False)
    if bias_matmul is False:
        try:
            bias_matmul = _BiasMatmul(lib, h.lt, plan, compute, pointers[3], workspace.size)
        except RuntimeError:  # no algorithm, or a status cuBLASLt refuses with: the kernel path
            bias_matmul = None
        h.lt_matmuls[matmul_key] = bias_matmul
    if bias_matmul is None:
        return False
    try:
        bias_matmul(h.lt, *pointers, _scales(out.dtype, compute), workspace, h.stream)
    except RuntimeError:  # refused at run time: from now on the kernel path for this product
        h.lt_matmuls[matmul_key] = None
        return False
    return True
