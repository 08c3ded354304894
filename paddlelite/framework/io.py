"""paddle.save / paddle.load: real Paddle's pickles by default, and paddlelite's pickle-free format.

`paddle.save` writes what real Paddle's `paddle.save` writes (a pickle of NumPy arrays, paddle_pickle.py),
so `.pdparams`/`.pdopt` files are Paddle's; `format="paddlelite"` writes the pickle-free checkpoint: a zip
(`.npz` layout) of one uncompressed `.npy` member per array plus `__manifest__`, a JSON document (stored
as a uint8 array) describing the object tree -- dicts, lists, tuples, Tensors, arrays, numbers, strings,
None -- with the SHA-256 of every array's bytes. bfloat16 and float8 arrays are stored as their raw bits
with their dtype's name in the manifest.

`paddle.load` reads both, telling them apart by their first bytes: pickles through the restricted
unpickler of paddle_pickle.py, checkpoints without ever unpickling. Only regular files are read (a named
pipe would block); every array's dtype and shape must account for exactly the bytes the file holds
before anything is allocated, and every malformed or tampered file is a CheckpointError naming it.

Every write goes to a temporary file of its own in the target's directory, fsynced and renamed over the
target (removed again if the write fails), so a crash -- or another thread or process saving to the same
path -- leaves the old file or one complete new one.
"""
from __future__ import annotations

import collections
import contextlib
import hashlib
import io as _io
import json
import math
import os
import pickle
import secrets
import stat
import struct
import zipfile
from typing import Any, Literal

import numpy as np

from . import paddle_pickle
from .dtype import DTYPES
from .tensor import Parameter, Tensor, wrap_array

__all__ = ["save", "load", "CheckpointError", "write_file", "write_archive", "read_archive", "atomic_file",
           "open_regular", "install_format", "ModelNotFoundError"]

FORMAT = "paddlelite-checkpoint"
VERSION = 2  # 2: bfloat16/float8 arrays stored as bits with a "dtype" name; version 1 files read as before
VERSIONS = (1, 2)
_MANIFEST = "__manifest__"
_PICKLE_MAGIC = (b"\x80", b"(", b"]", b"}", b"c")  # protocol 2+ opcode, or protocol 0/1 openers
FORMATS = ("paddlelite", "paddle")
# What a damaged zip can raise from the standard library (a flipped byte in the central directory
# reads as an encrypted member, an unknown compression method, a bad date, ...).
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, RuntimeError, NotImplementedError,
               ValueError, struct.error, UnicodeDecodeError, OverflowError, KeyError, IndexError)
# What a malformed or refused pickle can raise while the restricted unpickler reads it (never MemoryError: no
# allocation exceeds what the file's bytes justify, so running out of memory is not the file's fault).
_PICKLE_ERRORS = (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, IndexError, KeyError,
                  OverflowError, struct.error, UnicodeDecodeError)
# ml_dtypes' floats (bfloat16, float8), which .npy files cannot describe: stored as unsigned ints of their size
_BITS = {d.np: np.dtype(f"u{d.np.itemsize}") for d in DTYPES.values() if not paddle_pickle.checkpoint_dtype(d.np)}
_BY_NAME = {str(d): d for d in _BITS}


class CheckpointError(ValueError):
    """A file that is not a valid paddlelite checkpoint (truncated, edited, or not ours)."""


class ModelNotFoundError(FileNotFoundError, ValueError):
    """A checkpoint or model file that is not there: Paddle's loaders raise ValueError ("The ``path`` (...) to load
    model not exists"), Python code expects FileNotFoundError; both catch it (as NumPy's AxisError is both a
    ValueError and an IndexError)."""


def _digest(arr):
    """SHA-256 of an array's dtype, shape and values, taken little-endian (so the byte order a file stores
    and the native one a reader converts to give the same digest)."""
    little = arr.dtype.newbyteorder("<")
    h = hashlib.sha256()
    h.update(str(little.str).encode())
    h.update(repr(tuple(arr.shape)).encode())
    h.update(np.asarray(arr, dtype=little, order="C").tobytes())
    return h.hexdigest()


