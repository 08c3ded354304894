"""Checkpoints: real Paddle's pickles read safely (restricted unpickler), files real Paddle reads (by
default, issue 23), every damaged or hostile file refused with CheckpointError (issue 8; the crafted
files of issue 29 are in test_untrusted_files.py), and nothing lost on the way: bfloat16, float8, 0-d
tensors, concurrent saves (issue 29)."""
import collections
import os
import pickle
import sys
import threading
import zipfile

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.framework.io import CheckpointError
from tests.crafted_files import save_small_model
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
        paddle.save(obj, str(tmp_path / name))  # Paddle's format is the default (issue 23)
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
    paddle.save({"w": paddle.to_tensor(W)}, str(path), format="paddlelite")
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
        paddle.save({"w": paddle.to_tensor(B)}, str(path), format="paddlelite")
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
    """Protobuf groups nested 100 000 deep after a valid program: the parser's recursion limit, a clear error."""
    from paddlelite.static.io import InferenceModelError
    prefix = str(tmp_path / "model")
    exe = save_small_model(prefix)
    paddle.enable_static()
    group_start, group_end = b"\x9b\x06", b"\x9c\x06"  # field 99, wire types 3 and 4
    with open(prefix + ".pdmodel", "ab") as f:
        f.write(group_start * 100_000 + group_end * 100_000)
    with pytest.raises(InferenceModelError, match="not a Paddle ProgramDesc"):
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


def test_real_paddle_reads_what_our_static_save_writes(tmp_path):
    ref = _real_paddle()
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 3], "float32")
            paddle.optimizer.Adam(0.1).minimize(paddle.mean(paddle.static.nn.fc(x, 2, name="fc")))
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        paddle.static.save(main, str(tmp_path / "model"))
        ours = paddle.static.load_program_state(str(tmp_path / "model"))
    finally:
        paddle.disable_static()
    theirs = ref.static.load_program_state(str(tmp_path / "model"))
    assert sorted(theirs) == sorted(ours) and "learning_rate_0" in theirs
    for name, value in ours.items():
        np.testing.assert_array_equal(theirs[name], value, err_msg=name)
        assert theirs[name].shape == value.shape, name  # the 0-d learning rate stays 0-d


# ---- nothing lost: low-precision floats, 0-d tensors, concurrent saves (issue 29) -------------------------
FORMATS = ["paddle", "paddlelite"]
BITS = np.array([0x3FC0, 0xC000, 0x7F80, 0x0001, 0x8000, 0x4049], np.uint16)  # 1.5, -2, inf, tiny, -0, 3.14


def _bf16():
    return paddle.to_tensor(BITS.view(paddle.bfloat16.np))


@pytest.mark.parametrize("fmt", FORMATS)
def test_bfloat16_state_dicts_round_trip_bit_exact(tmp_path, fmt):
    """An AMP O2 model's state dict: its bfloat16 values come back as bfloat16, every bit kept."""
    state = {"w": _bf16(), "b": paddle.to_tensor([0.5, 1.0]).astype("bfloat16")}
    nested = {"layers": [_bf16()], "step": 3}
    path = str(tmp_path / "amp.pdparams")
    for obj in (state, nested):
        paddle.save(obj, path, format=fmt)
        back = paddle.load(path)
        w = back["w"] if obj is state else back["layers"][0]
        assert w.dtype == paddle.bfloat16
        np.testing.assert_array_equal(w.numpy().view(np.uint16), BITS)
    if fmt == "paddle":  # what real Paddle writes: the raw bits as uint16, which its paddle.load reads as bfloat16
        paddle.save(state, path, format=fmt)
        assert pickle.loads(open(path, "rb").read())["w"].dtype == np.uint16
        assert paddle.load(path, return_numpy=True)["w"].dtype == np.uint16


