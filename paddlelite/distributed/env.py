"""Process groups and the parallel environment: init_parallel_env, new_group, get_rank, ParallelEnv.

MPI starts the processes (mpiexec, or `python -m paddlelite.distributed.launch`) and its world
communicator is group 0. A Group owns an MPI communicator for NumPy arrays and, created on the
first collective on CuPy arrays, an NCCL communicator bootstrapped over it. Collective ops reach a
group's communicator through the hook `ops.collective.set_communicator_lookup` (ring id = group id).
"""
import os
import sys
import time

import numpy as np

from ..ops import collective as _collective_ops
from .mpi import MPICommunicator, abort, mpi


class ReduceOp:
    """Reduction of a collective (the values index ops.collective.REDUCE_OPS)."""
    SUM = 0
    MAX = 1
    MIN = 2
    PROD = 3
    AVG = 4


def reduce_name(op, api):
    if isinstance(op, bool) or op not in range(len(_collective_ops.REDUCE_OPS)):
        raise ValueError(f"paddle.distributed.{api}: op must be a paddle.distributed.ReduceOp (SUM, MAX, MIN, "
                         f"PROD, AVG), received {op!r}")
    return _collective_ops.REDUCE_OPS[op]


class Group:
    """A set of ranks that run collectives together. `rank` is this process's rank in the group
    (-1 when it is not a member); `ranks` are the members' global ranks."""

    def __init__(self, rank_in_group, id, ranks, mpi_comm=None, name=None):
        self.rank = rank_in_group
        self.id = id
        self.ranks = list(ranks)
        self.nranks = len(self.ranks)
        self.name = name or f"_default_pg{id}"
        self._mpi = MPICommunicator(mpi_comm) if mpi_comm is not None else None
        self._nccl = None

    world_size = property(lambda self: self.nranks)

    @property
    def process_group(self):
        return self

    @property
    def backend(self):
        """'NCCL' where GPU tensors travel through NCCL (on a GPU, with NCCL installed), else 'MPI'."""
        if self._nccl is not None:
            return "NCCL"
        from ..device import get_device
        if get_device().startswith("gpu"):
            from .nccl import nccl_available
            return "NCCL" if nccl_available() else "MPI"
        return "MPI"

    def is_member(self):
        return self.rank >= 0

    def get_group_rank(self, rank):
        return self.ranks.index(rank) if rank in self.ranks else -1

    def communicator(self, xp):
        if self._mpi is None:
            raise RuntimeError(f"process group {self.id}: this process (rank {_world_rank()}) is not one of its "
                               f"members {self.ranks}")
        if xp is np:
            return self._mpi
        if self._nccl is None:
            from .nccl import NCCLCommunicator, nccl_available
            if not nccl_available():
                return self._mpi  # CuPy without NCCL: MPI through host copies
            import cupy
            self._nccl = NCCLCommunicator(self._mpi.comm, cupy.cuda.Device().id)
        return self._nccl

    def destroy(self):
        for c in (self._nccl, self._mpi):
            if c is not None:
                c.free()
        self._nccl = self._mpi = None

    def __repr__(self):
        return f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: {', '.join(map(str, self.ranks))}; name: {self.name}"


_groups = {}  # id -> Group; 0 is the world once init_parallel_env ran
_next_id = [1]


def _lookup(ring_id, xp):
    group = _groups.get(ring_id)
    if group is None:
        raise RuntimeError(f"collective op: no process group with ring_id {ring_id}; call "
                           "paddle.distributed.init_parallel_env() (and new_group) first")
    return group.communicator(xp)


def is_initialized():
    return 0 in _groups


def _env_int(names, default):
    for n in names:
        v = os.environ.get(n)
        if v not in (None, ""):
            return int(v)
    return default


def _world_rank():
    if is_initialized():
        return _groups[0].rank
    return _env_int(("PADDLE_TRAINER_ID", "PMI_RANK", "OMPI_COMM_WORLD_RANK"), 0)


