"""Collective communication ops (Paddle's legacy names: c_allreduce_sum, c_broadcast, ...).

They are registered like any other op, so static programs get them from the same registry (the
data-parallel pass appends c_allreduce_sum after the backward) and the Executor runs them. The forward
hands its array to the communicator of the op's ring (a process group): MPI for NumPy arrays, NCCL for
CuPy arrays. Gradients are Paddle's legacy grad makers: c_allreduce_sum's is c_allreduce_sum (each
rank's input reaches every rank's output), or c_identity under model parallelism; the model-parallel
pair c_identity (forward a copy, backward an all-reduce) and mp_allreduce_sum (forward an all-reduce,
backward a copy) are each other's gradient; the other collectives have none. Communicators live on a higher floor
(paddlelite.distributed), which installs the lookup with `set_communicator_lookup`; this module never
imports upward.
"""
import numpy as np

from .registry import Meta, register_op

REDUCE_OPS = ("sum", "max", "min", "prod", "avg")  # index = paddle.distributed.ReduceOp value

_lookup = [None]


def set_communicator_lookup(fn):
    """fn(ring_id, xp) -> the communicator of that ring for arrays of module xp. Returns the lookup it
    replaces (None at first)."""
    previous, _lookup[0] = _lookup[0], fn
    return previous


def communicator(ring_id, xp):
    if _lookup[0] is None:
        raise RuntimeError("collective op: no process group exists yet; call "
                           "paddle.distributed.init_parallel_env() first")
    return _lookup[0](ring_id, xp)


def ring_communicator(ring_id, xp):
    """The communicator of ring_id, or None before any process group exists: ops that only synchronise
    (sync_batch_norm) then compute on this process's data alone, as Paddle's kernels do without one."""
    return None if _lookup[0] is None else _lookup[0](ring_id, xp)


def _same(x, **attrs):
    return Meta(x.shape, x.dtype)


def _first_dim(op, shape, factor=None, divisor=None):
    """`shape` with its first dim multiplied by factor or divided by divisor (unknown stays -1)."""
    if not shape:
        raise ValueError(f"op '{op}': X must have at least 1 dim, received a 0-D tensor")
    d = shape[0]
    if d != -1 and divisor is not None and d % divisor:
        raise ValueError(f"op '{op}': the first dim of X ({d}) must be divisible by nranks ({divisor})")
    if d != -1:
        d = d * factor if factor is not None else d // divisor
    return (d, *shape[1:])


# Each collective is written once as a *start* function, start(xp, blocking, x, **attrs) -> (request,
# out): it allocates the output and hands both to the communicator. The op's forward runs it blocking
# and waits; paddle.distributed's sync_op=False APIs start it nonblocking and keep the request as their task.
STARTS = {}


def _collective(type, start, infer, attrs, inputs=("X",), outputs=("Out",), grad=None):
    def forward(xp, *args, **kw):
        req, out = start(xp, True, *args, **kw)
        req.wait()
        return () if out is None else out
    STARTS[type] = start
    return register_op(type, inputs=inputs, outputs=outputs, forward=forward, infer=infer, grad=grad,
                       attrs={"ring_id": 0, "use_calc_stream": False, **attrs})


def _allreduce_start(reduce):
    def start(xp, blocking, x, ring_id, **flags):  # use_calc_stream, use_model_parallel: same result
        out = xp.empty_like(x)
        return communicator(ring_id, xp).all_reduce(x, out, reduce, blocking), out
    return start


def _grad_by(type):
    """Grad maker: dX is op `type` (a collective of the same ring) applied to dOut."""
    def grad(g):
        dout = g.output_grad("Out")
        if dout is not None and g.needs("X"):
            g.set_input_grad("X", g.op(type, dout, ring_id=g.attrs["ring_id"]))
    return grad


def _allreduce_sum_grad(g):
    """Paddle's: every rank's X reaches every rank's Out, so dX is the all-reduced dOut -- unless the op
    sums a model-parallel partial result, whose gradient each rank already holds whole (c_identity)."""
    _grad_by("c_identity" if g.attrs["use_model_parallel"] else "c_allreduce_sum")(g)


def _reduce_start(reduce):
    def start(xp, blocking, x, ring_id, root_id, use_calc_stream):
        out = x.copy()
        return communicator(ring_id, xp).reduce(x, out, reduce, root_id, blocking), out
    return start