class _Writer:
    def __init__(self):
        self.arrays = {}

    def _array(self, arr):
        node = {}
        if arr.dtype in _BITS:
            node["dtype"] = str(arr.dtype)
            arr = arr.view(_BITS[arr.dtype])
        if not paddle_pickle.checkpoint_dtype(arr.dtype):
            raise TypeError(f"paddle.save: arrays of dtype {arr.dtype} cannot be saved; a checkpoint holds "
                            "bool, integer, float and complex arrays")
        key = f"a{len(self.arrays)}"
        self.arrays[key] = arr
        node.update(array=key, sha256=_digest(arr))
        return node

    def node(self, obj, where):
        if isinstance(obj, Tensor):
            node = {"type": "tensor", "param": isinstance(obj, Parameter), "name": obj.name,
                    "stop_gradient": bool(obj.stop_gradient)}
            node.update(self._array(obj._host()))
            return node
        if getattr(obj, "_is_variable", False):
            raise TypeError(f"paddle.save: {where} is a static Variable, which holds no values; save the "
                            "values from the scope (paddle.static.save / save_inference_model)")
        if isinstance(obj, np.ndarray):
            return {"type": "ndarray", **self._array(obj)}
        if isinstance(obj, np.generic):
            return {"type": "npscalar", **self._array(np.asarray(obj))}
        if obj is None or isinstance(obj, (bool, str)):
            return {"type": "value", "value": obj}
        if isinstance(obj, int):
            return {"type": "int", "value": str(obj)}
        if isinstance(obj, float):
            return {"type": "float", "value": obj.hex()}
        if isinstance(obj, dict):
            items = []
            for k, v in obj.items():
                if isinstance(k, bool) or not isinstance(k, (str, int)):
                    raise TypeError(f"paddle.save: dict keys must be str or int, {where} has a key of type "
                                    f"{type(k).__name__}")
                items.append([k, self.node(v, f"{where}[{k!r}]")])
            return {"type": "dict", "items": items}
        if isinstance(obj, (list, tuple)):
            return {"type": "list" if isinstance(obj, list) else "tuple",
                    "items": [self.node(v, f"{where}[{i}]") for i, v in enumerate(obj)]}
        raise TypeError(f"paddle.save: cannot save {where} of type {type(obj).__name__}; a checkpoint holds "
                        "dicts, lists, tuples, Tensors, numpy arrays, numbers, strings and None")


# Objects of classes above this floor that paddle.save writes their own way (install_format): a static Program as
# its program document, a LoDTensor as the Tensor of its value. class -> encode(obj): bytes to write as they are,
# or an object to save as usual
_ENCODERS = {}
_NESTED_ENCODERS = {}  # class -> encode(obj): the object saved for one inside a dict, list or tuple
_DECODERS = []  # (sniff(first bytes) -> bool, decode(data, where, return_numpy) -> object): what paddle.load reads
_BINARY_ENCODERS = {}  # class -> encode(obj): the bytes paddle.save(obj, use_binary_format=True) writes


def install_format(cls, encode=None, sniff=None, decode=None, nested=None, binary=None):
    """Teach paddle.save an instance of `cls` (`encode(obj)`: bytes written as they are, or an object saved as usual;
    `nested(obj)`: the object saved for one inside a container, when that differs; `binary(obj)`: the bytes written
    with use_binary_format=True) and paddle.load the bytes `sniff(first 4 bytes)` recognises
    (`decode(data, where, return_numpy)`)."""
    if encode is not None:
        _ENCODERS[cls] = encode
    if nested is not None:
        _NESTED_ENCODERS[cls] = nested
    if binary is not None:
        _BINARY_ENCODERS[cls] = binary
    if decode is not None:
        _DECODERS.append((sniff, decode))


def _binary_bytes(obj, api):
    """What paddle.save(obj, use_binary_format=True) writes: Paddle's binary record of one tensor or SelectedRows."""
    for cls, encode in _BINARY_ENCODERS.items():
        if isinstance(obj, cls):
            return encode(obj)
    raise NotImplementedError(f"{api}: with use_binary_format=True, obj must be a Tensor, a DenseTensor (LoDTensor) or "
                              f"a SelectedRows, received {type(obj).__name__}")


def _encode_items(obj):
    """`obj` with the instances of install_format's classes inside its dicts, lists and tuples encoded."""
    encode = _NESTED_ENCODERS.get(type(obj))
    if encode is not None:
        return encode(obj)
    if type(obj) in (dict, collections.OrderedDict):
        return type(obj)((k, _encode_items(v)) for k, v in obj.items())
    if type(obj) in (list, tuple):
        return type(obj)(_encode_items(v) for v in obj)
    return obj


