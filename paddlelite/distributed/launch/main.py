"""The launcher: Paddle's flags -> one mpiexec command; waits, reports the failing rank."""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import time

from ..mpi import MPICH_SEGMENTS, mapped_segments, remove_segments

EXIT_FILE = ".exitcode.{rank}"  # written by launch.worker when its rank fails
LOG_FILE = "workerlog.{rank}"


def _parser():
    p = argparse.ArgumentParser(prog="python -m paddlelite.distributed.launch",
                                description="Start data-parallel training processes through MPI.")
    p.add_argument("--nproc_per_node", type=int, default=None,
                   help="processes per machine (default: one per device in --devices, else 1)")
    p.add_argument("--devices", "--gpus", dest="devices", default=None,
                   help="comma-separated GPU ids; local rank i uses the i-th")
    p.add_argument("--log_dir", default="log", help="where each rank writes workerlog.<rank> (default: log)")
    p.add_argument("--log_overwrite", type=_flag, default=os.environ.get("PADDLE_LOG_OVERWRITE", "false"),
                   help="remove the old worker logs first (default: False: a run appends to them, and the console "
                        "shows only its own output)")
    p.add_argument("--nnodes", default="1", help="number of machines (MPI starts the processes on all of them)")
    p.add_argument("--ips", default=None, help="comma-separated host names of the machines, the first is this one")
    p.add_argument("--hostfile", default=None, help="an MPI hostfile listing the machines (instead of --ips)")
    p.add_argument("--master", default=None,
                   help="host[:port] of the machine that runs this launcher; must be the first of --ips")
    p.add_argument("--run_mode", default="collective", help="only 'collective' (data parallel) is supported")
    p.add_argument("--job_id", default="default", help="a name for the job (kept in PADDLE_JOB_ID)")
    p.add_argument("training_script")
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return p


def _flag(text):
    """Paddle's boolean flag values (its strtobool)."""
    value = str(text).lower()
    if value in ("y", "yes", "t", "true", "on", "1"):
        return True
    if value in ("n", "no", "f", "false", "off", "0"):
        return False
    raise argparse.ArgumentTypeError(f"expected a boolean (true/false), received {text!r}")


