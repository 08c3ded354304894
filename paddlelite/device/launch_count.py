"""What a step would ask of a GPU, counted while it runs on NumPy: `paddlelite.device.count_launches()`.

A small model's training step on a GPU is bound by the host: its time is the number of things it enqueues
(kernel launches, library calls, copies, memory-pool allocations) times the host cost of each, plus every wait
for the device. Inside `count_launches()` the CPU place computes through `COUNTING`, an array module with CuPy's
semantics over NumPy, and a `LaunchCount` records what CuPy would have done:

* its arrays (`DeviceArray`, an ndarray subclass) stand for device memory. They compute with NumPy, and each call
  that enqueues device work on CuPy is counted: a ufunc is one elementwise kernel, a reduction one reduction
  kernel, matmul, linalg, FFT and sorting one library call, a new result one pool allocation; reading a value
  on the host (item(), float(), bool(), get(), a boolean mask's nonzero) is a device-to-host copy and a sync; an
  array made from host data (asarray of a list or of a plain NumPy array) is a host-to-device copy. 0-D results
  stay arrays, as CuPy's do, so a value is read only when the host asks for it;
* code that branches on the array module (`xp is np`, `isinstance(a, xp.ndarray)`) takes its GPU branch, and an
  op runs what it runs on a GPU: `OpDef.forward_for` resolves this module like CuPy (`instrument`), so an op with
  a GPU binding (a fused kernel of kernels/*.cu, or a generated one) runs the binding's host code for real -- its
  allocations counted -- under `CountingKernels`, a kernel backend that counts each RawKernel launch and launches
  nothing; the op's values then come from its NumPy forward, run uncounted.

So the counts come from the code a GPU runs, not from a table kept beside it. What is modelled is CuPy's cost of
each NumPy-named call (a table below: one kernel per ufunc, two for var/std, ...); a GPU run checks the model
against CUDA's own profiler (scripts/gpu_bench.sh). Counts are kept per op type, or, for work outside any op,
per the function that asked for it (`LaunchCount.by_label`). Off (the default) nothing here runs: the CPU place
computes with NumPy itself.
"""
import contextlib
import sys
import types

import numpy as np

from . import cublas, cudnn, deferred_checks, kernels
from .host_cublas import Cublas
from .place import Place

# kinds of device work. KERNELS are kernel launches (what PyTorch's profiler counts as kernels); a memset and the
# copies are enqueued too; allocations come from the memory pool (host work); a sync waits for the device.
KERNELS = ("elementwise", "reduction", "raw", "library")
ENQUEUED = KERNELS + ("memset", "d2d", "h2d", "d2h")
KINDS = ENQUEUED + ("alloc", "sync")

_active = [None]  # the LaunchCount recording now, or None

# CuPy's work for NumPy-named calls that are not one elementwise kernel per new array (allocations are counted
# apart: one per new array)
_REDUCE = ("reduction",)
_LIBRARY = ("library",)
_DATA_DEPENDENT = ("reduction", "elementwise", "d2h", "sync")  # counts on the device, reads the count, gathers
_COSTS = {
    **dict.fromkeys(("empty", "empty_like"), ()),
    **dict.fromkeys(("zeros", "zeros_like"), ("memset",)),
    **dict.fromkeys(("matmul", "dot", "vdot", "inner", "tensordot", "einsum", "sort", "argsort", "lexsort",
                     "partition", "argpartition", "msort"), _LIBRARY),
    **dict.fromkeys(("sum", "prod", "max", "min", "amax", "amin", "any", "all", "argmax", "argmin", "mean",
                     "nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin", "nanmean", "count_nonzero",
                     "cumsum", "cumprod", "nancumsum", "nancumprod", "ptp", "average", "trace", "norm"), _REDUCE),
    **dict.fromkeys(("var", "std", "nanvar", "nanstd"), _REDUCE * 2),  # the mean, then the squared deviations
    **dict.fromkeys(("nonzero", "flatnonzero", "argwhere", "unique", "compress", "extract"), _DATA_DEPENDENT),
}
_LIBRARY_MODULES = ("numpy.linalg", "numpy.fft")  # cuSOLVER / cuBLAS, cuFFT
_UFUNC_METHOD_KIND = {"__call__": "elementwise", "outer": "elementwise", "at": "elementwise", "reduce": "reduction",
                      "accumulate": "reduction", "reduceat": "reduction"}


