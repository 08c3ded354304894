"""Executor, Scope, global_scope: running static programs.

A program is compiled once per (program version, feed names, fetch names) into a plan: each op's
forward resolved for the place's array module, its attrs filled, its slots turned into indices of one
flat value list, and each temporary given the step after which it is dead (it is dropped there).
Running a step is then a tight loop. Parameters and other persistable variables live in a Scope.
"""
import copy
import threading
from collections import ChainMap, namedtuple
from functools import partial

import numpy as np

from ..device import cuda
from ..device.graph_capture import GraphReplay, replay_enabled
from ..device.place import Place, current_place, parse_place, place_of_array
from ..framework import dtype as _dtype
from ..framework import user_warnings as _user_warnings
from ..framework.flags import flag
from ..framework.tensor import Tensor
from ..ops import check_numerics, instrument
from ..ops.registry import VALUE_CHECK, get_op
from .compiled import CompiledProgram
from .batching import batch
from .fusion import fuse
from .framework import EMPTY_VAR_NAME, Operator, Program, Variable, default_main_program, executable_ops, names_of


# ---- scope ----------------------------------------------------------------------------------------
class DenseTensor:
    """A view of one scope variable's value (what `find_var(name).get_tensor()` returns); `DenseTensor()` (Paddle's
    core.DenseTensor, formerly LoDTensor) is one holding its own value, set with `set(array, place)`."""

    __slots__ = ("_scope", "_name")

    def __init__(self, scope=None, name=""):
        if scope is None:
            scope = Scope()
            scope._values[name] = None
        self._scope = scope
        self._name = name

    def _value(self):
        v = self._scope._values.get(self._name)
        if v is None:
            raise RuntimeError(f"scope variable '{self._name}' holds no value yet (run the startup program "
                               "or the program that computes it first)")
        return v

    def __array__(self, dtype=None, copy=None):
        a = self._value()
        a = a if isinstance(a, np.ndarray) else a.get()
        return a if dtype is None else a.astype(dtype)

    def numpy(self):
        return np.array(self)

    def __getitem__(self, index):
        """A new DenseTensor holding a copy of the part `index` selects, as Paddle's: ints and slices, one per leading
        dim; an int keeps its dim (t[1] of a [3, 3] tensor is [1, 3])."""
        value = self._value()
        index = index if isinstance(index, tuple) else (index,)
        if len(index) > value.ndim:
            raise IndexError(f"DenseTensor: too many indices ({len(index)}) for a tensor of {value.ndim} dims")
        parts = []
        for axis, i in enumerate(index):
            if isinstance(i, (int, np.integer)) and not isinstance(i, bool):
                n = value.shape[axis]
                if not -n <= i < n:
                    raise IndexError(f"DenseTensor: index {i} is out of range for dim {axis} of size {n}")
                i = int(i) % n
                parts.append(slice(i, i + 1))
            elif isinstance(i, slice):
                parts.append(i)
            else:
                raise IndexError(f"DenseTensor: an index is an int or a slice, received {type(i).__name__}")
        out = DenseTensor()
        out.set(value[tuple(parts)].copy(), place_of_array(value))
        return out

    def set(self, value, place=None):
        place = current_place() if place is None else parse_place(place, "LoDTensor.set")
        if isinstance(value, (DenseTensor, Tensor)):
            value = np.asarray(value)
        array = place.xp.asarray(value)
        if array.dtype.kind in "USO":  # text or objects: no tensor dtype
            raise ValueError(f"DenseTensor.set: expected an array of numbers, received dtype {array.dtype}")
        self._scope._values[self._name] = array

    def shape(self):
        v = self._scope._values.get(self._name)
        return [0] if v is None else list(v.shape)  # an empty tensor's shape is [0], as Paddle's

    def _numel(self):
        v = self._scope._values.get(self._name)
        return 0 if v is None else int(v.size)

    def _place(self):
        return place_of_array(self._value())

    def lod(self):
        """The level-of-detail offsets set on the tensor ([] when none)."""
        return [list(level) for level in self._scope._lods.get(self._name, [])]

    def set_lod(self, lod):
        """Offsets [[0, 1, 2, ...]]: one level of sequences of length 1, which is the dense tensor itself."""
        lengths = [[b - a for a, b in zip(level, level[1:])] for level in lod]
        self._set_lengths(lengths, lod, "set_lod")

    def set_recursive_sequence_lengths(self, lengths):
        """[[1, 1, ...]]: one level of sequences of length 1 (see set_lod)."""
        offsets = [[0, *np.cumsum(level, dtype=int).tolist()] for level in lengths]
        self._set_lengths(lengths, offsets, "set_recursive_sequence_lengths")

    def _set_lengths(self, lengths, offsets, api):
        if not lengths or all(not level for level in lengths):
            self._scope._lods.pop(self._name, None)
            return
        if len(lengths) > 1 or any(n != 1 for n in lengths[0]):
            raise NotImplementedError(f"LoDTensor.{api}: paddlelite's tensors carry no level-of-detail sequences "
                                      f"(Paddle 3 deprecated LoD), only one level of length-1 sequences, which is "
                                      f"the dense tensor; received {lengths}. Pad the sequences to one length instead")
        if self._is_initialized() and len(lengths[0]) != self.shape()[0]:
            raise ValueError(f"LoDTensor.{api}: {len(lengths[0])} sequences of length 1, but the tensor has "
                             f"{self.shape()[0]} rows")
        self._scope._lods[self._name] = offsets

    def _dtype(self):
        return _dtype.from_numpy(self._value().dtype)

    # Paddle's low-level DenseTensor API: dims set first, storage of them allocated after
    def _set_dims(self, dims):
        dims = [int(d) for d in dims]
        if any(d < 0 for d in dims):
            raise ValueError(f"DenseTensor._set_dims: dims must be non-negative, received {dims}")
        v = self._scope._values.get(self._name)
        if v is not None and v.size == int(np.prod(dims)):
            self._scope._values[self._name] = v.reshape(dims)
        else:  # the values go: a later _alloc_* or set gives storage of these dims
            self._scope._values[self._name] = None
        self._scope._dims[self._name] = dims

    def _get_dims(self):
        v = self._scope._values.get(self._name)
        return list(v.shape) if v is not None else list(self._scope._dims.get(self._name, [0]))

    def _mutable_data(self, place, dtype):
        """Storage of the dims set and `dtype` on `place` (the values kept when they already are); its address."""
        place = parse_place(place, "DenseTensor._mutable_data")
        np_dtype = _dtype.convert_dtype(dtype).np
        v = self._scope._values.get(self._name)
        if v is None or v.dtype != np_dtype or place_of_array(v) != place:
            self.set(np.zeros(self._get_dims(), np_dtype), place)
        return self._ptr()

    def _alloc_int(self, place):
        self._mutable_data(place, "int32")

    def _alloc_float(self, place):
        self._mutable_data(place, "float32")

    def _alloc_double(self, place):
        self._mutable_data(place, "float64")

    def _ptr(self):
        v = self._value()
        return int(v.ctypes.data if isinstance(v, np.ndarray) else v.data.ptr)

    def _element(self, api, dtype, offset):
        v = self._value()
        if v.dtype != np.dtype(dtype):
            raise TypeError(f"DenseTensor.{api}: the tensor holds {v.dtype.name}, not {np.dtype(dtype).name}")
        if not 0 <= offset < v.size:
            raise IndexError(f"DenseTensor.{api}: offset {offset} is out of range for {v.size} elements")
        if not v.flags.c_contiguous:  # made contiguous, so the flat view below writes into the stored values
            v = self._scope._values[self._name] = place_of_array(v).xp.ascontiguousarray(v)
        return v.reshape(-1)

    def _is_initialized(self):
        return self._scope._values.get(self._name) is not None

    def __repr__(self):
        if not self._is_initialized():
            return f"LoDTensor('{self._name}', uninitialized)"
        return f"LoDTensor('{self._name}', shape={self.shape()}, dtype={self._dtype().name})\n{np.array(self)}"