def test_bfloat16_and_zero_d_tensors_cross_to_and_from_real_paddle(tmp_path):
    ref = _real_paddle()
    ours = {"w": _bf16(), "s": paddle.to_tensor(2.5)}
    paddle.save(ours, str(tmp_path / "ours.pdparams"))
    theirs = ref.load(str(tmp_path / "ours.pdparams"))
    assert theirs["w"].dtype == ref.bfloat16 and list(theirs["s"].shape) == []
    np.testing.assert_array_equal(theirs["w"].numpy(), BITS)  # Paddle's numpy() of bfloat16: the uint16 bits
    ref.save(theirs, str(tmp_path / "theirs.pdparams"))
    back = paddle.load(str(tmp_path / "theirs.pdparams"))
    assert back["w"].dtype == paddle.bfloat16 and back["s"].shape == []
    np.testing.assert_array_equal(back["w"].numpy().view(np.uint16), BITS)


def test_float8_round_trips_in_paddlelites_format_and_is_refused_by_paddles(tmp_path):
    values = [1.5, -2.0, 448.0, 0.0]
    for name in ("float8_e4m3fn", "float8_e5m2"):
        state = {"w": paddle.to_tensor(values).astype(name)}
        path = str(tmp_path / f"{name}.pdparams")
        paddle.save(state, path, format="paddlelite")
        back = paddle.load(path)["w"]
        assert back.dtype == state["w"].dtype
        assert back.numpy().tobytes() == state["w"].numpy().tobytes()
        with pytest.raises(TypeError, match="format='paddlelite'"):  # Paddle's pickles would turn it into int8
            paddle.save(state, str(tmp_path / "x.pdparams"))
    assert sorted(os.listdir(tmp_path)) == ["float8_e4m3fn.pdparams", "float8_e5m2.pdparams"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_zero_d_tensors_stay_zero_d(tmp_path, fmt):
    path = str(tmp_path / "s.pdparams")
    paddle.save({"lr": paddle.to_tensor(0.1)}, path, format=fmt)
    assert paddle.load(path)["lr"].shape == []
    paddle.save({"nested": [paddle.to_tensor(3), np.float32(2.0)]}, path, format=fmt)
    back = paddle.load(path)["nested"]
    assert back[0].shape == [] and back[0].item() == 3


@pytest.mark.parametrize("fmt", FORMATS)
def test_threads_saving_to_one_path_leave_one_complete_save(tmp_path, fmt):
    path = str(tmp_path / "shared.pdparams")
    errors = []

    def save_repeatedly(k):
        try:
            for _ in range(5):
                paddle.save({"w": paddle.full([512], float(k)), "k": k}, path, format=fmt)
        except Exception as e:  # noqa: BLE001 -- collected for the assertion
            errors.append(e)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=save_repeatedly, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    back = paddle.load(path)
    assert back["w"].numpy().tolist() == [float(back["k"])] * 512  # one save, whole
    assert os.listdir(tmp_path) == ["shared.pdparams"]  # no temporary left behind


def test_a_saved_file_has_the_permissions_of_any_new_file(tmp_path):
    umask = os.umask(0o022)
    try:
        paddle.save({"w": paddle.ones([2])}, str(tmp_path / "m.pdparams"))
    finally:
        os.umask(umask)
    assert os.stat(tmp_path / "m.pdparams").st_mode & 0o777 == 0o644


def test_paddles_format_is_the_default_and_paddlelites_stays_selectable(tmp_path):
    state = paddle.nn.Linear(2, 3).state_dict()
    paddle.save(state, str(tmp_path / "m.pdparams"))
    paddle.save(state, str(tmp_path / "m.ckpt"), format="paddlelite")
    assert (tmp_path / "m.pdparams").read_bytes()[:2] == b"\x80\x04"  # a protocol-4 pickle, as Paddle writes
    assert zipfile.is_zipfile(tmp_path / "m.ckpt")
    for name in ("m.pdparams", "m.ckpt"):
        back = paddle.load(str(tmp_path / name))
        np.testing.assert_array_equal(back["weight"].numpy(), state["weight"].numpy())
        assert back["weight"].name == state["weight"].name