class LaunchCount:
    """Device work counted per label: {label: {kind: n}} in `by_label`. A label is the op type whose forward asked
    for the work, else the function that did (`paddlelite.static.executor._feed_value`)."""

    def __init__(self):
        self.by_label = {}
        self._labels = []

    def add(self, kind, n=1):
        if n:
            label = self._labels[-1] if self._labels else _caller()
            counts = self.by_label.setdefault(label, {})
            counts[kind] = counts.get(kind, 0) + n

    @contextlib.contextmanager
    def attributed(self, label):
        """Work inside the block is `label`'s (an op's forward)."""
        self._labels.append(label)
        try:
            yield
        finally:
            self._labels.pop()

    def reset(self):
        self.by_label = {}

    def total(self, kinds=KINDS):
        """How many of `kinds` (a kind or a tuple of them) were counted, over every label."""
        kinds = (kinds,) if isinstance(kinds, str) else kinds
        return sum(n for counts in self.by_label.values() for k, n in counts.items() if k in kinds)

    def per_label(self, kinds=ENQUEUED):
        """{label: how many of `kinds`}, labels with none left out."""
        kinds = (kinds,) if isinstance(kinds, str) else kinds
        out = {}
        for label, counts in self.by_label.items():
            n = sum(v for k, v in counts.items() if k in kinds)
            if n:
                out[label] = n
        return dict(sorted(out.items()))

    def summary(self):
        """{kind: total} plus 'kernels' and 'enqueued' (kernels + memsets + copies)."""
        out = {k: self.total(k) for k in KINDS}
        out["kernels"] = self.total(KERNELS)
        out["enqueued"] = self.total(ENQUEUED)
        return out

    def table(self):
        """A text table: one row per label, one column per kind."""
        rows = [["label", *KINDS]] + [[label, *(str(c.get(k, 0)) for k in KINDS)]
                                       for label, c in sorted(self.by_label.items())]
        rows.append(["total", *(str(self.total(k)) for k in KINDS)])
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        return "\n".join("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
                         for r in rows)


def _caller():
    """`module.function` of the nearest caller outside this module and NumPy: who asked for work outside any op."""
    frame = sys._getframe(2)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module != __name__ and not module.startswith("numpy"):
            return f"{module}.{frame.f_code.co_name}"
        frame = frame.f_back
    return "?"


def _count(kind, n=1):
    counter = _active[0]
    if counter is not None:
        counter.add(kind, n)


# ---- arrays --------------------------------------------------------------------------------------------------
def _plain(a):
    """`a` with each DeviceArray in it (in lists and tuples too) viewed as a plain ndarray: what NumPy computes on."""
    if isinstance(a, DeviceArray):
        return a.view(np.ndarray)
    if type(a) in (list, tuple):
        return type(a)(_plain(e) for e in a)
    return a


def _device(a):
    """`a` (a result) with each plain ndarray and NumPy scalar in it as a DeviceArray (a CuPy result is an array,
    0-D included)."""
    if a.__class__ is np.ndarray:
        return a.view(DeviceArray)
    if isinstance(a, np.generic):
        return np.asarray(a).view(DeviceArray)
    if type(a) in (list, tuple):
        return type(a)(_device(e) for e in a)
    return a


def _arrays(a):
    """The arrays in `a` (an argument: an array, or a list or tuple of them)."""
    if isinstance(a, np.ndarray):
        return [a]
    if type(a) in (list, tuple):
        return [e for x in a for e in _arrays(x)]
    return []


def _fresh(result, inputs):
    """How many arrays of `result` are new memory (sharing none with an input array): each is an allocation."""
    return sum(1 for r in _arrays(result) + [r for r in (result,) if isinstance(r, np.generic)]
               if not any(np.may_share_memory(r, i) for i in inputs))


