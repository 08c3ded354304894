"""Untrusted files (issue 29): every reader -- paddle.load of real Paddle's pickles and of paddlelite's own
checkpoints, load_inference_model, jit.load -- refuses a hostile or malformed file with a CheckpointError
naming it, never crashes the process, never lets the file choose code to run, and never allocates more
than the file's size justifies. tests/fuzz_files.py fuzzes the same readers."""
import io
import json
import os
import pickle
import struct
import threading
import time
import zipfile

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.framework.io import CheckpointError
from paddlelite.static.io import InferenceModelError
from tests.crafted_files import RECONSTRUCT, Reduce, npy_bytes, save_small_model

F8 = np.dtype("f8")


def _dtype(descr, state):
    return Reduce(np.dtype, (descr, False, True), state)


def _array(shape, dtype, data, fortran=False):
    return Reduce(RECONSTRUCT, (np.ndarray, (0,), b"b"), (1, shape, dtype, fortran, data))


def _load_pickle(tmp_path, obj, **configs):
    path = tmp_path / "crafted.pdparams"
    path.write_bytes(pickle.dumps(obj, protocol=2))
    return paddle.load(str(path), **configs)


# ---- Paddle pickles: dtypes and arrays are rebuilt from checked values only --------------------------
HOSTILE_DTYPES = {
    "fields at 10^9": ("f8", (3, "<", None, ("a",), {"a": (F8, 10 ** 9)}, 8, 1, 16)),
    "float64 with fields": ("f8", (3, "<", None, ("a",), {"a": (F8, 0)}, 8, 1, 0)),
    "sub-array": ("f8", (3, "<", (F8, (10 ** 9, 10 ** 9)), None, None, -1, -1, 0)),
    "3-byte unicode": ("U1", (3, "<", None, None, None, 3, 1, 8)),
    "wrong itemsize": ("f8", (3, "<", None, None, None, 3, 1, 0)),
    "metadata (version 4)": ("f8", (4, "<", None, None, None, -1, -1, 0, {"k": 1})),
    "odd byte order": ("f8", (3, "?", None, None, None, -1, -1, 0)),
    "structured void": ("V8", (3, "|", None, ("a",), {"a": (F8, 0)}, 8, 1, 16)),
    "object": ("O", (3, "|", None, None, None, -1, -1, 63)),
    "string": ("S3", (3, "|", None, None, None, 3, 1, 8)),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_DTYPES))
def test_a_pickled_dtype_state_never_reaches_numpy(tmp_path, case):
    """The ~200-byte .pdparams that crashed the process: numpy.dtype + BUILD handed its state to NumPy."""
    descr, state = HOSTILE_DTYPES[case]
    for return_numpy in (False, True):
        with pytest.raises(CheckpointError, match="crafted.pdparams"):
            _load_pickle(tmp_path, {"w": _array((1,), _dtype(descr, state), b"\0" * 8)}, return_numpy=return_numpy)


def test_a_dtype_or_array_state_given_twice_is_refused(tmp_path):
    dtype = b"cnumpy\ndtype\nX\x02\x00\x00\x00f8\x89\x88\x87R"  # numpy.dtype('f8', False, True)
    state = b"(K\x03X\x01\x00\x00\x00<NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tq\x00"  # (3, '<', ..., 0)
    array = b"cnumpy.core.multiarray\n_reconstruct\ncnumpy\nndarray\nK\x00\x85C\x01b\x87R"
    array_state = b"(K\x01K\x01\x85" + dtype + state + b"b\x89C\x08" + bytes(8) + b"tq\x01"
    for body in (dtype + state + b"bh\x00b", array + array_state + b"bh\x01b"):
        path = tmp_path / "twice.pdparams"
        path.write_bytes(b"\x80\x02" + body + b".")
        with pytest.raises(CheckpointError, match="given twice"):
            paddle.load(str(path))
    path.write_bytes(b"\x80\x02}X\x01\x00\x00\x00w" + array + array_state + b"bs.")  # once: it loads
    assert paddle.load(str(path), return_numpy=True)["w"].tolist() == [0.0]


@pytest.mark.parametrize("shape, data", [((10 ** 12,), b"\0" * 16), ((2, 2), b"\0" * 8), ((-1,), b""),
                                         ((2 ** 62, 4), b"\0" * 16), ((1.5,), b"\0" * 8)])
def test_an_array_must_be_exactly_its_bytes(tmp_path, shape, data):
    with pytest.raises(CheckpointError, match="crafted.pdparams"):
        _load_pickle(tmp_path, {"w": _array(shape, _dtype("f8", (3, "<", None, None, None, -1, -1, 0)), data)})


