"""What a profiler records: timed events (host times from perf_counter_ns; on a GPU the device time of each op
from a pair of CUDA events on the current stream), RecordEvent for user ranges, and ProfilerResult, the events of
one recording with their export (Chrome trace JSON, which Perfetto and chrome://tracing open; a protobuf file)
and load_profiler_result to read either back.

While a Recorder records, ops are instrumented (ops/instrument.py), and Layer calls, Tensor.backward and
optimizers' steps are wrapped as Forward/Backward/Optimization ranges; none of that exists when it does not.
"""
import contextlib
import enum
import functools
import json
import os
import threading
import time
from contextlib import ContextDecorator

import numpy as np

from ..framework.tensor import Tensor
from ..nn import Layer
from ..ops.instrument import instrumented

_recorder = [None]  # the Recorder recording now, or None
_SCHEMA = "1.0.2"  # the schemaVersion of Paddle's Chrome traces


class TracerEventType(enum.IntEnum):
    """Paddle's event kinds (paddle.base.core.TracerEventType), with its values."""
    Operator = 0
    Dataloader = 1
    ProfileStep = 2
    CudaRuntime = 3
    Kernel = 4
    Memcpy = 5
    Memset = 6
    UserDefined = 7
    OperatorInner = 8
    Forward = 9
    Backward = 10
    Optimization = 11
    Communication = 12
    PythonOp = 13
    PythonUserDefined = 14
    DygraphKernelLaunch = 15
    StaticKernelLaunch = 16


_USER_TYPES = (TracerEventType.Dataloader, TracerEventType.ProfileStep, TracerEventType.Forward,
               TracerEventType.Backward, TracerEventType.Optimization, TracerEventType.PythonOp,
               TracerEventType.PythonUserDefined)


class HostNode:
    """One recorded range: name, type, start_ns/end_ns (host clock, ns since the epoch), the thread, the ranges
    inside it (children_node) and, for an op on a GPU, its device time (device_ns)."""

    __slots__ = ("name", "type", "start_ns", "end_ns", "process_id", "thread_id", "device_ns", "children_node")

    def __init__(self, name, type, start_ns, end_ns, process_id, thread_id, device_ns=None):
        self.name, self.type, self.start_ns, self.end_ns = name, TracerEventType(type), int(start_ns), int(end_ns)
        self.process_id, self.thread_id, self.device_ns = process_id, thread_id, device_ns
        self.children_node = []

    def __repr__(self):
        return f"HostNode({self.name!r}, {self.type.name}, {self.end_ns - self.start_ns} ns)"


class Recorder:
    """Collects events while a profiler records; `finish()` turns them into a ProfilerResult."""

    def __init__(self):
        self.events = []
        self._device = []  # (event index, start CUDA event, end CUDA event)
        self._lock = threading.Lock()
        self._epoch = time.time_ns() - time.perf_counter_ns()  # perf_counter_ns -> ns since the epoch
        self._cpu0, self._wall0 = time.process_time_ns(), time.perf_counter_ns()

    def add(self, name, type, start, end, device=None):
        """A range [start, end) in perf_counter_ns; `device`: its (start, end) CUDA events."""
        event = HostNode(name, type, start + self._epoch, end + self._epoch, os.getpid(), threading.get_ident())
        with self._lock:
            if device is not None:
                self._device.append((len(self.events), *device))
            self.events.append(event)

    def finish(self):
        for index, start, end in self._device:  # the device times, read once at the end (one synchronisation)
            end.synchronize()
            self.events[index].device_ns = int(_elapsed_ms(start, end) * 1e6)
        wall = max(time.perf_counter_ns() - self._wall0, 1)
        extra = {"Process Cpu Utilization": f"{(time.process_time_ns() - self._cpu0) / wall:.6f}"}
        names = {t.ident: t.name for t in threading.enumerate()}
        threads = {e.thread_id: names.get(e.thread_id, f"thread {e.thread_id}") for e in self.events}
        return ProfilerResult(self.events, extra, threads)


def _elapsed_ms(start, end):
    import cupy
    return cupy.cuda.get_elapsed_time(start, end)


