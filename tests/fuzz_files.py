"""Fuzzing of every file reader (issue 29): real Paddle's pickles and paddlelite's zip checkpoints
(paddle.load), inference models (paddle.static.load_inference_model) and paddle.jit.load files.

The property: any input either loads or raises the checkpoint error family (CheckpointError, whose
subclass InferenceModelError the model readers raise), within a time bound (a load running past
TIMEOUT_S kills the process with its traceback) and a memory bound (the address space is capped at what
the imports took plus MEMORY_HEADROOM, so an allocation the file's few kilobytes do not justify is a
MemoryError, which fails the property), never runs a payload and never crashes the process.

Inputs are valid files (written by paddle.save, save_inference_model, jit.save) mutated byte-wise, and
files generated from their structure: pickles of crafted NumPy reduce tuples (dtype and array states,
scalars), payloads, shared and self-containing containers, random opcode sequences; checkpoints whose
manifest and `.npy` headers are rewritten; Paddle ProgramDescs (.pdmodel) whose fields are rewritten, Paddle tensor
streams (.pdiparams) whose headers lie, real Paddle's PIR programs (.json) whose JSON is rewritten, paddlelite's first-format model documents rewritten and re-signed (so the
checks past the SHA-256 run), each model with any of those parameter files beside it.

It runs as its own process -- `python -m tests.fuzz_files WORKDIR [READER ...]` (readers by the names
CI_EXAMPLES gives them; all by default), started by tests/test_fuzz_files.py --
so a segfault fails that test instead of killing pytest: every input is written to WORKDIR/current.* before
it is loaded, so a crash or a timeout leaves its reproducer there. Budget: PADDLELITE_FUZZ_EXAMPLES inputs
per reader; the default is small and derandomized (CI, seconds); set it (e.g. 20000) for a longer,
randomized run locally.
"""
import builtins
import collections
import copy
import faulthandler
import io
import json
import os
import pickle
import resource
import struct
import sys
import time
import zipfile

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import paddlelite as paddle
from paddlelite.framework.io import CheckpointError
from paddlelite.ops.registry import all_ops
from tests.crafted_files import RECONSTRUCT, Reduce, npy_bytes, save_small_model

TIMEOUT_S = 60
MEMORY_HEADROOM = 1 << 30
CI_EXAMPLES = {"paddle pickle": 120, "paddlelite checkpoint": 80, "inference model": 60, "jit.load": 30,
               "first-format model": 20, "PIR model": 40}


# ---- seeds: valid files -------------------------------------------------------------------------------
def _seed_objects():
    layer = paddle.nn.Linear(3, 2)
    opt = paddle.optimizer.Adam(parameters=layer.parameters())
    layer(paddle.ones([1, 3])).sum().backward()
    opt.step()
    misc = {"t": paddle.to_tensor([1, 2]), "bf16": paddle.to_tensor([1.5, -2.0]).astype("bfloat16"),
            "zero_d": paddle.to_tensor(3.0), "nested": [(1, "a"), {"u": paddle.to_tensor([[0.5]])}],
            "od": collections.OrderedDict(a=np.float32(2.0)), "big": 2 ** 70, "f": 1.5, "none": None}
    return [layer.state_dict(), opt.state_dict(), misc]


def _saved(obj, **kwargs):
    buf = io.BytesIO()
    path = os.path.join(WORKDIR, "seed")
    paddle.save(obj, path, **kwargs)
    with open(path, "rb") as f:
        buf.write(f.read())
    return buf.getvalue()


def _model_files(build):
    """(.pdmodel bytes, .pdiparams bytes) that `build(prefix)` writes."""
    prefix = os.path.join(WORKDIR, "seed_model")
    build(prefix)
    with open(prefix + ".pdmodel", "rb") as f, open(prefix + ".pdiparams", "rb") as g:
        return f.read(), g.read()


def _json_model_files(folder, model_file):
    """(JSON document, .pdiparams bytes) of a model in tests/data: paddlelite's first format, real Paddle's PIR."""
    prefix = os.path.join(os.path.dirname(__file__), "data", folder, "model")
    with open(prefix + model_file, "rb") as f, open(prefix + ".pdiparams", "rb") as g:
        return json.loads(f.read()), g.read()


def _save_jit_model(prefix):
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU(), paddle.nn.Linear(4, 2))
    paddle.jit.save(net, prefix, input_spec=[paddle.static.InputSpec([None, 3], "float32")])