def test_checked_arrays_keep_their_values_order_and_byte_order(tmp_path):
    values = np.arange(6, dtype=np.float64).reshape(2, 3)
    obj = {"big_endian": values.astype(">f8"), "fortran": np.asfortranarray(values), "bool": np.array([True, False]),
           "scalar": np.float32(2.5), "c": values.astype(np.complex64)}
    out = _load_pickle(tmp_path, obj, return_numpy=True)
    for key in ("big_endian", "fortran"):
        np.testing.assert_array_equal(out[key], values)
        assert out[key].dtype == np.float64 and out[key].flags.writeable
    assert out["bool"].tolist() == [True, False] and out["scalar"] == np.float32(2.5)
    odd_bool = _array((2,), _dtype("b1", (3, "|", None, None, None, -1, -1, 0)), b"\x07\x00")  # bytes not 0/1
    assert _load_pickle(tmp_path, {"b": odd_bool}, return_numpy=True)["b"].view(np.uint8).tolist() == [1, 0]


def test_self_containing_pickles_are_refused_at_once(tmp_path):
    a = []
    a.append(a)
    d = {}
    d["self"] = [d]
    t = ([],)
    t[0].append(t)
    for obj in (a, d, t):
        data = pickle.dumps(obj, protocol=2)
        assert len(data) < 40
        with pytest.raises(CheckpointError, match="contains itself"):
            _load_pickle(tmp_path, obj)


def test_shared_subtrees_are_walked_once(tmp_path):
    x = [np.ones(2, np.float32), ("w", np.zeros(1))]
    for _ in range(60):  # 2**60 paths through 60 lists (the pickle's memo shares them)
        x = [x, x]
    start = time.perf_counter()
    out = _load_pickle(tmp_path, x)
    assert time.perf_counter() - start < 30  # exponential would never finish
    leaf = out
    for _ in range(60):
        assert leaf[0] is leaf[1]
        leaf = leaf[0]
    assert isinstance(leaf[1], paddle.Tensor) and leaf[1].name == "w"


def test_deep_nesting_is_refused(tmp_path):
    depth = 10 ** 5  # 10**5 empty lists, each appended to the one before: nesting no recursion could walk
    path = tmp_path / "deep.pdparams"
    path.write_bytes(b"\x80\x02" + b"]" * depth + b"a" * (depth - 1) + b".")
    with pytest.raises(CheckpointError, match="deeper than"):
        paddle.load(str(path))


@pytest.mark.parametrize("body", [b"B\xff\xff\xff\x7f", b"\x8e" + struct.pack("<Q", 1 << 40), b"]r\xff\xff\xff\x7f",
                                  b"X\xff\xff\xff\x7f", b"]q\x05"])
def test_counts_in_a_pickle_are_checked_before_allocating(tmp_path, body):
    """A byte count or memo index declares gigabytes in a few bytes: refused by the data's size."""
    path = tmp_path / "counts.pdparams"
    path.write_bytes(b"\x80\x04" + body + b".")
    with pytest.raises(CheckpointError, match="counts.pdparams"):
        paddle.load(str(path))


def test_an_array_named_twice_gives_independent_tensors(tmp_path):
    shared = np.ones(3, np.float32)
    out = _load_pickle(tmp_path, {"a": ("a", shared), "b": ("b", shared)})
    out["a"][0] = 5.0  # Paddle's to_tensor copies: no storage shared between the two
    assert out["b"].numpy().tolist() == [1.0, 1.0, 1.0]


# ---- inference models and jit.load: the same readers -----------------------------------------------------
def _hostile_params():
    return pickle.dumps({"w": _array((1,), _dtype(*HOSTILE_DTYPES["fields at 10^9"]), b"\0" * 8)}, protocol=2)


def test_inference_model_and_jit_parameters_go_through_the_checked_reader(tmp_path):
    prefix = str(tmp_path / "model")
    exe = save_small_model(prefix)
    with open(prefix + ".pdiparams", "wb") as f:
        f.write(_hostile_params())
    paddle.enable_static()
    try:
        with pytest.raises(CheckpointError, match="model.pdiparams"):
            paddle.static.load_inference_model(prefix, exe)
    finally:
        paddle.disable_static()
    net = paddle.nn.Linear(2, 1)
    jit_prefix = str(tmp_path / "net")
    paddle.jit.save(net, jit_prefix, input_spec=[paddle.static.InputSpec([None, 2], "float32")])
    with open(jit_prefix + ".pdiparams", "wb") as f:
        f.write(_hostile_params())
    with pytest.raises(CheckpointError, match="net.pdiparams"):
        paddle.jit.load(jit_prefix)


def _py_func_program():
    called = []
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2], "float32")
            out = main.current_block().create_var(name="out", shape=[2], dtype="float32")
            paddle.static.py_func(lambda v: called.append("the function") or np.array(v) * 2, x, out)
        return main, x, out, called
    finally:
        paddle.disable_static()


