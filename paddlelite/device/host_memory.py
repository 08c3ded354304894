"""Host memory: keep freed NumPy buffers in the process for the next step, as Paddle's CPU allocator pools them.

NumPy allocates through the C library's malloc. glibc serves every request above 128 KiB (after its dynamic
adjustment, above the largest block freed so far) with a fresh mmap and gives the heap's free top back to the
system past 128 KiB-256 KiB, so each training step maps, faults in page by page, and unmaps its activations and
gradients again: on a small CNN step that is more than half the step. Raising both thresholds lets freed blocks
serve the next step's allocations of the same sizes, the way Paddle's auto-growth allocator (and CuPy's pool on
the GPU) reuse device memory. Blocks above `MMAP_THRESHOLD` still come from mmap and return at once.
"""
import ctypes
import os
import platform

# glibc's mallopt parameters (malloc.h) and the values paddlelite sets
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
MMAP_THRESHOLD = 32 << 20   # glibc's largest allowed on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX)
TRIM_THRESHOLD = 512 << 20  # free memory at the heap's top kept for reuse before it goes back to the system
# a user who sets glibc's own tunables keeps them
_USER_TUNABLES = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "GLIBC_TUNABLES")


def keep_freed_memory(environ=os.environ):
    """Raise glibc's mmap and trim thresholds (see the module doc). Returns whether malloc was configured:
    False off glibc, or when the environment already sets glibc's malloc tunables."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    if any(name in environ for name in _USER_TUNABLES):
        return False
    mallopt = ctypes.CDLL(None).mallopt
    # mallopt returns 1 on success; setting either threshold also ends glibc's dynamic adjustment of both
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
