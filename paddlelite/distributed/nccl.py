"""The NCCL communicator: collectives on CuPy arrays through cupy.cuda.nccl, bootstrapped over MPI.

Rank 0 of the group's MPI communicator creates the NCCL unique id and broadcasts it over MPI; every
rank then joins the NCCL communicator on its own GPU. Every collective runs on the communicator's own
CUDA stream: the stream first waits for the work already queued on the caller's stream (the inputs
are ready), and the returned request's wait() makes the caller's stream wait for the collective --
stream ordering, no host synchronisation, so gradient buckets all-reduce while backward keeps
computing on the default stream.
"""
import numpy as np

from .mpi import MPICommunicator


def nccl_available():
    try:
        from cupy.cuda import nccl
        return nccl.available if hasattr(nccl, "available") else True
    except Exception:
        return False


class CudaRequest:
    """A collective queued on the communication stream; wait() orders the caller's stream after it."""

    def __init__(self, event, keep, then=None):
        self._event = event
        self._keep = keep  # the buffers must outlive the collective
        self._then = then
        self._done = False

    def wait(self):
        if not self._done:
            import cupy
            cupy.cuda.get_current_stream().wait_event(self._event)
            self._done = True
            self._keep = None
            if self._then is not None:
                self._then()
        return True

    def is_completed(self):
        return self._done or self._event.done


