"""DataLoader(num_workers=N): worker processes, shared-memory batches, seeding, errors and shutdown."""
import glob
import multiprocessing
import os
import random
import signal
import time

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import io
from paddlelite.io import shared_memory
from tests.differential import differential


class Squares(io.Dataset):
    def __init__(self, n, delay=0.0):
        self.n, self.delay = n, delay

    def __getitem__(self, i):
        time.sleep(self.delay)
        return np.array([i, i * i], np.float32), i

    def __len__(self):
        return self.n


def _no_workers_left():
    deadline = time.monotonic() + 5
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    return not multiprocessing.active_children()


def _our_segments():
    return glob.glob(os.path.join(shared_memory.SHM_DIR, f"paddlelite-dl-{os.getpid()}-*"))


def test_workers_give_the_single_process_batches_in_order():
    plain = [(x.numpy(), y.numpy()) for x, y in io.DataLoader(Squares(23), batch_size=4)]
    for workers in (1, 3):
        got = [(x.numpy(), y.numpy()) for x, y in io.DataLoader(Squares(23), batch_size=4, num_workers=workers)]
        assert len(got) == len(plain)
        assert all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) for a, b in zip(plain, got))
    assert _no_workers_left() and not _our_segments()


def test_batches_are_tensors_on_the_current_place_from_shared_memory():
    class Big(io.Dataset):
        def __getitem__(self, i):
            return np.full((256, 256), i, np.float64), {"id": i, "name": f"s{i}"}

        def __len__(self):
            return 6
    for shm in (True, False):
        batches = [b for b in io.DataLoader(Big(), batch_size=3, num_workers=2, use_shared_memory=shm)]
        x, meta = batches[1]
        assert isinstance(x, paddle.Tensor) and x.shape == [3, 256, 256] and x.dtype == paddle.float64
        assert x.place == paddle.device.current_place()
        assert np.array_equal(x.numpy()[:, 0, 0], [3, 4, 5]) and meta["id"].tolist() == [3, 4, 5]
        assert meta["name"] == ["s3", "s4", "s5"]
        x[0, 0, 0] = -1.0  # batches are ordinary writable tensors
        assert float(x[0, 0, 0]) == -1.0
    assert not _our_segments()


def test_workers_run_in_parallel_processes():
    class WhoAmI(io.Dataset):
        def __getitem__(self, i):
            time.sleep(0.05)
            info = io.get_worker_info()
            return np.array([os.getpid(), info.id, info.num_workers])

        def __len__(self):
            return 8
    rows = np.concatenate([b.numpy() for b in io.DataLoader(WhoAmI(), batch_size=2, num_workers=2)])
    assert len(set(rows[:, 0].tolist())) == 2 and os.getpid() not in rows[:, 0]
    assert rows[:, 1].tolist() == [0, 0, 1, 1, 0, 0, 1, 1] and set(rows[:, 2].tolist()) == {2}
    assert io.get_worker_info() is None


def test_iterable_dataset_split_by_worker_info_loses_and_repeats_nothing():
    class Stream(io.IterableDataset):
        def __iter__(self):
            info = io.get_worker_info()
            items = range(23)
            if info is not None:
                items = items[info.id::info.num_workers]
            for i in items:
                yield np.array([i])
    for workers in (1, 2, 3):
        for batch_size, drop_last in ((4, False), (None, False), (4, True)):
            got = [b.numpy().ravel().tolist() for b in
                   io.DataLoader(Stream(), batch_size=batch_size, num_workers=workers, drop_last=drop_last)]
            flat = sorted(sum(got, []))
            if drop_last:
                assert all(len(b) == 4 for b in got) and len(set(flat)) == len(flat)
            else:
                assert flat == list(range(23)), (workers, batch_size)


def test_unsplit_iterable_dataset_is_read_by_every_worker():
    class Stream(io.IterableDataset):
        def __iter__(self):
            yield from (np.array([i]) for i in range(5))
    got = sorted(sum([b.numpy().ravel().tolist() for b in io.DataLoader(Stream(), batch_size=2, num_workers=2)], []))
    assert got == sorted(list(range(5)) * 2)  # as in Paddle: each worker iterates its own copy