def _is_buffer(path):
    """A file-like object (io.BytesIO, an open file) rather than a path."""
    return not isinstance(path, (str, os.PathLike)) and (hasattr(path, "write") or hasattr(path, "read"))


def save(obj: Any, path: str | os.PathLike[str] | _io.BytesIO, protocol: int = 4,
         format: Literal["paddle", "paddlelite"] = "paddle", **configs: Any) -> None:
    """Save `obj` (e.g. a layer's or optimizer's state_dict, a Tensor, a static Program) to `path` atomically, or
    into a file-like object (io.BytesIO). format="paddle" (the default) writes real Paddle's pickle (protocol 2-4),
    which Paddle's paddle.load reads; format="paddlelite" writes the pickle-free checkpoint (which also keeps float8
    tensors, which Paddle's format cannot hold). A Program is written as paddlelite's program document. With
    use_binary_format=True a Tensor, DenseTensor or SelectedRows is written as Paddle's binary record of it (what its
    save op writes), which paddle.load reads back."""
    if isinstance(path, (str, os.PathLike)) and os.path.dirname(os.fspath(path)):  # first of all, as Paddle's
        os.makedirs(os.path.dirname(os.fspath(path)), exist_ok=True)
    binary = configs.get("use_binary_format", False)
    if not isinstance(binary, bool):
        raise TypeError(f"paddle.save: use_binary_format must be a bool, received {type(binary).__name__}")
    if binary:
        obj = _binary_bytes(obj, "paddle.save")
    write_file(obj, path, "paddle.save", format, protocol)


def _binary_file(file_name, api):
    if not (isinstance(file_name, (str, os.PathLike)) or _is_buffer(file_name)):
        raise NotImplementedError(f"{api}: only a file path or a file-like object (io.BytesIO) is supported, received "
                                  f"{type(file_name).__name__}")


def _save_binary(obj, file_name, api):
    """Paddle's private helpers behind paddle.save(use_binary_format=True): the record written; its end position."""
    _binary_file(file_name, api)
    write_file(_binary_bytes(obj, api), file_name, api)
    return file_name.tell() if _is_buffer(file_name) else os.path.getsize(file_name)


def _load_binary(file_name, api):
    """(the object of the binary record at `file_name`, its end position)."""
    _binary_file(file_name, api)
    obj = read_archive(file_name, api)
    return obj, file_name.tell() if _is_buffer(file_name) else os.path.getsize(file_name)


def _save_dense_tensor(tensor, file_name):
    return _save_binary(tensor, file_name, "paddle.framework.io._save_dense_tensor")


def _save_selected_rows(selected_rows, file_name):
    return _save_binary(selected_rows, file_name, "paddle.framework.io._save_selected_rows")


def _load_dense_tensor(file_name):
    return _load_binary(file_name, "paddle.framework.io._load_dense_tensor")


def _load_selected_rows(file_name):
    return _load_binary(file_name, "paddle.framework.io._load_selected_rows")


def write_file(obj, path, api, format="paddle", protocol=4):
    """Write `obj` to `path` (atomically) or into a file-like object, in `format` (the writer behind paddle.save and
    paddle.static.save); `api` names the caller in errors."""
    if format not in FORMATS:
        raise ValueError(f"{api}: format must be one of {FORMATS}, received {format!r}")
    encode = _ENCODERS.get(type(obj))
    obj = encode(obj) if encode is not None else _encode_items(obj)
    if _is_buffer(path):
        if not hasattr(path, "write"):
            raise TypeError(f"{api}: path must be a str, an os.PathLike or a writable file-like object (io.BytesIO), "
                            f"received {type(path).__name__}")
        if isinstance(obj, bytes):
            path.write(obj)
        elif format == "paddlelite":
            _write_zip(obj, path, api)
        else:
            path.write(paddle_pickle.pickle_bytes(obj, protocol, api))
        return None
    if format == "paddlelite" and not isinstance(obj, bytes):
        return write_archive(obj, path, api)
    path = _check_path(path, api)
    data = obj if isinstance(obj, bytes) else paddle_pickle.pickle_bytes(obj, protocol, api)
    with atomic_file(path) as f:
        f.write(data)


def _check_path(path, api):
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{api}: path must be a str or os.PathLike, received {type(path).__name__}")
    path = os.fspath(path)
    if os.path.isdir(path):
        raise ValueError(f"{api}: path '{path}' is a directory; give a file name such as "
                         f"'{os.path.join(path, 'model.pdparams')}'")
    return path