class NCCLCommunicator(MPICommunicator):
    """NCCL for arrays; barrier and Python objects over the MPI communicator it was bootstrapped on."""

    backend = "NCCL"  # `blocking` is accepted and needs nothing: collectives are ordered on CUDA streams

    def __init__(self, mpi_comm, device_id):
        import cupy
        from cupy.cuda import nccl
        super().__init__(mpi_comm)
        self._nccl = nccl
        uid = nccl.get_unique_id() if self.rank == 0 else None
        uid = mpi_comm.bcast(uid, root=0)
        with cupy.cuda.Device(device_id):
            self.nccl = nccl.NcclCommunicator(self.nranks, uid, self.rank)
            self.stream = cupy.cuda.Stream(non_blocking=True)
        self._ops = {"sum": nccl.NCCL_SUM, "prod": nccl.NCCL_PROD, "max": nccl.NCCL_MAX, "min": nccl.NCCL_MIN}
        if hasattr(nccl, "NCCL_AVG"):
            self._ops["avg"] = nccl.NCCL_AVG
        self._types = {np.dtype(k): getattr(nccl, v) for k, v in (
            ("int8", "NCCL_INT8"), ("uint8", "NCCL_UINT8"), ("bool", "NCCL_UINT8"), ("int32", "NCCL_INT32"),
            ("uint32", "NCCL_UINT32"), ("int64", "NCCL_INT64"), ("uint64", "NCCL_UINT64"),
            ("float16", "NCCL_FLOAT16"), ("float32", "NCCL_FLOAT32"), ("float64", "NCCL_FLOAT64"))}

    # ---- launching on the communication stream --------------------------------------------------
    def _launch(self, call, keep, then=None):
        import cupy
        self.stream.wait_event(cupy.cuda.get_current_stream().record())
        call(self.stream.ptr)
        return CudaRequest(self.stream.record(), keep, then)

    def _flat(self, a):
        """(pointer, element count, NCCL type) of a contiguous array; complex travels as float pairs."""
        if a.dtype.kind == "c":
            a = a.view(a.real.dtype)
        nccl_type = self._types.get(a.dtype)
        if nccl_type is None:
            raise TypeError(f"NCCL collective: dtype {a.dtype} is not supported (int16/bfloat16: cast first)")
        return a.data.ptr, a.size, nccl_type

    def _op(self, reduce, dtype):
        if dtype == np.bool_:
            return self._ops["max" if reduce in ("sum", "max") else "min"]
        if dtype.kind == "c" and reduce not in ("sum", "avg"):
            raise TypeError(f"NCCL collective: reduce '{reduce}' is not defined for complex dtype {dtype}")
        return self._ops[reduce]

    @staticmethod
    def _contig(a):
        import cupy
        return cupy.ascontiguousarray(a)

    # ---- collectives ----------------------------------------------------------------------------
    def all_reduce(self, x, out, reduce, blocking=False):
        x = self._contig(x)
        (src, n, t), (dst, _, _) = self._flat(x), self._flat(out)
        then = None
        if reduce == "avg" and "avg" not in self._ops:  # NCCL < 2.10: sum, then divide (as ncclAvg does)
            reduce, then = "sum", lambda: _divide(out, self.nranks)
        op = self._op(reduce, x.dtype)
        return self._launch(lambda s: self.nccl.allReduce(src, dst, n, t, op, s), (x, out), then)

    def reduce(self, x, out, reduce, root, blocking=False):
        x = self._contig(x)
        (src, n, t), (dst, _, _) = self._flat(x), self._flat(out)
        op = self._op(reduce, x.dtype)
        return self._launch(lambda s: self.nccl.reduce(src, dst, n, t, op, root, s), (x, out))

    def broadcast(self, buf, root, blocking=False):
        ptr, n, t = self._flat(buf)
        return self._launch(lambda s: self.nccl.broadcast(ptr, ptr, n, t, root, s), (buf,))

    def all_gather(self, x, out, blocking=False):
        x = self._contig(x)
        (src, n, t), (dst, _, _) = self._flat(x), self._flat(out)
        return self._launch(lambda s: self.nccl.allGather(src, dst, n, t, s), (x, out))

    def reduce_scatter(self, x, out, reduce, blocking=False):
        x = self._contig(x)
        (src, _, t), (dst, n, _) = self._flat(x), self._flat(out)
        op = self._op(reduce, x.dtype)
        return self._launch(lambda s: self.nccl.reduceScatter(src, dst, n, t, op, s), (x, out))

    def _exchange(self, sends, recvs):
        """Grouped point-to-point: sends [(array, peer)], recvs [(array, peer)] in one NCCL group."""
        nccl = self._nccl

        def call(s):
            nccl.groupStart()
            for a, peer in sends:
                ptr, n, t = self._flat(a)
                self.nccl.send(ptr, n, t, peer, s)
            for a, peer in recvs:
                ptr, n, t = self._flat(a)
                self.nccl.recv(ptr, n, t, peer, s)
            nccl.groupEnd()
        return self._launch(call, (sends, recvs))

    def _blocks(self, a, splits=None):
        """`a` cut along its first dim into one contiguous block per rank: `splits` rows each (equal parts
        when None)."""
        a = self._contig(a)
        rows = [a.shape[0] // self.nranks] * self.nranks if splits is None else list(splits)
        starts = [sum(rows[:p]) for p in range(self.nranks)]
        return [a[s:s + r] for s, r in zip(starts, rows)]

    def alltoall(self, x, out, blocking=False, in_splits=None, out_splits=None):
        xs, outs = self._blocks(x, in_splits), self._blocks(out, out_splits)
        return self._exchange([(xs[p], p) for p in range(self.nranks)], [(outs[p], p) for p in range(self.nranks)])

    def scatter(self, x, out, root, blocking=False):
        sends = list(zip(self._blocks(x), range(self.nranks))) if self.rank == root else []
        return self._exchange(sends, [(out, root)])

    def send(self, x, peer, blocking=False):
        return self._exchange([(self._contig(x), peer)], [])

    def recv(self, out, peer, blocking=False):
        return self._exchange([], [(out, peer)])

    def barrier(self, blocking=False):
        import cupy
        self.stream.synchronize()
        cupy.cuda.get_current_stream().synchronize()
        return super().barrier(blocking)

    def free(self):
        self.nccl.destroy()


def _divide(a, n):
    a[...] = a / n if a.dtype.kind in "fc" else (a / n).astype(a.dtype)  # integers truncate toward zero
