"""Checkpoints: real Paddle's pickles read safely (restricted unpickler), files real Paddle reads, and
every damaged or hostile file refused with CheckpointError (issue 8)."""
import collections
import json
import os
import pickle
import zipfile

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.framework.io import CheckpointError
from tests.differential import reference_paddle

W = np.arange(6, dtype=np.float32).reshape(2, 3)
B = np.array([0.5, -1.0, 2.0], dtype=np.float32)


def _paddle_state_dict_bytes(protocol):
    """What Paddle 3.3.1's paddle.save writes for Linear(2, 3).state_dict() (checked against it below)."""
    return pickle.dumps({"weight": W, "bias": B,
                         "StructuredToParameterName@@": {"weight": "linear_0.w_0", "bias": "linear_0.b_0"}},
                        protocol=protocol)


class _TensorReduce:
    """Pickles like Paddle's reduce of a Tensor: (tuple, ((name, data),))."""

    def __init__(self, name, data):
        self.name, self.data = name, data

    def __reduce__(self):
        return (tuple, ((self.name, self.data),))


@pytest.mark.parametrize("protocol", [2, 3, 4])
def test_paddle_state_dict_pickles_load_as_named_tensors(tmp_path, protocol):
    path = tmp_path / "linear.pdparams"
    path.write_bytes(_paddle_state_dict_bytes(protocol))
    state = paddle.load(str(path))
    assert sorted(state) == ["bias", "weight"]
    assert isinstance(state["weight"], paddle.Tensor) and state["weight"].name == "linear_0.w_0"
    np.testing.assert_array_equal(state["weight"].numpy(), W)
    layer = paddle.nn.Linear(2, 3)
    layer.set_state_dict(state)
    np.testing.assert_array_equal(layer.bias.numpy(), B)
    raw = paddle.load(str(path), return_numpy=True)
    assert isinstance(raw["bias"], np.ndarray) and raw["bias"].dtype == np.float32


def test_paddle_tensor_tuples_and_nested_values_load_like_paddle(tmp_path):
    path = tmp_path / "misc.pd"
    obj = {"t": _TensorReduce("generated_tensor_0", np.array([1, 2])), "n": 3, "f": 1.5, "s": "x",
           "nested": [(1, 2), {"u": _TensorReduce("u", W)}], "plain": np.ones(2),
           "od": collections.OrderedDict(a=np.float32(2.0))}
    path.write_bytes(pickle.dumps(obj, protocol=4))
    out = paddle.load(str(path))
    assert out["t"].name == "generated_tensor_0" and out["t"].dtype == paddle.int64
    assert out["nested"][0] == (1, 2) and isinstance(out["nested"][1]["u"], paddle.Tensor)
    assert isinstance(out["plain"], np.ndarray)  # Paddle converts only the (name, array) pairs when there are any
    assert out["od"]["a"] == np.float32(2.0) and isinstance(out["od"], collections.OrderedDict)


class _Payload:
    def __init__(self, reduce):
        self.reduce = reduce

    def __reduce__(self):
        return self.reduce


def _evil_pickles(marker):
    import builtins
    yield pickle.dumps({"w": W, "x": _Payload((builtins.exec, (f"open({str(marker)!r}, 'w').close()",)))})
    yield pickle.dumps(_Payload((os.system, (f"touch {marker}",))))
    yield pickle.dumps([_Payload((open, (str(marker), "w")))], protocol=2)
    yield pickle.dumps(_Payload((np.load, (str(marker),))))
    # allowed names used against their purpose: an object dtype, a huge empty array, a subclass
    yield pickle.dumps(np.array([{"a": 1}], dtype=object))
    yield pickle.dumps(_Payload((np.core.multiarray._reconstruct, (np.ndarray, (10**12,), b"b"))))
    yield pickle.dumps(np.ma.masked_array([1.0]))


def test_hostile_pickles_are_refused_and_their_payload_never_runs(tmp_path):
    marker = tmp_path / "payload-ran"
    for k, data in enumerate(_evil_pickles(marker)):
        path = tmp_path / f"evil{k}.pdparams"
        path.write_bytes(data)
        with pytest.raises(CheckpointError, match="refusing"):
            paddle.load(str(path))
        assert not marker.exists(), f"pickle {k} ran its payload"


