"""device/cublas.py: GEMMs through cuBLAS's own handle, on the CPU against device/host_cublas.py (cuBLAS's
column-major GEMMs on host memory), and on a GPU against CuPy's matmul (gpu-marked)."""
import types

import ml_dtypes
import numpy as np
import pytest

from paddlelite.device import cublas
from paddlelite.device.graph_capture import CaptureRefused
from paddlelite.device.host_cublas import Cublas, CublasWithoutLt, tf32


def _aligned(shape, dtype, alignment=256):
    """An uninitialised host array at a 256-byte boundary (as CuPy's pool hands out device memory)."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape)) * dtype.itemsize
    raw = np.empty(n + alignment, np.uint8)
    start = -raw.ctypes.data % alignment
    return raw[start:start + n].view(dtype).reshape(shape)


class _Stream:
    def __init__(self, ptr, capturing=False):
        self.ptr, self.capturing = ptr, capturing

    def is_capturing(self):
        return self.capturing


class _HostCupy(types.SimpleNamespace):
    """The part of CuPy device/cublas.py uses, over NumPy arrays in host memory (what the emulator reads)."""

    def __init__(self):
        fake = self
        self.stream = _Stream(7)
        self.copies = 0
        self.workspaces = []

        class Memory:
            def __init__(self, size):
                self.buffer = np.empty(size, np.uint8)
                self.ptr, self.size = self.buffer.ctypes.data, size
                fake.workspaces.append(self)

        def ascontiguousarray(x):
            fake.copies += 1
            return np.ascontiguousarray(x)

        super().__init__(
            empty=_aligned, broadcast_to=np.broadcast_to, ascontiguousarray=ascontiguousarray,
            cuda=types.SimpleNamespace(get_current_stream=lambda: fake.stream, memory=types.SimpleNamespace(Memory=Memory),
                                       Device=lambda: types.SimpleNamespace(id=0, compute_capability="90")))


@pytest.fixture
def emu(monkeypatch):
    """(emulated libcublas, host CuPy stand-in): GEMMs run on NumPy arrays' host memory."""
    monkeypatch.setattr(cublas, "_pointer", lambda a: a.ctypes.data)
    with cublas.use_library(Cublas()) as lib:
        yield lib, _HostCupy()


def _rand(rng, shape, dtype):
    dtype = np.dtype(dtype)
    x = rng.standard_normal(shape)
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


# (x, y) builders over make(shape) (a random array, on the host or the device): views cuBLAS reads in place
# (transposes, row slices, broadcast batches) and ones it cannot
LAYOUTS = {
    "2d": lambda m: (m((3, 4)), m((4, 5))),
    "x transposed": lambda m: (m((4, 3)).T, m((4, 5))),
    "y transposed": lambda m: (m((3, 4)), m((5, 4)).T),
    "both transposed": lambda m: (m((4, 3)).T, m((5, 4)).T),
    "row slice": lambda m: (m((6, 4))[1:4], m((4, 7))[:, 2:7]),
    "batched": lambda m: (m((2, 3, 4)), m((2, 4, 5))),
    "batch x one matrix": lambda m: (m((2, 3, 4)), m((4, 5))),
    "one matrix x batch": lambda m: (m((3, 4)), m((2, 4, 5))),
    "batched transposed": lambda m: (m((2, 4, 3)).swapaxes(-1, -2), m((2, 5, 4)).swapaxes(1, 2)),
    "two batch dims": lambda m: (m((2, 3, 3, 4)), m((2, 3, 4, 5))),
    "cross broadcast": lambda m: (m((2, 1, 3, 4)), m((1, 3, 4, 5))),
    "strided columns": lambda m: (m((3, 8))[:, ::2], m((4, 5))),
    "vector x matrix": lambda m: (m((4,)), m((4, 5))),
    "matrix x vector": lambda m: (m((3, 4)), m((4,))),
    "vector x vector": lambda m: (m((4,)), m((4,))),
    "vector x batch": lambda m: (m((4,)), m((2, 4, 5))),
    "row x column": lambda m: (m((1, 4)), m((4, 1))),
    "empty rows": lambda m: (m((0, 4)), m((4, 5))),
    "empty contraction": lambda m: (m((3, 0)), m((0, 5))),
}
# layouts whose operands must be copied (no unit stride, or batch dims that do not collapse to one stride)
COPIED = {"cross broadcast": 2, "strided columns": 1}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_products_equal_numpy_matmul(emu, layout, dtype):
    lib, cp = emu
    rng = np.random.default_rng(0)
    x, y = LAYOUTS[layout](lambda shape: _rand(rng, shape, dtype))
    out = cublas.matmul(cp, x, y, tf32=False)
    expected = np.matmul(x, y)
    assert out.shape == expected.shape and out.dtype == expected.dtype and out.flags.c_contiguous
    np.testing.assert_allclose(out, expected, rtol=1e-5 if dtype in ("float32", "complex64") else 1e-12, atol=1e-6)
    assert cp.copies == COPIED.get(layout, 0)
    np.testing.assert_array_equal(cublas.matmul(cp, x, y, tf32=False), out)  # again, from the cached plan


