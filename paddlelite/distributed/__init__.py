"""paddle.distributed: data-parallel training over MPI (CPU tensors) and NCCL (GPU tensors).

MPI (mpi4py) starts and connects the processes -- `mpiexec -n 2 python train.py` or
`python -m paddlelite.distributed.launch --nproc_per_node 2 train.py` -- and carries NumPy arrays;
NCCL, bootstrapped over MPI, carries CuPy arrays. Collectives are registered ops (ops/collective.py).
Names for parameter servers, auto-parallel sharding and pipeline parallelism raise NotImplementedError
(unsupported.py).
"""
from .collective import (Task, all_gather, all_gather_object, all_reduce, alltoall, alltoall_single, barrier,  # noqa: F401
                         broadcast, broadcast_object_list, gather, irecv, isend, recv, recv_object_list, reduce,
                         reduce_scatter, scatter, scatter_object_list, send, send_object_list, wait)
from .env import (Group, ParallelEnv, ReduceOp, destroy_process_group, get_backend, get_group, get_rank,  # noqa: F401
                  get_world_size, init_parallel_env, is_available, is_initialized, new_group)
from .parallel import DataParallel  # noqa: F401
from .spawn import spawn  # noqa: F401
from . import fleet, io, launch  # noqa: F401
from .fleet.base.topology import ParallelMode  # noqa: F401
from .unsupported import NAMES as _UNSUPPORTED

globals().update(_UNSUPPORTED)


def create_nccl_config(nccl_comm_init_option=None, ll_buffsize=None, ll128_buffsize=None, simple_buffsize=None,
                       buffsize_align=None, nchannels=None, algoStr=None, protoStr=None):
    """NCCL tuning options, accepted for init_parallel_env/new_group (NCCL reads its NCCL_* environment)."""
    return {k: v for k, v in locals().items() if v is not None}


def gloo_init_parallel_env(rank_id, rank_num, server_endpoint=None):
    """Paddle's CPU barrier environment; here MPI's world (rank_id and rank_num must match it)."""
    world = init_parallel_env()
    if (rank_id, rank_num) != (world.rank, world.nranks):
        raise ValueError(f"paddle.distributed.gloo_init_parallel_env: rank_id={rank_id}, rank_num={rank_num} do not "
                         f"match the MPI job (rank {world.rank} of {world.nranks})")


def gloo_barrier():
    barrier()


def gloo_release():
    pass  # the MPI world lives until destroy_process_group()


def shutdown_process_group(group=None):
    destroy_process_group(group)


def restart_process_group(group=None):
    """Recreate the world after shutdown_process_group() (sub-groups are made again with new_group)."""
    if group is not None:
        raise ValueError("paddle.distributed.restart_process_group: only the world (group=None) can be restarted; "
                         "create sub-groups again with new_group")
    init_parallel_env()


__all__ = ["DataParallel", "Group", "ParallelEnv", "ParallelMode", "ReduceOp", "Task", "all_gather",
           "all_gather_object", "all_reduce", "alltoall", "alltoall_single", "barrier", "broadcast",
           "broadcast_object_list", "create_nccl_config", "destroy_process_group", "fleet", "gather", "get_backend",
           "get_group", "get_rank", "get_world_size", "gloo_barrier", "gloo_init_parallel_env", "gloo_release",
           "init_parallel_env", "io", "irecv", "is_available", "is_initialized", "isend", "launch", "new_group", "recv",
           "recv_object_list", "reduce", "reduce_scatter", "restart_process_group", "scatter",
           "scatter_object_list", "send", "send_object_list", "shutdown_process_group", "spawn", "wait",
           *_UNSUPPORTED]
