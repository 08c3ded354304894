"""fleet: the collective (data-parallel) path of Paddle's fleet API.

`fleet.init(is_collective=True)` joins the MPI job; `fleet.distributed_model(model)` is DataParallel;
`fleet.distributed_optimizer(opt)` returns an optimizer whose static `minimize` inserts the gradient
all-reduce after the backward (grad_allreduce.py) and whose dynamic `step` updates from the
gradients DataParallel already averaged. Parameter-server mode is not implemented.
"""
import sys as _sys

from ...framework.mode import in_static_mode
from ..env import get_rank, get_world_size, init_parallel_env, resolve_group
from ..grad_allreduce import insert_grad_allreduce, insert_param_broadcast
from ..parallel import DataParallel
from .. import collective as _collective
from . import base, layers, meta_optimizers, meta_parallel, recompute, utils  # noqa: F401

__all__ = ["DistributedStrategy", "init", "distributed_model", "distributed_optimizer", "worker_index",
           "worker_num", "is_first_worker", "barrier_worker", "UserDefinedRoleMaker", "PaddleCloudRoleMaker"]


class DistributedStrategy:
    """Options of the distributed run. Data parallelism honours find_unused_parameters,
    fuse_all_reduce_ops and fuse_grad_size_in_MB (DataParallel's gradient buckets); the options of
    features paddlelite does not implement read False and raise NotImplementedError when turned on,
    so nothing is silently ignored."""

    _HONOURED = {"find_unused_parameters": False, "fuse_all_reduce_ops": True, "fuse_grad_size_in_MB": 32}
    _NOT_IMPLEMENTED = ("amp", "recompute", "sharding", "pipeline", "tensor_parallel", "gradient_merge", "lars",
                        "lamb", "dgc", "localsgd", "adaptive_localsgd", "a_sync", "heter_ccl_mode", "asp", "qat",
                        "without_graph_optimization", "semi_auto", "auto")

    def __init__(self):
        self.__dict__["_options"] = dict(self._HONOURED, hybrid_configs={"dp_degree": -1})

    def __getattr__(self, name):
        if name in self._NOT_IMPLEMENTED:
            return False
        try:
            return self._options[name]
        except KeyError:
            raise AttributeError(f"DistributedStrategy has no option '{name}'") from None

    def __setattr__(self, name, value):
        if name in self._NOT_IMPLEMENTED:
            if value:
                raise NotImplementedError(f"DistributedStrategy.{name}: paddlelite implements data parallelism only "
                                          "(see the README's paddle.distributed section)")
            return
        if name == "hybrid_configs":
            other = {k: v for k, v in dict(value).items() if k != "dp_degree" and v not in (None, 1, -1)}
            if other:
                raise NotImplementedError(f"DistributedStrategy.hybrid_configs: {other} -- only data parallelism "
                                          "(dp_degree) is implemented in paddlelite")
            value = {"dp_degree": dict(value).get("dp_degree", -1)}
        elif name not in self._HONOURED:
            raise AttributeError(f"DistributedStrategy has no option '{name}'")
        self._options[name] = value


class _RoleMaker:
    def __init__(self, is_collective=False, **kwargs):
        if not is_collective:
            raise NotImplementedError("fleet role makers: parameter-server mode is not implemented in paddlelite; "
                                      "use is_collective=True")


class PaddleCloudRoleMaker(_RoleMaker):
    pass


class UserDefinedRoleMaker(_RoleMaker):
    pass


_state = {"strategy": None}


def init(role_maker=None, is_collective=False, strategy=None, log_level="INFO"):
    if role_maker is not None and not isinstance(role_maker, _RoleMaker):
        raise TypeError(f"fleet.init: role_maker must be a PaddleCloudRoleMaker or None, received "
                        f"{type(role_maker).__name__}")
    if not is_collective and role_maker is None:
        raise NotImplementedError("fleet.init: parameter-server training (is_collective=False) is not implemented "
                                  "in paddlelite; call fleet.init(is_collective=True) for data parallelism")
    if strategy is not None and not isinstance(strategy, DistributedStrategy):
        raise TypeError(f"fleet.init: strategy must be a fleet.DistributedStrategy, received {type(strategy).__name__}")
    _state["strategy"] = strategy or DistributedStrategy()
    init_parallel_env()
    return None


def worker_index():
    return get_rank()


def worker_num():
    return get_world_size()


def is_first_worker():
    return get_rank() == 0


def barrier_worker():
    _collective.barrier()


def distributed_model(model):
    strategy = _state["strategy"] or DistributedStrategy()
    # without fusion every gradient is all-reduced on its own: buckets of one parameter
    size = strategy.fuse_grad_size_in_MB if strategy.fuse_all_reduce_ops else 1e-9
    return DataParallel(model, find_unused_parameters=strategy.find_unused_parameters, comm_buffer_size=size,
                        last_comm_buffer_size=min(1, size))


class _DistributedOptimizer:
    """The user's optimizer, data-parallel: everything not overridden here is the inner optimizer's."""

    def __init__(self, optimizer, strategy):
        self.__dict__["_inner"] = optimizer
        self.__dict__["user_defined_strategy"] = strategy

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def __setattr__(self, name, value):
        setattr(self._inner, name, value)

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Static: backward, gradient all-reduce, updates. Dynamic: as the inner optimizer (the gradients
        of a DataParallel model are averaged during backward)."""
        if not in_static_mode():
            return self._inner.minimize(loss, startup_program, parameters, no_grad_set)
        from ... import static
        program = loss.block.program
        startup = startup_program or static.default_startup_program()
        params_grads = self._inner.backward(loss, startup, parameters, no_grad_set)
        group = resolve_group(None, "fleet.distributed_optimizer")
        if group.nranks > 1:
            insert_param_broadcast(startup, [p for p, _ in params_grads], group)
            insert_grad_allreduce(program, params_grads, group)
        with static.program_guard(program, startup):
            optimize_ops = self._inner.apply_gradients(params_grads)
        return optimize_ops, params_grads


def distributed_optimizer(optimizer, strategy=None):
    if _state["strategy"] is None:
        raise RuntimeError("fleet.distributed_optimizer: call fleet.init(is_collective=True) first")
    return _DistributedOptimizer(optimizer, strategy or _state["strategy"])


# Paddle's `fleet.fleet` is its Fleet object, whose methods the functions above are; here this module is that object
fleet = _sys.modules[__name__]
