"""DataLoader worker processes (num_workers > 0), as Paddle runs them.

The main process owns the index sampler and sends each batch's indices to one worker (round robin over
the workers still running) with a sequence number; at most prefetch_factor * num_workers batches are
in flight. A worker fetches and collates the batch with NumPy only — it pins its device to the CPU, so
CuPy is never initialised in a forked child — and ships it through shared memory
(`shared_memory.pack`). The main process reorders batches by sequence number and wraps the arrays as
Tensors on the current place.

Seeding is Paddle's: the iterator draws `base_seed` from NumPy's global generator; worker i seeds
`random` and `paddle.seed` with base_seed + i and NumPy with a hash of (base_seed, i). So
`np.random.seed(s)` fixes both the sampling order and every worker's random augmentations.

An IterableDataset is iterated by every worker on its own copy (split it with get_worker_info()); a
worker whose iterator is exhausted reports so and gets no more work.
"""
import multiprocessing
import os
import pickle
import queue
import random
import sys
import threading
import time
import traceback

import numpy as np

from . import shared_memory
from .collate import to_numpy
from .dataloader.dataloader_iter import _DataLoaderIterBase
from .fetcher import make_fetcher

__all__ = ["get_worker_info", "WorkerInfo"]

_POLL_S = 0.5  # how often a blocked side checks that the other is still alive
_JOIN_S = 1.0  # then busy workers are killed: nothing they could still produce is wanted

_worker_info = None


def get_worker_info():
    """In a DataLoader worker process: its WorkerInfo (id, num_workers, dataset, seed); else None."""
    return _worker_info


class WorkerInfo:
    """Read-only facts about the current worker process."""

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            object.__setattr__(self, k, v)

    def __setattr__(self, key, value):
        raise RuntimeError(f"WorkerInfo: attributes are read-only (tried to set {key!r})")


def worker_seed_states(base_seed, worker_id):
    """Four 32-bit words seeding NumPy in a worker: Paddle's (and NumPy SeedSequence's) hash-and-mix of
    (worker_id, base_seed low word, base_seed high word, 0), so workers get Paddle's random streams."""
    mask = 0xFFFFFFFF
    hash_mult = [0x43B0D7E5]

    def hashmix(value):
        value = (value ^ hash_mult[0]) & mask
        hash_mult[0] = (hash_mult[0] * 0x931E8875) & mask
        value = (value * hash_mult[0]) & mask
        return value ^ (value >> 16)

    def mix(x, y):
        r = ((0xCA01F9DD * x) - (0x4973F715 * y)) & mask
        return r ^ (r >> 16)

    pool = [hashmix(v) for v in (worker_id, base_seed & mask, base_seed >> 32, 0)]
    for i in range(4):
        for j in range(4):
            if i != j:
                pool[j] = mix(pool[j], hashmix(pool[i]))
    out_mult = 0x8B51F9DD
    states = []
    for p in pool:
        state = (p ^ out_mult) & mask
        out_mult = (out_mult * 0x58F38DED) & mask
        state = (state * out_mult) & mask
        states.append(state ^ (state >> 16))
    return states


class _Resume:
    """Start a new epoch (persistent workers): rebuild the fetcher, accept tasks of `epoch`."""

    def __init__(self, epoch):
        self.epoch = epoch


class _Exhausted:
    """A worker's IterableDataset iterator has no samples left."""

    def __init__(self, worker_id, epoch):
        self.worker_id, self.epoch = worker_id, epoch


class _WorkerError:
    """An exception raised in a worker, re-raised in the main process with the worker's traceback."""

    def __init__(self, worker_id):
        exc_type, exc, tb = sys.exc_info()
        try:
            pickle.dumps(exc_type)
            self.exc_type = exc_type
        except Exception:  # a class defined inside a function cannot travel between processes
            self.exc_type = RuntimeError
        self.message = (f"DataLoader worker({worker_id}) caught {exc_type.__name__} with message:\n"
                        + "".join(traceback.format_exception(exc_type, exc, tb)))

    def reraise(self):
        try:
            err = self.exc_type(self.message)
        except Exception:
            err = RuntimeError(self.message)
        raise err


