"""Host memory kept for reuse, as Paddle's CPU allocator keeps it.

NumPy allocates every array with malloc. glibc's defaults give a large freed block back to the OS (munmap, or
trimming the heap's top), so each training step faults its large temporaries in afresh, one zeroed page at a
time: ~1000-2500 page faults, 2-5 ms, of a small CNN's 4-10 ms step on the CPU. Paddle's allocator keeps the
memory it freed for the next allocation; here glibc is told to do the same: blocks up to MMAP_THRESHOLD come
from the heap, and up to TRIM_THRESHOLD of free memory at the heap's top stays with the process. A process that
configures malloc itself (MALLOC_*_ or GLIBC_TUNABLES in the environment) keeps its own settings.
"""
import ctypes
import os
import platform

MMAP_THRESHOLD = 256 << 20
TRIM_THRESHOLD = 1 << 30
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters


def keep_freed_memory():
    """Tell glibc's malloc to keep freed blocks for reuse; True if it was told (False: not glibc, or the
    environment configures malloc)."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    if any(k in os.environ for k in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "GLIBC_TUNABLES")):
        return False
    mallopt = ctypes.CDLL(None).mallopt
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
