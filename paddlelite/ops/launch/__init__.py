"""Host-side launch code of the fused CUDA kernels: launch/<family>.py drives kernels/<family>.cu.

Each helper allocates outputs, collapses shapes, sizes the grid and picks the dtype variant, written
against the array module `xp` (CuPy on a GPU; NumPy under the CPU emulator in tests/cuda_emu). It
returns None for a configuration its kernel does not cover (float64, an odd layout); the op's
binding then runs the reference forward. Ops declare their bindings next to their forwards
(`register_op(..., gpu=...)` in paddlelite/ops/<module>.py).
"""
