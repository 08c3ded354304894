"""Paddle's fleet.utils.hybrid_parallel_util, for the data parallelism paddlelite implements: the parameters an
optimizer updates, and the average of their gradients over the ranks (what a hand-written data-parallel step calls
after backward). A hybrid topology (hcg) is not implemented."""
from ...collective import all_reduce
from ...env import get_world_size
from ...unsupported import HYBRID, _message
from ....framework.mode import no_grad

__all__ = []


def obtain_optimizer_parameters_list(optimizer):
    """The parameters `optimizer` updates, in order (across its parameter groups)."""
    groups = getattr(optimizer, "_param_groups", None)
    if groups and isinstance(groups[0], dict):
        return [param for group in groups for param in group["params"]]
    return list(optimizer._parameter_list)


def fused_allreduce_gradients(parameter_list, hcg):
    """Replace the gradient of each trainable parameter of `parameter_list` by its mean over the world's ranks
    (`hcg` None: the data-parallel group is the world)."""
    if hcg is not None:
        raise NotImplementedError(_message("paddle.distributed.fleet.utils.hybrid_parallel_util."
                                           "fused_allreduce_gradients with a hybrid communicate group", HYBRID))
    nranks = get_world_size()
    with no_grad():
        for param in parameter_list:
            grad = param.grad
            if not param.trainable or grad is None:
                continue
            if nranks > 1:
                grad.scale_(1.0 / nranks)
                all_reduce(grad)