def _timed_op(op, fn):
    """fn, recorded as an Operator event named by the op (on a GPU also timed on the device)."""
    name = op.type

    def run(xp, *arrays, **attrs):
        recorder = _recorder[0]
        if recorder is None:
            return fn(xp, *arrays, **attrs)
        device = None
        if xp is not np and hasattr(xp, "cuda") and not hasattr(xp, "instrument"):  # CuPy itself
            device = (xp.cuda.Event(), xp.cuda.Event())
            device[0].record()
        start = time.perf_counter_ns()
        out = fn(xp, *arrays, **attrs)
        end = time.perf_counter_ns()
        if device is not None:
            device[1].record()
        recorder.add(name, TracerEventType.Operator, start, end, device)
        return out

    run.__name__ = run.__qualname__ = f"{name}_profiled"
    run.__wrapped__ = getattr(fn, "__wrapped__", fn)  # a binding stays visible (device/launch_count.py reads it)
    return run


@contextlib.contextmanager
def recording():
    """Record into a new Recorder (yielded) until the block ends: ops timed, layers' calls, backward and
    optimizer steps as ranges."""
    from .. import optimizer  # the floor above ops: its optimizers' steps are ranges

    recorder = Recorder()
    patched = [(Layer, "__call__", TracerEventType.Forward), (Tensor, "backward", TracerEventType.Backward)]
    patched += [(cls, "step", TracerEventType.Optimization) for cls in _optimizer_classes(optimizer)]
    saved = [(cls, attr, cls.__dict__[attr]) for cls, attr, _ in patched]
    with instrumented(_timed_op):
        for cls, attr, kind in patched:
            setattr(cls, attr, _range_method(cls.__dict__[attr], kind, "Optimization Step"
                                             if kind is TracerEventType.Optimization else None))
        _recorder[0] = recorder
        try:
            yield recorder
        finally:
            _recorder[0] = None
            for cls, attr, original in saved:
                setattr(cls, attr, original)


def _optimizer_classes(optimizer):
    """The optimizer classes that define step themselves (a subclass inheriting it is covered by its base)."""
    classes = {getattr(optimizer, n) for n in optimizer.__all__}
    return [c for c in classes if isinstance(c, type) and "step" in c.__dict__]


def _range_method(fn, kind, name):
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        with RecordEvent(name or type(self).__name__, kind):
            return fn(self, *args, **kwargs)
    return method


class RecordEvent(ContextDecorator):
    """A user-defined range in the profile (a context manager, a decorator, or begin()/end()): recorded while a
    profiler records, nothing otherwise."""

    def __init__(self, name, event_type=TracerEventType.PythonUserDefined):
        self.name = name
        self.event_type = event_type
        self._start = None

    def __enter__(self):
        self.begin()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.end()

    def begin(self):
        if _recorder[0] is None:
            return
        if self.event_type not in _USER_TYPES:
            import warnings
            warnings.warn("Only TracerEvent Type in [{}, {}, {}, {}, {}, {},{}] can be recorded.".format(
                *_USER_TYPES), stacklevel=2)
            return
        self._start = time.perf_counter_ns()

    def end(self):
        recorder, start = _recorder[0], self._start
        if recorder is not None and start is not None:
            recorder.add(self.name, self.event_type, start, time.perf_counter_ns())
        self._start = None