def _new_temporary(path):
    """A new file next to `path`, named `<name>.<random>.tmp`, created exclusively (so no other save, in this
    process or another, ever shares it) with the permissions the umask gives a new file (mkstemp's are 0600)."""
    for _ in range(100):
        tmp = f"{path}.{secrets.token_hex(8)}.tmp"
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(f"could not create a temporary file next to '{path}'")


@contextlib.contextmanager
def atomic_file(path, mode="wb"):
    """A file object that becomes `path` only when the block completes: written to a temporary file of its own
    in the same directory, fsynced, renamed over `path`. On any exception (KeyboardInterrupt included) the
    temporary file is removed and `path` keeps its old content."""
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    tmp, fd = _new_temporary(path)
    try:
        with open(fd, mode) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable where directories can be fsynced
        fd = os.open(d or ".", os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_archive(obj, path, api):
    """Write `obj` to `path` in the checkpoint format (the writer behind paddle.save, reused by
    paddle.static.save_inference_model); `api` names the caller in errors."""
    path = _check_path(path, api)
    with atomic_file(path) as f:
        _write_zip(obj, f, api)


def _write_zip(obj, f, api):
    writer = _Writer()
    tree = writer.node(obj, "obj")
    manifest = json.dumps({"format": FORMAT, "version": VERSION, "tree": tree}).encode()
    members = dict(writer.arrays)
    members[_MANIFEST] = np.frombuffer(manifest, dtype=np.uint8)
    with zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, arr in members.items():
            buf = _io.BytesIO()
            np.lib.format.write_array(buf, np.asarray(arr, order="C"), allow_pickle=False)
            zf.writestr(name + ".npy", buf.getvalue())


def _read_members(f, path, api):
    try:
        with zipfile.ZipFile(f) as zf:
            size = f.getbuffer().nbytes if isinstance(f, _io.BytesIO) else os.fstat(f.fileno()).st_size
            _check_members(zf, size, path, api)
            bad = zf.testzip()
            if bad is not None:
                raise CheckpointError(f"{api}: '{path}' is corrupted (member '{bad}' fails its CRC check)")
            members = {}
            for info in zf.infolist():
                name = info.filename[:-4]
                if name in members:
                    raise CheckpointError(f"{api}: '{path}' holds member '{info.filename}' twice")
                with zf.open(info) as m:
                    members[name] = _parse_npy(m.read(), f"'{path}' member '{info.filename}'", api)
            return members
    except CheckpointError:
        raise
    except _ZIP_ERRORS as e:
        raise CheckpointError(f"{api}: '{path}' is truncated or corrupted ({type(e).__name__}: {e})") from None


def _check_members(zf, file_size, path, api):
    """Before anything is read: only stored (uncompressed) .npy members, whose sizes fit in the file -- so
    reading can never inflate beyond the bytes on disk (paddle.save never compresses)."""
    total = 0
    for info in zf.infolist():
        name = info.filename
        if not name.endswith(".npy"):
            raise CheckpointError(f"{api}: '{path}' has an unexpected member '{name}'")
        if info.compress_type != zipfile.ZIP_STORED or info.flag_bits & 0x1:
            raise CheckpointError(f"{api}: '{path}' member '{name}' is compressed or encrypted; paddlelite "
                                  "checkpoints store their arrays uncompressed (refusing to inflate it)")
        total += info.file_size
        if info.file_size != info.compress_size or total > file_size:
            raise CheckpointError(f"{api}: '{path}' member '{name}' declares {info.file_size} bytes, more than "
                                  f"the file holds; it is corrupted")


def _parse_npy(data, where, api):
    """The array a .npy member's bytes hold: its header's dtype must be numeric and its shape must account for
    exactly the bytes that follow, checked before anything is allocated."""
    buf = _io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(buf)
        if version not in ((1, 0), (2, 0)):
            raise ValueError(f"unsupported .npy version {version}")
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = read_header(buf)
    except Exception as e:  # noqa: BLE001 -- NumPy's header parser (literal_eval, tokenize) on at most 10 kB of text
        raise CheckpointError(f"{api}: {where} has an invalid .npy header ({type(e).__name__}: {e})") from None
    if not paddle_pickle.checkpoint_dtype(dtype):
        raise CheckpointError(f"{api}: {where} holds an array of dtype {dtype}; a checkpoint holds numeric arrays "
                              "(refusing object and structured data)")
    need = math.prod(shape) * dtype.itemsize
    if need != len(data) - buf.tell():
        raise CheckpointError(f"{api}: {where} declares a {dtype} array of shape {list(shape)} ({need} bytes) but "
                              f"holds {len(data) - buf.tell()} bytes of data")
    return paddle_pickle.array_from_bytes(memoryview(data)[buf.tell():], dtype, shape, "F" if fortran else "C")


def _manifest(members, path, api):
    raw = members.get(_MANIFEST)
    if raw is None or raw.dtype != np.uint8 or raw.ndim != 1:
        raise CheckpointError(f"{api}: '{path}' has no valid manifest; it is not a paddlelite checkpoint")
    try:
        doc = json.loads(raw.tobytes().decode())
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise CheckpointError(f"{api}: '{path}' has a corrupted manifest ({type(e).__name__}: {e})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CheckpointError(f"{api}: '{path}' is not a paddlelite checkpoint")
    if doc.get("version") not in VERSIONS:
        raise CheckpointError(f"{api}: '{path}' has format version {doc.get('version')!r:.40}; this paddlelite "
                              f"reads versions {list(VERSIONS)}")
    if "tree" not in doc:
        raise CheckpointError(f"{api}: '{path}' has a manifest without its object tree")
    return doc["tree"]


class _Reader:
    """The object tree a manifest describes, every entry checked: a malformed one is a CheckpointError naming the
    file and the entry, and each array may be named once (the writer never names one twice, so a manifest that
    does is not one it wrote; two tensors must never share one array's storage)."""

    def __init__(self, members, path, return_numpy, place, api):
        self.members, self.path, self.return_numpy, self.place = members, path, return_numpy, place
        self.api = api
        self.used = set()

    def fail(self, what, n):
        raise CheckpointError(f"{self.api}: '{self.path}' has a malformed manifest entry ({what}): {n!r:.80}")

    def field(self, n, key, types):
        value = n.get(key)
        if key not in n or type(value) not in types:
            self.fail(f"'{key}' must be {' or '.join(t.__name__ for t in types)}", n)
        return value

    def _array(self, n):
        key = self.field(n, "array", (str,))
        arr = self.members.get(key)
        if arr is None or key == _MANIFEST:
            raise CheckpointError(f"{self.api}: '{self.path}' misses array '{key:.40}' named by its manifest")
        if key in self.used:
            raise CheckpointError(f"{self.api}: '{self.path}' has a manifest naming array '{key}' twice")
        if _digest(arr) != n.get("sha256"):
            raise CheckpointError(f"{self.api}: '{self.path}' array '{key}' does not match its recorded SHA-256; "
                                  "the file was modified or corrupted")
        self.used.add(key)
        name = n.get("dtype")
        if name is None:
            return arr
        dtype = _BY_NAME.get(name) if type(name) is str else None
        if dtype is None or arr.dtype != _BITS[dtype]:
            self.fail(f"array '{key}' of dtype {arr.dtype} cannot hold {name!r:.40}", n)
        return arr.view(dtype)

    def node(self, n, depth=0):
        if type(n) is not dict or type(n.get("type")) is not str:
            self.fail("not an entry with a type", n)
        if depth >= paddle_pickle.MAX_DEPTH:
            self.fail(f"nested deeper than {paddle_pickle.MAX_DEPTH} levels", n)
        t = n["type"]
        if t == "tensor":
            name = self.field(n, "name", (str, type(None)))
            stop_gradient = self.field(n, "stop_gradient", (bool,))
            arr = self._array(n)
            if self.return_numpy:  # what Tensor.numpy() gives: bfloat16 as its uint16 bits, as Paddle's
                return arr.view(paddle_pickle.BFLOAT16_BITS) if arr.dtype == DTYPES["bfloat16"].np else arr
            xp = self.place.xp
            out = wrap_array(arr if xp is np else xp.asarray(arr), self.place, stop_gradient)
            if name is not None:
                out.name = name
            return out
        if t == "ndarray":
            return self._array(n)
        if t == "npscalar":
            arr = self._array(n)
            if arr.ndim:
                self.fail("a scalar's array is not 0-d", n)
            return arr[()]
        if t == "value":
            return self.field(n, "value", (type(None), bool, str))
        if t in ("int", "float"):
            text = self.field(n, "value", (str,))
            try:
                return int(text) if t == "int" else float.fromhex(text)
            except (ValueError, OverflowError):
                self.fail(f"not a {t}", n)
        if t not in ("dict", "list", "tuple"):
            self.fail(f"unknown type {t!r:.40}", n)
        items = self.field(n, "items", (list,))
        if t == "dict":
            out = {}
            for item in items:
                if type(item) is not list or len(item) != 2 or type(item[0]) not in (str, int) or item[0] in out:
                    self.fail("a dict item must be a [str or int key, entry] pair, each key once", item)
                out[item[0]] = self.node(item[1], depth + 1)
            return out
        values = [self.node(v, depth + 1) for v in items]
        return values if t == "list" else tuple(values)


def load(path: str | os.PathLike[str] | _io.BytesIO, **configs: Any) -> Any:
    """Load what `save` wrote (from a path or a file-like object), or a file real Paddle's paddle.save wrote. Tensors
    come back as Tensors on the current device (NumPy arrays with return_numpy=True). Paddle's pickles are read through
    a restricted unpickler: anything but arrays, plain values and containers is refused, so a pickle never runs
    code."""
    return read_archive(path, "paddle.load", bool(configs.get("return_numpy", False)),
                        bool(configs.get("keep_name_table", False)))


def _load_paddle_pickle(data, path, api, return_numpy, keep_name_table):
    from ..device import current_place
    place = current_place()

    def to_tensor(array, name):
        if return_numpy:
            return array
        if array.dtype == paddle_pickle.BFLOAT16_BITS:  # Paddle's pickles hold bfloat16 as its bits
            array = array.view(DTYPES["bfloat16"].np)
        out = wrap_array(array if place.xp is np else place.xp.asarray(array), place, True)
        if name is not None:
            out.name = name
        return out

    try:
        tree = paddle_pickle.unpickle(data)
        return paddle_pickle.to_paddle_objects(tree, to_tensor, keep_name_table)
    except CheckpointError:
        raise
    except _PICKLE_ERRORS as e:
        raise CheckpointError(f"{api}: '{path}' is a pickle that is not a plain checkpoint of arrays, or is "
                              f"corrupted; refusing it ({type(e).__name__}: {e})"[:2000]) from None


def open_regular(path, api):
    """(path as a str, its file opened for binary reading); refused at once -- before a read could block or never
    end -- unless it is a regular file (a named pipe, a device, a socket)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{api}: path must be a str or os.PathLike, received {type(path).__name__}")
    path = os.fspath(path)
    try:  # non-blocking: opening a named pipe must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise ModelNotFoundError(f"{api}: no such file '{path}'") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(f"{api}: '{path}' is a directory, expected a checkpoint file")
        raise CheckpointError(f"{api}: '{path}' is not a regular file (a named pipe, device or socket); a "
                              "checkpoint is read from a file")
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return path, os.fdopen(fd, "rb")


def read_archive(path, api, return_numpy=False, keep_name_table=False, name=None):
    """Read and verify a file `write_archive` wrote (zip and CRC, manifest, SHA-256 of every array, no
    unnamed arrays) or real Paddle's pickle (restricted unpickler); `api` names the caller in errors, which
    are CheckpointErrors naming the file (a file-like object: `name`, or its class)."""
    if _is_buffer(path):  # a file-like object: its bytes, read once
        if not hasattr(path, "read"):
            raise TypeError(f"{api}: path must be a str, an os.PathLike or a readable file-like object (io.BytesIO), "
                            f"received {type(path).__name__}")
        path, f = name or f"<{type(path).__name__}>", _io.BytesIO(path.read())
    else:
        path, f = open_regular(path, api)
    with f:
        head = f.read(4)
        if head[:1] in _PICKLE_MAGIC and head[:2] != b"PK":
            return _load_paddle_pickle(head + f.read(), path, api, return_numpy, keep_name_table)
        for sniff, decode in _DECODERS:
            if sniff(head):
                return decode(head + f.read(), f"'{path}'", return_numpy)
        if head != b"PK\x03\x04":
            raise CheckpointError(f"{api}: '{path}' is not a paddlelite checkpoint (no zip header)")
        members = _read_members(f, path, api)
    tree = _manifest(members, path, api)
    from ..device import current_place
    reader = _Reader(members, path, return_numpy, current_place(), api)
    out = reader.node(tree)
    extra = set(members) - reader.used - {_MANIFEST}
    if extra:
        raise CheckpointError(f"{api}: '{path}' holds arrays its manifest does not name: {sorted(extra)[:10]}")
    return out
