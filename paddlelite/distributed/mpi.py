"""The MPI communicator: collectives on NumPy arrays through mpi4py (nonblocking, MPI-3).

Every method writes its result into an output array the caller allocated and returns a request whose
`wait()` completes it, so the same calls serve blocking ops (wait at once) and overlapped work
(DataParallel's buckets, isend/irecv). CuPy arrays without NCCL travel through host copies.
"""
import numpy as np

_MPI = None


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


def _mpi_op(reduce, dtype):
    MPI = mpi()
    if dtype == np.bool_:  # MPI reduces booleans only with logical ops
        return {"sum": MPI.LOR, "max": MPI.LOR, "min": MPI.LAND, "prod": MPI.LAND}[reduce]
    return {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "prod": MPI.PROD}[reduce]


def _mpi_native(dtype):
    """Whether MPI reduces this dtype itself (bfloat16 and other extension types it does not)."""
    return dtype.kind in "biufc" and dtype.type.__module__ == "numpy"


class Request:
    """A pending operation: wait() completes it (idempotent); `then` runs once after completion."""

    def __init__(self, mpi_requests=(), then=None):
        self._requests = list(mpi_requests)
        self._then = then
        self._done = False

    def wait(self):
        if not self._done:
            if self._requests:
                mpi().Request.Waitall(self._requests)
            self._done = True
            if self._then is not None:
                self._then()
        return True

    def is_completed(self):
        if not self._done and (not self._requests or mpi().Request.Testall(self._requests)):
            self._requests = []
            self.wait()
        return self._done


DONE = Request()
DONE._done = True


class MPICommunicator:
    """Collectives over one MPI communicator; arrays are NumPy (CuPy ones are staged through the host)."""

    backend = "MPI"

    def __init__(self, comm):
        self.comm = comm
        self.rank = comm.Get_rank()
        self.nranks = comm.Get_size()

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

    def _finish(self, mpi_requests, *then):
        steps = [t for t in then if t is not None]
        return Request(mpi_requests, (lambda: [s() for s in steps]) if steps else None)

    # ---- collectives ----------------------------------------------------------------------------
    def all_reduce(self, x, out, reduce):
        src = self._host(x)
        if not _mpi_native(src.dtype):  # e.g. bfloat16: reduce in float32, cast back
            wide = np.empty(src.shape, np.float32)
            req = self.all_reduce(src.astype(np.float32), wide, reduce)
            return Request([], lambda: (req.wait(), _store(out, wide.astype(out.dtype))))
        dst, back = self._sink(out)
        if src is dst:  # in place (DataParallel's buckets): MPI wants MPI_IN_PLACE, not aliased buffers
            src = mpi().IN_PLACE
        req = self.comm.Iallreduce(src, dst, op=_mpi_op("sum" if reduce == "avg" else reduce, dst.dtype))
        if reduce == "avg":  # MPI has no average: sum, then divide (integers truncate, as NCCL's ncclAvg)
            return self._finish([req], lambda: np.copyto(dst, (dst / self.nranks).astype(dst.dtype)), back)
        return self._finish([req], back)

    def reduce(self, x, out, reduce, root):
        if reduce == "avg" or not _mpi_native(np.dtype(x.dtype)):
            return self.all_reduce(x, out, reduce)  # every rank computes it; only the root's is read
        src, (dst, back) = self._host(x), self._sink(out)
        req = self.comm.Ireduce(src, dst if self.rank == root else None, op=_mpi_op(reduce, src.dtype),
                                root=root)
        return self._finish([req], back if self.rank == root else None)

    def broadcast(self, buf, root):
        host, back = self._sink(buf)
        if back is not None and self.rank == root:
            host[...] = self._host(buf)
        return self._finish([self.comm.Ibcast(host, root=root)], back if self.rank != root else None)

    def all_gather(self, x, out):
        src, (dst, back) = self._host(x), self._sink(out)
        return self._finish([self.comm.Iallgather(src, dst)], back)

    def reduce_scatter(self, x, out, reduce):
        src, (dst, back) = self._host(x), self._sink(out)
        if reduce == "avg" or not _mpi_native(src.dtype):
            full = np.empty_like(src)
            self.all_reduce(src, full, reduce).wait()
            n = out.shape[0] if out.ndim else 1
            _store(out, full[self.rank * n:(self.rank + 1) * n])
            return DONE
        req = self.comm.Ireduce_scatter_block(src, dst, op=_mpi_op(reduce, src.dtype))
        return self._finish([req], back)

    def alltoall(self, x, out):
        src, (dst, back) = self._host(x), self._sink(out)
        return self._finish([self.comm.Ialltoall(src, dst)], back)

    def scatter(self, x, out, root):
        src, (dst, back) = self._host(x), self._sink(out)
        return self._finish([self.comm.Iscatter(src if self.rank == root else None, dst, root=root)], back)

    def send(self, x, peer):
        src = self._host(x)
        return Request([self.comm.Isend(src, dest=peer)])

    def recv(self, out, peer):
        dst, back = self._sink(out)
        return self._finish([self.comm.Irecv(dst, source=peer)], back)

    def barrier(self):
        return Request([self.comm.Ibarrier()])

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


def _store(out, host):
    out[...] = _to_device(host, out)


def _to_device(host, like):
    """`host` as an array of `like`'s module (CuPy arrays come back from the host staging copy)."""
    if isinstance(like, np.ndarray):
        return host
    import cupy
    return cupy.asarray(host)