# ---- strategies -----------------------------------------------------------------------------------------
SEEDS = {}  # kind -> valid files (bytes) or model documents, made by fuzz() (by name: strategies print short)


@st.composite
def mutated_bytes(draw, kind):
    """A seed with 1-4 byte-level edits: flips, overwrites, insertions, deletions, truncation, splices."""
    seeds = SEEDS[kind]
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["flip", "overwrite", "insert", "delete", "truncate", "splice"]))
        if kind == "flip":
            data[i] ^= draw(st.integers(1, 255))
        elif kind == "overwrite":
            chunk = draw(st.binary(min_size=1, max_size=8))
            data[i:i + len(chunk)] = chunk
        elif kind == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=16))
        elif kind == "delete":
            del data[i:i + draw(st.integers(1, 64))]
        elif kind == "truncate":
            del data[i:]
        else:
            other = draw(st.sampled_from(seeds))
            j = draw(st.integers(0, max(len(other) - 1, 0)))
            data[i:i + 32] = other[j:j + 32]
    return bytes(data)


_NUMERIC = ["b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]
_ODD_DESCRS = ["U3", "S3", "V8", "O", "f16", "M8", "m8[s]", "<f8", "float32", "", "f4,i4", "(2,)f8"]
_SIZES = st.sampled_from([-1, 0, 1, 2, 3, 4, 8, 16, -5, 2 ** 31, 10 ** 12])
_INTS = st.one_of(st.integers(-3, 10), st.sampled_from([2 ** 31, 2 ** 63, -2 ** 63, 10 ** 12, 10 ** 30]))


@st.composite
def crafted_dtypes(draw):
    descr = draw(st.sampled_from(_NUMERIC + _ODD_DESCRS))
    f8 = np.dtype("f8")
    fields = draw(st.sampled_from([None, {"a": (f8, 0)}, {"a": (f8, 10 ** 9)}, {"a": (f8, 10 ** 12, "t")}, {}]))
    state = (draw(st.sampled_from([3, 4, 2, "x"])), draw(st.sampled_from(["<", ">", "|", "=", "?", 1])),
             draw(st.sampled_from([None, (f8, (4,)), (f8, (10 ** 9, 10 ** 9)), "junk"])),
             ("a",) if fields else draw(st.sampled_from([None, ("a", "b"), ()])), fields,
             draw(_SIZES), draw(_SIZES), draw(st.sampled_from([0, 1, 16, 64, -1, 2 ** 40])))
    if draw(st.booleans()):
        state = state[:draw(st.integers(0, 9))] + (None,) * draw(st.integers(0, 2))
    return Reduce(np.dtype, (descr, draw(st.sampled_from([False, True, 0, 2])), True),
                  None if draw(st.integers(0, 9)) == 0 else state)


@st.composite
def valid_arrays(draw):
    dtype = np.dtype(draw(st.sampled_from(_NUMERIC)))
    if draw(st.booleans()):
        dtype = dtype.newbyteorder(">")
    shape = tuple(draw(st.lists(st.integers(0, 3), max_size=3)))
    data = draw(st.binary(min_size=int(np.prod(shape)) * dtype.itemsize, max_size=int(np.prod(shape)) * dtype.itemsize))
    arr = np.frombuffer(data, dtype=dtype).reshape(shape)
    return np.asfortranarray(arr) if draw(st.booleans()) else arr


@st.composite
def crafted_arrays(draw):
    """NumPy's array pickle (_reconstruct then BUILD) with a state drawn near and far from a valid one."""
    dtype = draw(st.one_of(crafted_dtypes(), st.sampled_from([np.dtype("f8"), np.dtype("i4"), "f8", None, 1])))
    shape = draw(st.one_of(st.lists(_INTS, max_size=3).map(tuple), st.sampled_from([[2], "2", None, (1.5,)])))
    data = draw(st.one_of(st.binary(max_size=48), st.text(max_size=8), st.none()))
    state = (draw(st.sampled_from([1, 0, 2])), shape, dtype, draw(st.sampled_from([False, True, 2, None])), data)
    if draw(st.booleans()):
        state = state[1:] if draw(st.booleans()) else state[:draw(st.integers(0, 5))]
    args = draw(st.sampled_from([(np.ndarray, (0,), b"b"), (np.ndarray, (10 ** 12,), b"b"), (np.ndarray, (0,), b"f"),
                                 (np.ma.MaskedArray, (0,), b"b")]))
    return Reduce(RECONSTRUCT, args, None if draw(st.integers(0, 9)) == 0 else state)


@st.composite
def crafted_scalars(draw):
    dtype = draw(st.one_of(crafted_dtypes(), st.sampled_from([np.dtype("f4"), np.dtype("<U2"), None])))
    return Reduce(np.float64(0).__reduce__()[0], (dtype, draw(st.one_of(st.binary(max_size=12), st.text(max_size=3)))))


def payloads():
    marker = os.path.join(WORKDIR, "payload-ran")
    return st.sampled_from([Reduce(os.system, (f"touch {marker}",)),
                            Reduce(builtins.exec, (f"open({marker!r}, 'w').close()",)),
                            Reduce(builtins.getattr, (os, "system")), Reduce(np.load, (marker,)),
                            Reduce(collections.OrderedDict, (), {"x": 1}), Reduce(dict, (), {"__class__": list}),
                            Reduce(list, (), [1])])


_PLAINS = st.one_of(st.none(), st.booleans(), _INTS, st.floats(), st.text(max_size=6), st.binary(max_size=6))
_LEAVES = st.one_of(_PLAINS, valid_arrays(), crafted_arrays(), crafted_dtypes(), crafted_scalars(), st.deferred(payloads),
                    valid_arrays().map(lambda a: ("param_0", a)), st.just(np.float32(1.5)))


def _containers(children):
    keys = st.one_of(st.text(max_size=4), st.integers(-2, 2), st.sampled_from(["StructuredToParameterName@@",
                                                                                "UnpackBigParamInfor@@"]))
    return st.one_of(st.lists(children, max_size=4), st.lists(children, max_size=3).map(tuple),
                     st.dictionaries(keys, children, max_size=4),
                     st.dictionaries(st.text(max_size=3), children, max_size=3).map(collections.OrderedDict),
                     st.sets(_PLAINS.filter(lambda v: v == v), max_size=3))


@st.composite
def crafted_pickles(draw):
    """A tree of the leaves above, some containers shared from several places or containing themselves."""
    tree = draw(st.recursive(_LEAVES, _containers, max_leaves=12))
    holders = []
    stack = [tree]
    while stack:
        o = stack.pop()
        if type(o) in (list, dict, collections.OrderedDict):
            holders.append(o)
            stack.extend(o.values() if isinstance(o, dict) else o)
    for _ in range(draw(st.integers(0, 3)) if holders else 0):
        a, b = draw(st.sampled_from(holders)), draw(st.sampled_from(holders))  # b inside a: a cycle when b holds a
        if isinstance(a, list):
            a.append(b)
        else:
            a[draw(st.text(max_size=3))] = b
    try:
        return pickle.dumps(tree, protocol=draw(st.integers(2, 4)))
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        assume(False)


_OPCODES = [b"]", b"}", b")", b"(", b"t", b"\x85", b"\x86", b"\x87", b"l", b"d", b"a", b"e", b"s", b"u", b"\x8f",
            b"\x90", b"\x91", b"R", b"b", b"\x81", b"\x92", b"o", b"\x94", b"2", b"0", b"1", b"N", b"\x88", b"\x89",
            b"q\x00", b"q\x01", b"h\x00", b"h\x01", b"h\x05", b"j\xff\xff\xff\x7f", b"K\x01", b"K\x03",
            b"J\xff\xff\xff\xff", b"\x8a\x09" + b"\xff" * 9, b"G" + struct.pack(">d", 1e308),
            b"C\x03abc", b"\x8c\x02f8", b"\x8c\x01<", b"B\xff\xff\xff\x7f", b"\x8e" + struct.pack("<Q", 1 << 40),
            b"X\xff\xff\xff\x7fx", b"P1\n", b"Q", b"\x82\x01", b"cnumpy\ndtype\n", b"cnumpy\nndarray\n",
            b"cnumpy.core.multiarray\n_reconstruct\n", b"cnumpy.core.multiarray\nscalar\n", b"c_codecs\nencode\n",
            b"ccollections\nOrderedDict\n", b"cbuiltins\nlist\n", b"cbuiltins\nset\n", b"cbuiltins\nfrozenset\n",
            b"cos\nsystem\n", b"cbuiltins\ngetattr\n", b"\x8c\x05numpy\x8c\x05dtype\x93", b"\x95" + bytes(8), b"."]


@st.composite
def opcode_soup(draw):
    body = b"".join(draw(st.lists(st.sampled_from(_OPCODES), min_size=1, max_size=40)))
    return b"\x80" + bytes([draw(st.integers(2, 4))]) + body + b"."


def _json_values():
    names = st.sampled_from(["x", "fc_0.w_0", "fc_0.tmp_0", "relu", "feed", "fetch", "X", "Out", "float32",
                             "DENSE_TENSOR", "bfloat16", "a0", "__manifest__", "tensor", "dict", "list", "py_func"])
    ints = st.one_of(st.integers(-3, 5), st.sampled_from([2 ** 31, 2 ** 63, 10 ** 12, -1]))
    base = st.one_of(st.none(), st.booleans(), ints, st.floats(allow_nan=False, allow_infinity=False), names,
                     st.text(max_size=5), st.sampled_from(sorted(all_ops())))
    return st.recursive(base, lambda c: st.one_of(
        st.lists(c, max_size=3), st.dictionaries(st.one_of(names, st.text(max_size=3)), c, max_size=3),
        st.builds(lambda v: {"__block__": v}, ints), st.builds(lambda v: {"__tuple__": v}, st.lists(c, max_size=3)),
        st.builds(lambda v: {"__float__": v}, st.text(max_size=6))), max_leaves=6)


def _slots(doc, out):
    """Every (container, key) of a JSON document."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for k, v in items:
        out.append((doc, k))
        _slots(v, out)
    return out


@st.composite
def mutated_json(draw, doc):
    """`doc` with 1-3 values replaced by random JSON (a registered op type among them), deleted or copied."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        slots = _slots(doc, [])
        if not slots:
            break
        parent, key = draw(st.sampled_from(slots))
        kind = draw(st.sampled_from(["replace", "replace", "delete", "copy"]))
        if kind == "replace":
            parent[key] = draw(_json_values())
        elif kind == "delete":
            del parent[key]
        else:
            other, k2 = draw(st.sampled_from(slots))
            parent[key] = copy.deepcopy(other[k2])
    return doc


_NPY_HEADERS = st.one_of(
    st.builds(lambda d, f, s: f"{{'descr': {d!r}, 'fortran_order': {f}, 'shape': {s!r}, }}",
              st.sampled_from(_NUMERIC + _ODD_DESCRS + ["|u1", "<u2", ">f8"]),
              st.sampled_from(["False", "True", "1"]),
              st.one_of(st.lists(_INTS, max_size=3).map(tuple), st.sampled_from([(10 ** 12,), "x", (-1,)]))),
    st.text(st.characters(max_codepoint=255), max_size=30))


@st.composite
def crafted_checkpoints(draw):
    """A zip in the checkpoint layout: a seed's members with the manifest rewritten, members replaced by crafted
    .npy files, named twice, or compressed."""
    with zipfile.ZipFile(io.BytesIO(draw(st.sampled_from(SEEDS["checkpoint"])))) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    manifest = np.lib.format.read_array(io.BytesIO(members["__manifest__.npy"]))
    doc = json.loads(manifest.tobytes())
    if draw(st.booleans()):
        doc = draw(mutated_json(doc))
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.frombuffer(json.dumps(doc).encode(), np.uint8))
    members["__manifest__.npy"] = buf.getvalue()
    names = sorted(members)
    entries = list(members.items())
    for _ in range(draw(st.integers(0, 2))):
        name = draw(st.sampled_from(names + ["a9.npy", "x.txt", "__manifest__.npy"]))
        body = npy_bytes(draw(_NPY_HEADERS), draw(st.binary(max_size=24))) if draw(st.booleans()) else \
            draw(st.binary(max_size=40))
        entries.append((name, body))
    compress = zipfile.ZIP_DEFLATED if draw(st.integers(0, 9)) == 0 else zipfile.ZIP_STORED
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=compress) as zf:
        seen = {}
        for name, body in entries:
            seen[name] = body
        for name, body in (entries if draw(st.booleans()) else seen.items()):
            zf.writestr(name, body)
    return out.getvalue()


