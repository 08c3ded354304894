"""Paddle's model-parallel collectives, differentiable: `_c_identity` (forward a copy, backward an all-reduce
of the gradient) and `_mp_allreduce` (forward an all-reduce, backward a copy) -- ops c_identity and
mp_allreduce_sum, whose grad makers (ops/collective.py) serve eager backward and static append_backward.
Unlike Paddle's eager `_mp_allreduce`, which sums into `tensor` itself, the sum is a new Tensor."""
from ....env import resolve_group
from .....ops import dispatch
from .....ops.collective import C_IDENTITY, MP_ALLREDUCE_SUM

__all__ = []

_SUM = 0  # paddle.distributed.ReduceOp.SUM


def _c_identity(tensor, group=None, skip_c_identity_dynamic=False):
    """A copy of `tensor` whose gradient is all-reduced over `group` (the world when None); None on a rank
    outside the group."""
    group = resolve_group(group, "fleet.layers.mpu.mp_ops._c_identity")
    if not group.is_member():
        return None
    return dispatch.apply(C_IDENTITY, tensor, ring_id=group.id, use_calc_stream=True, use_model_parallel=True)


def _mp_allreduce(tensor, op=_SUM, group=None, use_calc_stream=True, use_model_parallel=True,
                  skip_c_identity_dynamic=False):
    """`tensor` summed over `group` (the world when None), whose gradient passes unchanged to every rank;
    None on a rank outside the group."""
    group = resolve_group(group, "fleet.layers.mpu.mp_ops._mp_allreduce")
    if not group.is_member():
        return None
    if op != _SUM:
        raise AssertionError(f"Unknown parameter: {op}.")
    return dispatch.apply(MP_ALLREDUCE_SUM, tensor, ring_id=group.id, use_calc_stream=use_calc_stream)