def _world_size():
    if is_initialized():
        return _groups[0].nranks
    return _env_int(("PADDLE_TRAINERS_NUM", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE"), 1)


def _local_rank():
    return _env_int(("PADDLE_LOCAL_RANK", "MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK"), _world_rank())


def _device_id():
    """This process's GPU: FLAGS_selected_gpus (set by launch --devices), else the local rank."""
    selected = os.environ.get("FLAGS_selected_gpus", "")
    if selected:
        return int(selected.split(",")[0])
    return _local_rank()


def get_rank(group=None):
    return group.rank if group is not None else _world_rank()


def get_world_size(group=None):
    return group.nranks if group is not None else _world_size()


def _abort_on_uncaught_exception():
    """An uncaught exception on one rank aborts the whole job (MPI_Abort) instead of leaving the other
    ranks blocked in a collective forever -- what `python -m mpi4py` does."""
    previous = sys.excepthook

    def hook(kind, value, tb):
        previous(kind, value, tb)
        sys.stderr.flush()
        sys.stdout.flush()
        if is_initialized() and _world_size() > 1:
            # mpiexec forwards each rank's output through its proxies; Abort kills them at once, so on a
            # busy machine the traceback just written could be lost. Give the forwarding a moment first.
            time.sleep(0.5)
            abort(1)
    sys.excepthook = hook


def init_parallel_env(nccl_config=None):
    """Join the job MPI started; returns the world Group. On a GPU, this process uses GPU
    FLAGS_selected_gpus (from launch --devices), else GPU local_rank."""
    if is_initialized():
        return _groups[0]
    MPI = mpi()
    world = MPI.COMM_WORLD
    _groups[0] = Group(world.Get_rank(), 0, range(world.Get_size()), world)
    _collective_ops.set_communicator_lookup(_lookup)
    _abort_on_uncaught_exception()
    from ..device import get_device, set_device
    if get_device().startswith("gpu"):
        set_device(f"gpu:{_device_id()}")
    return _groups[0]


def _world(api):
    if not is_initialized():
        raise RuntimeError(f"paddle.distributed.{api}: call paddle.distributed.init_parallel_env() first")
    return _groups[0]


def resolve_group(group, api):
    """The group a collective runs in (the world when None)."""
    if group is None:
        return _world(api)
    if not isinstance(group, Group):
        raise TypeError(f"paddle.distributed.{api}: group must be a Group (from new_group) or None, received "
                        f"{type(group).__name__}")
    if group.id not in _groups:
        raise RuntimeError(f"paddle.distributed.{api}: process group {group.id} was destroyed")
    return group


def new_group(ranks=None, backend=None, timeout=None, nccl_comm_init_option=0, nccl_config=None):
    """A group of the given global ranks (all ranks when None). Every process must call it, in the same order."""
    world = _world("new_group")
    ranks = list(range(world.nranks)) if ranks is None else sorted(int(r) for r in ranks)
    if backend not in (None, "nccl", "gloo", "mpi", "NCCL", "GLOO", "MPI"):
        raise ValueError(f"paddle.distributed.new_group: backend must be 'nccl', 'gloo' or None, received {backend!r}")
    bad = [r for r in ranks if not 0 <= r < world.nranks]
    if bad or len(set(ranks)) != len(ranks):
        raise ValueError(f"paddle.distributed.new_group: ranks must be distinct ranks in [0, {world.nranks}), "
                         f"received {ranks}")
    MPI = mpi()
    me = world.rank
    member = me in ranks
    comm = world._mpi.comm.Split(0 if member else MPI.UNDEFINED, ranks.index(me) if member else 0)
    gid = _next_id[0]
    _next_id[0] += 1
    group = Group(ranks.index(me) if member else -1, gid, ranks, comm if member else None)
    _groups[gid] = group
    return group


def get_group(id=0):
    if id not in _groups:
        raise ValueError(f"paddle.distributed.get_group: no process group with id {id}; existing ids: "
                         f"{sorted(_groups)}")
    return _groups[id]


def destroy_process_group(group=None):
    """Destroy `group`, or every group (the parallel environment ends) when None."""
    if group is None:
        for g in list(_groups.values()):
            g.destroy()
        _groups.clear()
        return
    group = resolve_group(group, "destroy_process_group")
    group.destroy()
    del _groups[group.id]


def get_backend(group=None):
    return resolve_group(group, "get_backend").backend


def is_available():
    try:
        mpi()
    except ImportError:
        return False
    return True


class ParallelEnv:
    """The parallel environment of this process, as Paddle describes it."""

    @property
    def rank(self):
        return _world_rank()

    @property
    def world_size(self):
        return _world_size()

    nranks = world_size
    local_rank = rank  # Paddle's ParallelEnv.local_rank is the trainer id

    @property
    def device_id(self):
        return _device_id()

    dev_id = device_id

    @property
    def device_type(self):
        from ..device import get_device
        return "gpu" if get_device().startswith("gpu") else "cpu"

    @property
    def trainer_endpoints(self):
        """Paddle's endpoints list, when the environment gives one (MPI connects the ranks without it)."""
        return [e for e in os.environ.get("PADDLE_TRAINER_ENDPOINTS", "").split(",") if e]

    @property
    def current_endpoint(self):
        return os.environ.get("PADDLE_CURRENT_ENDPOINT", "")

    @property
    def nrings(self):
        return 1

    @property
    def pg_timeout(self):
        return _env_int(("PADDLE_PG_TIMEOUT",), 1800000)
