"""paddle.distributed on the CPU with 2 MPI ranks: each test launches `mpiexec -n 2 python <worker>`
(the workers in tests/distributed/ check their results themselves and exit non-zero on a mismatch),
bounded by a timeout so a hang fails instead of blocking CI. Skips when mpi4py or mpiexec is missing."""
import glob
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKERS = os.path.join(ROOT, "tests", "distributed")
TIMEOUT = 240


def _mpiexec():
    pytest.importorskip("mpi4py")
    exe = shutil.which("mpiexec")
    if exe is None:
        pytest.skip("mpiexec is not on PATH (pip install mpich)")
    return exe


def _env(device):
    return dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
                PADDLELITE_DEVICE=device, OMP_NUM_THREADS="1",
                OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")  # Open MPI in a root container


def run(args, timeout=TIMEOUT, device="cpu"):
    try:
        return subprocess.run(args, cwd=ROOT, env=_env(device), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{' '.join(args)} did not finish within {timeout}s (a hang):\n{e.stdout}\n{e.stderr}")


def mpirun(worker, n=2, *args, timeout=TIMEOUT, device="cpu"):
    return run([_mpiexec(), "-n", str(n), sys.executable, os.path.join(WORKERS, worker), *args], timeout=timeout,
               device=device)


def ok(proc):
    assert proc.returncode == 0, f"exit code {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return proc.stdout


def test_collectives_match_numpy():
    out = ok(mpirun("check_collectives.py"))
    assert "rank 0: collectives OK (MPI)" in out and "rank 1: collectives OK (MPI)" in out


def test_data_parallel_matches_one_process_with_the_doubled_batch_eager_and_static():
    out = ok(mpirun("check_data_parallel.py"))
    assert "rank 0: data parallel OK" in out and "rank 1: data parallel OK" in out


def test_sync_batch_norm_across_ranks_is_batch_norm_of_the_whole_batch_and_collective_grads():
    out = ok(mpirun("check_sync_batch_norm.py"))
    assert "rank 0: sync batch norm OK" in out and "rank 1: sync batch norm OK" in out


# ---- the same checks over NCCL (one GPU: a world of 1 still runs every collective through NCCL) -----
def _gpu_count():
    from paddlelite.device import cuda
    return cuda.device_count()


@pytest.mark.gpu
def test_collectives_match_numpy_over_nccl():
    n = min(_gpu_count(), 2)
    out = ok(mpirun("check_collectives.py", n, device="gpu"))
    assert all(f"rank {r}: collectives OK (NCCL)" in out for r in range(n))


@pytest.mark.gpu
@pytest.mark.parametrize("worker, done", [("check_data_parallel.py", "data parallel OK"),
                                          ("check_sync_batch_norm.py", "sync batch norm OK")])
def test_two_ranks_over_nccl_match_one_process(worker, done):
    if _gpu_count() < 2:
        pytest.skip("2 ranks over NCCL need 2 GPUs (NCCL puts one rank on each)")
    out = ok(mpirun(worker, device="gpu"))
    assert f"rank 1: {done}" in out


# ---- DistributedBatchSampler: Paddle's sharding, checked against real Paddle ----------------------
from tests.differential import differential, raises  # noqa: E402


@differential(expected={"r0": [[0, 1, 2], [6, 7, 8], [12]], "r1": [[3, 4, 5], [9, 10, 11], [0]], "len": 3})
def test_distributed_batch_sampler_shards_like_paddle(paddle):
    data = list(range(13))
    shards = {f"r{r}": list(paddle.io.DistributedBatchSampler(data, 3, num_replicas=2, rank=r)) for r in range(2)}
    shards["len"] = len(paddle.io.DistributedBatchSampler(data, 3, num_replicas=2, rank=0))
    return shards


@differential()
def test_distributed_batch_sampler_shuffle_and_drop_last_like_paddle(paddle):
    out = {}
    for r in range(3):
        s = paddle.io.DistributedBatchSampler(list(range(20)), 4, num_replicas=3, rank=r, shuffle=True, drop_last=True)
        s.set_epoch(5)
        out[f"r{r}"] = list(s)
        out[f"len{r}"] = len(s)
        out[f"next_epoch{r}"] = list(s)  # the epoch advanced
    return out


@differential(expected=raises(AssertionError))
def test_distributed_batch_sampler_bad_batch_size(paddle):
    paddle.io.DistributedBatchSampler(list(range(4)), 0)


@differential(expected={"w": "float64", "b": "float64"})
def test_linear_takes_the_default_dtype(paddle):  # data-parallel float64 runs rely on it
    previous = paddle.get_default_dtype()
    paddle.set_default_dtype("float64")
    try:
        layer = paddle.nn.Linear(2, 3)
        return {"w": str(layer.weight.dtype).split(".")[-1], "b": str(layer.bias.dtype).split(".")[-1]}
    finally:
        paddle.set_default_dtype(previous)


# ---- launch, spawn, failures -----------------------------------------------------------------------
def _launch(tmp_path, *script_args, flags=()):
    _mpiexec()
    return run([sys.executable, "-m", "paddlelite.distributed.launch", "--nproc_per_node", "2", "--devices", "0,1",
                "--log_dir", str(tmp_path / "log"), *flags, os.path.join(WORKERS, "train_step.py"), *script_args])


def test_launch_runs_every_rank_and_echoes_rank_0_of_this_run_only(tmp_path):
    out = ok(_launch(tmp_path))
    assert "rank 0 of 2: sum 3, device env 0" in out
    assert "rank 1 of 2: sum 3, device env 1" in (tmp_path / "log" / "workerlog.1").read_text()
    # a second run in the same --log_dir appends to the logs (Paddle's default) and shows only its own output
    proc = _launch(tmp_path, "fail-exit=9")
    assert proc.returncode == 9 and "rank 0 of 2" not in proc.stdout
    assert "rank 1 of 2" not in proc.stderr  # the failure report quotes this run's part of rank 1's log
    assert (tmp_path / "log" / "workerlog.0").read_text().count("rank 0 of 2") == 1
    ok(_launch(tmp_path, flags=["--log_overwrite", "true"]))
    assert (tmp_path / "log" / "workerlog.1").read_text().strip() == "rank 1 of 2: sum 3, device env 1"


def _orphan_segments():
    from paddlelite.distributed.mpi import MPICH_SEGMENTS, mapped_segments
    return set(glob.glob(MPICH_SEGMENTS)) - mapped_segments("[0-9]*")


@pytest.mark.parametrize("mode, code, message", [("fail-raise", 1, "ValueError: rank 1 fails on purpose"),
                                                 ("fail-exit", 7, "rank 1 failed with exit code 7"),
                                                 ("fail-exit=256", 1, "rank 1 failed with exit code 256")])
def test_launch_returns_the_failing_ranks_exit_code_and_log(tmp_path, mode, code, message):
    orphans = _orphan_segments()
    proc = _launch(tmp_path, mode)  # rank 0 is blocked in an all-reduce: only the abort ends the job
    assert proc.returncode == code, proc.stderr  # 256 would exit as 0: a failure outside 1..255 exits 1
    assert "launch: rank 1 failed with exit code" in proc.stderr and message in proc.stderr
    assert "rank 0 of 2" not in proc.stdout
    assert _orphan_segments() <= orphans  # MPICH's /dev/shm segment of the aborted job is removed


def test_launch_exit_status_keeps_failures_failures():
    from paddlelite.distributed.launch.main import exit_status
    assert [exit_status(c) for c in (0, 3, 255, 256, 512, -9, -100000)] == [0, 3, 255, 1, 1, 137, 1]


def test_a_rank_that_raises_under_plain_mpiexec_ends_the_job():
    orphans = _orphan_segments()
    proc = mpirun("train_step.py", 2, "fail-raise", timeout=120)
    assert proc.returncode != 0 and "ValueError: rank 1 fails on purpose" in proc.stderr
    assert _orphan_segments() <= orphans  # the aborting rank removed the job's shared-memory segment


def test_spawn_runs_a_function_of_the_script_on_every_rank(tmp_path):
    _mpiexec()
    out = ok(run([sys.executable, os.path.join(WORKERS, "spawn_job.py"), "ok", str(tmp_path / "r")]))
    assert "joined 2 ['3', '3']" in out
    proc = run([sys.executable, os.path.join(WORKERS, "spawn_job.py"), "fail", str(tmp_path / "f")])
    assert proc.returncode == 3 and "Process 1 terminated with exit code 1" in proc.stdout
    assert "RuntimeError: spawned rank 1 fails" in proc.stdout


def test_unsupported_names_raise_not_implemented():
    import paddlelite.distributed as dist
    from paddlelite.distributed.unsupported import NAMES
    assert {"shard_tensor", "ProcessMesh", "SplitPoint", "InMemoryDataset", "save_state_dict"} <= set(NAMES)
    for name in NAMES:
        with pytest.raises(NotImplementedError, match=name):
            getattr(dist, name)()
    with pytest.raises(NotImplementedError, match="parameter-server"):
        dist.fleet.init(is_collective=False)


def test_backward_hook_runs_once_the_leaf_gradient_is_accumulated_before_earlier_layers():
    """What DataParallel's overlap rests on: a leaf is delivered as soon as its last edge ran."""
    import numpy as np

    import paddlelite as paddle
    events = []
    w1 = paddle.to_tensor(np.ones((3, 3)), stop_gradient=False)
    w2 = paddle.to_tensor(np.full((3, 3), 2.0), stop_gradient=False)
    w2._register_backward_hook(lambda: events.append(("w2 accumulated", w2.grad.numpy().sum())))
    handle = w1._register_backward_hook(lambda: events.append(("w1 accumulated", None)))
    x = paddle.to_tensor(np.ones((2, 3)))
    h = paddle.matmul(x, w1)
    h.register_hook(lambda g: events.append(("h grad", None)))
    loss = paddle.matmul(paddle.tanh(h), w2).sum() + w2.sum()  # w2 has two edges: delivered after both
    loss.backward()
    assert [e[0] for e in events] == ["w2 accumulated", "h grad", "w1 accumulated"]
    np.testing.assert_allclose(events[0][1], w2.grad.numpy().sum())
    assert handle.remove() and not handle.remove()
    paddle.matmul(x, w1).sum().backward()
    assert [e[0] for e in events].count("w1 accumulated") == 1
    with pytest.raises(TypeError, match="_register_backward_hook"):
        w1._register_backward_hook(3)


def test_readme_two_process_command_runs(tmp_path):
    """The README's data-parallel script and its copy-paste launch command, verbatim."""
    import re
    _mpiexec()
    readme = open(os.path.join(ROOT, "README.md")).read()
    section = readme[readme.index("## Data-parallel training (paddle.distributed)"):]
    (tmp_path / "train_dp.py").write_text(re.search(r"```py\n(.*?)```", section, re.S).group(1))
    command = re.search(r"```bash\n.*?\n(python -m paddlelite.distributed.launch [^\n#]*)", section, re.S).group(1)
    command = command.replace("python", f'"{sys.executable}"', 1)
    proc = subprocess.run(command, shell=True, cwd=tmp_path, env=_env("cpu"), capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    assert "epoch 4: loss" in proc.stdout and "(2 processes)" in proc.stdout
    assert float(re.findall(r"loss ([0-9.]+)", proc.stdout)[-1]) < 0.2


@differential(expected={"rank": 0, "world": 1, "nranks": 1, "local": 0, "get_rank": 0, "get_world_size": 1,
                        "initialized": False, "ops": [0, 1, 2, 3, 4]})
def test_single_process_environment_like_paddle(paddle):
    env, d = paddle.distributed.ParallelEnv(), paddle.distributed
    return {"rank": env.rank, "world": env.world_size, "nranks": env.nranks, "local": env.local_rank,
            "get_rank": d.get_rank(), "get_world_size": d.get_world_size(), "initialized": d.is_initialized(),
            "ops": [d.ReduceOp.SUM, d.ReduceOp.MAX, d.ReduceOp.MIN, d.ReduceOp.PROD, d.ReduceOp.AVG]}


def test_launch_flags_become_one_mpiexec_command():
    """Several machines go through MPI's own launcher: --nnodes/--ips/--hostfile/--master -> mpiexec flags."""
    _mpiexec()
    from paddlelite.distributed.launch.main import _mpi_flavor, _parser, mpi_command

    def command(*argv):
        return mpi_command(_parser().parse_args([*argv, "train.py", "--lr", "0.1"]), ["train.py", "--lr", "0.1"])

    hydra = _mpi_flavor(shutil.which("mpiexec")) == "hydra"
    cmd = command("--nnodes", "2", "--ips", "node1,node2", "--master", "node1:6170", "--nproc_per_node", "4",
                  "--devices", "0,1,2,3")
    assert cmd[1:3] == ["-n", "8"]
    assert (["-ppn", "4", "-hosts", "node1,node2"] if hydra else ["--npernode", "4"]) == cmd[3:7 if hydra else 5]
    tail = cmd[cmd.index("paddlelite.distributed.launch.worker"):]
    assert tail == ["paddlelite.distributed.launch.worker", "--log_dir", "log", "--devices", "0,1,2,3", "train.py",
                    "--lr", "0.1"]
    assert (["-f", "hosts.txt"] if hydra else ["--hostfile", "hosts.txt"])[0] in command(
        "--nnodes", "2", "--hostfile", "hosts.txt")
    assert command("--gpus", "0,1")[1:3] == ["-n", "2"]  # one process per listed device
    for argv, message in ((["--nnodes", "2"], "needs the machines"), (["--nnodes", "3", "--ips", "a,b"], "names 2"),
                          (["--nnodes", "2", "--ips", "a,b", "--master", "b"], "first host")):
        with pytest.raises(SystemExit, match=message):
            command(*argv)
    with pytest.raises(NotImplementedError, match="run_mode ps"):
        command("--run_mode", "ps")


@differential(expected={"param": True, "data": False, "restored": True})
def test_distributed_io_persistables_like_paddle(paddle):
    import tempfile

    import numpy as np
    d = tempfile.mkdtemp(prefix="persist_")
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            image = paddle.static.data(name="image", shape=[None, 28], dtype="float32")
            paddle.static.nn.fc(image, size=10, bias_attr=paddle.ParamAttr("fc.b"))
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        param = main.global_block().var("fc.b")
        scope = paddle.static.global_scope()
        before = np.array(scope.find_var("fc.b").get_tensor())
        paddle.distributed.io.save_persistables(exe, d, main)
        scope.find_var("fc.b").get_tensor().set(before + 1.0, paddle.CPUPlace())
        paddle.distributed.io.load_persistables(exe, d, main)
        restored = np.array_equal(np.array(scope.find_var("fc.b").get_tensor()), before)
        return {"param": paddle.distributed.io.is_persistable(param),
                "data": paddle.distributed.io.is_persistable(image), "restored": restored}
    finally:
        paddle.disable_static()
        shutil.rmtree(d, ignore_errors=True)


def test_distributed_strategy_refuses_what_it_does_not_implement():
    from paddlelite.distributed import fleet
    s = fleet.DistributedStrategy()
    assert s.amp is False and s.fuse_grad_size_in_MB == 32
    s.find_unused_parameters = True
    s.recompute = False  # turning an unimplemented feature off is fine
    s.hybrid_configs = {"dp_degree": 2, "mp_degree": 1}
    for name in ("amp", "sharding", "pipeline", "recompute"):
        with pytest.raises(NotImplementedError, match=name):
            setattr(s, name, True)
    with pytest.raises(NotImplementedError, match="mp_degree"):
        s.hybrid_configs = {"dp_degree": 1, "mp_degree": 2}
    with pytest.raises(AttributeError):
        s.no_such_option = 1
