"""paddle.DataParallel: eager data parallelism with bucketed gradient all-reduce overlapped with backward.

Each process runs the same model on its own shard of the batch. At construction the parameters are
broadcast from the group's first rank, so every replica starts equal. Trainable parameters, in reverse
registration order, are cut into buckets as Paddle's reducer groups them (assign_group_by_size: per dtype, about
`comm_buffer_size` MB each, the first -- the last layers, whose gradients arrive first -- `last_comm_buffer_size`
MB). A post-accumulation hook on each parameter (Tensor._register_backward_hook) marks it ready once backward has accumulated its gradient;
the moment a bucket's last parameter is ready, its gradients are flattened, scaled by 1/nranks and
all-reduced without waiting (MPI Iallreduce, or NCCL on its own CUDA stream) while backward goes on
computing the earlier layers. When every bucket is launched the results are waited for and written
back into the parameters' `.grad`: the average over the replicas, as Paddle's reducer computes it.
"""
import contextlib

from ..autograd import is_grad_enabled
from ..framework.mode import in_static_mode
from ..framework.tensor import Tensor, wrap_array
from ..nn.layer.layers import Layer
from .collective import broadcast
from .env import ParallelEnv, is_initialized, resolve_group

_MB = 1 << 20


class _Bucket:
    __slots__ = ("params", "ready", "request", "flat")

    def __init__(self, params):
        self.params = params
        self.ready = 0
        self.request = None
        self.flat = None


class _Reducer:
    def __init__(self, params, group, comm_buffer_size, last_comm_buffer_size, find_unused_parameters):
        self.group = group
        self.find_unused = find_unused_parameters
        self.buckets = _make_buckets(params[::-1], last_comm_buffer_size * _MB, comm_buffer_size * _MB)
        self.bucket_of = {id(p): b for b in self.buckets for p in b.params}
        self.unused = ()
        self.launched = 0
        self.armed = False        # a forward outside no_sync() arms the next backward's all-reduce
        self.in_backward = False
        for p in params:
            p._register_backward_hook(lambda p=p: self._ready(p))

    def prepare_for_backward(self, outputs):
        """Before the backward of this forward: with find_unused_parameters, the parameters the outputs do
        not depend on count as ready (with zero gradients) as soon as backward starts."""
        if any(b.ready for b in self.buckets):
            raise RuntimeError(
                "DataParallel: the previous backward did not produce gradients for every parameter, so its "
                "gradient all-reduce never completed. Parameters that do not take part in the loss need "
                "paddle.DataParallel(model, find_unused_parameters=True)")
        if self.find_unused:
            reached = _leaves_reached(outputs)
            self.unused = [p for b in self.buckets for p in b.params if id(p) not in reached]
        self.armed = True

    def _ready(self, param):
        if not self.armed:  # a backward of a forward run under no_sync(): gradients stay local
            return
        if not self.in_backward:
            self.in_backward = True
            for p in self.unused:  # they get no gradient: they contribute zeros
                p.grad = wrap_array(p._place.xp.zeros_like(p._data), p._place, False)
                self._mark(p)
        self._mark(param)

    def _mark(self, param):
        bucket = self.bucket_of.get(id(param))
        if bucket is None:
            return
        bucket.ready += 1
        if bucket.ready == len(bucket.params):
            self._launch(bucket)
            if self.launched == len(self.buckets):
                self._finish()
        else:
            for b in self.buckets:  # let the MPI library progress the launched all-reduces
                if b.request is not None:
                    b.request.is_completed()

    def _launch(self, bucket):
        xp = bucket.params[0]._place.xp
        grads = [p.grad._data.reshape(-1) for p in bucket.params]
        flat = xp.concatenate(grads) if len(grads) > 1 else grads[0].copy()
        flat *= flat.dtype.type(1.0 / self.group.nranks)
        bucket.flat = flat
        bucket.request = self.group.communicator(xp).all_reduce(flat, flat, "sum")
        self.launched += 1

    def _finish(self):
        for bucket in self.buckets:
            bucket.request.wait()
            offset = 0
            for p in bucket.params:
                n = p._data.size
                p.grad = wrap_array(bucket.flat[offset:offset + n].reshape(p._data.shape), p._place, False)
                offset += n
            bucket.ready, bucket.request, bucket.flat = 0, None, None
        self.launched = 0
        self.armed = self.in_backward = False
        self.unused = ()


# phi::DataType's order, in which Paddle's grouping closes the last group of each dtype
_DTYPE_ORDER = ("bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64", "float32",
                "float64", "complex64", "complex128", "float16", "bfloat16")