def _element_accessors(kind, dtype, convert):
    """DenseTensor._get_<kind>_element(offset) and _set_<kind>_element(offset, value): one element of the flat
    values, which must be of `dtype`."""
    def get(self, offset):
        return convert(self._element(f"_get_{kind}_element", dtype, offset)[offset])

    def set_element(self, offset, value):
        self._element(f"_set_{kind}_element", dtype, offset)[offset] = value
    return get, set_element


for _kind, _np_dtype, _convert in (("float", np.float32, float), ("double", np.float64, float),
                                   ("complex64", np.complex64, complex), ("complex128", np.complex128, complex)):
    _get, _set = _element_accessors(_kind, _np_dtype, _convert)
    setattr(DenseTensor, f"_get_{_kind}_element", _get)
    setattr(DenseTensor, f"_set_{_kind}_element", _set)

LoDTensor = DenseTensor  # the name Paddle 2 code uses
class ScopeVar:
    __slots__ = ("_scope", "name")

    def __init__(self, scope, name):
        self._scope = scope
        self.name = name

    def get_tensor(self):
        return LoDTensor(self._scope, self.name)

    def is_initialized(self):
        return self._scope._values.get(self.name) is not None


class Scope:
    """Name -> value (a NumPy or CuPy array) of the variables that outlive a run. A kid scope (`new_scope()`) sees
    its parent's variables and keeps the ones it creates or writes to itself."""

    def __init__(self, parent=None):
        self._values = {} if parent is None else ChainMap({}, parent._values)
        self._dims = {}  # dims DenseTensor._set_dims gave a variable not allocated yet
        self._lods = {}  # name -> level-of-detail offsets (only the dense kind: see DenseTensor.set_lod)
        self._kids = []

    def new_scope(self):
        kid = Scope(self)
        self._kids.append(kid)
        return kid

    def var(self, name):
        self._values.setdefault(name, None)
        return ScopeVar(self, name)

    def find_var(self, name):
        return ScopeVar(self, name) if name in self._values else None

    def local_var_names(self):
        return list(self._values.maps[0] if isinstance(self._values, ChainMap) else self._values)

    def size(self):
        return len(self.local_var_names())

    def erase(self, names):
        for n in names:
            self._values.pop(n, None)

    def drop_kids(self):
        self._kids.clear()