def _count_call(name, module, args, result):
    """Count CuPy's work for NumPy function `name` of `module` called on `args` (a device array among them)."""
    counter = _active[0]
    if counter is None:
        return
    new = _fresh(result, _arrays(args))
    if name == "copyto":
        counter.add(_copyto_kind(*args[:2]))
        return
    if name == "where" and len(args) == 1:
        name = "nonzero"
    cost = _COSTS.get(name)
    if cost is None:
        cost = _LIBRARY if module in _LIBRARY_MODULES else ("elementwise",) * new
    for kind in cost:
        counter.add(kind)
    counter.add("alloc", new)


def _copyto_kind(dst, src):
    """CuPy's copyto: a scalar is filled in by a kernel, a same-layout device array copied by cudaMemcpy, any other
    one by a kernel; a host array is copied to the device."""
    if not isinstance(src, np.ndarray) or src.ndim == 0:
        return "elementwise"
    if src.__class__ is not DeviceArray:
        return "h2d"
    same = src.dtype == dst.dtype and src.shape == dst.shape and src.flags.c_contiguous and dst.flags.c_contiguous
    return "d2d" if same else "elementwise"


def _index_arrays(index):
    """The arrays and lists in an index (advanced indexing)."""
    index = index if isinstance(index, tuple) else (index,)
    return [e for e in index if isinstance(e, (np.ndarray, list))]


class DeviceArray(np.ndarray):
    """A NumPy array standing for a device array while launches are counted: it computes with NumPy and counts
    what CuPy would enqueue for each call (see the module's doc). Results are DeviceArrays; a plain ndarray meeting
    one is host memory."""

    @property
    def data(self):
        """CuPy's memory pointer: the address (`.ptr`) device code and cuBLAS are given."""
        return types.SimpleNamespace(ptr=self.ctypes.data)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple(_plain(o) for o in out)
        result = getattr(ufunc, method)(*_plain(inputs), **kwargs)
        counter = _active[0]
        if counter is not None:
            counter.add("library" if ufunc is np.matmul else _UFUNC_METHOD_KIND[method])
            if method != "at":
                n_out = ufunc.nout if method == "__call__" else 1
                counter.add("alloc", n_out - (0 if out is None else sum(o is not None for o in out)))
        if method == "at":
            return None
        if out is not None and all(o is not None for o in out):
            return out[0] if len(out) == 1 else out
        return _device(result)

    def __array_function__(self, func, types, args, kwargs):
        result = func(*_plain(args), **{k: _plain(v) for k, v in kwargs.items()})
        _count_call(func.__name__, func.__module__, list(args) + list(kwargs.values()), result)
        return _device(result)

    # methods NumPy implements in C without the protocols above, or (mean) as several ufunc calls
    def _computed(self, name, cost, *args, **kwargs):
        result = getattr(self.view(np.ndarray), name)(*_plain(args), **_plain(kwargs))
        counter = _active[0]
        if counter is not None:
            new = _fresh(result, [self])
            for kind in cost if cost is not None else ("elementwise",) * new:
                counter.add(kind)
            counter.add("alloc", new)
        return _device(result)

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        if not copy and np.dtype(dtype) == self.dtype:
            return self
        return self._computed("astype", None, dtype, order, casting, subok, copy)

    def copy(self, order="C"):  # cudaMemcpy when contiguous, else a copy kernel
        return self._computed("copy", ("d2d",) if self.flags.c_contiguous else ("elementwise",), order)

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def fill(self, value):
        _count("memset" if value == 0 else "elementwise")
        self.view(np.ndarray).fill(value)

    def reshape(self, *shape, **kwargs):
        return self._computed("reshape", None, *shape, **kwargs)  # a view, or one copy kernel

    def ravel(self, order="C"):
        return self._computed("ravel", None, order)

    def flatten(self, order="C"):
        return self._computed("flatten", ("d2d",), order)

    def mean(self, *args, **kwargs):
        return self._computed("mean", _REDUCE, *args, **kwargs)

    def var(self, *args, **kwargs):
        return self._computed("var", _COSTS["var"], *args, **kwargs)

    def std(self, *args, **kwargs):
        return self._computed("std", _COSTS["std"], *args, **kwargs)

    def argmax(self, *args, **kwargs):
        return self._computed("argmax", _REDUCE, *args, **kwargs)

    def argmin(self, *args, **kwargs):
        return self._computed("argmin", _REDUCE, *args, **kwargs)

    def dot(self, *args, **kwargs):
        return self._computed("dot", _LIBRARY, *args, **kwargs)

    def argsort(self, *args, **kwargs):
        return self._computed("argsort", _LIBRARY, *args, **kwargs)

    def sort(self, *args, **kwargs):
        _count("library")
        self.view(np.ndarray).sort(*args, **kwargs)

    def nonzero(self):
        return self._computed("nonzero", _DATA_DEPENDENT)

    def take(self, *args, **kwargs):
        return self._computed("take", None, *args, **kwargs)

    def repeat(self, *args, **kwargs):
        return self._computed("repeat", None, *args, **kwargs)

    def __getitem__(self, index):
        plain = self.view(np.ndarray)
        arrays = _index_arrays(index)
        index = _plain(index)
        if isinstance(index, np.ndarray) and index.dtype.kind in "iu" and self.ndim:
            index = index % self.shape[0]  # CuPy wraps an index past the end around, as `take` does
        result = plain[index]
        if isinstance(result, np.generic):  # an element: CuPy gives a 0-D view of it
            result = plain[(*index, Ellipsis) if isinstance(index, tuple) else (index, Ellipsis)]
        if arrays:
            _count_index(arrays)
            _count("elementwise")  # the gather
            _count("alloc")
        return result.view(DeviceArray)

    def __setitem__(self, index, value):
        arrays = _index_arrays(index)
        index = _plain(index)
        if arrays:
            _count_index(arrays)
        if isinstance(value, (list, tuple)) or (value.__class__ is np.ndarray and value.ndim):
            _count("h2d")  # values from the host
        _count("elementwise")  # the fill, copy or scatter
        self.view(np.ndarray)[index] = _plain(value)

    # reading values on the host: a copy to the host and a wait for the device
    def get(self, stream=None, order="C", out=None):
        _count("d2h")
        _count("sync")
        return np.array(self.view(np.ndarray), order=order)

    def _host(self):
        _count("d2h")
        _count("sync")
        return self.view(np.ndarray)

    def item(self, *args):
        return self._host().item(*args)

    def tolist(self):
        return self._host().tolist()

    def tobytes(self, order="C"):
        return self._host().tobytes(order)

    def __float__(self):
        return float(self._host())

    def __int__(self):
        return int(self._host())

    def __complex__(self):
        return complex(self._host())

    def __bool__(self):
        return bool(self._host())

    def __index__(self):
        return self._host().__index__()