def assign_group_by_size(tensors, is_sparse_gradient, group_size_limits, tensor_indices=()):
    """Paddle's reducer grouping (core.eager_assign_group_by_size): lists of tensor indices. Tensors of one dtype
    fill a group until its bytes reach the limit (group_size_limits[k] for a dtype's k-th group, the last limit
    from then on); a sparse gradient is a group of its own. `tensor_indices` renames the tensors' positions (and
    keeps the groups in the order they closed, where otherwise they are sorted by their first index)."""
    groups, open_groups, limit_index = [], {}, {}
    for i, t in enumerate(tensors):
        index = tensor_indices[i] if tensor_indices else i
        if is_sparse_gradient[index]:
            groups.append([index])
            continue
        dtype = t.dtype.name
        members, size = open_groups.get(dtype, ([], 0))
        members.append(index)
        size += t._data.size * t._data.dtype.itemsize
        k = limit_index.setdefault(dtype, 0)
        if size >= group_size_limits[k]:
            groups.append(members)
            members, size = [], 0
            limit_index[dtype] = min(k + 1, len(group_size_limits) - 1)
        open_groups[dtype] = (members, size)
    rank = {name: r for r, name in enumerate(_DTYPE_ORDER)}
    groups += [members for _, (members, _) in sorted(open_groups.items(), key=lambda e: rank.get(e[0], len(rank)))
               if members]
    return groups if tensor_indices else sorted(groups, key=lambda g: g[0])


def _make_buckets(params, first_limit, limit):
    """The buckets of `params` (in the order their gradients arrive), grouped as Paddle's reducer groups them."""
    groups = assign_group_by_size(params, [False] * len(params), [first_limit, limit])
    return [_Bucket([params[i] for i in g]) for g in groups]


def _leaves_reached(outputs):
    """ids of the leaf tensors the graph of `outputs` reaches."""
    stack, seen, leaves = [], set(), set()
    for t in _tensors_in(outputs):
        if t._node is None:
            leaves.add(id(t))
        else:
            stack.append(t._node)
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for e in node.edges:
            if e is None:
                continue
            if e.__class__ is tuple:
                stack.append(e[0])
            else:
                leaves.add(id(e))
    return leaves


def _tensors_in(value):
    if isinstance(value, Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _tensors_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _tensors_in(v)


class DataParallel(Layer):
    """Run `layers` data-parallel over the processes of `group` (the world by default). Call
    paddle.distributed.init_parallel_env() first; with one process it is a plain wrapper."""

    def __init__(self, layers, strategy=None, comm_buffer_size=25, last_comm_buffer_size=1,
                 find_unused_parameters=False, group=None):
        if in_static_mode():
            raise RuntimeError("paddle.DataParallel is for dynamic mode; in static mode use "
                               "fleet.distributed_optimizer(optimizer).minimize(loss)")
        if not isinstance(layers, Layer):
            raise TypeError(f"paddle.DataParallel: layers must be a paddle.nn.Layer, received {type(layers).__name__}")
        for name, value in (("comm_buffer_size", comm_buffer_size), ("last_comm_buffer_size", last_comm_buffer_size)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"paddle.DataParallel: {name} must be a positive number of MB, received {value!r}")
        super().__init__()
        self._layers = layers
        self.find_unused_parameters = bool(find_unused_parameters)
        self._grad_sync = True
        self._reducer = None
        self.group = None
        if group is None and not is_initialized():
            if ParallelEnv().world_size > 1:
                raise RuntimeError("paddle.DataParallel: this is one of several processes; call "
                                   "paddle.distributed.init_parallel_env() before wrapping the model")
            return
        self.group = resolve_group(group, "DataParallel")
        if self.group.nranks < 2 or not self.group.is_member():
            return
        self._sync_params_buffers()
        params = [p for p in layers.parameters() if not p.stop_gradient]
        if params:
            self._reducer = _Reducer(params, self.group, comm_buffer_size, last_comm_buffer_size,
                                     self.find_unused_parameters)

    def _sync_params_buffers(self):
        """Every replica starts from the first rank's parameters and buffers."""
        src = self.group.ranks[0]
        for t in [*self._layers.parameters(), *self._layers.buffers()]:
            broadcast(t, src, group=self.group)

    def forward(self, *inputs, **kwargs):
        outputs = self._layers(*inputs, **kwargs)
        if self._reducer is not None and self._grad_sync and is_grad_enabled():
            self._reducer.prepare_for_backward(outputs)
        return outputs

    @contextlib.contextmanager
    def no_sync(self):
        """Backward inside accumulates gradients locally, without all-reduce (gradient accumulation);
        the first backward outside all-reduces the accumulated gradients."""
        previous = self._grad_sync
        self._grad_sync = False
        try:
            yield
        finally:
            self._grad_sync = previous

    def scale_loss(self, loss):
        return loss  # gradients are averaged over the replicas; the loss needs no scaling

    def apply_collective_grads(self):
        pass  # the reducer all-reduces during backward

    # the wrapped layer's names, as Paddle's DataParallel presents them
    def state_dict(self, *args, **kwargs):
        return self._layers.state_dict(*args, **kwargs)

    def set_state_dict(self, state_dict, use_structured_name=True):
        return self._layers.set_state_dict(state_dict, use_structured_name)

    set_dict = load_dict = set_state_dict
