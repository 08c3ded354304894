"""Profiler.summary's tables, laid out as Paddle's: Device (CPU utilisation), Overview (time per event type, overlaps
merged), Model (the steps' Forward/Backward/Optimization/Dataloader phases), Operator (per op), Kernel (device time
per op, on a GPU) and UserDefined (RecordEvent ranges) summaries; times in `time_unit`, ratios in %."""
import enum

from .record import TracerEventType


class SortedKeys(enum.Enum):
    """The column the Operator, Kernel and UserDefined summaries are sorted by (largest first; Min: smallest)."""
    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


class SummaryView(enum.Enum):
    """The tables Profiler.summary prints (all of them by default)."""
    DeviceView = 0
    OverView = 1
    ModelView = 2
    DistributedView = 3
    KernelView = 4
    OperatorView = 5
    MemoryView = 6
    MemoryManipulationView = 7
    UDFView = 8


_SCALE = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0}
_MODEL_PHASES = (TracerEventType.Forward, TracerEventType.Backward, TracerEventType.Optimization,
                 TracerEventType.Dataloader)


class _Stat:
    """Calls and total/max/min of the CPU (host) and GPU (device) times of a group of events."""

    def __init__(self):
        self.calls = 0
        self.cpu = []
        self.gpu = []

    def add(self, event):
        self.calls += 1
        self.cpu.append(event.end_ns - event.start_ns)
        if event.device_ns is not None:
            self.gpu.append(event.device_ns)

    def key(self, sorted_by):
        values = self.gpu if sorted_by.name.startswith("GPU") else self.cpu
        values = values or [0]
        kind = sorted_by.name[3:]
        value = {"Total": sum(values), "Avg": sum(values) / len(values), "Max": max(values), "Min": min(values)}[kind]
        return value if kind == "Min" else -value


def _merged_length(intervals):
    """The length of the union of [start, end) intervals (overlaps counted once)."""
    total, reach = 0, None
    for start, end in sorted(intervals):
        if reach is None or start > reach:
            total += end - start
            reach = end
        elif end > reach:
            total += end - reach
            reach = end
    return total


class _Table:
    def __init__(self, unit):
        self.unit = unit
        self.widths = []
        self.rows = []

    def time(self, ns):
        return f"{ns / _SCALE[self.unit]:.2f}"

    def times(self, values, whole):
        """'total / avg / max / min / ratio' of a list of ns."""
        if not values:
            return "0.00 / 0.00 / 0.00 / 0.00 / 0.00"
        total = sum(values)
        ratio = 100.0 * total / whole if whole else 0.0
        return " / ".join([self.time(total), self.time(total / len(values)), self.time(max(values)),
                           self.time(min(values)), f"{ratio:.2f}"])

    def render(self, title, header, rows, widths, note=None):
        fmt = "".join("{:<" + str(w) + "}  " for w in widths)
        sep = "".join("-" * w + "  " for w in widths)
        length = len(sep) - 2
        lines = [_centered(title, length), f"Time unit: {self.unit}", sep, fmt.format(*header), sep]
        lines += [_centered(row, length) if isinstance(row, str) else fmt.format(*row) for row in rows]
        lines.append(sep)
        if note:
            lines.append(note)
        lines += ["-" * length, ""]
        return "\n".join(lines)


