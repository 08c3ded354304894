"""paddle.distributed's collectives on Tensors, in Paddle's signatures and in-place semantics.

Blocking calls apply the registered collective op (ops/collective.py) through the dispatcher and
write the result into the caller's tensor; in static mode they append that op to the program with its
output naming the same variable, as Paddle does. `sync_op=False`, isend and irecv start the op's
communication without waiting and return a Task; the tensor receives the result when the task (or
`paddle.distributed.wait(tensor)`) is waited on. Ranks given to these APIs (src, dst) are global
ranks, as in Paddle.
"""
import numpy as np

from ..framework.mode import in_static_mode
from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops.collective import STARTS
from ..ops.registry import get_op
from ..tensor.manipulation import reshape, stack, unbind
from .env import reduce_name, resolve_group
from .mpi import DONE

_pending = {}  # id(tensor) -> [Task] not yet waited on


class Task:
    """What a collective returns: wait() completes it (and writes its result), is_completed() polls."""

    def __init__(self, request, finish=None, tensor=None):
        self._request = request
        self._finish = finish
        self._tensor_id = None if tensor is None else id(tensor)
        if self._tensor_id is not None:
            _pending.setdefault(self._tensor_id, []).append(self)

    def wait(self, timeout=None):
        self._request.wait()
        if self._finish is not None:
            finish, self._finish = self._finish, None
            finish()
        tasks = _pending.get(self._tensor_id)
        if tasks is not None and self in tasks:
            tasks.remove(self)
            if not tasks:
                del _pending[self._tensor_id]
        return True

    def is_completed(self):
        return self._request.is_completed()

    synchronize = wait


_DONE_TASK = Task(DONE)


def _check(tensor, api, what="tensor"):
    if not (isinstance(tensor, Tensor) or getattr(tensor, "_is_variable", False)):
        raise TypeError(f"paddle.distributed.{api}: {what} must be a Tensor, received {type(tensor).__name__}")


def _store(tensor, value):
    """Write a collective's result into `tensor` (eager: rebind its array; static: an assign op)."""
    if in_static_mode():
        tensor.block.program.current_block().append_op("assign", inputs={"X": [value]}, outputs={"Out": [tensor]})
        return
    tensor._data = value._data if isinstance(value, Tensor) else value
    tensor._bump_version()


def _run(op_type, tensor, group, sync_op, x=None, finish=None, **attrs):
    """Apply collective `op_type` of `group` to `x` (default: `tensor`); the result goes through
    `finish(result)` (default: written into `tensor`). Returns a Task."""
    finish = finish or (lambda out: _store(tensor, out))
    x = tensor if x is None else x
    attrs["ring_id"] = group.id
    op = get_op(op_type)
    if in_static_mode() or sync_op:
        out = dispatch.apply(op, *([x] if op.n_in else []), **attrs)
        if op.n_out:
            finish(out)
        return _DONE_TASK
    attrs = op.fill_attrs(attrs)
    xp = x._place.xp if x is not None else tensor._place.xp
    request, out = STARTS[op_type](xp, False, *([x._data] if op.n_in else []), **attrs)
    return Task(request, None if out is None else lambda: finish(out), tensor)


def _begin(api, group, *tensors):
    """The group a collective runs in, or None where this process is not a member (nothing to do)."""
    for t in tensors:
        _check(t, api)
    group = resolve_group(group, api)
    return group if group.is_member() else None


def _group_rank(group, rank, api, what):
    r = group.get_group_rank(rank)
    if r < 0:
        raise ValueError(f"paddle.distributed.{api}: {what}={rank} is not a rank of the group (ranks {group.ranks})")
    return r


# ---- reductions and broadcast ---------------------------------------------------------------------
def all_reduce(tensor, op=0, group=None, sync_op=True):
    reduce = reduce_name(op, "all_reduce")
    group = _begin("all_reduce", group, tensor)
    if group is None:
        return _DONE_TASK
    return _run(f"c_allreduce_{reduce}", tensor, group, sync_op)


def reduce(tensor, dst, op=0, group=None, sync_op=True):
    reduce_ = reduce_name(op, "reduce")
    group = _begin("reduce", group, tensor)
    if group is None:
        return _DONE_TASK
    return _run(f"c_reduce_{reduce_}", tensor, group, sync_op, root_id=_group_rank(group, dst, "reduce", "dst"))


def broadcast(tensor, src, group=None, sync_op=True):
    group = _begin("broadcast", group, tensor)
    if group is None:
        return _DONE_TASK
    return _run("c_broadcast", tensor, group, sync_op, root=_group_rank(group, src, "broadcast", "src"))


# ---- gathers and scatters (lists of tensors travel stacked along a new first dim) -----------------
def _fill_list(tensor_list, parts):
    if tensor_list:
        for t, p in zip(tensor_list, parts):
            _store(t, p)
    else:
        tensor_list.extend(parts)


