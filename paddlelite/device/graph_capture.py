"""CUDA-graph capture and replay: of a repeated static step (GraphReplay, run by static.executor.FixedStep for
the Executor and jit.to_static), and of eager code (Paddle's paddle.device.cuda.graphs.CUDAGraph, device/cuda_graphs.py).

A step that is called again with the same arrays at the same addresses is captured once into a
`cupy.cuda.Graph` and from then on replayed with one launch instead of one Python dispatch per op.
What makes a replay compute what running the ops would:

* Its inputs sit at fixed addresses: FixedStep copies the feeds into arrays it keeps, the parameters
  are updated in place, and the replay key holds every input array's address, shape and dtype -- a
  different key runs the ops (and is captured when it repeats).
* Its temporaries and outputs come from a memory pool of its own, used by nothing else after the
  capture, so no other array is ever placed where the graph writes. The call before the capture runs
  on that pool and on the capture's stream too (CuPy caches freed blocks per stream; lazy set-ups such as
  kernel compilation and cuBLAS's workspace for that stream happen then), so the capture finds what it needs;
  a block it still lacks is allocated with the thread switched to relaxed capture mode, as PyTorch's
  allocator does (cudaMalloc is an "unsafe" call that global and thread-local captures refuse).
* GEMMs go to cuBLAS through device/cublas.py (CuPy's wrapper refuses every cuBLAS call during capture).
* Random draws read their stream's key and offset from device words (`Capture.random_words`) that the host
  writes before every launch, then advances the stream by the draws the graph makes: a replay draws what
  running the ops would (framework/random.py).
* Whatever cannot be replayed refuses the capture, and the step then runs its ops on every call: a
  read of device values on the host (the CUDA runtime refuses it while capturing; plans also report
  such ops up front), a host-to-device copy (CuPy refuses it), and draws the host must see
  (`refuse_during_capture`).
"""
import contextlib
import ctypes
import os
import threading
import warnings

import numpy as np

from . import cuda

# cudaStreamCaptureMode, in the order of Paddle's CUDAGraph modes
CAPTURE_MODES = ("global", "thread_local", "relaxed")
_THREAD_LOCAL, _RELAXED = 1, 2

# Whether jit.to_static replays its GPU steps from CUDA graphs when the user's BuildStrategy does not say:
# off until a GPU run has measured replays safe on the benchmark models -- turning it on is this one line.
# PADDLELITE_CUDA_GRAPH=0 turns every replay off (the escape hatch), =1 turns the default on.
REPLAY_BY_DEFAULT = False


def replay_enabled(requested=None):
    """Whether steps are replayed from CUDA graphs: `requested` (a BuildStrategy's allow_cuda_graph_capture, or
    None when the user said nothing), within what PADDLELITE_CUDA_GRAPH allows."""
    env = os.environ.get("PADDLELITE_CUDA_GRAPH", "").strip().lower()
    if env in ("0", "false", "off", "no"):
        return False
    if requested is not None:
        return bool(requested)
    return REPLAY_BY_DEFAULT or env in ("1", "true", "on", "yes")


class CaptureRefused(RuntimeError):
    """Raised inside a capture by an op whose replay would not do what running it does."""


def capturing(xp):
    """Whether work dispatched now on `xp`'s current stream is being captured into a graph."""
    return xp is not np and xp is cuda.cupy() and xp.cuda.get_current_stream().is_capturing()


def refuse_during_capture(xp, why):
    """For an op that cannot be replayed from a graph (`why` says what it does): fails an ongoing capture."""
    if capturing(xp):
        raise CaptureRefused(f"a CUDA graph cannot replay a step that {why}")


_local = threading.local()  # .capture: the Capture this thread is recording


def recording():
    """The Capture this thread is recording, or None."""
    return getattr(_local, "capture", None)