def _centered(text, length):
    left = length - len(text)
    return "-" * (left // 2) + text + "-" * (left - left // 2)


def build_table(result, sorted_by=SortedKeys.CPUTotal, op_detail=True, thread_sep=False, time_unit="ms",
                views=None):
    """The summary text of a ProfilerResult."""
    if time_unit not in _SCALE:
        raise ValueError(f"Profiler.summary: time_unit must be one of {list(_SCALE)}, received {time_unit!r}")
    views = set(SummaryView) if views is None else set(views)
    events = result.events
    table = _Table(time_unit)
    steps = [e for e in events if e.type is TracerEventType.ProfileStep]
    step_total = sum(e.end_ns - e.start_ns for e in steps) or _merged_length([(e.start_ns, e.end_ns) for e in events])
    parts = []
    if SummaryView.DeviceView in views:
        utilisation = 100.0 * float(result.get_extra_info().get("Process Cpu Utilization", 0))
        parts.append("\n".join([_centered("Device Summary", 52), f"{'Device':<30}  {'Utilization (%)':<20}  ",
                                f"{'CPU(Process)':<30}  {utilisation:<20.2f}  ", "-" * 52, ""]))
    if SummaryView.OverView in views:
        rows = []
        for kind in TracerEventType:
            mine = [e for e in events if e.type is kind]
            if mine:
                cpu = _merged_length([(e.start_ns, e.end_ns) for e in mine])
                indent = "" if kind is TracerEventType.ProfileStep else "  "
                rows.append((cpu, [indent + kind.name, str(len(mine)), table.time(cpu),
                                   f"{100.0 * cpu / step_total:.2f}" if step_total else "0.00"]))
        rows.sort(key=lambda r: (not r[1][0].startswith("Profile"), -r[0]))
        gpu = sum(e.device_ns for e in events if e.device_ns is not None)
        body = [r for _, r in rows]
        if gpu:
            body += [["", "Calls", "GPU Time", "Ratio (%)"],
                     ["  Kernel", str(sum(e.device_ns is not None for e in events)), table.time(gpu),
                      f"{100.0 * gpu / step_total:.2f}" if step_total else "0.00"]]
        parts.append(table.render("Overview Summary", ["Event Type", "Calls", "CPU Time", "Ratio (%)"], body,
                                  [25] * 4))
    if SummaryView.ModelView in views and steps:
        rows = [["ProfileStep", str(len(steps)), table.times([e.end_ns - e.start_ns for e in steps], step_total),
                 table.times(_device_within(events, steps), 0)]]
        covered = []
        for phase in _MODEL_PHASES:
            mine = [e for e in events if e.type is phase]
            if mine:
                stat = _Stat()
                for e in mine:
                    stat.add(e)
                rows.append(["  " + phase.name, str(stat.calls), table.times(stat.cpu, step_total),
                             table.times(_device_within(events, mine), 0)])
                covered += [(e.start_ns, e.end_ns) for e in mine]
        others = max(step_total - _merged_length(covered), 0)
        rows.append(["  Others", "-", f"{table.time(others)} / - / - / - / "
                     f"{100.0 * others / step_total if step_total else 0:.2f}", "0.00 / - / - / - / 0.00"])
        parts.append(table.render("Model Summary", ["Name", "Calls", "CPU Total / Avg / Max / Min / Ratio(%)",
                                                    "GPU Total / Avg / Max / Min / Ratio(%)"], rows, [15, 6, 40, 40]))
    groups = [(SummaryView.OperatorView, "Operator Summary", TracerEventType.Operator, False),
              (SummaryView.KernelView, "Kernel Summary", TracerEventType.Operator, True),
              (SummaryView.UDFView, "UserDefined Summary", TracerEventType.PythonUserDefined, False)]
    for view, title, kind, device_only in groups:
        mine = [e for e in events if e.type is kind and (not device_only or e.device_ns is not None)]
        if view in views and mine:
            parts.append(_grouped(table, title, mine, sorted_by, thread_sep))
    return "\n".join(parts)


def _device_within(events, ranges):
    """The device times of the op events inside the given ranges."""
    spans = [(r.start_ns, r.end_ns, r.thread_id) for r in ranges]
    return [e.device_ns for e in events if e.device_ns is not None
            and any(s <= e.start_ns and e.end_ns <= t and tid == e.thread_id for s, t, tid in spans)]


def _grouped(table, title, events, sorted_by, thread_sep):
    """A table of `events` grouped by name (per thread when thread_sep), sorted by `sorted_by`."""
    threads = sorted({e.thread_id for e in events}) if thread_sep else [None]
    rows = []
    width = max(len(e.name) for e in events) + 4
    total_cpu = sum(e.end_ns - e.start_ns for e in events)
    total_gpu = sum(e.device_ns or 0 for e in events)
    for tid in threads:
        label = "All threads merged" if tid is None else str(tid)
        rows.append(f"Thread: {label}")
        stats = {}
        for e in events:
            if tid is None or e.thread_id == tid:
                stats.setdefault(e.name, _Stat()).add(e)
        for name, stat in sorted(stats.items(), key=lambda kv: (kv[1].key(sorted_by), kv[0])):
            rows.append([name, str(stat.calls), table.times(stat.cpu, total_cpu), table.times(stat.gpu, total_gpu)])
    return table.render(title, ["Name", "Calls", "CPU Total / Avg / Max / Min / Ratio(%)",
                                "GPU Total / Avg / Max / Min / Ratio(%)"], rows, [max(width, 10), 6, 40, 40])