class ProfilerResult:
    """The events of one recording. get_data(): {thread id: the root HostNode of its ranges, nested};
    get_extra_info(): {name: str}; save(path, format): 'json' (Chrome trace) or 'pb' (protobuf)."""

    def __init__(self, events, extra_info, threads):
        self._events = sorted(events, key=lambda e: (e.start_ns, -e.end_ns))
        self._extra = dict(extra_info)
        self._threads = dict(threads)

    @property
    def events(self):
        return list(self._events)

    def get_extra_info(self):
        return dict(self._extra)

    def get_data(self):
        roots = {}
        for tid in sorted({e.thread_id for e in self._events}):
            mine = [e for e in self._events if e.thread_id == tid]
            root = HostNode("Thread", TracerEventType.UserDefined, mine[0].start_ns, max(e.end_ns for e in mine),
                            mine[0].process_id, tid)
            stack = [root]
            for e in mine:
                node = HostNode(e.name, e.type, e.start_ns, e.end_ns, e.process_id, tid, e.device_ns)
                while len(stack) > 1 and node.start_ns >= stack[-1].end_ns:
                    stack.pop()
                stack[-1].children_node.append(node)
                stack.append(node)
            roots[tid] = root
        return roots

    def save(self, path, format="json"):
        if format == "json":
            with open(path, "w") as f:
                json.dump(self._chrome_trace(), f)
        elif format == "pb":
            with open(path, "wb") as f:
                f.write(self._message().SerializeToString())
        else:
            raise ValueError(f"ProfilerResult.save: format must be 'json' or 'pb', received {format!r}")

    def _chrome_trace(self):
        """Paddle's Chrome trace layout: complete ('X') events in µs, names carrying their duration, metadata
        ('M') naming the process and threads."""
        t0 = self._events[0].start_ns if self._events else 0
        trace = []
        pid = os.getpid()
        for tid, name in self._threads.items():
            trace.append({"name": "process_name", "pid": pid, "tid": f"{tid}(Python)", "ph": "M",
                          "args": {"name": f"Process {pid} (CPU)"}})
            trace.append({"name": "thread_name", "pid": pid, "tid": f"{tid}(Python)", "ph": "M",
                          "args": {"name": f"thread {tid}:{name}(Python)"}})
        for e in self._events:
            dur = (e.end_ns - e.start_ns) / 1e3
            args = {"start_time": f"{(e.start_ns - t0) / 1e3:.3f} us", "end_time": f"{(e.end_ns - t0) / 1e3:.3f} us"}
            if e.device_ns is not None:
                args["device_time"] = f"{e.device_ns / 1e3:.3f} us"
            trace.append({"name": f"{e.name}[{dur:.3f} us]", "pid": e.process_id, "tid": f"{e.thread_id}(Python)",
                          "ts": e.start_ns / 1e3, "dur": dur, "ph": "X", "cat": e.type.name,
                          "cname": "thread_state_runnable", "args": args})
        extra = {str(tid): name for tid, name in self._threads.items()}
        extra.update(self._extra)
        return {"displayTimeUnit": "ms", "schemaVersion": _SCHEMA, "span_index": "0", "traceEvents": trace,
                "ExtraInfo": extra}

    def _message(self):
        from google.protobuf import struct_pb2
        message = struct_pb2.Struct()
        message.update({"schemaVersion": _SCHEMA, "extra": self._extra,
                        "threads": {str(k): v for k, v in self._threads.items()},
                        "events": [[e.name, int(e.type), str(e.start_ns), str(e.end_ns), e.process_id,
                                    str(e.thread_id), -1 if e.device_ns is None else e.device_ns]
                                   for e in self._events]})
        return message


def load_profiler_result(filename):
    """A ProfilerResult read back from a file `save` wrote (protobuf, or Chrome trace JSON). A malformed file is a
    ValueError."""
    with open(filename, "rb") as f:
        data = f.read()
    try:
        return _from_json(json.loads(data)) if data[:1] == b"{" else _from_message(data)
    except (ValueError, TypeError, KeyError, IndexError) as e:
        raise ValueError(f"load_profiler_result: '{filename}' is not a profiler result ({e})") from None


def _from_message(data):
    from google.protobuf import json_format, message, struct_pb2
    m = struct_pb2.Struct()
    try:
        m.ParseFromString(data)
    except message.DecodeError as e:
        raise ValueError(str(e)) from None
    d = json_format.MessageToDict(m)
    events = [HostNode(str(n), int(t), int(s), int(e), int(p), int(tid), None if dev < 0 else int(dev))
              for n, t, s, e, p, tid, dev in d["events"]]
    return ProfilerResult(events, {str(k): str(v) for k, v in d["extra"].items()},
                          {int(k): str(v) for k, v in d["threads"].items()})


def _from_json(d):
    events, threads, extra = [], {}, dict(d.get("ExtraInfo", {}))
    for e in d["traceEvents"]:
        if e.get("ph") != "X":
            continue
        tid = int(str(e["tid"]).split("(")[0])
        start = int(round(float(e["ts"]) * 1e3))
        device = e.get("args", {}).get("device_time")
        events.append(HostNode(e["name"].rsplit("[", 1)[0], TracerEventType[e["cat"]], start,
                               start + int(round(float(e["dur"]) * 1e3)), int(e["pid"]), tid,
                               None if device is None else int(float(device.split()[0]) * 1e3)))
        threads[tid] = extra.pop(str(tid), f"thread {tid}")
    return ProfilerResult(events, extra, threads)