def _signed(doc):
    """A first-format model document re-signed after an edit, so the loader's checks past the SHA-256 run."""
    from paddlelite.static.v1_model import _canonical_sha
    if isinstance(doc, dict) and isinstance(doc.get("program"), dict):
        doc = dict(doc, sha256=_canonical_sha(doc["program"]))
    return json.dumps(doc).encode()


def _fields(message, out):
    """Every (message, field descriptor) of a parsed protobuf message, nested ones included."""
    for field in message.DESCRIPTOR.fields:
        out.append((message, field))
        if field.type == field.TYPE_MESSAGE:
            children = getattr(message, field.name) if field.is_repeated else \
                [getattr(message, field.name)] if message.HasField(field.name) else []
            for child in children:
                _fields(child, out)
    return out


def _field_values(field):
    """Values for a scalar protobuf field: edge integers, names a program uses, registered op types."""
    if field.type == field.TYPE_STRING:
        return st.one_of(st.sampled_from(["x", "feed", "fetch", "X", "Out", "sub_block", "op_role", "col", "dtype",
                                          "fc_0.w_0", "@EMPTY@", "", "py_func", *sorted(all_ops())]),
                         st.text(max_size=5))
    if field.type == field.TYPE_BOOL:
        return st.booleans()
    if field.type in (field.TYPE_FLOAT, field.TYPE_DOUBLE):
        return st.floats(width=32 if field.type == field.TYPE_FLOAT else 64)
    if field.type == field.TYPE_ENUM:
        return st.sampled_from([v.number for v in field.enum_type.values])
    bits = 32 if field.type == field.TYPE_INT32 else 64
    return st.one_of(st.integers(-3, 8), st.sampled_from([2 ** (bits - 1) - 1, -2 ** (bits - 1), 2 ** 20, 2 ** 30]))


