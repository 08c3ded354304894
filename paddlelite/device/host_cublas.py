"""cuBLAS's GEMMs on the CPU, for paddlelite.device.cublas without a GPU: the tests' emulator
(tests/test_cublas.py) and the launch counter's library (device/launch_count.py).

`Cublas` has the functions device/cublas.py calls, with cuBLAS's C arguments (handles, enums, dimensions and
addresses as integers). Its GEMMs read and write host memory at those addresses with cuBLAS's column-major
semantics, checking what cuBLAS checks (leading dimensions, the data/compute type combinations it supports),
so the row-major-to-column-major mapping, the transposes, leading dimensions and batch strides are verified
against NumPy's matmul; every call is logged for tests of the call sequence. The cuBLASLt functions the bias
epilogue uses keep their descriptors, matrix layouts and algorithms as Python objects behind integer handles.
"""
import ctypes

import ml_dtypes
import numpy as np

SUCCESS, INVALID_VALUE, NOT_SUPPORTED = 0, 7, 15
DTYPES = {2: np.dtype(np.float16), 14: np.dtype(ml_dtypes.bfloat16), 0: np.dtype(np.float32),
          1: np.dtype(np.float64), 4: np.dtype(np.complex64), 5: np.dtype(np.complex128)}
# data type -> the compute types cuBLAS accepts for it (cublasGemmEx's table), and what each accumulates in
COMPUTE = {2: {64: np.float16, 68: np.float32}, 14: {68: np.float32}, 0: {68: np.float32, 77: "tf32"},
           1: {70: np.float64}, 4: {68: np.complex64, 77: "tf32"}, 5: {70: np.complex128}}
SCALE = {64: np.float16, 68: np.float32, 77: np.float32, 70: np.float64}


def tf32(x):
    """float32 values rounded to TF32's 10-bit mantissa (round to nearest even), as tensor cores read them."""
    bits = np.ascontiguousarray(x, np.float32).view(np.uint32)
    rounded = (bits + np.uint32(0xFFF) + ((bits >> np.uint32(13)) & np.uint32(1))) & np.uint32(0xFFFFE000)
    return rounded.view(np.float32)


def _view(address, dtype, rows, cols, ld):
    """The column-major [rows, cols] matrix at `address` with leading dimension ld (elements)."""
    if not rows or not cols:
        return np.empty((rows, cols), dtype)
    n = (cols - 1) * ld + rows
    flat = np.frombuffer((ctypes.c_char * (n * dtype.itemsize)).from_address(address), dtype)
    return np.lib.stride_tricks.as_strided(flat, (rows, cols), (dtype.itemsize, ld * dtype.itemsize))


SCALE_TYPES = {0: np.float32, 1: np.float64, 2: np.float16}
DESC_ATTRIBUTES = {3: "transa", 4: "transb", 7: "epilogue", 8: "bias"}  # cublasLtMatmulDescAttributes_t
EPILOGUE_DEFAULT, EPILOGUE_BIAS = 1, 4