@pytest.mark.parametrize("dtype", ["float16", ml_dtypes.bfloat16])
def test_half_products_accumulate_in_float32_and_round_once(emu, dtype):
    lib, cp = emu
    rng = np.random.default_rng(1)
    x, y = _rand(rng, (2, 8, 64), dtype), _rand(rng, (64, 16), dtype).T.copy().T
    out = cublas.matmul(cp, x, y, tf32=True)
    np.testing.assert_array_equal(out, (x.astype(np.float32) @ y.astype(np.float32)).astype(dtype))
    assert {entry[-1] for entry in lib.log if entry[0].startswith("gemm")} == {cublas.COMPUTE_32F}


@pytest.mark.parametrize("dtype, tf32, half, compute", [
    ("float32", True, False, cublas.COMPUTE_32F_FAST_TF32), ("float32", False, False, cublas.COMPUTE_32F),
    ("complex64", True, False, cublas.COMPUTE_32F_FAST_TF32), ("float64", True, False, cublas.COMPUTE_64F),
    ("complex128", True, True, cublas.COMPUTE_64F), ("float16", True, False, cublas.COMPUTE_32F),
    ("float16", False, True, cublas.COMPUTE_16F), (ml_dtypes.bfloat16, True, True, cublas.COMPUTE_32F)])
def test_compute_types(emu, dtype, tf32, half, compute):
    lib, cp = emu
    x = _rand(np.random.default_rng(2), (4, 4), dtype)
    cublas.matmul(cp, x, x, tf32=tf32, half_accumulate=half)
    (call,) = lib.calls("gemm")
    assert call[-1] == compute and call[-2] == cublas.DATA_TYPES[np.dtype(dtype)]


def test_tf32_rounds_the_inputs(emu):
    lib, cp = emu
    rng = np.random.default_rng(3)
    x, y = _rand(rng, (16, 32), np.float32), _rand(rng, (32, 8), np.float32)
    exact = x.astype(np.float64) @ y
    with_tf32, without = cublas.matmul(cp, x, y, tf32=True), cublas.matmul(cp, x, y, tf32=False)
    np.testing.assert_allclose(with_tf32, tf32(x) @ tf32(y), rtol=1e-5, atol=1e-5)
    assert np.abs(with_tf32 - exact).max() > 10 * np.abs(without - exact).max()


def test_other_dtypes_are_left_to_cupy(emu):
    lib, cp = emu
    assert cublas.matmul(cp, np.ones((2, 2), np.int64), np.ones((2, 2), np.int64)) is None
    assert cublas.matmul(cp, np.ones((2, 2), np.float32), np.ones((2, 2), np.float64)) is None
    assert lib.log == []


