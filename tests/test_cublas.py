"""device/cublas.py: GEMMs through cuBLAS's own handle, on the CPU against tests/cuda_emu/cublas.py (cuBLAS's
column-major GEMMs on host memory), and on a GPU against CuPy's matmul (gpu-marked)."""
import types

import ml_dtypes
import numpy as np
import pytest

from paddlelite.device import cublas
from paddlelite.device.graph_capture import CaptureRefused
from tests.cuda_emu.cublas import Cublas, tf32


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
            empty=np.empty, broadcast_to=np.broadcast_to, ascontiguousarray=ascontiguousarray,
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


# (x, y) builders: views cuBLAS reads in place (transposes, row slices, broadcast batches) and ones it cannot
LAYOUTS = {
    "2d": lambda r, t: (_rand(r, (3, 4), t), _rand(r, (4, 5), t)),
    "x transposed": lambda r, t: (_rand(r, (4, 3), t).T, _rand(r, (4, 5), t)),
    "y transposed": lambda r, t: (_rand(r, (3, 4), t), _rand(r, (5, 4), t).T),
    "both transposed": lambda r, t: (_rand(r, (4, 3), t).T, _rand(r, (5, 4), t).T),
    "row slice": lambda r, t: (_rand(r, (6, 4), t)[1:4], _rand(r, (4, 7), t)[:, 2:7]),
    "batched": lambda r, t: (_rand(r, (2, 3, 4), t), _rand(r, (2, 4, 5), t)),
    "batch x one matrix": lambda r, t: (_rand(r, (2, 3, 4), t), _rand(r, (4, 5), t)),
    "one matrix x batch": lambda r, t: (_rand(r, (3, 4), t), _rand(r, (2, 4, 5), t)),
    "batched transposed": lambda r, t: (_rand(r, (2, 4, 3), t).swapaxes(-1, -2), _rand(r, (2, 5, 4), t).swapaxes(1, 2)),
    "two batch dims": lambda r, t: (_rand(r, (2, 3, 3, 4), t), _rand(r, (2, 3, 4, 5), t)),
    "cross broadcast": lambda r, t: (_rand(r, (2, 1, 3, 4), t), _rand(r, (1, 3, 4, 5), t)),
    "strided columns": lambda r, t: (_rand(r, (3, 8), t)[:, ::2], _rand(r, (4, 5), t)),
    "vector x matrix": lambda r, t: (_rand(r, (4,), t), _rand(r, (4, 5), t)),
    "matrix x vector": lambda r, t: (_rand(r, (3, 4), t), _rand(r, (4,), t)),
    "vector x vector": lambda r, t: (_rand(r, (4,), t), _rand(r, (4,), t)),
    "vector x batch": lambda r, t: (_rand(r, (4,), t), _rand(r, (2, 4, 5), t)),
    "row x column": lambda r, t: (_rand(r, (1, 4), t), _rand(r, (4, 1), t)),
    "empty rows": lambda r, t: (_rand(r, (0, 4), t), _rand(r, (4, 5), t)),
    "empty contraction": lambda r, t: (_rand(r, (3, 0), t), _rand(r, (0, 5), t)),
}
# layouts whose operands must be copied (no unit stride, or batch dims that do not collapse to one stride)
COPIED = {"cross broadcast": 2, "strided columns": 1}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_products_equal_numpy_matmul(emu, layout, dtype):
    lib, cp = emu
    x, y = LAYOUTS[layout](np.random.default_rng(0), dtype)
    out = cublas.matmul(cp, x, y, tf32=False)
    expected = np.matmul(x, y)
    assert out.shape == expected.shape and out.dtype == expected.dtype and out.flags.c_contiguous
    np.testing.assert_allclose(out, expected, rtol=1e-5 if dtype in ("float32", "complex64") else 1e-12, atol=1e-6)
    assert cp.copies == COPIED.get(layout, 0)


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
    assert call[-1] == compute and call[-2] == cublas.DATA_TYPES[np.dtype(dtype).name]


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