_global_scope = [Scope()]


def _as_lodtensor(data, place, dtype=None):
    """A LoDTensor on `place` holding `data` (Paddle's base.executor._as_lodtensor, how it turns a feed value into a
    tensor): an ndarray as it is, a Python number, list or tuple cast to `dtype`, which it then needs."""
    if not isinstance(data, np.ndarray):
        if dtype is None:  # AssertionError, as Paddle's
            raise AssertionError("_as_lodtensor: the dtype should be given when data is not a numpy.ndarray, "
                                 f"received {type(data).__name__}")
        np_dtype = _dtype.convert_dtype(dtype).np
        if np.isscalar(data):
            data = np.array(data).astype(np_dtype)
        elif isinstance(data, (list, tuple)):
            data = np.array(data)
            if data.dtype == np.object_:
                raise TypeError("_as_lodtensor: the data do not form a regular array (nested lists of different "
                                "lengths, or of non-numbers)")
            data = data.astype(np_dtype)
        else:
            raise TypeError(f"_as_lodtensor: data must be a numpy.ndarray, a number, a list or a tuple, received "
                            f"{type(data).__name__}")
    tensor = LoDTensor()
    tensor.set(data, place)
    return tensor


def global_scope():
    return _global_scope[0]


class scope_guard:
    def __init__(self, scope):
        if not isinstance(scope, Scope):
            raise TypeError(f"scope_guard: expected a Scope, received {type(scope).__name__}")
        self.scope = scope

    def __enter__(self):
        self.prev = _global_scope[0]
        _global_scope[0] = self.scope

    def __exit__(self, *exc):
        _global_scope[0] = self.prev


# ---- plans ----------------------------------------------------------------------------------------
def op_error(op, e):
    """Re-raise an op failure naming the op, or the forward op of a grad op, and the user's line."""
    fwd = op._fwd_op
    if fwd is not None:
        msg = (f"the gradient of op '{fwd.type}' (added at {fwd.where}) failed in backward op '{op.type}': "
               f"{type(e).__name__}: {e}")
    else:
        msg = f"op '{op.type}' (added at {op.where}) failed: {type(e).__name__}: {e}"
    if isinstance(e, (KeyError, StopIteration)):
        return RuntimeError(msg)
    try:
        err = type(e)(msg)
    except Exception:
        err = RuntimeError(msg)
    err._static_op = op
    return err


HostSync = namedtuple("HostSync", ["op_type", "reason", "where"])


