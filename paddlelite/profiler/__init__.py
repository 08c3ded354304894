"""paddle.profiler: Profiler (scheduled recordings of every op's time, on a GPU its device time too, with
RecordEvent ranges), exported as Chrome traces or protobuf files and summarised in tables."""
from .profiler import (Profiler, ProfilerState, ProfilerTarget, export_chrome_tracing, export_protobuf,
                       make_scheduler)
from .record import RecordEvent, load_profiler_result
from .statistic import SortedKeys, SummaryView

__all__ = ["ProfilerState", "ProfilerTarget", "make_scheduler", "export_chrome_tracing", "export_protobuf",
           "Profiler", "RecordEvent", "load_profiler_result", "SortedKeys", "SummaryView"]