def test_handle_is_bound_to_each_stream_with_its_own_workspace(emu):
    lib, cp = emu
    x = np.ones((2, 2), np.float32)
    cublas.matmul(cp, x, x)
    cublas.matmul(cp, x, x)  # same stream: no rebinding
    (created,) = lib.calls("create")
    handle = created[1]
    first = [e for e in lib.log if e[0] in ("stream", "workspace")]
    assert first == [("stream", handle, 7), ("workspace", handle, cp.workspaces[0].ptr, 32 << 20)]
    cp.stream = _Stream(9)
    cublas.matmul(cp, x, x)
    cp.stream = _Stream(7)  # back: the first stream's workspace again, set after the stream (which resets it)
    cublas.matmul(cp, x, x)
    binds = [e for e in lib.log if e[0] in ("stream", "workspace")][2:]
    assert binds == [("stream", handle, 9), ("workspace", handle, cp.workspaces[1].ptr, 32 << 20),
                     ("stream", handle, 7), ("workspace", handle, cp.workspaces[0].ptr, 32 << 20)]
    assert len(lib.calls("gemm")) == 4 and len(cp.workspaces) == 2


def test_a_capture_cannot_allocate_a_workspace(emu):
    lib, cp = emu
    x = np.ones((2, 2), np.float32)
    cp.stream = _Stream(11, capturing=True)
    with pytest.raises(CaptureRefused, match="workspace"):
        cublas.matmul(cp, x, x)
    cp.stream = _Stream(11)  # the step's run before its capture, on the capture stream
    cublas.matmul(cp, x, x)
    cp.stream = _Stream(12)
    cublas.matmul(cp, x, x)
    cp.stream = _Stream(11, capturing=True)  # rebinding to a stream that has its workspace is fine in a capture
    np.testing.assert_array_equal(cublas.matmul(cp, x, x), x @ x)


def test_batch_strides_and_leading_dims(emu):
    """What cuBLAS receives for a transposed batch: the product swapped (C^T = B^T A^T), ops from the views."""
    lib, cp = emu
    rng = np.random.default_rng(4)
    x = _rand(rng, (3, 5, 2), np.float32).swapaxes(1, 2)   # [3, 2, 5] column-major matrices
    y = _rand(rng, (5, 4), np.float32)                     # one matrix, broadcast: batch stride 0
    cublas.matmul(cp, x, y, tf32=False)
    (call,) = lib.calls("gemm_batched")
    _, _, op_b, op_a, m, n, k, ld_b, ld_a, ld_c, stride_b, stride_a, stride_c, count = call[:14]
    assert (op_b, op_a, m, n, k) == (cublas.OP_N, cublas.OP_T, 4, 2, 5)
    assert (ld_b, ld_a, ld_c, stride_b, stride_a, stride_c, count) == (4, 2, 4, 0, 10, 8, 3)


def test_matmul_op_on_the_gpu_path_follows_the_tf32_switches(emu, monkeypatch):
    """The registered matmul and conv2d forwards on a (stand-in) GPU array module: cuBLAS, with the compute type
    of Paddle's cublas switch for matmul and of its cudnn switch for convolutions."""
    from paddlelite.framework import flags
    from paddlelite.ops.registry import get_op
    lib, cp = emu
    cp.swapaxes = np.swapaxes
    rng = np.random.default_rng(5)
    x, w = _rand(rng, (2, 3, 4), np.float32), _rand(rng, (5, 4), np.float32)
    matmul = get_op("matmul")
    monkeypatch.setitem(flags.TF32, "cublas", False)
    out = matmul.forward(cp, x, w, **matmul.fill_attrs({"transpose_y": True}))
    np.testing.assert_allclose(out, x @ w.T, rtol=1e-6)
    assert lib.calls("gemm")[-1][-1] == cublas.COMPUTE_32F
    monkeypatch.setitem(flags.TF32, "cublas", True)
    matmul.forward(cp, x, w, **matmul.fill_attrs({"transpose_y": True}))
    assert lib.calls("gemm")[-1][-1] == cublas.COMPUTE_32F_FAST_TF32


def _device_copy(x):
    out = _aligned(x.shape, x.dtype)
    out[...] = x
    return out


