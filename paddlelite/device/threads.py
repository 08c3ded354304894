"""CPU threads of NumPy's BLAS: one for small work, the free cores for large matrix products (threadpoolctl).

OpenBLAS's worker threads keep spinning for a while after each call, waiting for the next one. A training step is
mostly small products between Python work, so with OpenBLAS's default (a thread per core) the idle workers take
the cores from the thread doing the work: on a busy 2-core machine `python -m paddlelite.examples.train` trained
in 28 s against 5.7 s with one thread, and a 128^3 product took 40 ms against 46 us (a worker waits for a
core a whole time slice). Threads pay only on large products, and only when a core is free
(bench/results/2026-11-28-threads-cpu-2core.md). So, once NumPy's BLAS is loaded (`apply_default`), it runs one
thread, and a product of at least `wide_from` multiply-adds per matrix (`matmul_array` in ops/math.py, under
matmul, linear and conv) runs inside `wide()` with the cores other processes leave (the 1-minute load average
less this process's own recent CPU use, looked at once a second at most), up to `num_threads()`.

`num_threads()` is Paddle's FLAGS_paddle_num_threads (the environment variable, or `paddle.set_flags`; the flags
module, a floor above, passes it on): the threads a large product may use. Its default is what the BLAS chose when
it loaded -- a thread per core, or what OPENBLAS_NUM_THREADS / OMP_NUM_THREADS / MKL_NUM_THREADS say -- where
Paddle's is 1 (one thread for every op).
Only NumPy's own BLAS is governed: other libraries' pools in the process (PyTorch's, SciPy's OpenBLAS) keep
their settings.
"""
import os
import time

LARGE_GEMM = 1 << 21  # multiply-adds of one matrix product from which a second idle core pays (2 M: 128^3)
LOOK_EVERY = 1.0  # seconds between looks at the machine's load

_pools = []  # threadpoolctl's controllers of NumPy's BLAS libraries
_threads = 1  # FLAGS_paddle_num_threads
wide_from = float("inf")  # multiply-adds of one product from which it runs wide(): LARGE_GEMM, or never
_look = {"at": 0.0, "cpu": 0.0, "threads": 1}  # the last look at the load: when, this process's CPU time, result


def _numpy_blas():
    """threadpoolctl's controllers of the BLAS libraries NumPy calls: those it ships (numpy.libs, numpy/.dylibs),
    else every BLAS loaded (a NumPy linked to the system's or conda's BLAS)."""
    import numpy  # loads its BLAS
    from threadpoolctl import ThreadpoolController

    blas = ThreadpoolController().select(user_api="blas").lib_controllers
    root = os.path.dirname(os.path.realpath(numpy.__file__))
    own = [lib for lib in blas if os.path.realpath(lib.filepath).startswith(root)]  # numpy/ and numpy.libs/
    return own or blas


def apply_default():
    """One BLAS thread between large products, the BLAS's own choice of threads for them (framework/flags.py
    then applies FLAGS_paddle_num_threads)."""
    _pools[:] = _numpy_blas()
    set_num_threads(max([lib.num_threads for lib in _pools] or [1]))
    _look.update(at=time.monotonic(), cpu=time.process_time())


def set_num_threads(n):
    """The threads a large matrix product may use (FLAGS_paddle_num_threads; below 1 means 1, as Paddle's
    SetNumThreads); smaller work runs one."""
    global _threads, wide_from
    _threads = max(1, n)
    wide_from = LARGE_GEMM if _threads > 1 and _pools else float("inf")
    for lib in _pools:
        lib.set_num_threads(1)


def num_threads():
    return _threads


def large_product(x, y):
    """Whether one of the products in x @ y (the last two axes) has at least `wide_from` multiply-adds."""
    return x.ndim > 1 and y.ndim > 1 and x.shape[-2] * x.shape[-1] * y.shape[-1] >= wide_from


def _cores():
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def threads_for(load, own, cores, limit):
    """Threads for a large product: the cores that other processes leave (`load`, the 1-minute load average,
    less `own`, the cores this process kept busy lately), at least 1, at most `limit`."""
    return max(1, min(limit, round(cores - max(0.0, load - own))))


def _threads_now():
    """threads_for() the machine as it is now, looked at once a LOOK_EVERY at most."""
    now = time.monotonic()
    if now - _look["at"] >= LOOK_EVERY:
        cpu = time.process_time()
        try:
            load = os.getloadavg()[0]
        except (AttributeError, OSError):  # Windows has no load average: every core counts as free
            load = 0.0
        own = (cpu - _look["cpu"]) / (now - _look["at"])
        _look.update(at=now, cpu=cpu, threads=threads_for(load, own, _cores(), _threads))
    return min(_look["threads"], _threads)


class _Wide:
    """`with wide():` the BLAS runs on the free cores (_threads_now), then on one thread again."""

    def __enter__(self):
        n = _threads_now()
        if n > 1:
            for lib in _pools:
                lib.set_num_threads(n)

    def __exit__(self, *exc):
        for lib in _pools:
            lib.set_num_threads(1)


_WIDE = _Wide()


def wide():
    return _WIDE