def _set_attr(path, op_type, name, value):
    """Rewrite `path`'s ProgramDesc: attribute `name` of every `op_type` op set to `value`."""
    from paddlelite.framework.framework_proto import messages
    from paddlelite.static.program_desc import _attr
    m = messages()
    desc = m.ProgramDesc()
    desc.ParseFromString(open(path, "rb").read())
    for op in (op for b in desc.blocks for op in b.ops if op.type == op_type):
        kept = [a for a in op.attrs if a.name != name]
        del op.attrs[:]
        op.attrs.extend(kept + [_attr(m, op_type, name, value)])
    with open(path, "wb") as f:
        f.write(desc.SerializeToString())


@pytest.mark.parametrize("fn_id", ["registered", 0, 10 ** 6, -2, True])
def test_a_loaded_model_never_chooses_python_code(tmp_path, fn_id):
    main, x, out, called = _py_func_program()
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        prefix = str(tmp_path / "pyfunc")
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
        if fn_id != "registered":
            _set_attr(prefix + ".pdmodel", "py_func", "forward_callable_id", fn_id)
        with pytest.raises(InferenceModelError, match="cannot choose Python code"):
            paddle.static.load_inference_model(prefix, exe)
    finally:
        paddle.disable_static()
    assert called == []


@pytest.mark.parametrize("fn_id", [-1, -2, 10 ** 6, True, 1.0])
def test_a_py_func_id_is_only_one_this_process_registered(fn_id):
    """Not a Python index: -1 used to call whatever function the process registered last."""
    main, x, out, called = _py_func_program()
    for op in main.global_block().ops:
        if op.type == "py_func":
            op._attrs["forward_callable_id"] = fn_id
    main._bump()
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        with pytest.raises(ValueError, match="forward_callable_id.*not the id of a py_func function"):
            exe.run(main, feed={"x": np.ones(2, np.float32)}, fetch_list=[out])
    finally:
        paddle.disable_static()
    assert called == []


def test_a_loaded_pylayer_cannot_name_a_backward_function(tmp_path):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2], "float32")
            y = paddle.static.nn.static_pylayer(lambda v: v * 2, [x])
        exe = paddle.static.Executor(paddle.CPUPlace())
        prefix = str(tmp_path / "pylayer")
        paddle.static.save_inference_model(prefix, [x], [y], exe, program=main)
        paddle.static.load_inference_model(prefix, exe)  # no backward function: loads
        _set_attr(prefix + ".pdmodel", "pylayer", "backward_function_id", 0)
        with pytest.raises(InferenceModelError, match="backward_function_id"):
            paddle.static.load_inference_model(prefix, exe)
    finally:
        paddle.disable_static()


# ---- paddlelite's own checkpoints: every malformed manifest is a CheckpointError naming the file --------
def _npy(arr):
    buf = io.BytesIO()
    np.lib.format.write_array(buf, arr, allow_pickle=False)
    return buf.getvalue()


def _checkpoint(path, doc, members=None):
    members = dict(members or {})
    members["__manifest__"] = _npy(np.frombuffer(json.dumps(doc).encode(), np.uint8))
    with zipfile.ZipFile(path, "w") as zf:
        for name, body in members.items():
            zf.writestr(name + ".npy", body)
    return str(path)


def _valid(tmp_path):
    path = tmp_path / "valid.pdparams"
    paddle.save({"w": paddle.to_tensor([1.0, 2.0]), "n": [1, 2.5, "s"]}, str(path), format="paddlelite")
    with zipfile.ZipFile(path) as zf:
        members = {i.filename[:-4]: zf.read(i) for i in zf.infolist()}
    doc = json.loads(np.lib.format.read_array(io.BytesIO(members.pop("__manifest__"))).tobytes())
    return doc, members


def _tensor_node(doc):
    return doc["tree"]["items"][0][1]


