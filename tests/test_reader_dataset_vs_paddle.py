"""paddle.reader's decorators and paddle.dataset's reader creators (Paddle 1.x's data API, which the book chapters
and older scripts use) against real Paddle 3.3.1."""
import gzip
import os
import pickle
import random
import tarfile
import io as _io

import numpy as np
import pytest

from tests.differential import differential, raises


def _counting(n, start=0):
    def reader():
        yield from range(start, start + n)
    return reader


@differential(expected={"map": [10, 12, 14], "chain": [0, 1, 2, 5, 6], "first": [0, 1], "cache": [0, 1, 2, 0, 1, 2],
                        "buffered": list(range(20)), "batch": [[0, 1], [2, 3], [4]]})
def test_reader_decorators(paddle):
    cached = paddle.reader.cache(_counting(3))
    return {"map": list(paddle.reader.map_readers(lambda a, b: a + b, _counting(3, 5), _counting(4, 5))()),
            "chain": list(paddle.reader.chain(_counting(3), _counting(2, 5))()),
            "first": list(paddle.reader.firstn(_counting(9), 2)()),
            "cache": list(cached()) + list(cached()),
            "buffered": list(paddle.reader.buffered(_counting(20), 3)()),
            "batch": list(paddle.batch(_counting(5), 2)())}


@differential(expected={"order": [4, 0, 3, 1, 2, 7, 8, 6, 9, 5], "sorted": list(range(10))})
def test_shuffle_draws_from_python_random_per_window(paddle):
    random.seed(7)
    order = list(paddle.reader.shuffle(_counting(10), 5)())
    return {"order": order, "sorted": sorted(order)}


@differential(expected={"aligned": [(0, 5, "a"), (1, 6, "a")], "shortest": [(0, 10), (1, 11)]})
def test_compose_joins_samples_into_flat_tuples(paddle):
    def pairs():
        yield from ((5, "a"), (6, "a"))
    return {"aligned": list(paddle.reader.compose(_counting(2), pairs)()),
            "shortest": list(paddle.reader.compose(_counting(2), _counting(5, 10), check_alignment=False)())}


@differential(expected=raises(ValueError))
def test_compose_of_readers_of_different_lengths_raises_compose_not_aligned(paddle):
    try:
        list(paddle.reader.compose(_counting(2), _counting(3))())
    except paddle.reader.ComposeNotAligned:
        raise ValueError("ComposeNotAligned") from None


@differential(expected={"ordered": [x * x for x in range(30)], "unordered": sorted(x * x for x in range(30))})
def test_xmap_readers_maps_in_threads(paddle):
    return {"ordered": list(paddle.reader.xmap_readers(lambda x: x * x, _counting(30), 4, 8, order=True)()),
            "unordered": sorted(paddle.reader.xmap_readers(lambda x: x * x, _counting(30), 3, 4)())}


def _pairs(start):
    def reader():
        for i in range(start, start + 3):
            yield [i, i + 1]
    return reader


@differential(expected={"pipe": [[0, 1], [1, 2], [2, 3], [10, 11], [11, 12], [12, 13]],
                        "queue": [[0, 1], [1, 2], [2, 3], [10, 11], [11, 12], [12, 13]]})
def test_multiprocess_reader_merges_forked_readers(paddle):
    readers = [_pairs(0), _pairs(10)]
    return {"pipe": sorted(paddle.reader.multiprocess_reader(readers)()),
            "queue": sorted(paddle.reader.multiprocess_reader(readers, use_pipe=False)())}


# ---- paddle.dataset: synthetic files in a temporary DATA_HOME, their MD5s set as the modules' ----

def _write_mnist(directory, prefix, count, seed):
    rng = np.random.RandomState(seed)
    images = rng.randint(0, 256, size=(count, 28, 28)).astype(np.uint8)
    labels = rng.randint(0, 10, size=count).astype(np.uint8)
    os.makedirs(directory, exist_ok=True)
    paths = (os.path.join(directory, f"{prefix}-images-idx3-ubyte.gz"),
             os.path.join(directory, f"{prefix}-labels-idx1-ubyte.gz"))
    with gzip.open(paths[0], "wb") as f:
        f.write(np.array([2051, count, 28, 28], ">i4").tobytes() + images.tobytes())
    with gzip.open(paths[1], "wb") as f:
        f.write(np.array([2049, count], ">i4").tobytes() + labels.tobytes())
    return paths


def _write_cifar(path, count):
    rng = np.random.RandomState(3)
    with tarfile.open(path, "w:gz") as tar:
        for name in ("data_batch_2", "data_batch_1", "test_batch"):
            blob = pickle.dumps({b"data": rng.randint(0, 256, (count, 3072)).astype(np.uint8),
                                 b"labels": rng.randint(0, 10, count).tolist()}, protocol=2)
            info = tarfile.TarInfo(f"cifar-10-batches-py/{name}")
            info.size = len(blob)
            tar.addfile(info, _io.BytesIO(blob))


