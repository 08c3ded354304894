"""cuDNN through cuDNN Frontend (`nvidia-cudnn-frontend`, the optional extra `[cudnn]`): graphs built once per key
and cached, run on CuPy's current stream with workspace from CuPy's memory pool.

CuPy 14 has no cuDNN binding; NVIDIA's supported way in from Python is the Frontend's graph API, which takes raw
device pointers, so CuPy arrays go in as `a.data.ptr`. The op-specific graphs (convolution, batch norm, attention)
are written by paddlelite/ops/cudnn/; this module only

* finds the Frontend and the cuDNN library it loads (`frontend()`; None when either is missing, so every binding
  falls back to its reference forward, as a kernel binding does for a configuration it does not cover);
* builds a graph once per key (`Graphs.get`): the key is everything the graph depends on (shapes, strides, dtypes,
  attributes, the device, the plan policy). A graph cuDNN declines is remembered as None, so the check runs once;
* picks the plan: cuDNN's heuristics (modes A, then FALLBACK), without plans cuDNN marks non-deterministic when the
  policy asks for determinism, without tensor-core plans for float32 data when it forbids TF32, without plans
  needing more workspace than the policy's limit, and -- when the policy says `exhaustive` -- every plan timed on
  the first call's own buffers and the fastest kept for the key;
* runs it (`Graph.run`): one cuDNN handle per device and thread, re-bound to CuPy's current stream (the Frontend
  skips the call when the stream did not change), the workspace a fresh `uint8` array of CuPy's pool.

The policy (deterministic, exhaustive, workspace limit, TF32) is the caller's: paddlelite's flags live on a higher floor.
`disabled()` turns the whole path off (tests compare it with the im2col reference; benchmarks time both).
"""
import contextlib
import importlib
import threading
from collections import namedtuple

import numpy as np

from . import cuda

# what a graph may run: deterministic plans only, autotuned per key, at most this many workspace bytes, float32 on
# TF32 tensor cores
Policy = namedtuple("Policy", ["deterministic", "exhaustive", "workspace_limit", "tf32"])

_state = {}
_caches = []  # every Graphs, for clear()
_off = []  # a stack of switches: `disabled()` pushes True
_stand_in = []  # the graph standing in for every graph (standing_in), innermost last
_local = threading.local()  # this thread's cuDNN handle per device


def frontend():
    """The `cudnn` module of cuDNN Frontend with a loadable cuDNN library behind it, or None."""
    if "cudnn" not in _state:
        mod = None
        try:
            mod = importlib.import_module("cudnn")
            mod.backend_version()  # raises when no libcudnn could be loaded
        except Exception:  # not installed, or installed without a cuDNN library it can load
            mod = None
        _state["cudnn"] = mod
    return _state["cudnn"]


def enabled(xp):
    """Whether ops on arrays of module `xp` may run through cuDNN now: no `disabled()` block is active, and they are
    CuPy's with the Frontend usable, or a `standing_in` graph runs them (the launch counter's module, not NumPy)."""
    if _off and _off[-1]:
        return False
    if _stand_in:
        return xp is not np
    return device_module(xp) and frontend() is not None


def device_module(xp):
    return xp is cuda.cupy()


@contextlib.contextmanager
def standing_in(graph):
    """Inside, every graph the ops ask for is `graph` (its `run(buffers)` does what it likes: the launch counter
    counts a library call), none is built and no Frontend is needed: the ops take their cuDNN path, as on a GPU with
    the Frontend, on any array module but NumPy."""
    _stand_in.append(graph)
    try:
        yield
    finally:
        _stand_in.pop()


@contextlib.contextmanager
def disabled(off=True):
    """Run the ops' other GPU paths (im2col, CuPy chains, paddlelite's own kernels) inside the block."""
    _off.append(off)
    try:
        yield
    finally:
        _off.pop()


def clear():
    """Forget every built graph (the next call of each key builds, and autotunes, again)."""
    for graphs in _caches:
        graphs._built.clear()


def data_type(dtype):
    """The cuDNN data type of a NumPy dtype the graphs take, or None."""
    cudnn = frontend()
    return {"float32": cudnn.data_type.FLOAT, "float16": cudnn.data_type.HALF, "bfloat16": cudnn.data_type.BFLOAT16,
            "int64": cudnn.data_type.INT64, "int32": cudnn.data_type.INT32}.get(getattr(dtype, "name", str(dtype)))


