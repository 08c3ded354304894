"""paddle.io (datasets, samplers, DataLoader) and paddle.save / paddle.load (both formats; tamper checks of paddlelite's own)."""
import os
import pickle
import zipfile

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import io, nn
from paddlelite.framework.io import CheckpointError


class Squares(io.Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return np.array([i, i * i], np.float32), i % 3

    def __len__(self):
        return self.n


class Stream(io.IterableDataset):
    def __iter__(self):
        for i in range(7):
            yield np.full(2, i, np.float32)


# ---- data --------------------------------------------------------------------------------------------
def test_dataloader_batches_lists_of_tensors():
    loader = io.DataLoader(Squares(10), batch_size=4)
    batches = list(loader)
    assert len(loader) == 3 and len(batches) == 3
    x, y = batches[0]
    assert isinstance(x, paddle.Tensor) and x.shape == [4, 2] and x.dtype == paddle.float32
    assert y.dtype == paddle.int64 and y.tolist() == [0, 1, 2, 0]
    assert batches[-1][0].shape == [2, 2]
    assert len(list(io.DataLoader(Squares(10), batch_size=4, drop_last=True))) == 2


def test_shuffle_is_reproducible_with_numpy_seed():
    def order():  # Paddle's RandomSampler draws from NumPy's global generator
        np.random.seed(123)
        return [int(v) for x, _ in io.DataLoader(Squares(20), batch_size=5, shuffle=True) for v in x.numpy()[:, 0]]
    a, b = order(), order()
    assert a == b and sorted(a) == list(range(20)) and a != list(range(20))


def test_tensor_dataset_and_collate_structures():
    xs = paddle.to_tensor(np.arange(12, dtype=np.float32).reshape(6, 2))
    ds = io.TensorDataset([xs, np.arange(6)])
    assert len(ds) == 6 and np.array_equal(ds[2][0].numpy(), [4.0, 5.0]) and isinstance(ds[2][1], np.int64)
    with pytest.raises(AssertionError, match="first dim"):
        io.TensorDataset([xs, np.arange(5)])
    batch = io.default_collate_fn([{"a": np.ones(2, np.float32), "b": 1.5, "s": "x"},
                                   {"a": np.zeros(2, np.float32), "b": 2.5, "s": "y"}])
    assert batch["a"].shape == (2, 2) and batch["b"].dtype == np.float64 and batch["s"] == ["x", "y"]
    x, y = next(iter(io.DataLoader(ds, batch_size=4)))
    assert isinstance(x, paddle.Tensor) and x.shape == [4, 2] and y.dtype == paddle.int64
    with pytest.raises(TypeError, match="cannot batch"):
        io.default_collate_fn([object(), object()])


def test_samplers():
    assert list(io.SequenceSampler(range(4))) == [0, 1, 2, 3]
    r = list(io.RandomSampler(range(10)))
    assert sorted(r) == list(range(10))
    rep = list(io.RandomSampler(range(3), replacement=True, num_samples=20))
    assert len(rep) == 20 and set(rep) <= {0, 1, 2}
    bs = io.BatchSampler(sampler=io.SequenceSampler(range(7)), batch_size=3)
    assert list(bs) == [[0, 1, 2], [3, 4, 5], [6]] and len(bs) == 3
    bs = io.BatchSampler(dataset=range(7), batch_size=3, drop_last=True)
    assert len(bs) == 2 and list(bs)[-1] == [3, 4, 5]
    loader = io.DataLoader(Squares(7), batch_sampler=bs)
    assert [b[1].tolist() for b in loader] == [[0, 1, 2], [0, 1, 2]]
    with pytest.raises(AssertionError):
        io.BatchSampler(dataset=range(3), batch_size=0)
    with pytest.raises(AssertionError):
        io.DataLoader(Squares(3), batch_sampler=bs, batch_size=2)


def test_iterable_dataset_and_workers():
    batches = [b for b in io.DataLoader(Stream(), batch_size=3)]  # list() would ask len(): ValueError as in Paddle
    assert [b.shape[0] for b in batches] == [3, 3, 1]
    with pytest.raises(ValueError, match="shuffle"):
        io.DataLoader(Stream(), shuffle=True)
    plain = [x.numpy() for x, _ in io.DataLoader(Squares(23), batch_size=4)]
    threaded = [x.numpy() for x, _ in io.DataLoader(Squares(23), batch_size=4, num_workers=3)]
    assert len(plain) == len(threaded) and all(np.array_equal(a, b) for a, b in zip(plain, threaded))


def test_worker_errors_reach_the_consumer():
    class Bad(Squares):
        def __getitem__(self, i):
            if i == 5:
                raise KeyError("sample 5 is broken")
            return super().__getitem__(i)
    with pytest.raises(KeyError, match="broken"):
        list(io.DataLoader(Bad(10), batch_size=2, num_workers=2))


def test_random_split_and_subsets():
    paddle.seed(1)
    a, b = io.random_split(Squares(10), [7, 3])
    idx = sorted(a.indices + b.indices)
    assert idx == list(range(10)) and len(a) == 7
    with pytest.raises(ValueError):
        io.random_split(Squares(10), [5, 4])
    cat = io.ConcatDataset([Squares(2), Squares(3)])
    assert len(cat) == 5 and cat[3][1] == 1


# ---- checkpoints -------------------------------------------------------------------------------------
def _model():
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1D(4), nn.Linear(4, 2))