class Plan:
    def __init__(self, program, feed_names, fetch_names, place):
        self.program = program
        self.place = place
        self.xp = place.xp
        self.index = {}
        self.names = []
        self._host_syncs = []
        self.fetch_idx = [self.slot(n) for n in fetch_names]
        self._fetch_slots = list(zip(self.fetch_idx, fetch_names))
        self.feed_idx = {n: self.slot(n) for n in feed_names}
        self.feed_slots = [self.feed_idx[n] for n in feed_names]
        block = program.global_block()
        self.steps, reads, writes = self.compile_block(block, free=True, keep=set(fetch_names))
        fed = set(feed_names)
        # variables read before any op writes them come from the feed or the scope
        self.external = [(self.index[n], n) for n in reads if n not in fed]
        self.write_back = [(self.index[n], n) for n in writes if _persistable(block, n)]
        self.persistables = [n for n, v in block.vars.items() if v.persistable]

    def slot(self, name):
        i = self.index.get(name)
        if i is None:
            i = self.index[name] = len(self.names)
            self.names.append(name)
        return i

    def compile_block(self, block, free=False, keep=()):
        """Steps for the ops of `block`; also the names it reads before writing, and the names it writes."""
        steps, reads, writes, written = [], [], [], set()
        last_use = {}
        ops = list(executable_ops(block.ops))
        on_host = _host_constants(ops, block, keep) if self.xp is not np else ()
        for k, op in enumerate(ops):
            op_reads, op_writes = op_io(op)
            for n in op_reads:
                if n not in written and n not in reads:
                    reads.append(n)
                last_use[n] = k
            for n in op_writes:
                if n not in written:
                    written.add(n)
                    writes.append(n)
                last_use[n] = k
            steps.append(self.compile_op(op, on_host=k in on_host))
        if free:
            frees = [[] for _ in steps]
            for n, k in last_use.items():
                if n not in keep and not _persistable(block, n):
                    frees[k].append(self.slot(n))  # a sub-block may name it without a slot yet
            steps = [s + (tuple(f),) for s, f in zip(steps, frees)]
            # on a GPU: elementwise chains as one kernel each, the per-parameter updates of one kind as one
            if self.xp is not np and not check_numerics.enabled[0]:
                steps = batch(fuse(steps, self.xp, lambda slot: _shape(block, self.names[slot])), self.xp)
        else:
            steps = [s + ((),) for s in steps]
        return steps, reads, writes

    def host_syncs(self):
        """[HostSync(op_type, reason, where)]: the ops of this plan (sub-blocks included) whose forward reads
        device values on the host. A plan without them runs a step the device can queue whole (one CUDA
        graph); each of them waits for the device."""
        return list(self._host_syncs)

    def compile_op(self, op, on_host=False):
        """The step running `op`; `on_host`: with NumPy, its result a host array (_host_constants)."""
        opdef = get_op(op.type)
        attrs = opdef.fill_attrs({k: v for k, v in op._attrs.items() if k in opdef.attrs})
        reason = opdef.host_sync_reason(attrs) or opdef.host_inputs_reason(op._inputs)
        if reason:
            self._host_syncs.append(HostSync(op.type, reason, op.where))
        if opdef.block_runner is not None:  # a structural op (control flow)
            return (2, opdef.block_runner(self, op), None, None, None, op)
        fn = opdef.forward_for(self.xp) if not on_host else _with_numpy(opdef.forward)
        if check_numerics.enabled[0]:  # FLAGS_check_nan_inf (the plan's key says whether it was on)
            fn = _checking_numerics(fn, op, opdef, self.place)
        ins = []
        for slot in opdef.inputs:
            names = op._inputs.get(slot, [])
            if slot in opdef.variadic_inputs:
                ins.append([self.slot(n) for n in names])
            elif not names:
                if slot not in opdef.optional_inputs:
                    raise ValueError(f"op '{op.type}' (added at {op.where}) has no variable for its required "
                                     f"input '{slot}'")
                ins.append(None)
            else:
                ins.append(self.slot(names[0]))
        outs = []
        for slot in opdef.outputs:
            names = op._outputs.get(slot, [])
            if slot in opdef.variadic_outputs:
                outs.append([self.slot(n) for n in names])
            else:
                outs.append(self.slot(names[0]) if names else None)
        if all(type(i) is int for i in ins) and len(outs) == 1 and type(outs[0]) is int:
            # one or two inputs (most ops) are passed without building an argument list
            return ({1: 3, 2: 4}.get(len(ins), 0), fn, tuple(ins), outs[0], attrs, op)
        return (1, fn, ins, outs, attrs, op)

    def run_steps(self, steps, env):
        xp = self.xp
        for kind, fn, ins, outs, attrs, op, frees in steps:
            try:
                if kind == 4:
                    env[outs] = fn(xp, env[ins[0]], env[ins[1]], **attrs)
                elif kind == 3:
                    env[outs] = fn(xp, env[ins[0]], **attrs)
                elif kind == 0:
                    env[outs] = fn(xp, *[env[i] for i in ins], **attrs)
                elif kind == 1:
                    args = [env[i] if type(i) is int else (None if i is None else [env[j] for j in i])
                            for i in ins]
                    out = fn(xp, *args, **attrs)
                    if len(outs) == 1:
                        out = (out,)
                    for o, v in zip(outs, out):
                        if type(o) is int:
                            env[o] = v
                        elif o is not None:
                            for j, e in zip(o, v):
                                env[j] = e
                else:
                    fn(env)
            except Warning:  # a warning the op issued, raised by user_warnings' filter: the step runs again and
                # issues it at the user's line
                self.run_steps([(kind, partial(_user_warnings.rerun, fn), ins, outs, attrs, op, ())], env)
            except Exception as e:
                if getattr(e, "_static_op", None) is not None:
                    raise
                raise op_error(op, e) from e
            for i in frees:
                env[i] = None

    def run(self, scope, feed):
        env = [None] * len(self.names)
        for name, value in feed.items():
            env[self.feed_idx[name]] = value
        return self.run_env(env, scope._values)

    def run_env(self, env, values, in_place=False):
        """Run on `env` (the feeds in their slots), reading and writing back the scope's `values`; the fetches.
        With `in_place`, a persistable the scope holds already is written into that array (a replayed step reads
        and writes its parameters at fixed addresses)."""
        block = self.program.global_block()
        xp = self.xp
        for i, name in self.external:
            v = values.get(name)
            if v is None:
                v = _unwritten(block, name)
            if not isinstance(v, xp.ndarray) and _is_array(v):
                # set on another device (LoDTensor.set(value, CPUPlace()) before a GPU run): moved to this plan's
                # device once, as Paddle's executor transfers an input to its kernel's place
                v = values[name] = cuda.as_module(xp, v)
            env[i] = v
        self.run_steps(self.steps, env)
        for i, name in self.write_back:
            value = env[i]
            if value is None:
                continue
            old = values.get(name) if in_place else None
            if old is None or old.shape != value.shape or old.dtype != value.dtype or not _is_array(old):
                values[name] = value
            elif old is not value:
                xp.copyto(old, value)
        out = []
        for i, name in self._fetch_slots:
            v = env[i]
            if v is None:
                v = values.get(name)
                if v is None:
                    raise ValueError(f"Executor.run: fetch variable '{name}' was not computed by this program "
                                     "and holds no value in the scope")
            out.append(v)
        return out


