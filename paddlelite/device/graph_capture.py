"""CUDA-graph replay of a repeated step (a traced program's forward or backward run by static.executor.FixedStep).

A step that is called again with the same arrays at the same addresses is captured once into a
`cupy.cuda.Graph` and from then on replayed with one launch instead of one Python dispatch per op.
What makes a replay compute what running the ops would:

* Its inputs sit at fixed addresses: FixedStep copies the feeds into arrays it keeps, the parameters
  are updated in place, and the replay key holds every input array's address, shape and dtype -- a
  different key runs the ops (and is captured when it repeats).
* Its temporaries and outputs come from a memory pool of its own, used by nothing else after the
  capture, so no other array is ever placed where the graph writes. The call before the capture runs
  on that pool and on the capture's stream too (CuPy caches freed blocks per stream), so the capture
  finds every block it needs cached.
* Whatever cannot be replayed refuses the capture, and the step then runs its ops on every call: a
  read of device values on the host (the CUDA runtime refuses it while capturing; plans also report
  such ops up front), a host-to-device copy, and random draws (`refuse_during_capture`: a graph would
  repeat one step's draws forever).
"""
import contextlib
import warnings

import numpy as np

from . import cuda

_THREAD_LOCAL_CAPTURE = 1  # cudaStreamCaptureModeThreadLocal: unsafe calls in this thread fail the capture


class CaptureRefused(RuntimeError):
    """Raised inside a capture by an op whose replay would not do what running it does."""


def capturing(xp):
    """Whether work dispatched now on `xp`'s current stream is being captured into a graph."""
    return xp is not np and xp is cuda.cupy() and xp.cuda.get_current_stream().is_capturing()


def refuse_during_capture(xp, why):
    """For an op that cannot be replayed from a graph (`why` says what it does): fails an ongoing capture."""
    if capturing(xp):
        raise CaptureRefused(f"a CUDA graph cannot replay a step that {why}")


class GraphReplay:
    """Runs `step()` -- a function of arrays at the addresses `key` describes -- or replays its capture."""

    def __init__(self, xp, clear):
        self.xp = xp
        self.clear = clear      # drops the step's references to the arrays its last run made
        self.pool = xp.cuda.MemoryPool()
        # the step runs before its capture, and is captured, on a stream of its own: CuPy's pool caches freed blocks
        # per stream, and a capture that finds no cached block calls cudaMalloc, which fails the capture
        self.stream = xp.cuda.Stream(non_blocking=True)
        self.key = self.graph = self.outs = None
        self.seen = None        # the key of the previous call, captured when it comes again
        self.refused = None     # why capturing this step failed: it then always runs its ops
        self.replays = 0

    def run(self, step, key):
        if key is not None and key == self.key:
            self.graph.launch(self.xp.cuda.get_current_stream())
            self.replays += 1
            return self.outs
        if key is None or self.refused is not None:
            return step()
        if key != self.seen:  # a new key: run it on the step's own pool and stream, capture it if it repeats
            self.seen, self.key, self.graph, self.outs = key, None, None, None
            current = self.xp.cuda.get_current_stream()
            self.stream.wait_event(current.record())  # after the work that wrote its inputs
            with self.xp.cuda.using_allocator(self.pool.malloc), self.stream:
                outs = step()
            current.wait_event(self.stream.record())  # before the work that reads its results
            return outs
        self.clear()  # the blocks of the previous run go back to the pool, so the capture reuses them
        graph, outs = self._capture(step)
        if graph is None:
            return step()
        self.key, self.graph, self.outs = key, graph, outs
        return self.run(step, key)

    def _capture(self, step):
        cp = self.xp
        stream = self.stream
        graph = outs = None
        with cp.cuda.using_allocator(self.pool.malloc), stream:
            stream.begin_capture(_THREAD_LOCAL_CAPTURE)
            try:
                outs = step()
            except Exception as e:  # noqa: BLE001 -- any failure inside the capture means: do not replay this step
                self.refused = f"{type(e).__name__}: {e}"
            finally:
                with contextlib.suppress(Exception):  # an invalidated capture raises here too
                    graph = stream.end_capture()
        if self.refused is not None:
            self.clear()
            warnings.warn(f"CUDA graph capture of a step was refused ({self.refused}); it runs its ops on every call",
                          RuntimeWarning, stacklevel=4)
            return None, None
        return graph, outs