@st.composite
def mutated_desc(draw, data):
    """A ProgramDesc (`data`) with 1-4 fields changed: a scalar set to an edge value, a repeated field's element
    dropped, copied or appended, an optional message cleared; serialized again."""
    from paddlelite.framework.framework_proto import messages
    desc = messages().ProgramDesc()
    desc.ParseFromString(data)
    for _ in range(draw(st.integers(1, 4))):
        message, field = draw(st.sampled_from(_fields(desc, [])))
        if field.is_repeated:
            items = getattr(message, field.name)
            action = draw(st.sampled_from(["drop", "copy", "append"]))
            if action == "drop" and len(items):
                del items[draw(st.integers(0, len(items) - 1))]
            elif action == "copy" and len(items):
                item = items[draw(st.integers(0, len(items) - 1))]
                items.add().CopyFrom(item) if field.type == field.TYPE_MESSAGE else items.append(item)
            elif field.type != field.TYPE_MESSAGE:
                items.append(draw(_field_values(field)))
        elif field.type == field.TYPE_MESSAGE:
            message.ClearField(field.name)
        else:
            setattr(message, field.name, draw(_field_values(field)))
    return desc.SerializePartialToString()


@st.composite
def crafted_tensor_streams(draw):
    """Paddle tensor streams of 1-3 records whose every header field may lie: versions, LoD levels and sizes, the
    TensorDesc's size, data type and dims (huge ones among them), data shorter or longer than they say."""
    from paddlelite.framework.framework_proto import messages
    out = b""
    for _ in range(draw(st.integers(1, 3))):
        version = draw(st.sampled_from([0, 0, 0, 1, 2 ** 32 - 1]))
        lod = draw(st.lists(st.binary(max_size=24), max_size=2))
        desc = messages().VarType.TensorDesc(data_type=draw(st.sampled_from([5, 3, 0, 22, 23, 19, 7])),
                                             dims=draw(st.lists(st.sampled_from([0, 1, 2, 3, -1, 2 ** 31, 2 ** 62]),
                                                                max_size=4)))
        desc_bytes = desc.SerializePartialToString()
        desc_size = draw(st.sampled_from([len(desc_bytes)] * 4 + [0, -1, 2 ** 31 - 1, len(desc_bytes) + 3]))
        out += struct.pack("<IQ", version, draw(st.sampled_from([len(lod), len(lod), 2 ** 63])))
        out += b"".join(struct.pack("<Q", draw(st.sampled_from([len(level), 2 ** 40]))) + level for level in lod)
        out += struct.pack("<Ii", draw(st.sampled_from([0, 0, 7])), desc_size) + desc_bytes
        out += draw(st.binary(max_size=64))
    return out