@pytest.mark.parametrize("cut", [1, 10, 100])
def test_truncated_paddle_pickles_are_checkpoint_errors(tmp_path, cut):
    data = _paddle_state_dict_bytes(4)
    path = tmp_path / "cut.pdparams"
    path.write_bytes(data[:-cut])
    with pytest.raises(CheckpointError):
        paddle.load(str(path))


def test_save_in_paddle_format_round_trips(tmp_path):
    layer = paddle.nn.Linear(2, 3)
    path = str(tmp_path / "m.pdparams")
    paddle.save(layer.state_dict(), path, format="paddle")
    raw = pickle.loads(open(path, "rb").read())  # our own file: plain numpy data, as Paddle writes it
    assert raw["StructuredToParameterName@@"] == {"weight": layer.weight.name, "bias": layer.bias.name}
    back = paddle.load(path)
    np.testing.assert_array_equal(back["weight"].numpy(), layer.weight.numpy())
    with pytest.raises(ValueError, match="protocol"):
        paddle.save(layer.state_dict(), path, format="paddle", protocol=5)
    with pytest.raises(ValueError, match="format"):
        paddle.save(layer.state_dict(), path, format="torch")
    with pytest.raises(TypeError, match="cannot save"):
        paddle.save({"f": print}, path, format="paddle")


# ---- against real Paddle 3.3.1 ------------------------------------------------------------------------
def _real_paddle():
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed (pip install paddlepaddle==3.3.1)")
    ref.disable_static()
    return ref


def _checkpoint_objects(lib):
    """A trained layer and {file name: object to save}: its state dict, its Adam state, a nested object."""
    layer = lib.nn.Linear(2, 3)
    opt = lib.optimizer.Adam(parameters=layer.parameters())
    layer(lib.ones([1, 2])).sum().backward()
    opt.step()
    return layer, {"m.pdparams": layer.state_dict(), "m.pdopt": opt.state_dict(),
                   "misc.pd": {"t": lib.to_tensor([1, 2]), "nested": [lib.to_tensor([[1.5]]), (1, "a")], "n": 7}}


def test_what_real_paddle_writes_is_what_we_read(tmp_path):
    ref = _real_paddle()
    layer, objects = _checkpoint_objects(ref)
    for name, obj in objects.items():
        ref.save(obj, str(tmp_path / name))
        theirs = ref.load(str(tmp_path / name))
        ours = paddle.load(str(tmp_path / name))
        _assert_same_tree(ours, theirs)
    ours_layer = paddle.nn.Linear(2, 3)
    ours_layer.set_state_dict(paddle.load(str(tmp_path / "m.pdparams")))
    np.testing.assert_array_equal(ours_layer.weight.numpy(), layer.weight.numpy())


def test_real_paddle_reads_what_we_write(tmp_path):
    ref = _real_paddle()
    layer, objects = _checkpoint_objects(paddle)
    for name, obj in objects.items():
        paddle.save(obj, str(tmp_path / name), format="paddle")
        _assert_same_tree(paddle.load(str(tmp_path / name)), ref.load(str(tmp_path / name)))
    theirs = ref.nn.Linear(2, 3)
    theirs.set_state_dict(ref.load(str(tmp_path / "m.pdparams")))
    np.testing.assert_array_equal(theirs.weight.numpy(), layer.weight.numpy())


def _assert_same_tree(ours, theirs, path="obj"):
    if hasattr(theirs, "numpy") and not isinstance(theirs, np.ndarray):
        assert isinstance(ours, paddle.Tensor), f"{path}: {type(ours).__name__}, Paddle gives a Tensor"
        assert ours.name == theirs.name, path
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy(), err_msg=path)
        assert ours.numpy().dtype == theirs.numpy().dtype, path
    elif isinstance(theirs, dict):
        assert sorted(ours) == sorted(theirs), path
        for k in theirs:
            _assert_same_tree(ours[k], theirs[k], f"{path}[{k!r}]")
    elif isinstance(theirs, (list, tuple)):
        assert type(ours) is type(theirs) and len(ours) == len(theirs), path
        for k, (a, b) in enumerate(zip(ours, theirs)):
            _assert_same_tree(a, b, f"{path}[{k}]")
    elif isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), path
        np.testing.assert_array_equal(ours, theirs, err_msg=path)
    else:
        assert ours == theirs and type(ours) is type(theirs), path


# ---- paddlelite's own format: damaged or hostile files ---------------------------------------------
def _small_checkpoint(tmp_path):
    path = tmp_path / "small.pdparams"
    paddle.save({"w": paddle.to_tensor(W)}, str(path))
    return path