@pytest.mark.parametrize("dtype", ["float32", "float16", ml_dtypes.bfloat16])
@pytest.mark.parametrize("transposed", [False, True], ids=["w", "w transposed"])
def test_bias_epilogue_adds_the_bias_in_the_gemm(emu, dtype, transposed):
    lib, cp = emu
    rng = np.random.default_rng(6)
    x = _device_copy(_rand(rng, (6, 8), dtype))
    w = _device_copy(_rand(rng, (5, 8), dtype)).T if transposed else _device_copy(_rand(rng, (8, 5), dtype))
    bias = _device_copy(_rand(rng, (5,), dtype))
    for _ in range(2):
        out = cublas.matmul(cp, x, w, tf32=False, bias=bias)
        expected = (x.astype(np.float32) @ w.astype(np.float32) + bias.astype(np.float32)).astype(dtype)
        np.testing.assert_allclose(out.astype(np.float32), expected.astype(np.float32), rtol=2e-2, atol=2e-2)
    assert lib.calls("gemm") == [] and len(lib.calls("lt_heuristic")) == 1  # set up once, then reused
    (first, second) = lib.calls("lt_matmul")
    assert first == second and first[:4] == ("lt_matmul", int(transposed), cublas.OP_N, 4)


@pytest.mark.parametrize("case", ["unaligned bias", "float64", "batched", "no cuBLASLt", "vector"])
def test_bias_without_the_epilogue_is_added_after_the_gemm(emu, case):
    lib, cp = emu
    rng = np.random.default_rng(7)
    dtype = np.float64 if case == "float64" else np.float32
    x = _device_copy(_rand(rng, (2, 6, 8) if case == "batched" else (8,) if case == "vector" else (6, 8), dtype))
    w, bias = _device_copy(_rand(rng, (8, 5), dtype)), _device_copy(_rand(rng, (6,), dtype))[1:]
    if case != "unaligned bias":
        bias = _device_copy(bias)
    if case == "no cuBLASLt":
        lib = CublasWithoutLt()
    with cublas.use_library(lib):
        out = cublas.matmul(cp, x, w, tf32=False, bias=bias)
    np.testing.assert_allclose(out, x @ w + bias, rtol=1e-5)
    assert lib.calls("lt_matmul") == [] and len(lib.calls("gemm") + lib.calls("gemm_batched")) == 1


def test_linear_op_on_the_gpu_path_uses_the_epilogue(emu):
    from paddlelite.ops.registry import get_op
    lib, cp = emu
    rng = np.random.default_rng(8)
    x, w, b = (_device_copy(_rand(rng, shape, np.float32)) for shape in ((3, 4, 6), (6, 2), (2,)))
    np.testing.assert_allclose(get_op("linear").forward(cp, x, w, b), x @ w + b, rtol=1e-6)
    assert len(lib.calls("lt_matmul")) == 1 and lib.calls("gemm") == []


def test_tf32_switches_vs_paddle():
    """paddle.base.core's TF32 switches: set/get round trips, Paddle's argument handling (text refused)."""
    paddle = pytest.importorskip("paddle")
    import paddlelite
    for core in (paddle.base.core, paddlelite.base.core):
        saved = core.get_cublas_switch(), core.get_cudnn_switch()
        try:
            for on in (False, True, 0, 1.0):
                core.set_cublas_switch(on)
                core.set_cudnn_switch(not on)
                assert (core.get_cublas_switch(), core.get_cudnn_switch()) == (bool(on), not on)
            with pytest.raises(TypeError):
                core.set_cublas_switch("yes")
        finally:
            core.set_cublas_switch(saved[0])
            core.set_cudnn_switch(saved[1])


# ---- on a GPU: against products computed in float64 on the host, inside CUDA-graph captures ---------------
_TOLERANCE = {"float16": 2e-2, "bfloat16": 5e-2, "float32": 1e-5, "float64": 1e-12, "complex64": 1e-5}