class FixedStep:
    """A plan run as a repeated step: one environment and one scope (its own, or the Executor's) serve every call, and
    with `fixed` the step owns its input and output arrays -- the fixed addresses a CUDA graph replay of it needs.

    With `fixed`, each call copies the feeds marked `copied` into arrays it keeps (`xp.copyto`; a new one
    only when a feed's shape or dtype changes), so the plan reads its inputs at the same addresses every
    call; the others (parameters, which the optimizers update in place) are read where they are. The
    fetched values are copied into fetch arrays it keeps, and the caller receives copies of those: a
    result it holds (even a view of an input) keeps its value when the next call overwrites the step's
    arrays. Without `fixed` (default: on the CPU, where no graph replays) the feeds are read where they
    are and the fetched values, fresh arrays of each call, are returned as they are. Values that are not
    arrays (a while loop's boxed step scopes, None) pass as they are.

    With `fixed`, the persistables the step writes go into the arrays that hold them -- in the scope, or fed (a
    to_static step's BatchNorm statistics are the buffers' own arrays, put in the scope for the call) -- so a
    replay updates them where the next call reads them. With `cuda_graph`, a GPU step none of whose ops reads
    device values on the host (but to check them) is replayed from a CUDA graph once it repeats
    (device/graph_capture.GraphReplay).

    Calls from several threads take turns (`lock`, held by `run`; a caller that reads the scope after a run
    holds it across both).
    """

    def __init__(self, plan, copied, fixed=None, cuda_graph=False):
        self.plan = plan
        self.copied = list(copied)
        self.fixed = plan.xp is not np if fixed is None else fixed
        self.feed_buffers = [None] * len(plan.feed_slots)
        self.fetch_buffers = [None] * len(plan.fetch_idx)
        self.env = [None] * len(plan.names)
        self.scope = Scope()  # the Executor sets the one of its call
        fed = set(plan.feed_slots)
        self._fed_writes = [(i, name) for i, name in plan.write_back if i in fed]
        # a value check skips itself during a capture (device.deferred_checks); any other host read refuses it
        replayable = self.fixed and plan.xp is not np and all(s.reason == VALUE_CHECK for s in plan.host_syncs())
        self.graph = GraphReplay(plan.xp, self._drop_results) if cuda_graph and replayable else None
        self.lock = threading.RLock()

    def run(self, feeds):
        with self.lock:  # one call at a time: the env, buffers and scope are the step's
            xp, env, fixed = self.plan.xp, self.env, self.fixed
            if fixed:
                for k, (slot, value, copied) in enumerate(zip(self.plan.feed_slots, feeds, self.copied)):
                    env[slot] = _copy_into(xp, self.feed_buffers, k, value) if copied and _is_array(value) else value
            else:
                for slot, value in zip(self.plan.feed_slots, feeds):
                    env[slot] = value
            values = self.scope._values
            for slot, name in self._fed_writes if fixed else ():
                values[name] = env[slot]  # written in place by the step
            if self.graph is None:
                outs = self.plan.run_env(env, values, fixed)
            else:
                fed = [(slot, env[slot]) for slot in self.plan.feed_slots]
                outs = self.graph.run(lambda: self._run_fed(fed), self._replay_key())
            for i in self.plan.fetch_idx:  # the env does not keep the results alive until the next call
                env[i] = None
            if not fixed:
                return outs
            return [_copy_into(xp, self.fetch_buffers, k, v).copy() if _is_array(v) else v for k, v in enumerate(outs)]


    def _run_fed(self, fed):
        """The plan run on the feeds `fed` [(slot, value)], put in place first: a capture that failed part-way has
        freed those it read."""
        env = self.env
        for slot, value in fed:
            env[slot] = value
        return self.plan.run_env(env, self.scope._values, True)

    def _replay_key(self):
        """What a captured run depends on: the address, shape, strides and dtype of every array it reads (the
        feeds and the scope values it takes); None when it reads something else (a boxed step scope)."""
        values = self.scope._values
        key = []
        for value in [self.env[slot] for slot in self.plan.feed_slots] + [values.get(n) for _, n in self.plan.external]:
            if value is None:
                key.append(None)
            elif _is_array(value):
                key.append((value.data.ptr, value.shape, value.strides, value.dtype))
            else:
                return None
        return tuple(key)

    def _drop_results(self):
        feeds = set(self.plan.feed_slots)
        for i in range(len(self.env)):
            if i not in feeds:
                self.env[i] = None