def _worker_loop(spec, worker_id, index_queue, result_queue, done_event, base_seed, shm_prefix):
    global _worker_info
    from ..device import set_device
    from ..framework.random import seed as paddle_seed
    try:
        set_device("cpu")  # never initialise CUDA in a forked child
        random.seed(base_seed + worker_id)
        paddle_seed(base_seed + worker_id)
        np.random.seed(worker_seed_states(base_seed, worker_id))
        _worker_info = WorkerInfo(id=worker_id, num_workers=spec["num_workers"], dataset=spec["dataset"],
                                  seed=base_seed)
        init_error, fetcher = None, None
        try:
            if spec["worker_init_fn"] is not None:
                spec["worker_init_fn"](worker_id)
            fetcher = make_fetcher(*spec["fetcher"])
        except Exception:
            init_error = _WorkerError(worker_id)
        epoch, exhausted = 0, False
        while os.getppid() == spec["parent"]:
            try:
                task = index_queue.get(timeout=_POLL_S)
            except queue.Empty:
                continue
            if task is None:
                break
            if isinstance(task, _Resume):
                epoch, exhausted = task.epoch, False
                if init_error is None:
                    try:
                        fetcher = make_fetcher(*spec["fetcher"])
                    except Exception:
                        init_error = _WorkerError(worker_id)
                continue
            task_epoch, idx, indices = task
            if done_event.is_set() or exhausted or task_epoch != epoch:
                continue
            if init_error is not None:
                result_queue.put((epoch, idx, init_error))
                continue
            try:
                payload = shared_memory.pack(to_numpy(fetcher.fetch(indices)), shm_prefix,
                                             spec["use_shared_memory"])
            except StopIteration:
                if not spec["fetcher"][0]:
                    payload = _WorkerError(worker_id)
                else:
                    exhausted = True
                    result_queue.put(_Exhausted(worker_id, epoch))
                    continue
            except Exception:
                payload = _WorkerError(worker_id)
            result_queue.put((epoch, idx, payload))
        orphaned = os.getppid() != spec["parent"]
        if orphaned:  # the main process died: nobody will map the batches sent to it
            shared_memory.remove_segments(shm_prefix)
    except KeyboardInterrupt:
        orphaned = False  # the main process handles the interrupt and shuts the workers down
    if done_event.is_set() or orphaned:
        # exit without waiting for the main process to read: an orphan's queue feeder may block forever on a
        # full pipe whose read end the workers themselves still hold open
        result_queue.cancel_join_thread()
    result_queue.close()