@pytest.fixture
def data_home(tmp_path):
    mnist = os.path.join(tmp_path, "mnist")
    _write_mnist(mnist, "train", 200, 1)
    _write_mnist(mnist, "t10k", 100, 2)
    os.makedirs(os.path.join(tmp_path, "cifar"))
    _write_cifar(os.path.join(tmp_path, "cifar", "cifar-10-python.tar.gz"), 4)
    os.makedirs(os.path.join(tmp_path, "uci_housing"))
    rows = np.random.RandomState(4).uniform(0, 50, size=(20, 14))
    np.savetxt(os.path.join(tmp_path, "uci_housing", "housing.data"), rows, fmt="%.4f")
    return str(tmp_path)


def _pointed_at(paddle, home):
    """The framework's paddle.dataset reading `home`, the files' MD5s being the modules' (restored by the caller)."""
    common = paddle.dataset.common
    saved = {"home": common.DATA_HOME}
    common.DATA_HOME = home
    md5 = {(paddle.dataset.mnist, name): common.md5file(os.path.join(home, "mnist", file))
           for name, file in (("TRAIN_IMAGE_MD5", "train-images-idx3-ubyte.gz"),
                              ("TRAIN_LABEL_MD5", "train-labels-idx1-ubyte.gz"),
                              ("TEST_IMAGE_MD5", "t10k-images-idx3-ubyte.gz"),
                              ("TEST_LABEL_MD5", "t10k-labels-idx1-ubyte.gz"))}
    md5[(paddle.dataset.cifar, "CIFAR10_MD5")] = common.md5file(os.path.join(home, "cifar", "cifar-10-python.tar.gz"))
    md5[(paddle.dataset.uci_housing, "MD5")] = common.md5file(os.path.join(home, "uci_housing", "housing.data"))
    for (module, name), value in md5.items():
        saved[(module, name)] = getattr(module, name)
        setattr(module, name, value)
    paddle.dataset.uci_housing.UCI_TRAIN_DATA = paddle.dataset.uci_housing.UCI_TEST_DATA = None
    return saved


def _restore(paddle, saved):
    paddle.dataset.common.DATA_HOME = saved.pop("home")
    for (module, name), value in saved.items():
        setattr(module, name, value)
    paddle.dataset.uci_housing.UCI_TRAIN_DATA = paddle.dataset.uci_housing.UCI_TEST_DATA = None


def test_dataset_readers(data_home):
    def body(paddle):
        saved = _pointed_at(paddle, data_home)
        try:
            mnist_train = list(paddle.dataset.mnist.train()())
            mnist_test = list(paddle.dataset.mnist.test()())
            cifar = list(paddle.dataset.cifar.train10()())
            housing_train = list(paddle.dataset.uci_housing.train()())
            housing_test = list(paddle.dataset.uci_housing.test()())
            batches = list(paddle.batch(paddle.reader.firstn(paddle.dataset.mnist.train(), 5), 2)())
        finally:
            _restore(paddle, saved)
        pixels = np.stack([i for i, _ in mnist_train])
        return {"checks": [str(pixels.dtype), bool(pixels.min() >= -1 and pixels.max() <= 1),
                           type(mnist_train[0][1]).__name__],
                "mnist_train": [len(mnist_train), np.stack([i for i, _ in mnist_train[:7]]),
                                [label for _, label in mnist_train]],
                "mnist_test": [len(mnist_test), mnist_test[-1][0], mnist_test[-1][1]],
                "cifar": [len(cifar), np.stack([i for i, _ in cifar]), [label for _, label in cifar]],
                "housing": [len(housing_train), len(housing_test), np.stack([f for f, _ in housing_train]),
                            np.stack([p for _, p in housing_test])],
                "batches": [len(b) for b in batches]}

    from tests.differential import assert_same, run_both
    ours, theirs = run_both(body)
    assert ours["mnist_train"][0] == 200 and ours["cifar"][0] == 8 and ours["housing"][:2] == [16, 4]
    assert ours["checks"] == ["float32", True, "int"]
    if theirs is not None:
        assert_same(ours, theirs)


def test_dataset_files_are_checked_by_md5_and_never_downloaded(data_home):
    import paddlelite as paddle
    saved = _pointed_at(paddle, data_home)
    try:
        paddle.dataset.mnist.TRAIN_LABEL_MD5 = "0" * 32
        with pytest.raises(RuntimeError, match="does not download.*train-labels-idx1-ubyte.gz"):
            paddle.dataset.mnist.train()
        with pytest.raises(ValueError, match="module_name"):
            paddle.dataset.common.download("https://x/y.gz", "../up", "0" * 32)
    finally:
        _restore(paddle, saved)


def test_split_and_cluster_files_reader_share_the_samples_between_trainers(tmp_path):
    import paddlelite as paddle
    paddle.dataset.common.split(_counting(12), 4, suffix=str(tmp_path / "part-%05d.pickle"))
    parts = [list(paddle.dataset.common.cluster_files_reader(str(tmp_path / "part-*.pickle"), 2, rank)())
             for rank in (0, 1)]
    assert sorted(parts[0] + parts[1]) == list(range(12))
    assert parts[0] == [0, 1, 2, 3, 4, 9, 10, 11]  # files 0 and 2 (Paddle's grouping: 0..4, 5..8, 9..11)
