"""The reader decorators of paddle.reader, with Paddle's semantics: `shuffle` draws from Python's `random`,
`compose` checks alignment, `buffered` and `xmap_readers` read ahead in threads, `multiprocess_reader` reads each
reader in a forked process and sends the samples as JSON (so they arrive as lists, as in Paddle)."""
import itertools
import json
import multiprocessing
import queue
import random
import sys
import threading

__all__ = []

_QUEUE_GET_TIMEOUT_S = 60


def cache(reader):
    """A reader over every sample of `reader`, read once, now."""
    samples = tuple(reader())

    def cached_reader():
        yield from samples

    return cached_reader


def map_readers(func, *readers):
    """A reader of func(sample of readers[0], sample of readers[1], ...), as long as the shortest reader."""
    def mapped_reader():
        for samples in zip(*(r() for r in readers)):
            yield func(*samples)

    return mapped_reader


def shuffle(reader, buf_size):
    """`reader`'s samples shuffled within consecutive windows of `buf_size` (Python's `random.shuffle`)."""
    def shuffled_reader():
        window = []
        for sample in reader():
            window.append(sample)
            if len(window) >= buf_size:
                random.shuffle(window)
                yield from window
                window = []
        if window:
            random.shuffle(window)
            yield from window

    return shuffled_reader


def chain(*readers):
    """The readers' samples one reader after another."""
    def chained_reader():
        return itertools.chain(*(r() for r in readers))

    return chained_reader


class ComposeNotAligned(ValueError):
    pass


def compose(*readers, **kwargs):
    """A reader of tuples joining one sample of each reader (tuples flattened); with check_alignment (the default)
    readers of different lengths raise ComposeNotAligned, without it the shortest ends the reader."""
    check_alignment = kwargs.pop("check_alignment", True)

    def as_tuple(sample):
        return sample if isinstance(sample, tuple) else (sample,)

    def composed_reader():
        iterators = [r() for r in readers]
        if not check_alignment:
            rows = zip(*iterators)
        else:
            rows = itertools.zip_longest(*iterators)
        for row in rows:
            if check_alignment and any(sample is None for sample in row):
                raise ComposeNotAligned("outputs of readers are not aligned.")
            yield sum((as_tuple(sample) for sample in row), ())

    return composed_reader


def buffered(reader, size):
    """`reader`'s samples read ahead by a thread into a buffer of `size`."""
    end = object()

    def fill(q):
        for sample in reader():
            q.put(sample)
        q.put(end)

    def buffered_reader():
        q = queue.Queue(maxsize=size)
        threading.Thread(target=fill, args=(q,), daemon=True).start()
        sample = q.get()
        while sample is not end:
            yield sample
            sample = q.get()

    return buffered_reader


def firstn(reader, n):
    """The first `n` samples of `reader`."""
    def first_reader():
        return itertools.islice(reader(), n)

    return first_reader


class XmapEndSignal:
    pass


def xmap_readers(mapper, reader, process_num, buffer_size, order=False):
    """mapper(sample) for `reader`'s samples, computed by `process_num` threads through queues of `buffer_size`;
    in the reader's order when `order`, else as they finish."""
    end = XmapEndSignal()

    def read(in_queue):
        for index, sample in enumerate(reader()):
            in_queue.put((index, sample))
        in_queue.put(end)

    def work(in_queue, out_queue, turn):
        item = in_queue.get()
        while not isinstance(item, XmapEndSignal):
            index, sample = item
            mapped = mapper(sample)
            if order:
                with turn:
                    turn.wait_for(lambda: turn.next == index)
                    out_queue.put(mapped)
                    turn.next += 1
                    turn.notify_all()
            else:
                out_queue.put(mapped)
            item = in_queue.get()
        in_queue.put(end)  # for the next worker
        out_queue.put(end)

    def xreader():
        in_queue, out_queue = queue.Queue(buffer_size), queue.Queue(buffer_size)
        turn = threading.Condition()
        turn.next = 0
        threading.Thread(target=read, args=(in_queue,), daemon=True).start()
        for _ in range(process_num):
            threading.Thread(target=work, args=(in_queue, out_queue, turn), daemon=True).start()
        finished = 0
        while finished < process_num:
            sample = out_queue.get()
            if isinstance(sample, XmapEndSignal):
                finished += 1
            else:
                yield sample

    return xreader


def _read_into_queue(reader, out):
    try:
        for sample in reader():
            if sample is None:
                raise ValueError("sample has None")
            out.put(sample)
        out.put(None)
    except Exception:
        out.put("")
        raise


def _read_into_pipe(reader, conn):
    try:
        for sample in reader():
            if sample is None:
                raise ValueError("sample has None!")
            conn.send(json.dumps(sample))
        conn.send(json.dumps(None))
    except Exception:
        conn.send(json.dumps(""))
        raise
    finally:
        conn.close()


def multiprocess_reader(readers, use_pipe=True, queue_size=1000):
    """The samples of `readers`, each read in its own forked process, merged as they arrive: through pipes as JSON
    (`use_pipe`, so a sample arrives as lists) or through one multiprocessing queue of `queue_size`."""
    if sys.platform == "win32":
        raise NotImplementedError("The multiprocess_reader method is not supported on windows.")
    assert isinstance(readers, (list, tuple)) and len(readers) > 0, "`readers` must be list or tuple."
    fork = multiprocessing.get_context("fork")

    def queue_reader():
        merged = fork.Queue(queue_size)
        for reader in readers:
            fork.Process(target=_read_into_queue, args=(reader, merged), daemon=True).start()
        finished = 0
        while finished < len(readers):
            sample = merged.get(timeout=_QUEUE_GET_TIMEOUT_S)
            if sample is None:
                finished += 1
            elif isinstance(sample, str) and sample == "":
                raise ValueError("multiprocess_reader failed to put data into the multiprocessing.Queue.")
            else:
                yield sample

    def pipe_reader():
        connections = []
        for reader in readers:
            parent, child = fork.Pipe()
            connections.append(parent)
            fork.Process(target=_read_into_pipe, args=(reader, child), daemon=True).start()
        while connections:
            for conn in list(connections):
                sample = json.loads(conn.recv())
                if sample is None:
                    connections.remove(conn)
                    conn.close()
                elif sample == "":
                    conn.close()
                    raise ValueError("multiprocess_reader failed to send data into the multiprocessing.Pipe.")
                else:
                    yield sample

    return pipe_reader if use_pipe else queue_reader
