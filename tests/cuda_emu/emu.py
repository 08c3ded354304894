"""Run kernels/*.cu on the CPU: compile with g++ and the cuda_emu.h shim, launch through ctypes.

`EmuModules` has the same surface as the CuPy backend of paddlelite.device.kernels
(`module(family).get_function(name)(grid, block, args)` and `sm_count`), so the real host-side
launch code of every GPU op runs here with NumPy arrays in place of CuPy arrays.
"""
import ctypes
import hashlib
import os
import re
import stat
import subprocess
import tempfile
import threading

import numpy as np

from paddlelite.device import kernels as K

SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cuda_emu.h")
CXX = os.environ.get("CXX", "g++")
FLAGS = ["-std=c++20", "-O1", "-pthread", "-shared", "-fPIC", "-w"]
# Built libraries are loaded into the test process, so they live in a private per-user cache (never a
# predictable shared temp path another local user could plant a library in).
CACHE_DIR = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                         "paddlelite", "cuda_emu")

_lock = threading.Lock()
_libs = {}


def _run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:3])} ... failed:\n{r.stderr[-6000:]}")
    return r.stdout


def kernel_names(source):
    """The extern "C" kernels a source defines (after macro expansion, through the shim)."""
    with tempfile.NamedTemporaryFile("w", suffix=".cu", delete=False) as f:
        f.write(source)
    try:
        pre = _run([CXX, "-std=c++20", "-E", "-P", "-x", "c++", "-include", SHIM, f.name])
    finally:
        os.unlink(f.name)
    return sorted(set(re.findall(r'extern\s+"C"\s+void\s+(\w+)\s*\(', pre)))


def private_cache_dir(path=CACHE_DIR):
    """Create `path` (mode 0700) if needed and check that only the current user can write to it."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    st = os.stat(path)
    if st.st_uid != os.getuid() or stat.S_IMODE(st.st_mode) & 0o022:
        raise RuntimeError(f"CUDA emulation cache {path} is not private to this user (owner uid {st.st_uid}, "
                           f"mode {stat.S_IMODE(st.st_mode):o}); remove it or set XDG_CACHE_HOME")
    return path


def build(source, tag="kernel"):
    """Compile emulated `source`; returns the path of the shared library (cached by content hash)."""
    with open(SHIM) as f:
        shim = f.read()
    key = hashlib.sha256("\0".join([source, shim, CXX, *FLAGS]).encode()).hexdigest()[:24]
    so = os.path.join(private_cache_dir(), f"{tag}_{key}.so")
    if os.path.exists(so) and os.stat(so).st_uid == os.getuid():
        return so
    names = kernel_names(source)
    launchers = "".join(
        f'extern "C" int emu_launch_{n}(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, '
        f'unsigned bz, void** params, const int* sizes, int nargs) {{ return emu::launch({n}, dim3(gx, gy, gz), '
        f'dim3(bx, by, bz), params, sizes, nargs); }}\n' for n in names)
    src_path = so[:-3] + ".cu"
    with open(src_path, "w") as f:
        f.write(source + "\n// ---- emulator launchers ----\n" + launchers)
    tmp = f"{so}.{os.getpid()}.tmp"
    _run([CXX, *FLAGS, "-x", "c++", "-include", SHIM, src_path, "-o", tmp])
    os.replace(tmp, so)
    return so


_SCALARS = {np.dtype(np.int32): ctypes.c_int32, np.dtype(np.int64): ctypes.c_int64,
            np.dtype(np.uint32): ctypes.c_uint32, np.dtype(np.uint64): ctypes.c_uint64,
            np.dtype(np.float32): ctypes.c_float, np.dtype(np.float64): ctypes.c_double}


class EmuKernel:
    max_threads_per_block = 1024  # CuPy's kernels report theirs (fewer when their registers run short)

    def __init__(self, lib, name):
        self.name = name
        self._fn = getattr(lib, f"emu_launch_{name}")
        self._fn.restype = ctypes.c_int
        self.launches = 0

    def __call__(self, grid, block, args, shared_mem=0):
        grid = tuple(grid) + (1,) * (3 - len(tuple(grid)))
        block = tuple(block) + (1,) * (3 - len(tuple(block)))
        if any(int(g) <= 0 for g in grid) or any(int(b) <= 0 for b in block) or np.prod(block) > self.max_threads_per_block:
            raise ValueError(f"{self.name}: bad launch grid={grid} block={block}")
        objs = []
        for a in args:
            if isinstance(a, np.ndarray):
                objs.append(ctypes.c_void_p(a.ctypes.data))
            elif isinstance(a, np.generic) and a.dtype in _SCALARS:
                objs.append(_SCALARS[a.dtype](a.item()))
            else:  # CuPy would guess a C type for a Python scalar; make launch code say what it means
                raise TypeError(f"{self.name}: kernel argument {a!r} must be an array or a sized NumPy scalar")
        params = (ctypes.c_void_p * max(1, len(objs)))(*[ctypes.addressof(o) for o in objs])
        sizes = (ctypes.c_int * max(1, len(objs)))(*[ctypes.sizeof(o) for o in objs])
        rc = self._fn(*[ctypes.c_uint(int(v)) for v in grid + block], params, sizes, len(objs))
        if rc >= 2000:
            raise TypeError(f"{self.name}: argument {rc - 2000} has the wrong C size")
        if rc >= 1000:
            raise TypeError(f"{self.name}: expects {rc - 1000} arguments, received {len(objs)}")
        self.launches += 1


class EmuModule:
    def __init__(self, so):
        self._lib = ctypes.CDLL(so)
        self._fns = {}

    def get_function(self, name):
        if name not in self._fns:
            self._fns[name] = EmuKernel(self._lib, name)
        return self._fns[name]


class EmuModules:
    """Drop-in for the CuPy backend: families compiled from kernels/ (or from given sources)."""

    sm_count = 2  # small grids keep emulated launches quick; loops are grid-stride anyway

    def __init__(self, sources=None):
        self._sources = dict(sources or {})

    def module(self, family):
        return self._load(self._sources.get(family) or K.kernel_source(family), family)

    def generated(self, source):
        """A module of generated source (paddlelite/ops/launch/generated.py), built once per content."""
        return self._load(source, "generated")

    @staticmethod
    def _load(source, tag):
        with _lock:
            so = build(source, tag)
            if so not in _libs:
                _libs[so] = EmuModule(so)
            return _libs[so]
