"""GPU memory statistics (paddle.device.memory_allocated, max_memory_reserved, empty_cache, ...) over
CuPy's default memory pool: "allocated" is what live arrays use (`used_bytes`), "reserved" what the
pool holds from the driver (`total_bytes`). CuPy keeps no peaks, so every allocation goes through
`_malloc`, which records them per device. Without CuPy these APIs raise ValueError, as Paddle's CPU build.
"""
from . import cuda

_peaks = {}  # device index -> [peak allocated bytes, peak reserved bytes]
_pool = []   # [CuPy's default memory pool] once tracking is installed


def track_peaks(cp):
    """Route CuPy's allocations through the default pool while recording each device's peaks."""
    if _pool:
        return
    pool = cp.get_default_memory_pool()
    _pool.append(pool)

    def _malloc(size):
        mem = pool.malloc(size)  # on the current device: the pool's byte counts below are that device's
        peak = _peaks.setdefault(mem.device_id, [0, 0])
        used, total = pool.used_bytes(), pool.total_bytes()
        if used > peak[0]:
            peak[0] = used
        if total > peak[1]:
            peak[1] = total
        return mem
    cp.cuda.set_allocator(_malloc)


def _stats(device, api):
    """(used bytes, reserved bytes, peaks [allocated, reserved]) of the CUDA device `device` names."""
    index = cuda.gpu_index(device, f"paddle.device.{api}")
    cp = cuda.cupy()
    with cp.cuda.Device(index):
        used, total = _pool[0].used_bytes(), _pool[0].total_bytes()
    peak = _peaks.setdefault(index, [0, 0])
    peak[0], peak[1] = max(peak[0], used), max(peak[1], total)
    return used, total, peak


def memory_allocated(device=None):
    """Bytes of GPU memory the live tensors of `device` (default: the current GPU) use."""
    return _stats(device, "memory_allocated")[0]


def memory_reserved(device=None):
    """Bytes of GPU memory paddlelite's pool holds on `device` (used plus cached for reuse)."""
    return _stats(device, "memory_reserved")[1]


def max_memory_allocated(device=None):
    """The peak of memory_allocated(device) since start or the last reset_max_memory_allocated."""
    return _stats(device, "max_memory_allocated")[2][0]


def max_memory_reserved(device=None):
    """The peak of memory_reserved(device) since start or the last reset_max_memory_reserved."""
    return _stats(device, "max_memory_reserved")[2][1]


def reset_max_memory_allocated(device=None):
    used, _, peak = _stats(device, "reset_max_memory_allocated")
    peak[0] = used


def reset_max_memory_reserved(device=None):
    _, total, peak = _stats(device, "reset_max_memory_reserved")
    peak[1] = total


def reset_peak_memory_stats(device=None):
    """Reset the peak of allocated memory (as Paddle: the reserved peak is kept)."""
    reset_max_memory_allocated(device)


def empty_cache():
    """Return the pool's cached, unused GPU blocks (and pinned host blocks) to the driver; nothing to do
    without CUDA."""
    cp = cuda.cupy()
    if cp is None:
        return
    for index in range(cuda.device_count()):
        with cp.cuda.Device(index):
            cp.get_default_memory_pool().free_all_blocks()
    cp.get_default_pinned_memory_pool().free_all_blocks()


def ipc_collect():
    """Free GPU memory shared with other processes that they no longer use. paddlelite shares tensors
    between processes through host shared memory (io/shared_memory.py), never CUDA IPC, so with CUDA
    there is nothing to collect; without it this raises as Paddle's CPU build does."""
    if cuda.cupy() is None:
        raise RuntimeError("(Unavailable) paddlelite is not compiled with CUDA (CuPy is not installed), "
                           "so `ipc_collect` cannot be used.")
