"""`python -m paddlelite.distributed.launch --nproc_per_node N train.py ...`: Paddle's launcher over MPI.

The launcher builds one `mpiexec` command (MPICH's Hydra or Open MPI, whichever `mpiexec` is on PATH)
that starts every rank through `launch.worker`; MPI's own launcher reaches the other machines
(`--nnodes` with `--ips` or `--hostfile`). A rank that fails aborts the whole job; the launcher then
prints the failing rank's log and exits with its exit code.
"""
from .main import launch, main  # noqa: F401