def _is_array(value):
    return hasattr(value, "dtype") and value.dtype != object


def _copy_into(xp, buffers, k, value):
    """`value` copied into buffers[k] (allocated anew only for a new shape or dtype)."""
    buf = buffers[k]
    if buf is None or buf.shape != value.shape or buf.dtype != value.dtype:
        buf = buffers[k] = xp.empty(value.shape, value.dtype)
    xp.copyto(buf, value)
    return buf


def op_io(op):
    """Names an op reads and writes, including what its sub-blocks read from outside them and write."""
    reads, writes = list(op.input_arg_names), [n for n in op.output_arg_names if n != EMPTY_VAR_NAME]
    for v in op._attrs.values():
        if hasattr(v, "ops") and hasattr(v, "vars"):
            local = get_op(op.type).block_locals
            local = set(local(op)) if local else ()
            reads.extend(n for n in _sub_block_reads(v) if n not in local)
            for sub_op in v.ops:
                writes.extend(op_io(sub_op)[1])
    return reads, writes


def _sub_block_reads(block):
    defined, reads = set(block.vars), []
    for op in block.ops:
        r, _ = op_io(op)
        reads.extend(n for n in r if n not in defined)
    return reads


def _checking_numerics(fn, op, opdef, place):
    """`fn` followed by FLAGS_check_nan_inf's check of its outputs, named by the op's output variables."""
    names = []
    for slot in opdef.outputs:
        given = op._outputs.get(slot, [])
        names.extend(given if slot in opdef.variadic_outputs else given[:1] or [""])

    def run(xp, *args, **attrs):
        out = fn(xp, *args, **attrs)
        check_numerics.check(op.type, out, place, names)
        return out
    return run


def _host_constants(ops, block, keep):
    """Indices of the ops of a device plan that make a value from their attrs alone (no inputs) which later ops
    read only through their host inputs (OpDef.host_inputs: a static arange's bounds, a reshape's shape list):
    those run with NumPy, as Paddle keeps such constants in host memory (fill_constant's force_cpu), so reading
    them makes the host wait for nothing."""
    device_reads = set()
    for op in ops:
        host = get_op(op.type).host_inputs
        reads = set(op_io(op)[0]) - {n for slot in host for n in op._inputs.get(slot, ())}
        device_reads.update(reads)
    out = set()
    for k, op in enumerate(ops):
        opdef = get_op(op.type)
        if op.input_arg_names or opdef.block_runner is not None or opdef.forward is None:
            continue
        made = [n for n in op.output_arg_names if n != EMPTY_VAR_NAME]
        if made and not any(n in device_reads or n in keep or _persistable(block, n) for n in made):
            out.add(k)
    return out


def _with_numpy(forward):
    return lambda xp, *arrays, **attrs: forward(np, *arrays, **attrs)


def _shape(block, name):
    v = block._lookup(name)
    return None if v is None else tuple(v.shape)


def _persistable(block, name):
    v = block._lookup(name)
    return v is not None and v.persistable


def _unwritten(block, name):
    """The value of a variable read before anything wrote it: an empty tensor array, or an error saying why."""
    v = block._lookup(name)
    if v is not None and v.type == "DENSE_TENSOR_ARRAY":
        return []
    _missing(block, name)


def _missing(block, name):
    v = block._lookup(name)
    if v is not None and v.is_data:
        raise ValueError(f"Executor.run: data variable '{name}' was not fed; pass feed={{'{name}': array}}")
    if v is not None and v.persistable:
        raise RuntimeError(f"Executor.run: persistable variable '{name}' is not initialized in the scope; run the "
                           "startup program first (exe.run(paddle.static.default_startup_program()))")
    raise ValueError(f"Executor.run: variable '{name}' is read before any op writes it and was neither fed nor "
                     "found in the scope")


# ---- feeds ----------------------------------------------------------------------------------------
def _feed_value(v, name, value, xp):
    if isinstance(value, LoDTensor):
        value = value._value()
    elif isinstance(value, Tensor):
        value = value._data
    if not hasattr(value, "dtype") or not hasattr(value, "shape"):
        value = np.asarray(value, dtype=v.dtype.np)
    if not v.is_data:  # as Paddle, only a data variable's feed is checked (desc.set_need_check_feed(False) turns it
        return value if isinstance(value, xp.ndarray) else xp.asarray(value)  # off): others run as fed
    if value.dtype != v.dtype.np:
        raise ValueError(f"Executor.run: the data type of fed variable '{name}' must be {v.dtype.name}, "
                         f"received {value.dtype} (cast it with .astype('{v.dtype.name}'))")
    shape = tuple(value.shape)
    # Paddle's check (its diff_tensor_shape): the fed dims must match the variable's leading dims (-1: any size);
    # fewer dims than declared (at least one) pass as they are, more do not
    ranks_fit = len(shape) == len(v._shape) or 1 <= len(shape) < len(v._shape)
    if not ranks_fit or any(d != -1 and d != s for d, s in zip(v._shape, shape)):
        raise ValueError(f"Executor.run: fed variable '{name}' should have shape {list(v._shape)} "
                         f"(-1 = any size), received {list(shape)}")
    return value if isinstance(value, xp.ndarray) else xp.asarray(value)