MALFORMED = {
    "tree missing": lambda d: d.pop("tree"),
    "tree not an object": lambda d: d.update(tree=[1]),
    "version not a number": lambda d: d.update(version="2"),
    "unknown type": lambda d: d["tree"].update(type="set"),
    "type not a string": lambda d: d["tree"].update(type=3),
    "items not a list": lambda d: d["tree"].update(items={"a": 1}),
    "dict item not a pair": lambda d: d["tree"]["items"].append(["k"]),
    "dict key a bool": lambda d: d["tree"]["items"].append([True, {"type": "value", "value": 1}]),
    "dict key twice": lambda d: d["tree"]["items"].append(["w", {"type": "value", "value": None}]),
    "value of a list": lambda d: d["tree"]["items"].append(["v", {"type": "value", "value": [1]}]),
    "value missing": lambda d: d["tree"]["items"].append(["v", {"type": "value"}]),
    "int not digits": lambda d: d["tree"]["items"].append(["i", {"type": "int", "value": "1x"}]),
    "int of 5000 digits": lambda d: d["tree"]["items"].append(["i", {"type": "int", "value": "9" * 5000}]),
    "int not a string": lambda d: d["tree"]["items"].append(["i", {"type": "int", "value": 3}]),
    "float not hex": lambda d: d["tree"]["items"].append(["f", {"type": "float", "value": "0x1p+99999"}]),
    "array key missing": lambda d: _tensor_node(d).pop("array"),
    "array key not a string": lambda d: _tensor_node(d).update(array=["a0"]),
    "array the manifest": lambda d: _tensor_node(d).update(array="__manifest__"),
    "array not in the file": lambda d: _tensor_node(d).update(array="a7"),
    "sha256 missing": lambda d: _tensor_node(d).pop("sha256"),
    "stop_gradient not a bool": lambda d: _tensor_node(d).update(stop_gradient="yes"),
    "name not a string": lambda d: _tensor_node(d).update(name=7),
    "unknown dtype": lambda d: _tensor_node(d).update(dtype="float8_e9m9"),
    "dtype on float32 data": lambda d: _tensor_node(d).update(dtype="bfloat16"),
    "scalar of a vector": lambda d: _tensor_node(d).update(type="npscalar"),
    "nested 200 deep": lambda d: d["tree"]["items"].append(["deep", json.loads('{"type": "list", "items": [' * 200
                                                                                + "]}" * 200)]),
    "one array twice": lambda d: d["tree"]["items"].append(["again", dict(_tensor_node(d))]),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_every_malformed_manifest_is_a_checkpoint_error(tmp_path, case):
    doc, members = _valid(tmp_path)
    MALFORMED[case](doc)
    path = _checkpoint(tmp_path / "bad.pdparams", doc, members)
    with pytest.raises(CheckpointError, match="bad.pdparams"):
        paddle.load(path)


def test_a_manifest_too_deep_for_the_json_parser_is_a_checkpoint_error(tmp_path):
    text = '{"format": "paddlelite-checkpoint", "version": 2, "tree": ' + "[" * 10 ** 5 + "]" * 10 ** 5 + "}"
    path = tmp_path / "deep.pdparams"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("__manifest__.npy", _npy(np.frombuffer(text.encode(), np.uint8)))
    with pytest.raises(CheckpointError, match="deep.pdparams"):
        paddle.load(str(path))


def test_an_npy_header_is_checked_against_the_file_size_before_allocating(tmp_path):
    doc, members = _valid(tmp_path)
    members["a0"] = npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }", bytes(16))
    path = _checkpoint(tmp_path / "huge.pdparams", doc, members)
    with pytest.raises(CheckpointError, match="huge.pdparams.*declares .* holds 16 bytes"):
        paddle.load(path)


@pytest.mark.parametrize("descr", ["|O", "<U3", "|S3", "|V8", "[('a', '<f8')]", "('<f8', (2,))"])
def test_npy_members_of_non_numeric_dtypes_are_refused(tmp_path, descr):
    doc, members = _valid(tmp_path)
    header = f"{{'descr': {descr if descr.startswith(('[', '(')) else repr(descr)}, 'fortran_order': False, " \
             f"'shape': (1,), }}"
    members["a0"] = npy_bytes(header, bytes(24))
    with pytest.raises(CheckpointError, match="odd.pdparams"):
        paddle.load(_checkpoint(tmp_path / "odd.pdparams", doc, members))


# ---- files that are not regular files ------------------------------------------------------------------
def _refused_at_once(load):
    """`load()` must raise CheckpointError without blocking (a named pipe used to block forever)."""
    result = []
    worker = threading.Thread(target=lambda: result.append(_outcome(load)), daemon=True)
    worker.start()
    worker.join(20)
    return result


def _outcome(load):
    try:
        load()
    except CheckpointError as e:
        return e
    return None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.pdparams"
    os.mkfifo(fifo)
    prefix = str(tmp_path / "pipe")
    os.mkfifo(prefix + ".pdmodel")
    try:
        outcomes = [_refused_at_once(lambda: paddle.load(str(fifo))),
                    _refused_at_once(lambda: paddle.jit.load(prefix))]
    finally:  # release a reader that blocked, so no thread stays behind
        for path in (str(fifo), prefix + ".pdmodel"):
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
    for outcome in outcomes:
        assert outcome and isinstance(outcome[0], CheckpointError), "blocked on a named pipe"
        assert "not a regular file" in str(outcome[0])