C_ALLREDUCE_SUM = _collective("c_allreduce_sum", _allreduce_start("sum"), _same, {"use_model_parallel": False},
                              grad=_allreduce_sum_grad)
for _name in REDUCE_OPS:
    if _name != "sum":
        _collective(f"c_allreduce_{_name}", _allreduce_start(_name), _same, {"use_model_parallel": False})
    _collective(f"c_reduce_{_name}", _reduce_start(_name), _same, {"root_id": 0})


def _broadcast(xp, blocking, x, ring_id, root, use_calc_stream):
    out = x.copy()
    return communicator(ring_id, xp).broadcast(out, root, blocking), out


def _allgather(xp, blocking, x, ring_id, nranks, use_calc_stream):
    out = xp.empty((nranks * x.shape[0], *x.shape[1:]), dtype=x.dtype)
    return communicator(ring_id, xp).all_gather(x, out, blocking), out


def _reducescatter(xp, blocking, x, ring_id, nranks, reduce, use_calc_stream):
    out = xp.empty((x.shape[0] // nranks, *x.shape[1:]), dtype=x.dtype)
    return communicator(ring_id, xp).reduce_scatter(x, out, reduce, blocking), out


def _alltoall(xp, blocking, x, ring_id, use_calc_stream, in_split_sizes, out_split_sizes):
    """Part p of X's first dim goes to rank p; part p of Out comes from rank p. Split sizes (rows per
    rank) default to equal parts."""
    rows = sum(out_split_sizes) if out_split_sizes else x.shape[0]
    out = xp.empty((rows, *x.shape[1:]), dtype=x.dtype)
    return communicator(ring_id, xp).alltoall(x, out, blocking, in_split_sizes or None, out_split_sizes or None), out


def _alltoall_infer(x, out_split_sizes, **attrs):
    if not x.shape:
        raise ValueError("op 'alltoall': X must have at least 1 dim, received a 0-D tensor")
    return Meta((sum(out_split_sizes), *x.shape[1:]) if out_split_sizes else x.shape, x.dtype)


def _scatter(xp, blocking, x, ring_id, root, nranks, use_calc_stream):
    out = xp.empty((x.shape[0] // nranks, *x.shape[1:]), dtype=x.dtype)
    return communicator(ring_id, xp).scatter(x, out, root, blocking), out


def _send(xp, blocking, x, ring_id, peer, use_calc_stream):
    return communicator(ring_id, xp).send(x, peer, blocking), None


def _recv(xp, blocking, ring_id, peer, out_shape, dtype, use_calc_stream, place):
    out = xp.empty(tuple(out_shape), dtype=np.dtype(dtype))
    return communicator(ring_id, xp).recv(out, peer, blocking), out


def _barrier(xp, blocking, ring_id, use_calc_stream, place):
    return communicator(ring_id, xp).barrier(blocking), None


def _resized(op, divisor=None, factor=None):
    return lambda x, nranks, **a: Meta(_first_dim(op, x.shape, factor=factor and nranks,
                                                  divisor=divisor and nranks), x.dtype)


_collective("c_broadcast", _broadcast, _same, {"root": 0})
_collective("c_allgather", _allgather, _resized("c_allgather", factor=True), {"nranks": 1})
_collective("c_reducescatter", _reducescatter, _resized("c_reducescatter", divisor=True),
            {"nranks": 1, "reduce": "sum"})
_collective("alltoall", _alltoall, _alltoall_infer, {"in_split_sizes": [], "out_split_sizes": []})
_collective("c_scatter", _scatter, _resized("c_scatter", divisor=True), {"root": 0, "nranks": 1})
_collective("send_v2", _send, lambda x, **a: (), {"peer": 0}, outputs=())
_collective("recv_v2", _recv, lambda out_shape, dtype, **a: Meta(tuple(out_shape), np.dtype(dtype)),
            {"peer": 0, "out_shape": [], "dtype": "float32", "place": None}, inputs=())
_collective("barrier", _barrier, lambda **a: (), {"place": None}, inputs=(), outputs=())


MP_ALLREDUCE_SUM = _collective("mp_allreduce_sum", _allreduce_start("sum"), _same, {}, grad=_grad_by("c_identity"))
C_IDENTITY = register_op("c_identity", inputs=("X",), outputs=("Out",), forward=lambda xp, x, **attrs: x.copy(),
                         infer=_same, grad=_grad_by("c_allreduce_sum"),
                         attrs={"ring_id": 0, "use_calc_stream": False, "use_model_parallel": True})