def _feed_lr(program, scheduler, scope, place):
    """Paddle's executor: a program built by an optimizer with an LRScheduler carries it as
    `program.lr_scheduler`; before each run the scheduler's current rate goes into its learning-rate
    variable in the scope this run uses."""
    name = getattr(scheduler, "_var_name", None)
    if name is None or not callable(scheduler):
        raise TypeError(f"Executor.run: program.lr_scheduler must be an LRScheduler bound to a learning-rate "
                        f"variable by optimizer.minimize, received {type(scheduler).__name__}")
    var = program.global_block()._lookup(name)
    if var is None:
        raise ValueError(f"Executor.run: program.lr_scheduler's learning-rate variable '{name}' is not in the "
                         "program")
    value = np.full(var._shape, scheduler(), dtype=var.dtype.np)
    old = scope._values.get(name)
    if isinstance(old, place.xp.ndarray) and old.shape == value.shape and old.dtype == value.dtype:
        old.fill(value.flat[0])  # in place, without a copy from the host: a replayed step reads it at a fixed address
    else:
        scope._values[name] = place.xp.asarray(value)


def _split_fetch_list(fetch_list):
    """(variables or names to fetch, optimizer ops to run) of Executor.run's fetch_list, read as Paddle reads it: an
    item that is a list is flattened one level (paddle.static.gradients(y, x), or the optimizer ops minimize returns),
    and a tuple that is not all variables is what Optimizer.minimize returns, (optimizer ops, params_grads)."""
    if fetch_list is None:
        return [], []
    if not isinstance(fetch_list, (list, tuple)):
        fetch_list = [fetch_list]
    fetches, optimize_ops = [], []
    for i, item in enumerate(fetch_list):
        if isinstance(item, tuple) and not all(isinstance(x, (Variable, str)) for x in item):
            if not item or not isinstance(item[0], (list, tuple)):
                raise TypeError(f"Executor.run: fetch_list[{i}] is a tuple, so it must be what Optimizer.minimize "
                                f"returns, (optimizer ops, params_grads); its first item is a "
                                f"{type(item[0] if item else None).__name__}")
            item = item[0]
        for x in item if isinstance(item, (list, tuple)) else [item]:
            if isinstance(x, (Variable, str)):
                fetches.append(x)
            elif isinstance(x, Operator) and x._is_optimize_op():
                optimize_ops.append(x)
            else:
                what = f"a '{x.type}' op, not an optimizer op" if isinstance(x, Operator) else type(x).__name__
                raise TypeError(f"Executor.run: fetch_list[{i}] must hold Variables, names (str) or the optimizer ops "
                                f"Optimizer.minimize returns, received {what}")
    return fetches, optimize_ops


def _feed_arrays(block, feed, scope, xp):
    """name -> array of the feeds of `block`'s variables (as Paddle, a feed the program has no variable for, e.g. one
    pruned away, is ignored); a fed persistable variable is also kept in the scope, as Paddle's feed op writes it
    there (a copy of its own: set in place later)."""
    arrays = {}
    for name, value in feed.items():
        if isinstance(name, Variable):
            name = name.name
        v = block._lookup(name)
        if v is not None:
            arrays[name] = _feed_value(v, name, value, xp)
            if v.persistable:
                scope._values[name] = xp.array(arrays[name], copy=True)
    return arrays


def _feed_names(feed):
    return [n.name if isinstance(n, Variable) else n for n in feed]