@pytest.mark.parametrize("fmt", ["paddle", "paddlelite"])
def test_layer_and_optimizer_state_round_trip_bit_exact(tmp_path, fmt):
    m = _model()
    opt = paddle.optimizer.Adam(paddle.optimizer.lr.StepDecay(0.1, 2), parameters=m.parameters())
    loss = m(paddle.to_tensor(np.random.default_rng(0).normal(size=(5, 3)).astype(np.float32))).sum()
    loss.backward()
    opt.step()
    path = str(tmp_path / "sub" / "model.pdparams")
    paddle.save(m.state_dict(), path, format=fmt)
    paddle.save(opt.state_dict(), str(tmp_path / "model.pdopt"), format=fmt)
    loaded = paddle.load(path)
    assert list(loaded) == list(m.state_dict())
    for k, v in m.state_dict().items():
        assert isinstance(loaded[k], paddle.Tensor) and loaded[k].name == v.name
        assert loaded[k].numpy().tobytes() == v.numpy().tobytes()
    m2 = _model()
    m2.set_state_dict(loaded)
    for a, b in zip(m.parameters(), m2.parameters()):
        assert np.array_equal(a.numpy(), b.numpy())
    ostate = paddle.load(str(tmp_path / "model.pdopt"))
    assert ostate["LR_Scheduler"] == opt.state_dict()["LR_Scheduler"]
    assert set(ostate) == set(opt.state_dict())
    np_state = paddle.load(path, return_numpy=True)
    assert all(isinstance(v, np.ndarray) for v in np_state.values())


def test_nested_values_round_trip(tmp_path):
    obj = {"epoch": 3, "big": 2 ** 70, "lr": 0.1, "nan": float("nan"), "name": "run", "none": None, "flag": True,
           "tuple": (1, "a", [2.5, np.float16(1.5)]), "arr": np.arange(6, dtype=np.int32).reshape(2, 3),
           7: "int key", "half": np.array([1.1, 2.2], np.float16), "empty": {}}
    p = tmp_path / "obj.pd"
    paddle.save(obj, p, format="paddlelite")
    back = paddle.load(p)
    assert back["epoch"] == 3 and back["big"] == 2 ** 70 and back["lr"] == 0.1 and np.isnan(back["nan"])
    assert back["tuple"][:2] == (1, "a") and back["tuple"][2][1] == np.float16(1.5)
    assert isinstance(back["tuple"][2][1], np.float16)
    assert back["arr"].dtype == np.int32 and np.array_equal(back["arr"], obj["arr"])
    assert back[7] == "int key" and back["none"] is None and back["flag"] is True and back["empty"] == {}
    assert back["half"].tobytes() == obj["half"].tobytes()


@pytest.mark.parametrize("fmt", ["paddle", "paddlelite"])
def test_save_rejects_unsupported_objects(tmp_path, fmt):
    with pytest.raises(TypeError, match="cannot save"):
        paddle.save({"f": lambda: 0}, str(tmp_path / "x"), format=fmt)
    with pytest.raises(TypeError, match="object"):
        paddle.save(np.array([{}, 1], dtype=object), str(tmp_path / "x"), format=fmt)
    with pytest.raises(ValueError, match="directory"):
        paddle.save({}, str(tmp_path), format=fmt)
    assert os.listdir(tmp_path) == []


def test_pickle_files_are_refused(tmp_path):
    p = tmp_path / "evil.pdparams"
    p.write_bytes(pickle.dumps({"w": np.ones(2), "f": print}))  # arrays load (Paddle's format); code does not
    with pytest.raises(CheckpointError, match="pickle"):
        paddle.load(str(p))
    # a zip whose member is a pickled object array
    q = tmp_path / "evil2.pdparams"
    np.savez(q, a=np.array([{"x": 1}], dtype=object), allow_pickle=True)
    os.replace(str(q) + ".npz", q)
    with pytest.raises(CheckpointError, match="dtype object"):
        paddle.load(str(q))


def test_truncated_and_tampered_files_fail_clearly(tmp_path):
    m = _model()
    p = tmp_path / "m.pdparams"
    paddle.save(m.state_dict(), str(p), format="paddlelite")
    data = p.read_bytes()
    (tmp_path / "trunc").write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match="truncated|corrupted"):
        paddle.load(str(tmp_path / "trunc"))
    # flip one byte of array data: the zip CRC catches it
    flipped = bytearray(data)
    i = data.index(b"\x93NUMPY") + 140  # inside the first array's values
    flipped[i] ^= 0xFF
    (tmp_path / "flip").write_bytes(bytes(flipped))
    with pytest.raises(CheckpointError):
        paddle.load(str(tmp_path / "flip"))
    # rewrite a member consistently (valid zip, valid npy) but different values: the digest catches it
    src = zipfile.ZipFile(p)
    out = tmp_path / "edited"
    with zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            raw = src.read(info)
            if info.filename == "a0.npy":
                import io as _io
                buf = _io.BytesIO()
                arr = np.lib.format.read_array(_io.BytesIO(raw))
                np.lib.format.write_array(buf, arr + 1)
                raw = buf.getvalue()
            dst.writestr(info.filename, raw)
    with pytest.raises(CheckpointError, match="SHA-256"):
        paddle.load(str(out))
    (tmp_path / "junk").write_bytes(b"hello world")
    with pytest.raises(CheckpointError, match="not a paddlelite checkpoint"):
        paddle.load(str(tmp_path / "junk"))
    with pytest.raises(FileNotFoundError):
        paddle.load(str(tmp_path / "missing"))