def _count_index(arrays):
    """Index arrays: a host one (a list, a plain ndarray) is copied to the device first; a boolean mask's
    positions are found on the device and their number read by the host (CuPy's nonzero)."""
    for a in arrays:
        if a.__class__ is not DeviceArray:
            _count("h2d")
        if np.asarray(a).dtype == np.bool_:
            for kind in _DATA_DEPENDENT:
                _count(kind)


# ---- the array module ----------------------------------------------------------------------------------------
def _as_device(fn):
    """asarray, array, ascontiguousarray and the like: host data is copied to the device; a device array is
    returned as it is, or converted on the device (a new dtype or layout: one kernel)."""
    def call(a, *args, **kwargs):
        if isinstance(a, DeviceArray):
            result = fn(a.view(np.ndarray), *args, **kwargs)
            if not np.may_share_memory(result, a):
                _count("elementwise" if result.dtype != a.dtype else "d2d")
                _count("alloc")
            elif result.dtype == a.dtype and result.shape == a.shape and result.strides == a.strides:
                return a  # CuPy returns the array itself
            return result.view(DeviceArray)
        result = np.array(fn(a, *args, **kwargs), copy=True)  # never aliasing host memory, as a device copy
        _count("h2d")
        _count("alloc")
        return result.view(DeviceArray)
    call.__name__ = fn.__name__
    return call


def asnumpy(a, stream=None, order="C", out=None):
    """CuPy's asnumpy: a device array's values on the host."""
    return a.get(order=order) if isinstance(a, DeviceArray) else np.asarray(a, order=order)


