"""Profiler: records the steps a scheduler picks (make_scheduler's CLOSED / READY / RECORD / RECORD_AND_RETURN
cycle, or a (start, end) step range), hands each finished recording to on_trace_ready (export_chrome_tracing,
export_protobuf, or any callable), and prints summary tables; step_info reports the steps' timing. The state
machine is Paddle's: the same transitions, warnings and callbacks at the same steps."""
import datetime
import enum
import os
import socket
import time
import warnings

from ..device import cuda
from . import record
from .record import RecordEvent, TracerEventType
from .statistic import SortedKeys, SummaryView, build_table


class ProfilerState(enum.Enum):
    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3  # the last step of RECORD


class ProfilerTarget(enum.Enum):
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM_DEVICE = 3


def make_scheduler(*, closed, ready, record, repeat=0, skip_first=0):
    """step -> ProfilerState: skip_first steps CLOSED, then `repeat` cycles (0: forever) of `closed` CLOSED,
    `ready` READY and `record` RECORD steps, the last of them RECORD_AND_RETURN."""
    def get_state(step):
        assert step >= 0
        if step < skip_first:
            return ProfilerState.CLOSED
        step -= skip_first
        period = closed + ready + record
        if repeat > 0 and step // period >= repeat:
            return ProfilerState.CLOSED
        at = step % period
        if at < closed:
            return ProfilerState.CLOSED
        if at < closed + ready:
            return ProfilerState.READY
        return ProfilerState.RECORD if at < period - 1 else ProfilerState.RECORD_AND_RETURN

    assert closed >= 0 and ready >= 0 and record > 0 and repeat >= 0 and skip_first >= 0, (
        "Invalid profiler scheduler arguments")
    if ready == 0:
        warnings.warn("Profiler will record data after enabling profiler immediately, some data collected at the "
                      "beginning of profiling may be 'noisy' because of overhead.", stacklevel=2)
    return get_state


def _default_state_scheduler(step):
    return ProfilerState.RECORD


def _exporter(dir_name, worker_name, suffix, format):
    if not os.path.exists(dir_name):
        try:
            os.makedirs(dir_name, exist_ok=True)
        except Exception:
            raise RuntimeError(f"Can not create directory '{dir_name}' for saving profiling results.") from None

    def handle_fn(prof):
        name = worker_name or f"host_{socket.gethostname()}pid_{os.getpid()}"
        stamp = datetime.datetime.now().strftime("%Y_%m_%d_%H_%M_%S_%f")
        prof.export(os.path.join(dir_name, f"{name}_time_{stamp}.paddle_trace.{suffix}"), format)
    return handle_fn


def export_chrome_tracing(dir_name, worker_name=None):
    """on_trace_ready callback: each recording as a Chrome trace JSON file in dir_name (Perfetto opens it)."""
    return _exporter(dir_name, worker_name, "json", "json")


def export_protobuf(dir_name, worker_name=None):
    """on_trace_ready callback: each recording as a protobuf file in dir_name (load_profiler_result reads it)."""
    return _exporter(dir_name, worker_name, "pb", "pb")


def _get_supported_targets():
    targets = [ProfilerTarget.CPU, ProfilerTarget.CUSTOM_DEVICE]
    return [ProfilerTarget.CPU, ProfilerTarget.GPU, ProfilerTarget.CUSTOM_DEVICE] if cuda.is_available() else targets


class _Session:
    """Paddle's native profiler as the state machine drives it: prepare, start (record), stop (the result)."""

    def __init__(self):
        self._recording = None

    def prepare(self):
        pass

    def start(self):
        self._recording = record.recording()
        self._recording.__enter__()

    def stop(self):
        recorder = record._recorder[0]
        self._recording.__exit__(None, None, None)
        self._recording = None
        return recorder.finish()


class _StepTimer:
    """step_info's numbers: the average time of the steps since it was last asked, and the samples (or steps)
    per second."""

    def __init__(self):
        self.reset()
        self._last = None

    def reset(self):
        self._costs, self._samples = [], 0

    def begin(self):
        self._last = time.perf_counter()

    def step(self, num_samples):
        now = time.perf_counter()
        if self._last is not None:
            self._costs.append(now - self._last)
            self._samples += 1 if num_samples is None else num_samples
        self._by_steps = num_samples is None
        self._last = now

    def info(self, unit):
        message = ""
        if self._costs:
            batch = sum(self._costs) / len(self._costs)
            speed_unit = "steps/s" if self._by_steps else f"{unit}/s"
            message = f" batch_cost: {batch:.5f} s ips: {self._samples / sum(self._costs):.3f} {speed_unit}"
        self.reset()
        return message