def test_worker_init_fn_and_seeding_are_deterministic():
    class Noisy(io.Dataset):
        def __getitem__(self, i):
            return np.array([i, np.random.randint(1000), random.randint(0, 1000), paddle.randint(0, 1000, [1]).item(),
                             int(os.environ.get("PL_TEST_INIT", "-1"))])

        def __len__(self):
            return 10

    def init(worker_id):
        os.environ["PL_TEST_INIT"] = str(worker_id)

    def epoch(seed):
        np.random.seed(seed)
        return np.concatenate([b.numpy() for b in io.DataLoader(Noisy(), batch_size=2, shuffle=True, num_workers=2,
                                                                worker_init_fn=init)])
    a, b, c = epoch(7), epoch(7), epoch(8)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert sorted(a[:, 0].tolist()) == list(range(10))
    assert a[:, 4].tolist() == [0, 0, 1, 1, 0, 0, 1, 1, 0, 0]  # batch k runs on worker k % 2
    assert "PL_TEST_INIT" not in os.environ  # worker_init_fn ran in the workers only


@differential(expected={"rows": [[6, 522, 218, 0, 2, 455], [2, 297, 818, 0, 2, 455], [1, 434, 283, 0, 2, 455],
                                 [4, 234, 791, 1, 2, 455], [7, 407, 832, 1, 2, 455], [3, 586, 167, 1, 2, 455],
                                 [0, 198, 58, 0, 2, 455], [5, 971, 947, 0, 2, 455]]})
def test_worker_random_streams_are_paddles(paddle):
    # np.random.seed fixes the shuffle, each worker's NumPy/`random` streams and WorkerInfo.seed, as in Paddle
    class Noisy(paddle.io.Dataset):
        def __getitem__(self, i):
            w = paddle.io.get_worker_info()
            return np.array([i, np.random.randint(0, 1000), random.randint(0, 1000), w.id, w.num_workers,
                             w.seed % 1000], "int64")

        def __len__(self):
            return 8
    np.random.seed(0)
    loader = paddle.io.DataLoader(Noisy(), batch_size=3, shuffle=True, num_workers=2)
    return {"rows": np.concatenate([b.numpy() for b in loader]).tolist()}


def test_worker_info_is_read_only():
    class Probe(io.Dataset):
        def __getitem__(self, i):
            try:
                io.get_worker_info().id = 5
            except RuntimeError:
                return np.array([1])
            return np.array([0])

        def __len__(self):
            return 2
    assert [b.tolist() for b in io.DataLoader(Probe(), batch_size=2, num_workers=1)] == [[[1], [1]]]


def test_workers_make_cpu_tensors_and_numpy_only():
    class MakesTensors(io.Dataset):
        def __getitem__(self, i):
            t = paddle.to_tensor([float(i)]) * 2
            return t, paddle.get_device()

        def __len__(self):
            return 4
    got = [b for b in io.DataLoader(MakesTensors(), batch_size=2, num_workers=2)]
    assert [g[0].numpy().ravel().tolist() for g in got] == [[0.0, 2.0], [4.0, 6.0]]
    assert got[0][1] == ["cpu", "cpu"] and got[0][0].place == paddle.device.current_place()


def test_worker_exception_reaches_the_caller_and_stops_the_workers():
    class Bad(Squares):
        def __getitem__(self, i):
            if i == 5:
                raise KeyError("sample 5 is broken")
            return super().__getitem__(i)
    with pytest.raises(KeyError, match=r"(?s)worker\(\d\) caught KeyError.*sample 5 is broken"):
        [b for b in io.DataLoader(Bad(10), batch_size=2, num_workers=2)]
    assert _no_workers_left() and not _our_segments()


def test_worker_init_fn_error_is_raised():
    def init(worker_id):
        raise ValueError(f"init of {worker_id} failed")
    with pytest.raises(ValueError, match="init of 0 failed"):
        [b for b in io.DataLoader(Squares(4), batch_size=2, num_workers=2, worker_init_fn=init)]
    assert _no_workers_left()