class Cublas:
    """`tf32=False` multiplies float32 in float32 whatever the compute type asks (the launch counter's values are
    the CPU's)."""

    def __init__(self, tf32=True):
        self.tf32 = tf32
        self.log = []
        self.handles = 0
        self.objects = {}  # cuBLASLt handle -> its descriptor / layout / preference (a dict)
        self.algorithms = set()  # addresses of the heuristic results handed out

    def _new(self, out, **fields):
        self.handles += 1
        self.objects[1000 + self.handles] = fields
        out._obj.value = 1000 + self.handles
        return SUCCESS

    def cublasCreate_v2(self, out):
        self.handles += 1
        out._obj.value = 1000 + self.handles
        self.log.append(("create", out._obj.value))
        return SUCCESS

    def cublasSetStream_v2(self, handle, stream):
        self.log.append(("stream", handle, stream))
        return SUCCESS

    def cublasSetWorkspace_v2(self, handle, address, size):
        self.log.append(("workspace", handle, address, size))
        return SUCCESS

    def cublasGemmEx(self, handle, transa, transb, m, n, k, alpha, a, atype, lda, b, btype, ldb, beta, c, ctype, ldc,
                     compute, algo):
        self.log.append(("gemm", handle, transa, transb, m, n, k, lda, ldb, ldc, atype, compute))
        return self._gemm(transa, transb, m, n, k, alpha, (a, lda, 0), atype, (b, ldb, 0), btype, beta, (c, ldc, 0),
                          ctype, compute, 1)

    def cublasGemmStridedBatchedEx(self, handle, transa, transb, m, n, k, alpha, a, atype, lda, stride_a, b, btype,
                                   ldb, stride_b, beta, c, ctype, ldc, stride_c, count, compute, algo):
        self.log.append(("gemm_batched", handle, transa, transb, m, n, k, lda, ldb, ldc, stride_a, stride_b,
                         stride_c, count, atype, compute))
        return self._gemm(transa, transb, m, n, k, alpha, (a, lda, stride_a), atype, (b, ldb, stride_b), btype, beta,
                          (c, ldc, stride_c), ctype, compute, count)

    def _gemm(self, transa, transb, m, n, k, alpha, a, atype, b, btype, beta, c, ctype, compute, count):
        if not atype == btype == ctype or atype not in COMPUTE or compute not in COMPUTE[atype]:
            return NOT_SUPPORTED
        a_rows, b_rows = (m if transa == 0 else k), (k if transb == 0 else n)
        if min(m, n, k, count) < 0 or transa not in (0, 1) or transb not in (0, 1) or a[1] < max(1, a_rows) \
                or b[1] < max(1, b_rows) or c[1] < max(1, m):
            return INVALID_VALUE
        dtype, acc = DTYPES[atype], COMPUTE[atype][compute]
        rounded = acc == "tf32" and self.tf32  # inputs rounded to TF32's 10 mantissa bits, float32 accumulation
        acc = dtype if acc == "tf32" else acc
        scale = np.complex128 if compute == 70 and dtype.kind == "c" else \
            np.complex64 if dtype.kind == "c" else SCALE[compute]
        alpha_v, beta_v = (np.frombuffer((ctypes.c_char * np.dtype(scale).itemsize).from_address(p), scale)[0]
                           for p in (alpha, beta))
        for i in range(count):
            ma = _view(a[0] + i * a[2] * dtype.itemsize, dtype, a_rows, (k if transa == 0 else m), a[1])
            mb = _view(b[0] + i * b[2] * dtype.itemsize, dtype, b_rows, (n if transb == 0 else k), b[1])
            mc = _view(c[0] + i * c[2] * dtype.itemsize, dtype, m, n, c[1])
            opa, opb = (ma if transa == 0 else ma.T), (mb if transb == 0 else mb.T)
            if rounded:
                opa, opb = (tf32(x) if dtype.kind == "f" else tf32(x.real) + 1j * tf32(x.imag) for x in (opa, opb))
            product = opa.astype(acc) @ opb.astype(acc)
            result = alpha_v * product + (beta_v * mc.astype(acc) if beta_v else 0)
            mc[...] = np.asarray(result).astype(dtype)
        return SUCCESS

    def calls(self, kind):
        return [entry for entry in self.log if entry[0] == kind]

    # ---- cuBLASLt ----------------------------------------------------------------------------------
    def cublasLtCreate(self, out):
        self.log.append(("lt_create",))
        return self._new(out, kind="lt")

    def cublasLtMatmulDescCreate(self, out, compute, scale):
        return self._new(out, kind="desc", compute=compute, scale=scale, transa=0, transb=0,
                         epilogue=EPILOGUE_DEFAULT, bias=0)

    def cublasLtMatmulDescSetAttribute(self, desc, attribute, buf, size):
        if attribute not in DESC_ATTRIBUTES or size != ctypes.sizeof(buf._obj):
            return INVALID_VALUE
        self.objects[desc][DESC_ATTRIBUTES[attribute]] = buf._obj.value or 0
        return SUCCESS

    def cublasLtMatrixLayoutCreate(self, out, dtype, rows, cols, ld):
        if ld < max(1, rows):
            return INVALID_VALUE
        return self._new(out, kind="layout", dtype=dtype, rows=rows, cols=cols, ld=ld)

    def cublasLtMatmulPreferenceCreate(self, out):
        return self._new(out, kind="preference", workspace=0)

    def cublasLtMatmulPreferenceSetAttribute(self, preference, attribute, buf, size):
        if attribute != 1 or size != 8:
            return INVALID_VALUE
        self.objects[preference]["workspace"] = buf._obj.value
        return SUCCESS

    def _shapes(self, desc, a, b, c):
        """(m, n, k) of a matmul whose layouts agree with its transposes, else None."""
        d, a, b, c = (self.objects[x] for x in (desc, a, b, c))
        m, k = (a["rows"], a["cols"]) if d["transa"] == 0 else (a["cols"], a["rows"])
        k2, n = (b["rows"], b["cols"]) if d["transb"] == 0 else (b["cols"], b["rows"])
        if k != k2 or (c["rows"], c["cols"]) != (m, n) or not a["dtype"] == b["dtype"] == c["dtype"]:
            return None
        return m, n, k

    def cublasLtMatmulAlgoGetHeuristic(self, lt, desc, a, b, c, d, preference, requested, results, found):
        self.log.append(("lt_heuristic", self.objects[desc]["epilogue"], self.objects[desc]["bias"]))
        if self.objects[lt]["kind"] != "lt" or c != d or self._shapes(desc, a, b, c) is None or requested < 1:
            return INVALID_VALUE
        ctypes.memmove(results, b"emulated algorithm", 18)
        self.algorithms.add(ctypes.addressof(results))
        found._obj.value = 1
        return SUCCESS

    def cublasLtMatmul(self, lt, desc, alpha, a, a_layout, b, b_layout, beta, c, c_layout, d, d_layout, algo,
                       workspace, workspace_size, stream):
        dsc = self.objects[desc]
        self.log.append(("lt_matmul", dsc["transa"], dsc["transb"], dsc["epilogue"], dsc["compute"], stream))
        shapes = self._shapes(desc, a_layout, b_layout, c_layout)
        if shapes is None or algo not in self.algorithms or c != d or not workspace:
            return INVALID_VALUE
        m, n, k = shapes
        la, lb, lc = (self.objects[x] for x in (a_layout, b_layout, c_layout))
        dtype, scale = DTYPES[la["dtype"]], SCALE_TYPES[dsc["scale"]]
        ma = _view(a, dtype, la["rows"], la["cols"], la["ld"])
        mb = _view(b, dtype, lb["rows"], lb["cols"], lb["ld"])
        mc = _view(c, dtype, m, n, lc["ld"])
        opa, opb = (ma if dsc["transa"] == 0 else ma.T), (mb if dsc["transb"] == 0 else mb.T)
        if dsc["compute"] == 77 and self.tf32:
            opa, opb = tf32(opa), tf32(opb)
        alpha_v, beta_v = (np.frombuffer((ctypes.c_char * np.dtype(scale).itemsize).from_address(p), scale)[0]
                           for p in (alpha, beta))
        acc = np.float16 if dsc["compute"] == 64 else np.float32
        result = alpha_v * (opa.astype(acc) @ opb.astype(acc)) + (beta_v * mc.astype(acc) if beta_v else 0)
        if dsc["epilogue"] == EPILOGUE_BIAS:
            result = result + _view(dsc["bias"], dtype, m, 1, m).astype(acc)  # one value per row of D
        mc[...] = np.asarray(result).astype(dtype)
        return SUCCESS

    def _destroy(self, obj):
        self.log.append(("lt_destroy", self.objects.pop(obj)["kind"]))
        return SUCCESS

    cublasLtMatmulDescDestroy = cublasLtMatrixLayoutDestroy = cublasLtMatmulPreferenceDestroy = _destroy


class CublasWithoutLt(Cublas):
    """A libcublas found without libcublasLt beside it."""

    def __getattribute__(self, name):
        if name.startswith("cublasLt"):
            raise AttributeError(name)
        return super().__getattribute__(name)
