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


def stats(device, api):
    """(used bytes, reserved bytes, peaks [allocated, reserved]) of the CUDA device `device` names; `api`, the
    public name called, is named by the error without CUDA."""
    index = cuda.gpu_index(device, api)
    cp = cuda.cupy()
    with cp.cuda.Device(index):
        used, total = _pool[0].used_bytes(), _pool[0].total_bytes()
    peak = _peaks.setdefault(index, [0, 0])
    peak[0], peak[1] = max(peak[0], used), max(peak[1], total)
    return used, total, peak


def memory_allocated(device=None):
    """Bytes of GPU memory the live tensors of `device` (default: the current GPU) use."""
    return stats(device, "paddle.device.memory_allocated")[0]


def memory_reserved(device=None):
    """Bytes of GPU memory paddlelite's pool holds on `device` (used plus cached for reuse)."""
    return stats(device, "paddle.device.memory_reserved")[1]


def max_memory_allocated(device=None):
    """The peak of memory_allocated(device) since start or the last reset_max_memory_allocated."""
    return stats(device, "paddle.device.max_memory_allocated")[2][0]


def max_memory_reserved(device=None):
    """The peak of memory_reserved(device) since start or the last reset_max_memory_reserved."""
    return stats(device, "paddle.device.max_memory_reserved")[2][1]


def reset_max_memory_allocated(device=None):
    used, _, peak = stats(device, "paddle.device.reset_max_memory_allocated")
    peak[0] = used


def reset_max_memory_reserved(device=None):
    _, total, peak = stats(device, "paddle.device.reset_max_memory_reserved")
    peak[1] = total


def reset_peak_memory_stats(device=None):
    """Reset the peak of allocated memory (as Paddle: the reserved peak is kept)."""
    used, _, peak = stats(device, "paddle.device.reset_peak_memory_stats")
    peak[0] = used


def release_cached(device, api):
    """Give the pool's free blocks of `device` back to the driver; the bytes released."""
    index = cuda.gpu_index(device, api)
    with cuda.cupy().cuda.Device(index):
        before = _pool[0].total_bytes()
        _pool[0].free_all_blocks()
        return before - _pool[0].total_bytes()


def summary(device, api):
    """The text of paddle.device.cuda.memory_summary: one table of the pool's statistics on `device`."""
    used, total, peak = stats(device, api)
    with cuda.cupy().cuda.Device(cuda.gpu_index(device, api)):
        free, physical = cuda.cupy().cuda.runtime.memGetInfo()
    unused_at_peak = (total - peak[0]) / total if total else 0.0
    headers = ["Allocators", "Allocated", "Max Alloc", "Reserved", "Max Reserved", "Max Frag Rate",
               "Phy GPU Used / Total"]
    row = ["1", format_size(used), format_size(peak[0]), format_size(total), format_size(peak[1]),
           f"{unused_at_peak:.2%}", f"{format_size(physical - free)} / {format_size(physical)}"]
    widths = [max(len(h), len(v)) + 2 for h, v in zip(headers, row)]
    rule = "+" + "+".join("-" * w for w in widths) + "+"
    line = lambda cells: "|" + "|".join(c.center(w) for c, w in zip(cells, widths)) + "|"  # noqa: E731
    return "\n".join(["Global Memory Snapshot", rule, line(headers), rule, line(row), rule])


def format_size(n):
    """Bytes in the largest binary unit that keeps a number >= 1 ('1.50 MB')."""
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1024 or unit == "GB":
            return f"{n:.2f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024


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