def _list_arg(api, what, value, n):
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"paddle.distributed.{api}: {what} must be a list of Tensors, received {type(value).__name__}")
    if len(value) not in (0, n):
        raise ValueError(f"paddle.distributed.{api}: {what} must hold 0 or {n} tensors (one per rank), "
                         f"received {len(value)}")


def all_gather(tensor_list, tensor, group=None, sync_op=True):
    group = _begin("all_gather", group, tensor)
    if group is None:
        return _DONE_TASK
    _list_arg("all_gather", "tensor_list", tensor_list, group.nranks)
    return _run("c_allgather", tensor, group, sync_op, x=reshape(tensor, [1, *tensor.shape]),
                finish=lambda out: _fill_list(tensor_list, unbind(_wrap(out, tensor))), nranks=group.nranks)


def gather(tensor, gather_list=None, dst=0, group=None, sync_op=True):
    group = _begin("gather", group, tensor)
    if group is None:
        return _DONE_TASK
    root = _group_rank(group, dst, "gather", "dst")
    if group.rank == root:
        if gather_list is None:
            raise ValueError("paddle.distributed.gather: gather_list must be a list on the dst rank")
        _list_arg("gather", "gather_list", gather_list, group.nranks)
    keep = group.rank == root
    return _run("c_allgather", tensor, group, sync_op, x=reshape(tensor, [1, *tensor.shape]),
                finish=lambda out: keep and _fill_list(gather_list, unbind(_wrap(out, tensor))),
                nranks=group.nranks)


def _wrap(out, like):
    """A result of the op (a Tensor, or an array from a started op) as a Tensor on like's place."""
    if isinstance(out, Tensor) or getattr(out, "_is_variable", False):
        return out
    from ..framework.tensor import wrap_array
    return wrap_array(out, like._place, True)


def _stacked(api, what, tensors, like, n):
    _list_arg(api, what, tensors, n)
    if not tensors:
        raise ValueError(f"paddle.distributed.{api}: {what} must hold {n} tensors (one per rank), received none")
    for t in tensors:
        _check(t, api, what + " items")
        if list(t.shape) != list(like.shape) or t.dtype != like.dtype:
            raise ValueError(f"paddle.distributed.{api}: every tensor of {what} must have the shape {like.shape} "
                             f"and dtype {like.dtype} of `tensor`, received {t.shape} {t.dtype}")
    return stack(list(tensors))


def _into(tensor):
    return lambda out: _store(tensor, reshape(_wrap(out, tensor), tensor.shape))


def scatter(tensor, tensor_list=None, src=0, group=None, sync_op=True):
    group = _begin("scatter", group, tensor)
    if group is None:
        return _DONE_TASK
    root = _group_rank(group, src, "scatter", "src")
    if group.rank == root:
        x = _stacked("scatter", "tensor_list", tensor_list, tensor, group.nranks)
    else:  # only the root's values are read; the shape tells the op the size of each part
        x = stack([tensor] * group.nranks)
    return _run("c_scatter", tensor, group, sync_op, x=x, finish=_into(tensor), root=root, nranks=group.nranks)


def reduce_scatter(tensor, tensor_list, op=0, group=None, sync_op=True):
    reduce_ = reduce_name(op, "reduce_scatter")
    group = _begin("reduce_scatter", group, tensor)
    if group is None:
        return _DONE_TASK
    x = _stacked("reduce_scatter", "tensor_list", tensor_list, tensor, group.nranks)
    return _run("c_reducescatter", tensor, group, sync_op, x=x, finish=_into(tensor), nranks=group.nranks,
                reduce=reduce_)


def alltoall(out_tensor_list, in_tensor_list, group=None, sync_op=True):
    group = _begin("alltoall", group)
    if group is None:
        return _DONE_TASK
    if not in_tensor_list:
        raise ValueError("paddle.distributed.alltoall: in_tensor_list must hold one tensor per rank")
    first = in_tensor_list[0]
    x = _stacked("alltoall", "in_tensor_list", in_tensor_list, first, group.nranks)
    _list_arg("alltoall", "out_tensor_list", out_tensor_list, group.nranks)
    return _run("alltoall", first, group, sync_op, x=x,
                finish=lambda out: _fill_list(out_tensor_list, unbind(_wrap(out, first))))