def _made_on_device(fn, name):
    """Any other NumPy function: with device arrays among the arguments NumPy's protocols count it (DeviceArray);
    what it makes from host arguments alone (zeros, arange, full) is made on the device."""
    def call(*args, **kwargs):
        result = fn(*args, **kwargs)
        if not any(isinstance(a, DeviceArray) for a in _arrays(list(args) + list(kwargs.values()))):
            if _arrays(result) and all(r.__class__ is np.ndarray for r in _arrays(result)):
                _count_call(name, fn.__module__, [], result)
                return _device(result)
            return result
        if result.__class__ is np.ndarray:  # a function outside the protocols (as_strided): a view, or a kernel
            _count_call(name, fn.__module__, list(args), result)
            return result.view(DeviceArray)
        return result
    call.__name__ = name
    return call


def _zeroed(fn):
    """np.empty or np.empty_like whose memory is zeroed without counting it (garbage would set off float warnings
    in code that reads it before a kernel that is not run here would have written it)."""
    def call(*args, **kwargs):
        out = fn(*args, **kwargs)
        out.view(np.ndarray).fill(0)
        return out
    call.__name__ = fn.__name__
    return call


_UNINITIALISED = {"empty": _zeroed(np.empty), "empty_like": _zeroed(np.empty_like)}


class _CupyxStandIn:
    """What paddlelite uses of cupyx (device.cuda.cupyx_for), for COUNTING: the scatters (one kernel each, through
    DeviceArray's ufunc.at) and cupyx.scipy.special as SciPy's special functions (ufuncs: one elementwise kernel
    each); without SciPy, `scipy` raises ImportError, as cupyx.scipy does without its own dependencies."""

    @staticmethod
    def scatter_add(a, slices, value):
        np.add.at(a, slices, value)

    @staticmethod
    def scatter_max(a, slices, value):
        np.maximum.at(a, slices, value)

    @staticmethod
    def scatter_min(a, slices, value):
        np.minimum.at(a, slices, value)

    @property
    def scipy(self):
        import scipy.special
        return types.SimpleNamespace(special=scipy.special)


class _Stream:
    ptr = 0

    @staticmethod
    def is_capturing():
        return False


class _Memory:
    """A device allocation outside the pool (cuBLAS's workspace): host bytes, never counted (made once)."""

    def __init__(self, size):
        self._buffer = np.empty(size, np.uint8)
        self.ptr, self.size = self._buffer.ctypes.data, size


# the part of CuPy's cuda namespace that code run on a GPU reads (device/cublas.py: the handle's stream, device
# and workspace): one device of compute capability 9.0 (an H100/H200, as CountingKernels' grids), never capturing
_CUDA = types.SimpleNamespace(get_current_stream=lambda: _Stream, memory=types.SimpleNamespace(Memory=_Memory),
                              Device=lambda device=None: types.SimpleNamespace(id=0, compute_capability="90"))


class CountingModule(types.ModuleType):
    """NumPy as CuPy: the array module of the CPU place while launches are counted. Classes, dtypes, constants
    and ufuncs are NumPy's (ufuncs count through DeviceArray); functions count what CuPy would do."""

    ndarray = DeviceArray
    cupyx = _CupyxStandIn()
    cuda = _CUDA

    def __init__(self, module):
        super().__init__(module.__name__)
        self._numpy = module

    def __getattr__(self, name):
        value = getattr(self._numpy, name)
        if isinstance(value, types.ModuleType):
            value = CountingModule(value)
        elif callable(value) and not isinstance(value, (type, np.ufunc)):
            if name in ("asarray", "array", "asanyarray", "ascontiguousarray", "asfortranarray"):
                value = _as_device(value)
            else:
                value = _made_on_device(_UNINITIALISED.get(name, value), name)
        setattr(self, name, value)  # looked up once
        return value

    asnumpy = staticmethod(asnumpy)

    @staticmethod
    def instrument(op):
        """The forward of registry op `op` for this module (OpDef.forward_for): its GPU binding when it has one --
        the binding's host code run, its launches counted, its values taken from the NumPy forward -- else its
        forward on device arrays; the work counted as the op's."""
        binding = getattr(op.impls.get("gpu"), "__wrapped__", None)
        forward, label = op.forward, op.type
        host = {op.inputs.index(slot) for slot in op.host_inputs}  # read on the host: a host array stays one

        def run(xp, *arrays, **attrs):
            arrays = [a if k in host else _as_device_input(a) for k, a in enumerate(arrays)]
            counter = _active[0] or LaunchCount()
            # the binding's arithmetic on what its launches did not write (a counted cuDNN graph's outputs) may
            # divide by zero: those values are replaced by the forward's
            with counter.attributed(label), np.errstate(all="ignore"):
                launched = None if binding is None else binding(xp, *arrays, **attrs)
                if launched is not None:
                    with deferred_checks.deferred():  # its value checks report where the device's would
                        values = forward(np, *_plain(arrays), **attrs)
                    return _holding(launched, values)
                return forward(xp, *arrays, **attrs)
        run.__name__ = f"{label}_counted"
        return run


