"""paddle.distributed: data-parallel training over MPI (CPU tensors) and NCCL (GPU tensors).

MPI (mpi4py) starts and connects the processes -- `mpiexec -n 2 python train.py` or
`python -m paddlelite.distributed.launch --nproc_per_node 2 train.py` -- and carries NumPy arrays;
NCCL, bootstrapped over MPI, carries CuPy arrays. Collectives are registered ops (ops/collective.py).
"""
from .collective import (Task, all_gather, all_gather_object, all_reduce, alltoall, alltoall_single, barrier,  # noqa: F401
                         broadcast, broadcast_object_list, gather, irecv, isend, recv, recv_object_list, reduce,
                         reduce_scatter, scatter, scatter_object_list, send, send_object_list, wait)
from . import fleet  # noqa: F401,E402
from .parallel import DataParallel  # noqa: F401
from .env import (Group, ParallelEnv, ReduceOp, destroy_process_group, get_backend, get_group, get_rank,  # noqa: F401
                  get_world_size, init_parallel_env, is_available, is_initialized, new_group)
