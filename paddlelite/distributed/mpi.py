"""The MPI communicator: collectives on NumPy arrays through mpi4py (nonblocking, MPI-3).

Every method writes its result into an output array the caller allocated and returns a request whose
`wait()` completes it, so the same calls serve blocking ops (wait at once) and overlapped work
(DataParallel's buckets, isend/irecv). CuPy arrays without NCCL travel through host copies.
"""
import glob
import os

import numpy as np

_MPI = None
MPICH_SEGMENTS = "/dev/shm/mpich_shm_*"  # MPICH's intra-node shared memory, one file per node and job (Linux)


def mpi():
    """mpi4py.MPI, imported on first use (importing it initialises MPI)."""
    global _MPI
    if _MPI is None:
        try:
            from mpi4py import MPI
        except ImportError as e:
            raise ImportError("paddle.distributed needs mpi4py and an MPI runtime: "
                              "pip install 'paddlelite[distributed]' (mpi4py + mpich)") from e
        _MPI = MPI
    return _MPI


def mapped_segments(pids="self"):
    """The MPICH shared-memory files the processes `pids` ("self", or "[0-9]*" for every process this user may
    read) map now."""
    mapped = set()
    for maps in glob.glob(f"/proc/{pids}/maps"):
        try:
            with open(maps) as f:
                mapped.update(line.split(None, 5)[5].strip() for line in f if "/mpich_shm_" in line)
        except (OSError, IndexError):  # a process that ended meanwhile, or another user's
            continue
    return mapped


def remove_segments(paths):
    for path in paths:
        try:
            os.remove(path)
        except OSError:  # removed by another rank meanwhile
            pass


def abort(code):
    """MPI_Abort the whole job, after removing the shared-memory segment this rank maps: MPICH removes it in
    MPI_Finalize, which an aborted job never reaches, so each failed job would leave one in /dev/shm."""
    remove_segments(mapped_segments())
    mpi().COMM_WORLD.Abort(code)


def _mpi_native(dtype):
    """Whether MPI reduces this dtype itself: not bfloat16 and other extension types, nor float16 (MPICH has a half
    type, Open MPI has none)."""
    return dtype.kind in "biufc" and dtype.type.__module__ == "numpy" and dtype != np.float16


class Request:
    """A pending operation: wait() completes it (idempotent), then runs the `then` steps once."""

    def __init__(self, mpi_requests=(), then=()):
        self._requests = list(mpi_requests)
        self._then = then
        self._done = False

    def wait(self):
        if not self._done:
            if self._requests:
                mpi().Request.Waitall(self._requests)
            self._done = True
            for step in self._then:
                step()
        return True

    def is_completed(self):
        if not self._done and (not self._requests or mpi().Request.Testall(self._requests)):
            self._requests = []
            self.wait()
        return self._done


DONE = Request()
DONE._done = True


def _after(request, step, blocking):
    """`step` run once `request` completed: now for a blocking call (its caller waits for nothing), else on wait()."""
    later = Request([], [request.wait, step])
    if blocking:
        later.wait()
    return later