def _holding(launched, values):
    """The binding's outputs `launched` holding the reference forward's `values`: where the binding writes (a new
    array, or an input updated in place) is what a GPU run returns; what is there is NumPy's. `values` themselves
    where their layout differs from the binding's."""
    if isinstance(launched, (tuple, list)) and isinstance(values, (tuple, list)) and len(launched) == len(values):
        return type(launched)(_holding(a, v) for a, v in zip(launched, values))
    if isinstance(launched, np.ndarray) and np.shape(values) == launched.shape:
        if launched.flags.writeable:
            launched.view(np.ndarray)[...] = values
        # else a read-only view the binding's host code made (a broadcast zero): its values are NumPy's already
        return launched
    return _device(values)


def _as_device_input(a):
    """An op's input: a plain ndarray (a tensor made before counting began) counts as already on the device."""
    if a.__class__ is np.ndarray:
        return a.view(DeviceArray)
    if type(a) is list:
        return [_as_device_input(e) for e in a]
    return a


COUNTING = CountingModule(np)


class CountingKernels:
    """A kernel backend (device.kernels.use_backend) that launches nothing and counts each launch. Grids are sized
    for an H100/H200 (132 SMs), as the launch code sizes them on the GPU."""

    sm_count = 132

    def module(self, family):
        return self

    def generated(self, source):
        return self

    def get_function(self, name):
        return _CountedKernel(name)


class CountingCublas(Cublas):
    """libcublas for device/cublas.py while counting: each GEMM call is one library call, computed on the host
    in the data type's own precision (no TF32 rounding: the values are the CPU's)."""

    def __init__(self):
        super().__init__(tf32=False)

    def _gemm(self, *args):
        _count("library")
        self.log.clear()  # nobody reads the call log here; a long count would keep every entry
        return super()._gemm(*args)

    def cublasLtMatmul(self, *args):
        _count("library")
        self.log.clear()
        return super().cublasLtMatmul(*args)


class _CountedGraph:
    """Every cuDNN graph while counting (device/cudnn.standing_in): each run one library call. Its workspace, sized
    by the plan cuDNN picks on the device, is not counted."""

    @staticmethod
    def run(buffers):
        _count("library")


class _CountedKernel:
    max_threads_per_block = 1024

    def __init__(self, name):
        self.name = name

    def __call__(self, grid, block, args, shared_mem=0):
        _count("raw")


@contextlib.contextmanager
def count_launches():
    """Count what the code inside would enqueue on a GPU (a paddlelite extension): yields a LaunchCount.

    The CPU place computes through COUNTING meanwhile, so tensors made inside hold DeviceArrays (device memory
    to the count; a value read on the host counts as a copy and a sync); plans compiled inside are kept apart from
    the ordinary CPU ones. Tensors made before count as already on the device.
    """
    counter = LaunchCount()
    cpu = Place("cpu")
    before = cpu._xp, _active[0]
    cpu._xp, _active[0] = COUNTING, counter
    try:
        with kernels.use_backend(CountingKernels()), cublas.use_library(CountingCublas()), \
                cudnn.standing_in(_CountedGraph):
            yield counter
    finally:
        cpu._xp, _active[0] = before
