"""paddle.device.cuda.graphs: Paddle's CUDAGraph, capturing eager code into a CUDA graph and replaying it.

As in Paddle (and PyTorch's torch.cuda.CUDAGraph): the work queued between `capture_begin()` and `capture_end()`
is recorded, not run; `replay()` runs it again on the arrays it was recorded with. Tensors created during the
capture are the graph's outputs -- each replay rewrites them -- and inputs are fed by writing into the tensors the
capture read (`x.copy_(new, True)`). The capture runs on a stream of its own, and its memory comes from a pool of
its own (shared by the graphs given the same `pool_id`) that nothing else allocates from, so a replay never
writes over another array. Random draws read their offsets from device memory (device/graph_capture.Capture), so
each replay draws fresh numbers; GEMMs go through device/cublas.py, which captures hold.

Run the code once before capturing it (a warm-up, as PyTorch's docs ask): kernels compile, and cuBLAS allocates its
workspace for the capture stream, on that first call.
"""
import contextlib
import os

from . import cuda
from .graph_capture import CAPTURE_MODES, Capture, capture_allocator
from .place import Place

ALL_MODES = list(CAPTURE_MODES)
_pools = {}  # pool_id -> cupy.cuda.MemoryPool shared by the graphs given that id


def is_cuda_graph_supported():
    """Whether CUDA graphs can be captured: on a CUDA device (through CuPy)."""
    return cuda.is_available()


class CUDAGraph:
    """A CUDA graph captured from eager code on `place` (default: the current GPU) in capture `mode` ('global',
    'thread_local' or 'relaxed'); graphs with the same `pool_id` share one memory pool."""

    def __init__(self, place=None, mode="thread_local", pool_id=None):
        assert is_cuda_graph_supported(), "CUDA Graph is only supported on PaddlePaddle compiled with NVIDIA GPU."
        cp = cuda.cupy()
        if place is None:
            place = Place("gpu", cp.cuda.runtime.getDevice())
        if getattr(place, "kind", None) != "gpu":
            raise ValueError(f"CUDAGraph: place must be a CUDAPlace, received {place!r}")
        assert mode in ALL_MODES, f"CUDAGraph: mode must be one of {ALL_MODES}, received {mode!r}"
        self._place, self._mode, self._pool_id = place, ALL_MODES.index(mode), pool_id
        self._graph = self._capture = self._recording = None
        self._graph_box = []    # where the capture leaves its graph
        self._memory = None     # the pool the graph's arrays live in, kept while the graph is

    def _pool(self, cp):
        if self._pool_id is None:
            return cp.cuda.MemoryPool()
        pool = _pools.get(self._pool_id)
        if pool is None:
            pool = _pools[self._pool_id] = cp.cuda.MemoryPool()
        return pool

    def capture_begin(self):
        """Start recording the work queued from now on (instead of running it)."""
        if self._recording is not None:
            raise RuntimeError("CUDAGraph.capture_begin: a capture is already under way; call capture_end first")
        cp = cuda.cupy()
        stack = contextlib.ExitStack()
        stack.enter_context(cp.cuda.Device(self._place.index))
        current = cp.cuda.get_current_stream()
        stream = cp.cuda.Stream(non_blocking=True)
        stream.wait_event(current.record())  # after the work that wrote the inputs
        pool = self._pool(cp)
        stack.enter_context(cp.cuda.using_allocator(capture_allocator(cp, pool)))
        stack.enter_context(stream)
        capture = Capture(cp)
        try:
            self._graph_box = stack.enter_context(capture.recording(stream, self._mode))
        except BaseException:
            stack.close()
            raise
        self._recording, self._capture, self._memory = stack, capture, pool

    def capture_end(self):
        """Stop recording: the graph is ready to replay."""
        if self._recording is None:
            raise RuntimeError("CUDAGraph.capture_end: no capture is under way; call capture_begin first")
        stack, self._recording = self._recording, None
        stack.close()
        if not self._graph_box:
            raise RuntimeError("CUDAGraph.capture_end: the capture was invalidated (an operation that cannot be "
                               "captured ran during it, e.g. a copy to or from the host or a synchronisation)")
        self._graph = self._graph_box[0]

    def replay(self):
        """Run the recorded work again, on the current stream."""
        if self._graph is None:
            raise RuntimeError("CUDAGraph.replay: nothing is captured; call capture_begin and capture_end first")
        cp = cuda.cupy()
        with cp.cuda.Device(self._place.index):
            self._capture.before_launch()
            self._graph.launch(cp.cuda.get_current_stream())

    def reset(self):
        """Release the graph (and, unless another graph shares it, its memory)."""
        self._graph = self._capture = self._memory = None
        self._graph_box = []

    def print_to_dot_files(self, dirname, flags=None):
        """Write the graph in Graphviz's DOT format into directory `dirname` (cudaGraphDebugDotPrint's `flags`:
        default all details)."""
        if self._graph is None:
            raise RuntimeError("CUDAGraph.print_to_dot_files: nothing is captured")
        if not isinstance(dirname, (str, bytes)):
            dirname = dirname.name
        os.makedirs(dirname, exist_ok=True)
        assert os.path.isdir(dirname), f"The dirname {dirname} should be a directory"
        path = os.path.join(dirname, f"cuda_graph_{id(self._graph):x}.dot")
        with open(path, "w") as f:
            f.write(self._graph.debug_dot_str(2047 if flags is None else flags))
        return path


__all__ = ["ALL_MODES", "CUDAGraph", "is_cuda_graph_supported"]