class MPICommunicator:
    """Collectives over one MPI communicator; arrays are NumPy (CuPy ones are staged through the host).

    Every collective takes `blocking`: True runs MPI's blocking call (lower latency: the op's forward
    waits at once anyway), False starts the nonblocking I-form and returns its request."""

    backend = "MPI"

    def __init__(self, comm):
        MPI = mpi()
        self.comm = comm
        self.rank = comm.Get_rank()
        self.nranks = comm.Get_size()
        self._ops = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "prod": MPI.PROD}
        self._bool_ops = {"sum": MPI.LOR, "max": MPI.LOR, "min": MPI.LAND, "prod": MPI.LAND}  # MPI: logical only

    # ---- staging: MPI reads and writes host memory ----------------------------------------------
    @staticmethod
    def _host(a):
        return np.ascontiguousarray(a) if isinstance(a, np.ndarray) else a.get()

    @staticmethod
    def _sink(out):
        """A host buffer for `out` and the step that copies it back when `out` is not one already."""
        if isinstance(out, np.ndarray) and out.flags.c_contiguous:
            return out, None
        host = np.empty(out.shape, dtype=out.dtype)
        return host, lambda: _store(out, host)

    def _op(self, reduce, dtype):
        return (self._bool_ops if dtype == np.bool_ else self._ops)[reduce]

    def _start(self, name, blocking, *args, then=(), **kwargs):
        """MPI's `name` (e.g. Allreduce) when blocking, else its nonblocking I-form; `then` steps (None
        skipped) run once it completed."""
        steps = [t for t in then if t is not None]
        if blocking:
            getattr(self.comm, name)(*args, **kwargs)
            for step in steps:
                step()
            return DONE
        return Request([getattr(self.comm, "I" + name.lower())(*args, **kwargs)], steps)

    # ---- collectives ----------------------------------------------------------------------------
    def all_reduce(self, x, out, reduce, blocking=False):
        src = self._host(x)
        if not _mpi_native(src.dtype):  # e.g. bfloat16: reduce in float32, cast back
            wide = np.empty(src.shape, np.float32)
            req = self.all_reduce(src.astype(np.float32), wide, reduce, blocking)
            return _after(req, lambda: _store(out, wide.astype(out.dtype)), blocking)
        dst, back = self._sink(out)
        if src is dst:  # in place (DataParallel's buckets): MPI wants MPI_IN_PLACE, not aliased buffers
            src = mpi().IN_PLACE
        average = None
        if reduce == "avg":  # MPI has no average: sum, then divide (integers truncate, as NCCL's ncclAvg)
            reduce, average = "sum", lambda: np.copyto(dst, (dst / self.nranks).astype(dst.dtype))
        return self._start("Allreduce", blocking, src, dst, op=self._op(reduce, dst.dtype), then=(average, back))

    def reduce(self, x, out, reduce, root, blocking=False):
        if reduce == "avg" or not _mpi_native(np.dtype(x.dtype)):  # every rank computes it; the root keeps it
            whole = np.empty(x.shape, x.dtype)
            req = self.all_reduce(x, whole, reduce, blocking)
            return req if self.rank != root else _after(req, lambda: _store(out, whole), blocking)
        src, (dst, back) = self._host(x), self._sink(out)
        mine = self.rank == root
        return self._start("Reduce", blocking, src, dst if mine else None, op=self._op(reduce, src.dtype), root=root,
                           then=(back if mine else None,))

    def broadcast(self, buf, root, blocking=False):
        host, back = self._sink(buf)
        if back is not None and self.rank == root:
            host[...] = self._host(buf)
        return self._start("Bcast", blocking, host, root=root, then=(back if self.rank != root else None,))

    def all_gather(self, x, out, blocking=False):
        src, (dst, back) = self._host(x), self._sink(out)
        return self._start("Allgather", blocking, src, dst, then=(back,))

    def reduce_scatter(self, x, out, reduce, blocking=False):
        src = self._host(x)
        if reduce == "avg" or not _mpi_native(src.dtype):
            full = np.empty_like(src)
            n = out.shape[0]
            req = self.all_reduce(src, full, reduce, blocking)
            return _after(req, lambda: _store(out, full[self.rank * n:(self.rank + 1) * n]), blocking)
        dst, back = self._sink(out)
        return self._start("Reduce_scatter_block", blocking, src, dst, op=self._op(reduce, src.dtype), then=(back,))

    def alltoall(self, x, out, blocking=False, in_splits=None, out_splits=None):
        """Rows in_splits[p] of x go to rank p, out_splits[p] rows of out come from it (None: equal parts)."""
        src, (dst, back) = self._host(x), self._sink(out)
        if in_splits is None and out_splits is None:
            return self._start("Alltoall", blocking, src, dst, then=(back,))
        return self._start("Alltoallv", blocking, [src, _counts(src, in_splits, self.nranks)],
                           [dst, _counts(dst, out_splits, self.nranks)], then=(back,))

    def scatter(self, x, out, root, blocking=False):
        src, (dst, back) = self._host(x), self._sink(out)
        return self._start("Scatter", blocking, src if self.rank == root else None, dst, root=root, then=(back,))

    def send(self, x, peer, blocking=False):
        return self._start("Send", blocking, self._host(x), dest=peer)

    def recv(self, out, peer, blocking=False):
        dst, back = self._sink(out)
        return self._start("Recv", blocking, dst, source=peer, then=(back,))

    def barrier(self, blocking=False):
        return self._start("Barrier", blocking)

    # ---- Python objects (pickled by mpi4py, as Paddle pickles them) -----------------------------
    def all_gather_object(self, obj):
        return self.comm.allgather(obj)

    def broadcast_object(self, obj, root):
        return self.comm.bcast(obj, root=root)

    def scatter_object(self, objs, root):
        return self.comm.scatter(objs, root=root)

    def send_object(self, obj, peer):
        self.comm.send(obj, dest=peer)

    def recv_object(self, peer):
        return self.comm.recv(source=peer)

    def free(self):
        if self.comm != mpi().COMM_WORLD:
            self.comm.Free()


def _counts(a, splits, n):
    """MPI's (counts, displacements) in elements for `a` cut along its first dim into `splits` rows
    (equal parts when None)."""
    rows = [a.shape[0] // n] * n if splits is None else list(splits)
    per_row = a.size // a.shape[0] if a.shape[0] else 0
    counts = [r * per_row for r in rows]
    return counts, [sum(counts[:p]) for p in range(n)]


def _store(out, host):
    out[...] = _to_device(host, out)


def _to_device(host, like):
    """`host` as an array of `like`'s module (CuPy arrays come back from the host staging copy)."""
    if isinstance(like, np.ndarray):
        return host
    import cupy
    return cupy.asarray(host)
