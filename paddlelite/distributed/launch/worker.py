"""One rank of a launched job: sets Paddle's environment variables from MPI's, appends its output to
log_dir/workerlog.<rank>, runs the training script (or a spawned function) and, when that fails,
records the exit code and aborts the whole MPI job so no other rank waits forever in a collective."""
import argparse
import os
import pickle
import runpy
import sys
import traceback

from ..mpi import abort
from .main import EXIT_FILE, LOG_FILE


def _env_rank(names, default=0):
    for n in names:
        if os.environ.get(n, "") != "":
            return int(os.environ[n])
    return default


def _setup(log_dir, devices):
    rank = _env_rank(("PMI_RANK", "OMPI_COMM_WORLD_RANK"))
    size = _env_rank(("PMI_SIZE", "OMPI_COMM_WORLD_SIZE"), 1)
    local = _env_rank(("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK"), rank)
    os.environ.update(PADDLE_TRAINER_ID=str(rank), PADDLE_TRAINERS_NUM=str(size), PADDLE_LOCAL_RANK=str(local),
                      PADDLE_RANK_IN_NODE=str(local))
    devices = [d for d in devices.split(",") if d != ""]
    if devices:
        if local >= len(devices):
            raise SystemExit(f"launch: local rank {local} has no device: --devices lists {len(devices)}")
        os.environ["FLAGS_selected_gpus"] = devices[local]
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
        # appended to: the launcher removed the old log or noted where this run's part begins
        log = open(os.path.join(log_dir, LOG_FILE.format(rank=rank)), "a", buffering=1)
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        sys.stdout = os.fdopen(1, "w", buffering=1)
        sys.stderr = os.fdopen(2, "w", buffering=1)
    return rank, size


class _MainUnpickler(pickle.Unpickler):
    """Functions defined in the parent's __main__ are found in the re-run script (__mp_main__)."""

    def find_class(self, module, name):
        return super().find_class("__mp_main__" if module == "__main__" else module, name)


def _run_spawned(path):
    with open(path, "rb") as f:
        main_file = pickle.load(f)
        if main_file:
            sys.modules["__mp_main__"] = type(sys)("__mp_main__")
            sys.modules["__mp_main__"].__dict__.update(runpy.run_path(main_file, run_name="__mp_main__"))
        func, args = _MainUnpickler(f).load()
    func(*args)


def _fail(log_dir, rank, code):
    sys.stdout.flush()
    sys.stderr.flush()
    if log_dir:
        with open(os.path.join(log_dir, EXIT_FILE.format(rank=rank)), "w") as f:
            f.write(str(code))
    abort(code)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m paddlelite.distributed.launch.worker")
    p.add_argument("--log_dir", default="")
    p.add_argument("--devices", default="")
    p.add_argument("--spawn", default=None, help="a pickled (function, args) to call instead of a script")
    p.add_argument("script", nargs="?")
    p.add_argument("script_args", nargs=argparse.REMAINDER)
    args = p.parse_args(argv)
    rank, _ = _setup(args.log_dir, args.devices)
    try:
        if args.spawn:
            _run_spawned(args.spawn)
        else:
            sys.argv = [args.script, *args.script_args]
            sys.path.insert(0, os.path.dirname(os.path.abspath(args.script)))
            runpy.run_path(args.script, run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if code != 0:
            if not isinstance(e.code, int):
                print(e.code, file=sys.stderr)
            _fail(args.log_dir, rank, code)
        return 0
    except BaseException:
        traceback.print_exc()
        _fail(args.log_dir, rank, 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