@st.composite
def crafted_models(draw, kind):
    """(.pdmodel bytes, .pdiparams bytes) of a `kind` model: the program's fields rewritten or its bytes mutated
    (a first-format document rewritten and re-signed); the parameters as saved, mutated, a crafted tensor stream,
    or any other generated parameter file."""
    (model, params), = SEEDS[kind]
    if isinstance(model, dict):  # a PIR program has no signature; a first-format document is re-signed
        sign = (lambda doc: json.dumps(doc).encode()) if "base_code" in model else _signed
        model = draw(st.one_of(mutated_json(model).map(sign), st.just(json.dumps(model).encode())))
    else:
        model = draw(st.one_of(mutated_desc(model), st.just(model)))
    if draw(st.integers(0, 4)) == 0:
        model = draw(mutated_bytes(kind + " bytes"))
    param_files = st.one_of(mutated_bytes(kind + " params"), crafted_tensor_streams(), mutated_bytes("checkpoint"),
                            crafted_checkpoints(), crafted_pickles())
    return model, draw(st.one_of(st.just(params), param_files))


# ---- the targets ----------------------------------------------------------------------------------------
class Outcomes:
    def __init__(self):
        self.counts = collections.Counter()

    def run(self, target, load):
        """Apply `load`; the property: it returns, or raises CheckpointError, within TIMEOUT_S."""
        faulthandler.dump_traceback_later(TIMEOUT_S, exit=True)
        try:
            load()
            self.counts[target, "loaded"] += 1
        except CheckpointError:
            self.counts[target, "refused"] += 1
        finally:
            faulthandler.cancel_dump_traceback_later()
        assert not os.path.exists(os.path.join(WORKDIR, "payload-ran")), "a pickle ran its payload"