class MultiProcessIter(_DataLoaderIterBase):
    """Iterator over a DataLoader's batches built by worker processes (see the module doc). Threads sharing it
    take turns: each batch goes to one of them."""

    def __init__(self, loader):
        self._loader = loader
        self._lock = threading.RLock()
        n = loader.num_workers
        self._base_seed = np.random.randint(low=0, high=sys.maxsize)
        self._capacity = loader.prefetch_factor * n
        self._timeout = loader.timeout
        self._shm_prefix = f"paddlelite-dl-{os.getpid()}-{id(self)}"
        ctx = multiprocessing.get_context("fork")
        self._result_queue = ctx.Queue()
        self._done_event = ctx.Event()
        self._index_queues, self._workers = [], []
        spec = {"parent": os.getpid(), "dataset": loader.dataset, "num_workers": n, "worker_init_fn": loader.worker_init_fn,
                "use_shared_memory": loader.use_shared_memory,
                "fetcher": (loader._iterable, loader.dataset, loader.auto_collate_batch, loader._collate,
                            loader.drop_last)}
        self._shutdown_done = False
        try:
            for i in range(n):
                q = ctx.Queue()
                w = ctx.Process(target=_worker_loop, daemon=True,
                                args=(spec, i, q, self._result_queue, self._done_event, self._base_seed,
                                      self._shm_prefix))
                w.start()
                self._index_queues.append(q)
                self._workers.append(w)
        except BaseException:
            self._shutdown()
            raise
        self._epoch = 0
        self._start_epoch()

    def _start_epoch(self):
        self._active = [True] * len(self._workers)
        self._next_worker = 0
        self._send_idx = self._rcvd_idx = 0
        self._task_worker, self._results = {}, {}
        self._sampler_iter = iter(self._loader._index_sampler())
        self._sampler_done = False
        for _ in range(self._capacity):
            self._put_task()

    def _reset(self):
        """A new epoch on the same (persistent) workers; stale batches in flight are dropped."""
        with self._lock:
            for payload in self._results.values():
                self._drop(payload)
            self._epoch += 1
            for q in self._index_queues:
                q.put(_Resume(self._epoch))
            self._start_epoch()

    def _put_task(self):
        if self._sampler_done or len(self._task_worker) >= self._capacity:
            return
        n = len(self._workers)
        for k in range(n):
            wid = (self._next_worker + k) % n
            if self._active[wid]:
                break
        else:
            return
        try:
            indices = next(self._sampler_iter)
        except StopIteration:
            self._sampler_done = True
            return
        self._next_worker = (wid + 1) % n
        self._index_queues[wid].put((self._epoch, self._send_idx, indices))
        self._task_worker[self._send_idx] = wid
        self._send_idx += 1

    def __next__(self):
        with self._lock:
            return self._next()

    def _next(self):
        try:
            while True:
                idx = self._rcvd_idx
                if idx in self._results:
                    payload = self._results.pop(idx)
                elif idx < self._send_idx and not self._active[self._task_worker[idx]]:
                    payload = None  # its worker's iterator ran out before this batch
                elif idx == self._send_idx:
                    if not self._loader._persistent_workers:
                        self._shutdown()
                    raise StopIteration
                else:
                    self._receive()
                    continue
                del self._task_worker[idx]
                self._rcvd_idx += 1
                self._put_task()
                if payload is not None:
                    if isinstance(payload, _WorkerError):
                        payload.reraise()
                    return self._loader._deliver(shared_memory.unpack(payload))
        except StopIteration:
            raise
        except BaseException:  # worker errors, timeouts, KeyboardInterrupt: no worker outlives them
            self._shutdown()
            raise

    def _receive(self):
        """Block until one message from a worker arrives (checking for dead workers and the timeout)."""
        start = time.monotonic()
        while True:
            try:
                msg = self._result_queue.get(timeout=_POLL_S)
            except queue.Empty:
                dead = [w for w in self._workers if not w.is_alive()]
                if dead:
                    raise RuntimeError("DataLoader: worker process(es) exited unexpectedly: " + ", ".join(
                        f"pid {w.pid} (exit code {w.exitcode})" for w in dead))
                if self._timeout and time.monotonic() - start > self._timeout:
                    raise RuntimeError(f"DataLoader: timed out after {self._timeout} seconds waiting for a "
                                       f"batch from the workers (timeout={self._timeout})")
                continue
            if isinstance(msg, _Exhausted):
                if msg.epoch == self._epoch:
                    self._active[msg.worker_id] = False
                    self._put_task()
                return
            epoch, idx, payload = msg
            if epoch != self._epoch:
                self._drop(payload)
                continue
            self._results[idx] = payload
            return

    @staticmethod
    def _drop(payload):
        if isinstance(payload, bytes):
            shared_memory.discard(payload)

    def _shutdown(self):
        if self._shutdown_done:
            return
        self._shutdown_done = True
        self._done_event.set()
        for q in self._index_queues:
            q.put(None)
        deadline = time.monotonic() + _JOIN_S
        for w in self._workers:
            w.join(max(deadline - time.monotonic(), 0))
        for w in self._workers:
            if w.is_alive():
                w.kill()
                w.join()
        try:
            while True:
                msg = self._result_queue.get_nowait()
                if isinstance(msg, tuple):
                    self._drop(msg[2])
        except (queue.Empty, OSError, EOFError):
            pass
        for payload in self._results.values():
            self._drop(payload)
        self._results = {}
        shared_memory.remove_segments(self._shm_prefix)
        for q in self._index_queues + [self._result_queue]:
            q.cancel_join_thread()
            q.close()

    def __del__(self):
        if hasattr(self, "_shutdown_done"):
            self._shutdown()
