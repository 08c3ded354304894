"""Fused CUDA kernels: their sources (kernels/*.cu) and their compilation and caching.

The kernels live in kernels/*.cu (one file per op family, `#include "common.cuh"` inlined here so
CuPy's source-keyed binary cache sees every byte that is compiled). A kernel *backend* hands out
compiled modules -- `module(family).get_function(name)` and `sm_count`:

- `CupyModules`: CuPy RawModule per family, compiled on first use and cached per process and device
  (CuPy also caches the binaries on disk);
- the CPU emulator in tests/cuda_emu (same interface), so CI without a GPU runs the same launch code.

`kernel(family, name)` fetches a kernel from the active backend (CupyModules unless `use_backend`
says otherwise) once. The host code that launches each kernel lives in paddlelite/ops/launch/, and
each op declares its kernel binding next to its forward (`register_op(..., gpu=...)`). Importing
paddlelite never imports CuPy: kernels compile on their first launch.
"""
import contextlib
import os
import re
import threading

from . import cuda

FAMILIES = ("softmax_ce", "layer_norm", "rms_norm", "activation", "dropout", "embedding", "reduce", "optimizer", "rnn",
            "attention", "rope")
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"[ \t]*$', re.M)


def kernel_dir():
    """Where kernels/*.cu live: $PADDLELITE_KERNEL_DIR, else the repository's kernels/ folder."""
    env = os.environ.get("PADDLELITE_KERNEL_DIR")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, "..", "..", "kernels"), os.path.join(here, "..", "_kernels")):
        if os.path.isfile(os.path.join(cand, "common.cuh")):
            return os.path.normpath(cand)
    raise FileNotFoundError("paddlelite: the CUDA kernel sources (kernels/*.cu) were not found; "
                            "install paddlelite from a source checkout or set PADDLELITE_KERNEL_DIR")


def kernel_source(family, directory=None, suffix=".cu"):
    """The full source of kernels/<family>.cu (or another suffix) with its quoted includes inlined (each once)."""
    directory = directory or kernel_dir()
    seen = set()

    def expand(name):
        if name in seen:
            return ""
        seen.add(name)
        with open(os.path.join(directory, name)) as f:
            text = f.read().replace("#pragma once\n", "")
        return _INCLUDE.sub(lambda m: expand(m.group(1)), text)

    return expand(family + suffix)


class CupyModules:
    """Kernel families compiled through CuPy's RawModule, once per process and device."""

    OPTIONS = ("--std=c++17",)
    # generated kernels compute a chain of registry ops: each result is rounded as the op alone rounds it (no
    # multiply-add contraction), so a fused chain computes what its ops do one by one
    GENERATED_OPTIONS = OPTIONS + ("--fmad=false",)

    def __init__(self):
        self._mods = {}
        self._lock = threading.Lock()
        self._sm = None

    @property
    def sm_count(self):
        if self._sm is None:
            cp = cuda.cupy()
            self._sm = cp.cuda.Device().attributes["MultiProcessorCount"]
        return self._sm

    def module(self, family):
        cp = cuda.cupy()
        key = (family, cp.cuda.Device().id)
        mod = self._mods.get(key)
        if mod is None:
            with self._lock:
                mod = self._mods.get(key)
                if mod is None:
                    mod = cp.RawModule(code=kernel_source(family), options=self.OPTIONS)
                    self._mods[key] = mod
        return mod

    def generated(self, source):
        """A module of generated source (CuPy caches its binary on disk, keyed by the source)."""
        cp = cuda.cupy()
        key = (source, cp.cuda.Device().id)
        mod = self._mods.get(key)
        if mod is None:
            with self._lock:
                mod = self._mods.get(key)
                if mod is None:
                    mod = self._mods[key] = cp.RawModule(code=source, options=self.GENERATED_OPTIONS)
        return mod


class KernelCache:
    """The kernels of one backend, each fetched from its module once (kernel names are unique: a generated
    kernel's holds a hash of its source)."""

    def __init__(self, modules):
        self.modules = modules
        self._fns = {}

    @property
    def sm_count(self):
        return self.modules.sm_count

    def get(self, family, name):
        fn = self._fns.get(name)
        if fn is None:
            fn = self._fns[name] = self.modules.module(family).get_function(name)
        return fn

    def get_generated(self, source, name):
        fn = self._fns.get(name)
        if fn is None:
            fn = self._fns[name] = self.modules.generated(source).get_function(name)
        return fn


_active = []  # a stack of KernelCache; empty until the first launch (then CuPy's)


def _cache():
    if not _active:
        _active.append(KernelCache(CupyModules()))
    return _active[-1]


def kernel(family, name):
    """The compiled kernel `name` of kernels/<family>.cu on the active backend."""
    return _cache().get(family, name)


def active_kernels():
    """The active backend's KernelCache: `get(family, name)`, `get_generated(source, name)`, `sm_count`."""
    return _cache()


def generated_source(body):
    """A generated kernel's full source: kernels/common.cuh inlined, then `body`."""
    if "common" not in _generated_prelude:
        _generated_prelude["common"] = kernel_source("common", suffix=".cuh")
    return _generated_prelude["common"] + "\n" + body


_generated_prelude = {}


def sm_count():
    """Streaming multiprocessors of the active backend's device (launch helpers size grids by it)."""
    return _cache().sm_count


@contextlib.contextmanager
def use_backend(modules):
    """Launch kernels from `modules` (e.g. the CPU emulator) inside the block."""
    _active.append(KernelCache(modules))
    try:
        yield modules
    finally:
        _active.pop()
