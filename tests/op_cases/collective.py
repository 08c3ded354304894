"""Gradient cases for the collectives with a gradient (ops/collective.py), run in a one-rank process group:
with one rank each collective is the identity, so these check the grad makers' wiring, shapes and static
form; tests/distributed/check_sync_batch_norm.py checks the gradients across 2 MPI ranks."""
import contextlib

from paddlelite.ops import collective

from . import OpCase, rand


class _Done:
    @staticmethod
    def wait():
        return True


class OneRank:
    """The communicator of a world of one process: every collective copies its input."""
    rank, nranks = 0, 1

    @staticmethod
    def all_reduce(x, out, reduce, blocking=False):
        out[...] = x
        return _Done

    @staticmethod
    def all_gather(x, out, blocking=False):
        out[...] = x
        return _Done


@contextlib.contextmanager
def one_rank_world():
    previous = collective.set_communicator_lookup(lambda ring_id, xp: OneRank)
    try:
        yield
    finally:
        collective.set_communicator_lookup(previous)


CASES = [
    OpCase("c_allreduce_sum", {"X": rand(2, 3, seed=1)}, context=one_rank_world, id="c_allreduce_sum"),
    OpCase("c_allreduce_sum", {"X": rand(3, seed=2)}, {"use_model_parallel": True, "ring_id": 0},
           context=one_rank_world, id="c_allreduce_sum-model-parallel"),
    OpCase("mp_allreduce_sum", {"X": rand(2, 2, seed=3)}, context=one_rank_world, id="mp_allreduce_sum"),
    OpCase("c_identity", {"X": rand(4, seed=4)}, context=one_rank_world, id="c_identity"),
]