def _mpi_flavor(mpiexec):
    try:
        text = subprocess.run([mpiexec, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        text = ""
    return "openmpi" if "Open MPI" in text or "OpenRTE" in text else "hydra"


def _nnodes(value):
    first = str(value).split(":")[0]  # Paddle accepts "M" or an elastic range "M:N"; MPI runs M machines
    if not first.isdigit() or int(first) < 1:
        raise SystemExit(f"launch: --nnodes must be a positive integer, received {value!r}")
    return int(first)


def mpi_command(args, worker_args):
    """The mpiexec command line for `args` (parsed flags); each rank runs launch.worker `worker_args`."""
    if args.run_mode != "collective":
        raise NotImplementedError(f"launch: --run_mode {args.run_mode} (parameter server / rpc) is not implemented "
                                  "in paddlelite; data parallelism uses --run_mode collective")
    mpiexec = shutil.which("mpiexec")
    if mpiexec is None:
        raise SystemExit("launch: mpiexec is not on PATH; pip install 'paddlelite[distributed]' (mpi4py + mpich)")
    devices = [d for d in (args.devices or "").split(",") if d != ""]
    per_node = args.nproc_per_node or max(len(devices), 1)
    if per_node < 1:
        raise SystemExit(f"launch: --nproc_per_node must be positive, received {per_node}")
    nnodes = _nnodes(args.nnodes)
    hosts = [h for h in (args.ips or "").split(",") if h]
    if nnodes > 1 and not hosts and not args.hostfile:
        raise SystemExit(f"launch: --nnodes {nnodes} needs the machines: --ips host1,host2,... or --hostfile FILE")
    if hosts and len(hosts) != nnodes:
        raise SystemExit(f"launch: --ips names {len(hosts)} machines but --nnodes is {nnodes}")
    if args.master and hosts and args.master.split(":")[0] != hosts[0]:
        raise SystemExit(f"launch: --master {args.master} must be the first host of --ips ({hosts[0]}): MPI starts "
                         "every process from the machine that runs the launcher")
    flavor = _mpi_flavor(mpiexec)
    cmd = [mpiexec, "-n", str(per_node * nnodes)]
    if nnodes > 1 or hosts or args.hostfile:
        cmd += ["-ppn" if flavor == "hydra" else "--npernode", str(per_node)]
        if hosts:
            cmd += ["-hosts" if flavor == "hydra" else "--host", ",".join(f"{h}:{per_node}" if flavor == "openmpi"
                                                                         else h for h in hosts)]
        if args.hostfile:
            cmd += ["-f" if flavor == "hydra" else "--hostfile", args.hostfile]
    env = {"PADDLE_JOB_ID": args.job_id, "PADDLE_NNODES": str(nnodes)}
    for k, v in env.items():
        cmd += ["-genv", k, v] if flavor == "hydra" else ["-x", f"{k}={v}"]
    if flavor == "openmpi" and os.geteuid() == 0:  # containers (our Docker image too) run as root; Open MPI refuses it
        cmd.append("--allow-run-as-root")
    cmd += [sys.executable, "-u", "-m", "paddlelite.distributed.launch.worker", "--log_dir", args.log_dir,
            "--devices", ",".join(devices), *worker_args]
    return cmd


class Job:
    """A started MPI job: its mpiexec process and where this run's part of each rank's log begins. Worker logs
    are appended to, as Paddle's launcher does (`--log_overwrite` removes the old ones first), so the console
    and the failure report show this run's output only."""

    def __init__(self, args, worker_args):
        cmd = mpi_command(args, worker_args)
        self.args = args
        os.makedirs(args.log_dir, exist_ok=True)
        for stale in glob.glob(os.path.join(args.log_dir, EXIT_FILE.format(rank="*"))):
            os.remove(stale)
        logs = glob.glob(os.path.join(args.log_dir, LOG_FILE.format(rank="*")))
        if args.log_overwrite:
            for old in logs:
                os.remove(old)
        self._log_starts = {} if args.log_overwrite else {path: os.path.getsize(path) for path in logs}
        self._segments_before = set(glob.glob(MPICH_SEGMENTS))
        self.proc = subprocess.Popen(cmd)
        self._ended = False

    def log(self, rank):
        """(path, offset where this run's part begins) of `rank`'s log."""
        path = os.path.join(self.args.log_dir, LOG_FILE.format(rank=rank))
        return path, self._log_starts.get(path, 0)

    def poll(self):
        return self._finish(self.proc.poll())

    def wait(self, timeout=None):
        return self._finish(self.proc.wait(timeout))

    def _finish(self, returncode):
        if returncode is not None and not self._ended:
            self._ended = True
            # a rank killed by a signal never removed its segment: remove those that no process maps any more
            new = set(glob.glob(MPICH_SEGMENTS)) - self._segments_before
            remove_segments(new - mapped_segments("[0-9]*") if new else ())
        return returncode

    def failure(self):
        """(exit code, failing rank or None, message) of the ended job; exit code 0 when all went well."""
        returncode = self.proc.returncode
        failed = sorted(glob.glob(os.path.join(self.args.log_dir, EXIT_FILE.format(rank="*"))), key=os.path.getmtime)
        if not failed:
            if returncode == 0:
                return 0, None, ""
            return returncode, None, f"mpiexec exited with code {returncode}; the logs are in {self.args.log_dir}/"
        rank = int(failed[0].rsplit(".", 1)[1])
        with open(failed[0]) as f:
            code = int(f.read().strip() or returncode or 1)
        log, start = self.log(rank)
        return code, rank, (f"rank {rank} failed with exit code {code}; the job was aborted. Its log ({log}):\n"
                            + _tail(log, start))


def exit_status(code):
    """The process exit status for a job's exit code: an OS keeps only its low 8 bits (256 would read as
    success), so a failure outside 1..255 exits 1 (a signal's negative code: 128 + signal, as shells do)."""
    if 0 <= code <= 255:
        return code
    return 128 - code if -128 < code < 0 else 1


def launch(args, worker_args):
    """Run the job, echoing rank 0's log; returns its exit status (the failing rank's, with its log printed)."""
    job = Job(args, worker_args)
    rank0_log, offset = job.log(0)
    while job.poll() is None:
        time.sleep(0.2)
        offset = _echo(rank0_log, offset)
    _echo(rank0_log, offset)
    code, _, message = job.failure()
    if message:
        sys.stderr.write(f"\nlaunch: {message}")
        sys.stderr.flush()
    return exit_status(code)


def _echo(path, offset):
    """Copy what rank 0 wrote to its log since `offset` to this console."""
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return offset
    if data:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    return offset + len(data)


def _tail(path, start=0, lines=40):
    try:
        with open(path, errors="replace") as f:
            f.seek(start)
            return "".join(f.readlines()[-lines:])
    except FileNotFoundError:
        return "(no log)\n"


def job_flags(**flags):
    """Parsed launcher flags for a programmatic job (spawn): the defaults, overridden by `flags`."""
    args = _parser().parse_args(["-"])
    for k, v in flags.items():
        setattr(args, k, v)
    return args


def main(argv=None):
    args = _parser().parse_args(argv)
    return launch(args, [args.training_script, *args.training_script_args])