def test_compressed_members_are_refused_before_inflating(tmp_path):
    good = zipfile.ZipFile(_small_checkpoint(tmp_path))
    bomb = tmp_path / "bomb.pdparams"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for info in good.infolist():
            z.writestr(info.filename, good.read(info))
        z.writestr("a1.npy", b"\0" * (64 << 20))  # 64 MB of zeros deflate to ~64 KB
    assert os.path.getsize(bomb) < (1 << 20)
    with pytest.raises(CheckpointError, match="is compressed or encrypted"):
        paddle.load(str(bomb))


def test_every_single_byte_corruption_is_caught_or_harmless(tmp_path):
    path = _small_checkpoint(tmp_path)
    data = path.read_bytes()
    bad = tmp_path / "bad.pdparams"
    directory = data.index(b"PK\x01\x02")  # the central directory: every byte; the members: a sample
    for i in [*range(0, directory, 5), *range(directory, len(data))]:
        flipped = bytearray(data)
        flipped[i] ^= 0xA5
        bad.write_bytes(bytes(flipped))
        try:
            out = paddle.load(str(bad))
        except CheckpointError:
            continue
        # a byte no check covers (a timestamp, a name's padding) may change; the values may not
        np.testing.assert_array_equal(out["w"].numpy(), W, err_msg=f"byte {i} changed the values silently")


def test_an_interrupted_save_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = _small_checkpoint(tmp_path)
    before = path.read_bytes()

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(np.lib.format, "write_array", interrupted)
    with pytest.raises(KeyboardInterrupt):
        paddle.save({"w": paddle.to_tensor(B)}, str(path))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == [path.name]


def test_save_fsyncs_before_the_rename(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    for fmt in ("paddlelite", "paddle"):
        synced.clear()
        paddle.save({"w": paddle.to_tensor(W)}, str(tmp_path / f"m.{fmt}"), format=fmt)
        assert synced, f"format={fmt}: the file was renamed without fsync"


def test_a_deeply_nested_inference_model_is_a_clear_error(tmp_path):
    from paddlelite.static.io import InferenceModelError
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 2], "float32")
        y = paddle.static.nn.fc(x, 1)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        prefix = str(tmp_path / "model")
        paddle.static.save_inference_model(prefix, [x], [y], exe)
    doc = json.loads(open(prefix + ".pdmodel").read())
    text = json.dumps(doc)
    deep = text[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    open(prefix + ".pdmodel", "w").write(deep)
    with pytest.raises(InferenceModelError, match="nests"):
        paddle.static.load_inference_model(prefix, exe)


def test_real_paddles_static_save_loads_into_our_static_program(tmp_path):
    ref = _real_paddle()

    def build(lib):
        main, startup = lib.static.Program(), lib.static.Program()
        with lib.static.program_guard(main, startup):
            x = lib.static.data("x", [None, 3], "float32")
            loss = lib.mean(lib.static.nn.fc(x, 2, name="fc"))
            lib.optimizer.Adam(learning_rate=0.1).minimize(loss)
        return main, startup, loss

    feed = {"x": np.ones((4, 3), np.float32)}
    ref.enable_static()
    try:
        with ref.utils.unique_name.guard():
            main, startup, loss = build(ref)
        exe = ref.static.Executor(ref.CPUPlace())
        exe.run(startup)
        exe.run(main, feed=feed, fetch_list=[loss])
        ref.static.save(main, str(tmp_path / "model"))
        theirs = {v.name: np.array(ref.static.global_scope().find_var(v.name).get_tensor())
                  for v in main.list_vars() if v.persistable and ref.static.global_scope().find_var(v.name)}
    finally:
        ref.disable_static()
    state = paddle.static.load_program_state(str(tmp_path / "model"))
    assert {"fc.w_0", "fc.b_0"} <= set(state)
    for name, value in state.items():
        np.testing.assert_array_equal(value, theirs[name], err_msg=name)
    paddle.enable_static()
    with paddle.utils.unique_name.guard():
        main, startup, loss = build(paddle)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    paddle.static.load(main, str(tmp_path / "model"), exe)  # every persistable, learning_rate_0 (0-D) too
    np.testing.assert_array_equal(np.array(paddle.static.global_scope().find_var("fc.w_0").get_tensor()),
                                  theirs["fc.w_0"])
