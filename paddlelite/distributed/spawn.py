"""paddle.distributed.spawn: run `func(*args)` in `nprocs` processes of one MPI job.

The function and its arguments are pickled (by reference, as multiprocessing's spawn start method
does: a function of the calling script is found by re-running that script as `__mp_main__`, so keep
the call under `if __name__ == "__main__":`), and every rank of `mpiexec -n nprocs` calls it
through launch.worker after the same setup as `launch`.
"""
import os
import pickle
import sys
import tempfile

from .launch.main import Job, job_flags


class MultiprocessContext:
    """The running job: join() waits and raises when a process failed, naming it and showing its log."""

    def __init__(self, job, nprocs):
        self._job = job
        self.nprocs = nprocs

    @property
    def pid(self):
        return self._job.proc.pid

    def join(self, timeout=None):
        """True when every process finished successfully; False when `timeout` seconds passed first."""
        try:
            self._job.wait(timeout)
        except Exception:  # subprocess.TimeoutExpired
            return False
        code, rank, message = self._job.failure()
        if code != 0:
            raise Exception(f"\n\n----------------------------------------------\n"
                            f"Process {rank if rank is not None else '?'} terminated with exit code {code}.\n"
                            f"{message}")
        return True


def _default_nprocs(devices):
    if devices:
        return len(devices)
    from ..device import cuda, get_device
    if get_device().startswith("gpu"):
        return cuda.device_count()
    return os.cpu_count() or 1


def spawn(func, args=(), nprocs=-1, join=True, daemon=False, **options):
    if not callable(func):
        raise TypeError(f"paddle.distributed.spawn: func must be callable, received {type(func).__name__}")
    if not isinstance(nprocs, int) or isinstance(nprocs, bool) or nprocs == 0 or nprocs < -1:
        raise ValueError(f"paddle.distributed.spawn: nprocs must be a positive int or -1, received {nprocs!r}")
    unknown = set(options) - {"gpus", "devices", "log_dir", "ips", "start_method", "backend"}
    if unknown:
        raise ValueError(f"paddle.distributed.spawn: unknown options {sorted(unknown)}")
    devices = str(options.get("gpus") or options.get("devices") or "")
    nprocs = nprocs if nprocs != -1 else _default_nprocs([d for d in devices.split(",") if d])
    log_dir = options.get("log_dir") or tempfile.mkdtemp(prefix="paddlelite_spawn_")
    os.makedirs(log_dir, exist_ok=True)
    job = os.path.join(log_dir, "spawn.pkl")
    main = sys.modules.get("__main__")
    main_file = getattr(main, "__file__", None) if func.__module__ == "__main__" else None
    with open(job, "wb") as f:
        pickle.dump(main_file and os.path.abspath(main_file), f)
        pickle.dump((func, tuple(args)), f)
    flags = job_flags(nproc_per_node=nprocs, devices=devices or None, log_dir=log_dir)
    if options.get("ips"):
        flags.ips = options["ips"]
        flags.nnodes = str(len(flags.ips.split(",")))
    context = MultiprocessContext(Job(flags, ["--spawn", job]), nprocs)
    if join:
        context.join()
    return context