def alltoall_single(out_tensor, in_tensor, in_split_sizes=None, out_split_sizes=None, group=None, sync_op=True):
    """Rows in_split_sizes[p] of in_tensor go to rank p; out_tensor receives out_split_sizes[p] rows from rank
    p, in rank order (equal parts of the first dim when not given)."""
    group = _begin("alltoall_single", group, in_tensor, out_tensor)
    if group is None:
        return _DONE_TASK
    sizes = [_split_sizes(t, s, what, group.nranks) for t, s, what in
             ((in_tensor, in_split_sizes, "in_split_sizes"), (out_tensor, out_split_sizes, "out_split_sizes"))]
    if list(in_tensor.shape[1:]) != list(out_tensor.shape[1:]) or in_tensor.dtype != out_tensor.dtype:
        raise ValueError(f"paddle.distributed.alltoall_single: out_tensor ({out_tensor.shape}, {out_tensor.dtype}) "
                         f"must match in_tensor ({in_tensor.shape}, {in_tensor.dtype}) beyond the first dim")
    return _run("alltoall", out_tensor, group, sync_op, x=in_tensor, in_split_sizes=sizes[0], out_split_sizes=sizes[1])


def _split_sizes(tensor, sizes, what, n):
    rows = tensor.shape[0] if tensor.shape else 0
    if sizes is None:
        if not tensor.shape or rows % n:
            raise ValueError(f"paddle.distributed.alltoall_single: without {what}, the first dim of the tensor "
                             f"({tensor.shape}) must be divisible by the group size {n}")
        return [rows // n] * n
    sizes = [int(v) for v in sizes]
    if len(sizes) != n or sum(sizes) != rows or min(sizes) < 0:
        raise ValueError(f"paddle.distributed.alltoall_single: {what} must be {n} non-negative sizes (one per rank) "
                         f"adding up to the first dim {rows}, received {sizes}")
    return sizes


# ---- point to point -------------------------------------------------------------------------------
def send(tensor, dst=0, group=None, sync_op=True):
    group = _begin("send", group, tensor)
    if group is None:
        return _DONE_TASK
    return _run("send_v2", tensor, group, sync_op, peer=_group_rank(group, dst, "send", "dst"))


def recv(tensor, src=0, group=None, sync_op=True):
    group = _begin("recv", group, tensor)
    if group is None:
        return _DONE_TASK
    attrs = {"peer": _group_rank(group, src, "recv", "src"), "out_shape": list(tensor.shape),
             "dtype": tensor.dtype.name}
    if not in_static_mode():
        attrs["place"] = tensor._place
    return _run("recv_v2", tensor, group, sync_op, **attrs)


def isend(tensor, dst, group=None):
    return send(tensor, dst, group, sync_op=False)


def irecv(tensor, src=None, group=None):
    if src is None:
        raise ValueError("paddle.distributed.irecv: src must be given (receiving from any rank is not supported)")
    return recv(tensor, src, group, sync_op=False)


def barrier(group=None):
    group = _begin("barrier", group)
    if group is None:
        return
    op = get_op("barrier")
    dispatch.apply(op, ring_id=group.id)


def wait(tensor, group=None, use_calc_stream=True):
    """Complete the pending asynchronous collectives that write into `tensor`."""
    _check(tensor, "wait")
    for task in list(_pending.get(id(tensor), ())):
        task.wait()


# ---- Python objects -------------------------------------------------------------------------------
def _object_comm(group, api):
    group = _begin(api, group)
    return None if group is None else (group, group.communicator(np))


def all_gather_object(object_list, obj, group=None):
    g = _object_comm(group, "all_gather_object")
    if g is not None:
        object_list.extend(g[1].all_gather_object(obj))


def broadcast_object_list(object_list, src, group=None):
    g = _object_comm(group, "broadcast_object_list")
    if g is not None:
        group, comm = g
        object_list[:] = comm.broadcast_object(list(object_list), _group_rank(group, src, "broadcast_object_list", "src"))


def scatter_object_list(out_object_list, in_object_list=None, src=0, group=None):
    g = _object_comm(group, "scatter_object_list")
    if g is not None:
        group, comm = g
        root = _group_rank(group, src, "scatter_object_list", "src")
        if group.rank == root and (in_object_list is None or len(in_object_list) != group.nranks):
            raise ValueError(f"paddle.distributed.scatter_object_list: in_object_list must hold {group.nranks} "
                             "objects on the src rank")
        out_object_list[:] = [comm.scatter_object(list(in_object_list) if group.rank == root else None, root)]


def send_object_list(object_list, dst=None, group=None, dst_in_group=None):
    g = _object_comm(group, "send_object_list")
    if g is not None:
        group, comm = g
        peer = dst_in_group if dst_in_group is not None else _group_rank(group, dst, "send_object_list", "dst")
        comm.send_object(list(object_list), peer)


def recv_object_list(object_list, src=None, group=None, src_in_group=None):
    g = _object_comm(group, "recv_object_list")
    if g is not None:
        group, comm = g
        peer = src_in_group if src_in_group is not None else _group_rank(group, src, "recv_object_list", "src")
        received = comm.recv_object(peer)
        if len(received) != len(object_list):
            raise ValueError(f"paddle.distributed.recv_object_list: object_list has {len(object_list)} slots but "
                             f"{len(received)} objects were sent")
        object_list[:] = received