class Capture:
    """What a captured graph needs from the host at each launch: the key word and first offset of the random
    stream its draws come from (`random_words`, device memory the draws' kernels read), written before each
    launch by `take(device, n)`, which also advances that stream past the graph's n draws; and the host state it
    reads from device memory, refreshed by the `on_launch` functions (an optimizer's learning rate)."""

    def __init__(self, xp):
        self.xp = xp
        self.random_words = xp.zeros(2, np.uint64)  # allocated before the capture begins
        self.random_source = None  # (take, device)
        self.draws = 0
        self.refreshes = []

    def on_launch(self, fn):
        """Call fn() before each launch (once per function however often the capture registers it)."""
        if fn not in self.refreshes:
            self.refreshes.append(fn)

    def random_draw(self, take, device):
        """Index, among the graph's random draws, of one drawn now from `device`'s stream (its offset is the first
        offset plus this index)."""
        if self.random_source is None:
            self.random_source = (take, device)
        elif self.random_source != (take, device):
            raise CaptureRefused("a CUDA graph cannot replay a step that draws from two random streams")
        self.draws += 1
        return self.draws - 1

    def before_launch(self):
        for fn in self.refreshes:
            fn()
        if self.draws:
            take, device = self.random_source
            word, first = take(device, self.draws)
            self.random_words[0:1].fill(np.uint64(word))
            self.random_words[1:2].fill(np.uint64(first))

    @contextlib.contextmanager
    def recording(self, stream, mode):
        """Capture work queued on `stream` (current inside) into a graph: yields a list that holds it after."""
        _local.capture, graph = self, []
        try:
            stream.begin_capture(mode)
            try:
                yield graph
            finally:
                with contextlib.suppress(Exception):  # an invalidated capture raises here too
                    graph.append(stream.end_capture())
        finally:
            _local.capture = None


_driver = {}


def _exchange_capture_mode(mode):
    """Set this thread's stream-capture mode (CUDA driver's cuThreadExchangeStreamCaptureMode); the previous one,
    or None without a loadable driver."""
    fn = _driver.get("exchange")
    if fn is None and "exchange" not in _driver:
        try:
            fn = ctypes.CDLL("libcuda.so.1").cuThreadExchangeStreamCaptureMode
            fn.argtypes, fn.restype = [ctypes.POINTER(ctypes.c_int)], ctypes.c_int
        except (OSError, AttributeError):
            fn = None
        _driver["exchange"] = fn
    if fn is None:
        return None
    value = ctypes.c_int(mode)
    return value.value if fn(ctypes.byref(value)) == 0 else None


def capture_allocator(xp, pool):
    """An allocator drawing from `pool`, allocating blocks it lacks during a capture in relaxed mode."""
    def malloc(size):
        if not xp.cuda.get_current_stream().is_capturing():
            return pool.malloc(size)
        previous = _exchange_capture_mode(_RELAXED)
        try:
            return pool.malloc(size)
        finally:
            if previous is not None:
                _exchange_capture_mode(previous)
    return malloc


class GraphReplay:
    """Runs `step()` -- a function of arrays at the addresses `key` describes -- or replays its capture."""

    def __init__(self, xp, clear):
        self.xp = xp
        self.clear = clear      # drops the step's references to the arrays its last run made
        self.pool = xp.cuda.MemoryPool()
        self.malloc = capture_allocator(xp, self.pool)
        # the step runs before its capture, and is captured, on a stream of its own: CuPy's pool caches freed blocks
        # per stream
        self.stream = xp.cuda.Stream(non_blocking=True)
        self.key = self.graph = self.outs = self.capture = None
        self.seen = None        # the key of the previous call, captured when it comes again
        self.refused = None     # why capturing this step failed: it then always runs its ops
        self.replays = 0

    def run(self, step, key):
        if recording() is not None:  # inside a capture of its own (CUDAGraph around a to_static call): its ops join it
            return step()
        if key is not None and key == self.key:
            self.capture.before_launch()
            self.graph.launch(self.xp.cuda.get_current_stream())
            self.replays += 1
            return self.outs
        if key is None or self.refused is not None:
            return step()
        if key != self.seen:  # a new key: run it on the step's own pool and stream, capture it if it repeats
            self.seen, self.key, self.graph, self.outs = key, None, None, None
            current = self.xp.cuda.get_current_stream()
            self.stream.wait_event(current.record())  # after the work that wrote its inputs
            with self.xp.cuda.using_allocator(self.malloc), self.stream:
                outs = step()
            current.wait_event(self.stream.record())  # before the work that reads its results
            return outs
        self.clear()  # the blocks of the previous run go back to the pool, so the capture reuses them
        capture, graph, outs = self._capture(step)
        if graph is None:
            return step()
        self.key, self.graph, self.outs, self.capture = key, graph, outs, capture
        return self.run(step, key)

    def _capture(self, step):
        capture = Capture(self.xp)
        outs = None
        with self.xp.cuda.using_allocator(self.malloc), self.stream:
            with capture.recording(self.stream, _THREAD_LOCAL) as graph:
                try:
                    outs = step()
                except Exception as e:  # noqa: BLE001 -- any failure inside the capture means: do not replay this step
                    self.refused = f"{type(e).__name__}: {e}"
        if self.refused is not None or not graph:
            self.refused = self.refused or "the capture was invalidated"
            self.clear()
            warnings.warn(f"CUDA graph capture of a step was refused ({self.refused}); it runs its ops on every call",
                          RuntimeWarning, stacklevel=4)
            return None, None, None
        return capture, graph[0], outs