def test_a_worker_that_dies_is_reported():
    class Dies(Squares):
        def __getitem__(self, i):
            if i == 3:
                os._exit(3)
            return super().__getitem__(i)
    with pytest.raises(RuntimeError, match="exited unexpectedly.*exit code 3"):
        [b for b in io.DataLoader(Dies(8), batch_size=2, num_workers=2)]
    assert _no_workers_left() and not _our_segments()


def test_timeout_raises_and_stops_the_workers():
    with pytest.raises(RuntimeError, match="timed out after 0.3 seconds"):
        [b for b in io.DataLoader(Squares(4, delay=3.0), batch_size=2, num_workers=2, timeout=0.3)]
    assert _no_workers_left()


def test_keyboard_interrupt_leaves_no_worker_and_no_segment():
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        # the workers are forked before the alarm: an interrupt inside fork's handlers would be swallowed
        batches = iter(io.DataLoader(Squares(40, delay=0.2), batch_size=2, num_workers=2))
        with pytest.raises(KeyboardInterrupt):
            signal.setitimer(signal.ITIMER_REAL, 0.5)
            for _ in batches:
                pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert _no_workers_left() and not _our_segments()


def test_abandoned_iterator_shuts_its_workers_down():
    it = iter(io.DataLoader(Squares(40), batch_size=2, num_workers=2))
    next(it)
    del it
    assert _no_workers_left() and not _our_segments()


def test_persistent_workers_survive_epochs():
    class Pid(io.Dataset):
        def __getitem__(self, i):
            return np.array([i, os.getpid()])

        def __len__(self):
            return 9
    loader = io.DataLoader(Pid(), batch_size=2, num_workers=2, persistent_workers=True)
    first = np.concatenate([b.numpy() for b in loader])
    for _ in loader:  # an epoch abandoned after one batch: its batches in flight are dropped
        break
    second = np.concatenate([b.numpy() for b in loader])
    assert first[:, 0].tolist() == second[:, 0].tolist() == list(range(9))
    assert set(first[:, 1].tolist()) == set(second[:, 1].tolist()) and len(set(first[:, 1].tolist())) == 2
    assert len(multiprocessing.active_children()) == 2
    loader._iterator._shutdown()
    assert _no_workers_left() and not _our_segments()


def test_persistent_workers_restart_iterable_datasets():
    class Stream(io.IterableDataset):
        def __iter__(self):
            info = io.get_worker_info()
            yield from (np.array([i]) for i in range(info.id, 7, info.num_workers))
    loader = io.DataLoader(Stream(), batch_size=2, num_workers=2, persistent_workers=True)
    for _ in range(2):
        assert sorted(sum([b.numpy().ravel().tolist() for b in loader], [])) == list(range(7))
    loader._iterator._shutdown()
    assert _no_workers_left()


_KILLED_MAIN = """
import sys, time
import numpy as np
sys.path.insert(0, {root!r})
import paddlelite as paddle

class Slow(paddle.io.Dataset):
    def __getitem__(self, i):
        time.sleep(0.05)
        return np.ones(100_000)  # a batch larger than a pipe's buffer

    def __len__(self):
        return 1000

loader = paddle.io.DataLoader(Slow(), batch_size=2, num_workers=2, use_shared_memory={use_shared_memory})
for i, batch in enumerate(loader):
    if i == 0:
        print("ready", flush=True)
"""


@pytest.mark.parametrize("use_shared_memory", [True, False])  # False: the batches travel through the queue's pipe
def test_workers_of_a_killed_main_process_exit_and_clean_up(use_shared_memory):
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_MAIN.format(root=root, use_shared_memory=use_shared_memory)],
                            stdout=subprocess.PIPE,
                            start_new_session=True, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 30  # the workers poll for their parent; a loaded machine delays them
        while time.monotonic() < deadline:
            try:
                os.killpg(proc.pid, 0)  # some process of its group is still alive
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the workers outlived their killed main process")
        leftovers = glob.glob(os.path.join(shared_memory.SHM_DIR, f"paddlelite-dl-{proc.pid}-*"))
        assert not leftovers
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