class Profiler:
    def __init__(self, *, targets=None, scheduler=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, timer_only=False, emit_nvtx=False, custom_device_types=None,
                 with_flops=False):
        supported = _get_supported_targets()
        if targets:
            self.targets = set(targets)
            for target in targets:
                if target not in supported:
                    self.targets.remove(target)
                    warnings.warn(f"Profiling {target} is not supported in current context.", stacklevel=2)
        else:
            self.targets = supported
        self.profiler = _Session()
        if callable(scheduler):
            self.scheduler = scheduler
        elif isinstance(scheduler, (tuple, list)):
            assert len(scheduler) == 2 and scheduler[1] > scheduler[0]
            start_batch, end_batch = max(scheduler[0], 0), scheduler[1]
            if start_batch >= 1:
                self.scheduler = make_scheduler(closed=max(start_batch - 1, 0), ready=1,
                                                record=end_batch - start_batch, repeat=1)
            else:
                self.scheduler = make_scheduler(closed=0, ready=0, record=end_batch - start_batch, repeat=1)
        else:
            self.scheduler = _default_state_scheduler
        self.on_trace_ready = export_chrome_tracing("./profiler_log/") if on_trace_ready is None else on_trace_ready
        self.step_num = 0
        self.previous_state = ProfilerState.CLOSED
        self.current_state = self.scheduler(self.step_num)
        self.record_event = None
        self.profiler_result = None
        self.timer_only = timer_only
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_flops = with_flops
        self.emit_nvtx = emit_nvtx
        self._timer = _StepTimer()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.stop()

    def _step_event(self):
        self.record_event = RecordEvent(name=f"ProfileStep#{self.step_num}", event_type=TracerEventType.ProfileStep)
        self.record_event.begin()

    def _end_step_event(self):
        if self.record_event:
            self.record_event.end()
            self.record_event = None

    def start(self):
        """Enter step 0 in the scheduler's state (recording when it is RECORD)."""
        self._timer.begin()
        if self.timer_only:
            return
        if self.current_state in (ProfilerState.READY, ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN):
            self.profiler.prepare()
        if self.current_state in (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN):
            self.profiler.start()
        self._step_event()

    def stop(self):
        """Stop; a recording in progress is finished and handed to on_trace_ready."""
        if self.timer_only:
            return
        self._end_step_event()
        if self.current_state == ProfilerState.READY:
            warnings.warn("Improper Profiler state transform: READY->CLOSED, profiler will start and stop without "
                          "saving data", stacklevel=2)
            self.profiler.start()
            self.profiler.stop()
        if self.current_state in (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN):
            self.profiler_result = self.profiler.stop()
            if self.on_trace_ready:
                self.on_trace_ready(self)

    def step(self, num_samples=None):
        """Enter the next step (num_samples: the batch's samples, for step_info's ips)."""
        self._timer.step(num_samples)
        if self.timer_only:
            return
        self._end_step_event()
        self.previous_state = self.current_state
        self.step_num += 1
        self.current_state = self.scheduler(self.step_num)
        self._trigger_action()
        self._step_event()

    def step_info(self, unit=None):
        """' batch_cost: <s> s ips: <n> <unit>/s' over the steps since the last call."""
        return self._timer.info("samples" if unit is None else unit)

    def _trigger_action(self):
        previous, current, session = self.previous_state, self.current_state, self.profiler
        recording = (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN)
        if previous == ProfilerState.CLOSED:
            if current != ProfilerState.CLOSED:
                session.prepare()
            if current in recording:
                session.start()
        elif previous == ProfilerState.READY:
            if current == ProfilerState.CLOSED:
                warnings.warn("Improper schedule: READY->CLOSED, profiler will start and stop without saving data",
                              stacklevel=3)
                session.start()
                session.stop()
            if current in recording:
                session.start()
        elif previous == ProfilerState.RECORD:
            if current == ProfilerState.CLOSED:
                warnings.warn("Improper schedule: RECORD->CLOSED, profiler will not saving data", stacklevel=3)
                session.stop()
            if current == ProfilerState.READY:
                warnings.warn("Improper schedule: RECORD->READY, profiler will stop and re-prepare", stacklevel=3)
                session.stop()
                session.prepare()
        else:  # RECORD_AND_RETURN: the recording is finished and handed on
            self.profiler_result = session.stop()
            if current != ProfilerState.CLOSED:
                session.prepare()
            if current in recording:
                session.start()
            if self.on_trace_ready:
                self.on_trace_ready(self)

    def export(self, path="", format="json"):
        """The last recording to `path`: 'json' (Chrome trace) or 'pb' (protobuf)."""
        if self.profiler_result:
            self.profiler_result.save(path, format)

    def summary(self, sorted_by=SortedKeys.CPUTotal, op_detail=True, thread_sep=False, time_unit="ms", views=None):
        """Print the last recording's summary tables (`views`: a SummaryView or a list of them; all by default)."""
        if isinstance(views, SummaryView):
            views = [views]
        if self.profiler_result:
            print(build_table(self.profiler_result, sorted_by=sorted_by, op_detail=op_detail, thread_sep=thread_sep,
                              time_unit=time_unit, views=views))