def _write(name, data):
    path = os.path.join(WORKDIR, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def _load_model(model, params, jit):
    _write("current.pdmodel", model)
    _write("current.pdiparams", params)
    prefix = os.path.join(WORKDIR, "current")
    if jit:
        return paddle.jit.load(prefix)
    paddle.enable_static()
    try:
        with paddle.static.scope_guard(paddle.static.Scope()):
            return paddle.static.load_inference_model(prefix, paddle.static.Executor(paddle.CPUPlace()))
    finally:
        paddle.disable_static()


def fuzz(examples, readers):
    outcomes = Outcomes()
    objects = _seed_objects()
    SEEDS["pickle"] = [_saved(o, protocol=p) for o in objects for p in (2, 3, 4)]
    SEEDS["checkpoint"] = [_saved(o, format="paddlelite") for o in objects]
    for kind, build in (("inference model", save_small_model), ("jit.load", _save_jit_model)):
        SEEDS[kind] = [_model_files(build)]
    SEEDS["first-format model"] = [_json_model_files("paddlelite_v1", ".pdmodel")]
    SEEDS["PIR model"] = [_json_model_files("paddle_pir", ".json")]
    for kind in ("inference model", "jit.load", "first-format model", "PIR model"):
        (model, params), = SEEDS[kind]
        SEEDS[kind + " bytes"] = [json.dumps(model).encode() if isinstance(model, dict) else model]
        SEEDS[kind + " params"] = [params]

    def run(name, strategy, load):
        if readers and name not in readers:
            return

        @settings(max_examples=examples(name), deadline=None, database=None, derandomize=RANDOM is False,
                  suppress_health_check=list(HealthCheck), print_blob=True)
        @given(strategy)
        def check(case):
            outcomes.run(name, lambda: load(case))
        start = time.perf_counter()
        check()
        print(f"{name}: {outcomes.counts[name, 'loaded']} loaded, {outcomes.counts[name, 'refused']} refused "
              f"in {time.perf_counter() - start:.1f} s", flush=True)

    def load_file(data):
        return paddle.load(_write("current.pdparams", data))

    run("paddle pickle", st.one_of(mutated_bytes("pickle"), crafted_pickles(), opcode_soup()), load_file)
    run("paddlelite checkpoint", st.one_of(mutated_bytes("checkpoint"), crafted_checkpoints()), load_file)
    run("inference model", crafted_models("inference model"), lambda case: _load_model(*case, jit=False))
    run("jit.load", crafted_models("jit.load"), lambda case: _load_model(*case, jit=True))
    run("first-format model", crafted_models("first-format model"), lambda case: _load_model(*case, jit=False))
    run("PIR model", crafted_models("PIR model"), lambda case: _load_model(*case, jit=True))


def _cap_memory():
    with open("/proc/self/status") as f:
        vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = vm + MEMORY_HEADROOM
    if hard == resource.RLIM_INFINITY or limit < hard:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


WORKDIR = None
RANDOM = False

if __name__ == "__main__":
    WORKDIR = sys.argv[1]
    budget = os.environ.get("PADDLELITE_FUZZ_EXAMPLES")
    RANDOM = budget is not None
    paddle.set_device("cpu")
    if os.path.exists("/proc/self/status"):
        _cap_memory()
    fuzz((lambda name: int(budget)) if RANDOM else CI_EXAMPLES.__getitem__, sys.argv[2:])