def element_strides(a):
    """An array's strides in elements (cuDNN's unit)."""
    return [s // a.itemsize for s in a.strides]


def pointer(a):
    """What a graph's variant pack takes for array `a`: its device address (a host value stays as it is)."""
    return a.data.ptr if cuda.is_cupy_array(a) else a


def device_id():
    return cuda.cupy().cuda.Device().id


def workspace(nbytes):
    """A graph's workspace: a fresh array of CuPy's memory pool (stream-ordered reuse, no cudaMalloc per call)."""
    cp = cuda.cupy()
    return cp.empty(nbytes, dtype=cp.uint8)


def handle():
    """This thread's cuDNN handle for the current device, bound to CuPy's current stream."""
    cudnn, cp = frontend(), cuda.cupy()
    handles = getattr(_local, "handles", None)
    if handles is None:
        handles = _local.handles = {}
    dev = device_id()
    h = handles.get(dev)
    if h is None:
        h = handles[dev] = cudnn.create_handle()
    cudnn.set_stream(h, cp.cuda.get_current_stream().ptr)
    return h


class Graph:
    """A built graph with its plan selected: `tensors` maps the builder's names to the graph's tensors."""

    __slots__ = ("graph", "tensors", "workspace")

    def __init__(self, graph, tensors):
        self.graph, self.tensors = graph, tensors
        self.workspace = graph.get_workspace_size()

    def run(self, buffers):
        """Execute on CuPy's current stream; `buffers` ({name: array}) names every input and output of the graph."""
        space = workspace(self.workspace)
        self.graph.execute({self.tensors[name]: pointer(a) for name, a in buffers.items()}, pointer(space),
                           handle=handle())


class Graphs:
    """Built graphs by key (None for a key cuDNN declined), for one kind of operation."""

    def __init__(self, name):
        self.name = name
        self._built = {}
        self._lock = threading.Lock()
        _caches.append(self)

    def __len__(self):
        return len(self._built)

    def get(self, key, build, policy, buffers):
        """The graph of `key`, built on first use by `build(graph) -> {name: tensor}` (it adds the nodes and marks
        the outputs). `buffers` are this call's arrays ({name: array}), which an exhaustive search times the plans
        on (None: a graph asked for ahead of its call keeps the heuristics' plan). None when cuDNN cannot run it."""
        if _stand_in:
            return _stand_in[-1]
        key = (key, policy, device_id())
        try:
            return self._built[key]
        except KeyError:
            pass
        with self._lock:
            if key not in self._built:
                self._built[key] = self._build(build, policy, buffers)
            return self._built[key]

    def _build(self, build, policy, buffers):
        cudnn = frontend()
        declined = (cudnn.cudnnGraphNotSupportedError, NotImplementedError, RuntimeError, ValueError)
        graph = cudnn.pygraph(name=self.name, intermediate_data_type=cudnn.data_type.FLOAT,
                              compute_data_type=cudnn.data_type.FLOAT, handle=handle())
        try:
            tensors = build(graph)
            graph.validate()
            graph.build_operation_graph()
            graph.create_execution_plans([cudnn.heur_mode.A, cudnn.heur_mode.FALLBACK])
            if policy.deterministic:
                graph.deselect_numeric_notes([cudnn.numerical_note.NONDETERMINISTIC])
            if not policy.tf32:  # float32 data on tensor cores is TF32
                graph.deselect_numeric_notes([cudnn.numerical_note.TENSOR_CORE])
            if policy.workspace_limit is not None:
                graph.deselect_workspace_greater_than(policy.workspace_limit)
            graph.check_support()
            if not policy.exhaustive or buffers is None:  # no buffers to time plans on: the heuristics' choice
                graph.build_plans()
                return Graph(graph, tensors)
        except declined:
            return None  # an unsupported layout, dtype or size: the caller's other path runs
        return _fastest(graph, tensors, buffers, declined)


def elapsed_ms(run, repeats=3):
    """Device milliseconds of `repeats` calls of `run` on the current stream, after one warm-up call."""
    cp = cuda.cupy()
    run()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(repeats):
        run()
    stop.record()
    stop.synchronize()
    return cp.cuda.get_elapsed_time(start, stop)


def _fastest(graph, tensors, buffers, declined):
    """The graph with the plan that runs `buffers` fastest selected, as Paddle's exhaustive search times cuDNN's
    algorithms on the first batch of each shape; None when no plan runs."""
    best, best_time = None, float("inf")
    for index in range(graph.get_execution_plan_count()):
        try:
            graph.build_plan_at_index(index)  # builds plan `index` and selects it
            entry = Graph(graph, tensors)
            took = elapsed_ms(lambda: entry.run(buffers))
        except declined:  # a plan that does not build or cannot run these buffers
            continue
        if took < best_time:
            best, best_time = index, took
    if best is None:
        return None
    graph.build_plan_at_index(best)
    return Graph(graph, tensors)