class Executor:
    """Runs static programs on one place (CPU: NumPy, GPU: CuPy) - the same code for both.

    On a GPU, with FLAGS_new_executor_use_cuda_graph or a CompiledProgram whose BuildStrategy allows CUDA-graph
    capture (Paddle's switches), a plan runs as a FixedStep replayed from a CUDA graph: the whole step -- forward,
    backward and optimizer updates -- is one launch once its feeds, fetches and scope arrays repeat."""

    def __init__(self, place=None):
        self.place = current_place() if place is None else parse_place(place, "Executor")
        self._plans = {}
        self._replayed = {}  # plan key -> FixedStep replaying it
        self._pruned = {}  # (program, its version, feed names, fetch names, optimizer ops) -> the pruned program

    def close(self):
        self._plans.clear()
        self._replayed.clear()
        self._pruned.clear()

    @classmethod
    def _prune_program(cls, program, feed=None, fetch_list=None, optimize_ops=None):
        """Paddle's: `program` (a Program, or a CompiledProgram: a copy of it holding the pruned program) pruned to
        the ops `fetch_list` and `optimize_ops` (every optimizer op of the program when none are given) need from
        `feed`'s variables."""
        compiled = isinstance(program, CompiledProgram)
        origin = program._program if compiled else program
        block = origin.global_block()
        if not optimize_ops:
            optimize_ops = [op for op in block.ops if op._is_optimize_op()]
        pruned = origin._prune_with_input(_feed_names(feed or {}), list(fetch_list or []) + list(optimize_ops))
        if not compiled:
            return pruned
        program = copy.copy(program)
        program._program, program._synced = pruned, None
        return program

    def _pruned_program(self, program, feed, fetches, optimize_ops):
        """The pruned program for this run, pruned once per program version, feed and fetch_list (as Paddle caches
        it)."""
        origin = program._program if isinstance(program, CompiledProgram) else program
        key = (id(program), origin._uid, origin._version, tuple(sorted(_feed_names(feed))),
               tuple(names_of(fetches, "Executor.run", "fetch_list")), tuple(id(op) for op in optimize_ops))
        pruned = self._pruned.get(key)
        if pruned is None:
            pruned = self._pruned[key] = self._prune_program(program, feed, fetches, optimize_ops)
        return pruned

    def run(self, program=None, feed=None, fetch_list=None, feed_var_name="feed", fetch_var_name="fetch",
            scope=None, return_numpy=True, use_program_cache=False, use_prune=False):
        if program is None:
            program = default_main_program()
        if feed is None:
            feed = {}
        if not isinstance(feed, dict):
            raise TypeError(f"Executor.run: feed must be a dict of name -> array, received {type(feed).__name__}")
        fetches, optimize_ops = _split_fetch_list(fetch_list)
        if use_prune or optimize_ops:  # optimizer ops in fetch_list: run only them (and what they need), as Paddle
            program = self._pruned_program(program, feed, fetches, optimize_ops)
        graph = flag("FLAGS_new_executor_use_cuda_graph")
        if isinstance(program, CompiledProgram):
            graph = graph or program._build_strategy.allow_cuda_graph_capture
            program = program._runnable()
        if not isinstance(program, Program):
            raise TypeError(f"Executor.run: program must be a Program, received {type(program).__name__}")
        fetch_names = names_of(fetches, "Executor.run", "fetch_list")
        block = program.global_block()
        for n in fetch_names:
            if block._lookup(n) is None:
                raise ValueError(f"Executor.run: fetch variable '{n}' is not in the program")
        scope = global_scope() if scope is None else scope
        if not isinstance(scope, Scope):
            raise TypeError(f"Executor.run: scope must be a paddle.static.Scope, received {type(scope).__name__}")
        scheduler = getattr(program, "lr_scheduler", None)
        if scheduler is not None:
            _feed_lr(program, scheduler, scope, self.place)
        xp = self.place.xp
        feed_arrays = _feed_arrays(block, feed, scope, xp)
        # keyed by the array module too: plans compiled while launches are counted (device.count_launches) stay apart,
        # as do those compiled while a profiler records (ops/instrument.py)
        key = (program._uid, program._version, tuple(sorted(feed_arrays)), tuple(fetch_names),
               check_numerics.enabled[0], xp, instrument.token[0])
        plan = self._plans.get(key)
        if plan is None:
            self._plans = {k: p for k, p in self._plans.items() if k[0] != program._uid}
            self._replayed = {k: p for k, p in self._replayed.items() if k[0] != program._uid}
            plan = self._plans[key] = Plan(program, sorted(feed_arrays), fetch_names, self.place)
        for name in plan.persistables:  # created in the scope before the run, as Paddle's executor creates them
            scope._values.setdefault(name, None)
        if xp is not np and replay_enabled(graph):
            step = self._replayed.get(key)
            if step is None:
                step = self._replayed[key] = FixedStep(plan, [True] * len(feed_arrays), True, True)
            with step.lock:  # the scope is the step's for this call
                step.scope = scope
                outs = step.run([feed_arrays[n] for n in sorted(feed_arrays)])
        else:
            outs = plan.run(scope, feed_arrays)
        if return_numpy:
            # CuPy arrays come back to the host; NumPy scalars (0-D ufunc results) become 0-D arrays; a tensor array
            # comes back as a list of them
            return [[cuda.as_module(np, e) for e in o] if isinstance(o, list) else cuda.as_module(np, o) for o in outs]
        tmp = Scope()
        res = []
        for n, o in zip(fetch_names, outs):
            tmp._values[n] = o
            res.append(LoDTensor(tmp, n))
        return res


def cpu_places(device_count=None):
    n = 1 if device_count is None else int(device_count)
    return [Place("cpu")] * n


def xpu_places(device_ids=None):
    """Paddle's CPU build has no XPU: an AssertionError, as there."""
    raise AssertionError("Not compiled with XPU")


def cuda_places(device_ids=None):
    from ..device import cuda
    ids = range(cuda.device_count()) if device_ids is None else device_ids
    return [parse_place(f"gpu:{i}", "cuda_places") for i in ids]