@pytest.mark.gpu
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("dtype", sorted(_TOLERANCE))
def test_gpu_products(layout, dtype):
    cp = pytest.importorskip("cupy")
    rng = np.random.default_rng(0)
    dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    x, y = LAYOUTS[layout](lambda shape: cp.asarray(_rand(rng, shape, dtype)))
    out = cublas.matmul(cp, x, y, tf32=False)
    wide = np.complex128 if np.dtype(dtype).kind == "c" else np.float64
    expected = np.matmul(cp.asnumpy(x).astype(wide), cp.asnumpy(y).astype(wide))
    assert out.shape == expected.shape and out.dtype == np.dtype(dtype)
    tol = _TOLERANCE[np.dtype(dtype).name]
    np.testing.assert_allclose(cp.asnumpy(out).astype(wide), expected, rtol=tol, atol=tol * 4)


@pytest.mark.gpu
def test_gpu_tf32_switch():
    """TF32 rounds float32 inputs to 10 mantissa bits: products ~1e-3 off float64's with it, ~1e-6 without."""
    cp = pytest.importorskip("cupy")
    if int(cp.cuda.Device().compute_capability) < 80:
        pytest.skip("TF32 tensor cores need compute capability 8.0")
    rng = np.random.default_rng(1)
    x, y = (cp.asarray(rng.standard_normal((512, 512)).astype(np.float32)) for _ in range(2))
    exact = cp.asnumpy(x).astype(np.float64) @ cp.asnumpy(y)

    def error(tf32):
        return np.abs(cp.asnumpy(cublas.matmul(cp, x, y, tf32=tf32)) - exact).max() / np.abs(exact).max()
    assert error(True) > 1e-5 > 1e-6 > error(False)


@pytest.mark.gpu
def test_gpu_gemm_inside_a_stream_capture():
    """CuPy's matmul refuses a capture; this module's GEMM is captured and replays on new inputs."""
    cp = pytest.importorskip("cupy")
    rng = np.random.default_rng(2)
    x, y = (cp.asarray(rng.standard_normal((64, 32)).astype(np.float32)) for _ in range(2))
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        cublas.matmul(cp, x, y.T, tf32=False)  # the stream's workspace is allocated outside the capture
        stream.begin_capture(1)  # thread-local mode
        out = cublas.matmul(cp, x, y.T, tf32=False)
        graph = stream.end_capture()
        for _ in range(2):
            x[...] = cp.asarray(rng.standard_normal((64, 32)).astype(np.float32))
            graph.launch(stream)
            np.testing.assert_allclose(cp.asnumpy(out), cp.asnumpy(x) @ cp.asnumpy(y).T, rtol=1e-5, atol=1e-5)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_gpu_bias_epilogue(dtype):
    """The bias rides in cuBLASLt's epilogue (its descriptors built and kept), inside a stream capture too."""
    cp = pytest.importorskip("cupy")
    dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    rng = np.random.default_rng(3)
    x, w, bias = (cp.asarray(_rand(rng, shape, dtype)) for shape in ((64, 96), (96, 48), (48,)))
    product = cp.asnumpy(x).astype(np.float64) @ cp.asnumpy(w).astype(np.float64)
    out = cublas.matmul(cp, x, w, tf32=False, bias=bias)
    tol = 1e-5 if dtype == np.float32 else 5e-2
    np.testing.assert_allclose(cp.asnumpy(out).astype(np.float64), product + cp.asnumpy(bias).astype(np.float64),
                               rtol=tol, atol=tol)
    used = [m for m in cublas._local.handles[cp.cuda.Device().id].lt_matmuls.values() if m is not None]
    assert used, "cuBLASLt refused the bias epilogue"
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        cublas.matmul(cp, x, w, tf32=False, bias=bias)
        stream.begin_capture(1)
        captured = cublas.matmul(cp, x, w, tf32=False, bias=bias)
        graph = stream.end_capture()
        bias[...] = 0
        graph.launch(stream)
        stream.synchronize()
    np.testing.assert_allclose(cp.asnumpy(captured).astype(np.float64), product, rtol=tol, atol=tol)  # read the new bias
