"""paddle.save / paddle.load without pickle.

A checkpoint is a zip written by NumPy (`.npz`): one `.npy` member per array (saved with
allow_pickle=False) plus `__manifest__`, a JSON document (stored as a uint8 array) describing the
object tree -- dicts, lists, tuples, Tensors, arrays, numbers, strings, None -- with the SHA-256 of
every array's bytes. Loading never unpickles: object arrays are refused by NumPy, a file that is a
pickle is refused before it is opened, and a truncated or edited file fails its zip or digest check
with an error that says so.

Real Paddle's own files (pickles) are read through the restricted unpickler of paddle_pickle.py, and
`save(..., format="paddle")` writes one real Paddle reads. Every write goes to a temporary file that
is fsynced and renamed over the target (removed again if the write fails), so a crash leaves either
the old file or the new one.
"""
import hashlib
import io as _io
import contextlib
import json
import os
import pickle
import struct
import zipfile

import numpy as np

from . import paddle_pickle
from .tensor import Parameter, Tensor, wrap_array

__all__ = ["save", "load", "CheckpointError", "write_archive", "read_archive", "atomic_file"]

FORMAT = "paddlelite-checkpoint"
VERSION = 1
_MANIFEST = "__manifest__"
_PICKLE_MAGIC = (b"\x80", b"(", b"]", b"}", b"c")  # protocol 2+ opcode, or protocol 0/1 openers
FORMATS = ("paddlelite", "paddle")
# What a damaged zip can raise from the standard library (a flipped byte in the central directory
# reads as an encrypted member, an unknown compression method, a bad date, ...).
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, RuntimeError, NotImplementedError,
               ValueError, struct.error, UnicodeDecodeError, OverflowError, KeyError, IndexError)
# What a malformed or refused pickle can raise while the restricted unpickler reads it.
_PICKLE_ERRORS = (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, IndexError, KeyError,
                  OverflowError, struct.error, UnicodeDecodeError, MemoryError, RecursionError)


class CheckpointError(ValueError):
    """A file that is not a valid paddlelite checkpoint (truncated, edited, or not ours)."""


def _digest(arr):
    h = hashlib.sha256()
    h.update(str(arr.dtype.str).encode())
    h.update(repr(tuple(arr.shape)).encode())
    h.update(np.asarray(arr, order="C").tobytes())
    return h.hexdigest()


class _Writer:
    def __init__(self):
        self.arrays = {}

    def _array(self, arr):
        if arr.dtype.kind == "O":
            raise TypeError("paddle.save: object arrays cannot be saved (they would need pickle)")
        key = f"a{len(self.arrays)}"
        self.arrays[key] = arr
        return {"array": key, "sha256": _digest(arr)}

    def node(self, obj, where):
        if isinstance(obj, Tensor):
            node = {"type": "tensor", "param": isinstance(obj, Parameter), "name": obj.name,
                    "stop_gradient": bool(obj.stop_gradient)}
            node.update(self._array(obj.numpy()))
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


def save(obj, path, protocol=4, format="paddlelite", **configs):
    """Save `obj` (e.g. a layer's or optimizer's state_dict) to `path`, atomically. format="paddlelite" (the
    default) writes the pickle-free checkpoint; format="paddle" writes real Paddle's pickle (protocol 2-4),
    which Paddle's paddle.load reads."""
    if format not in FORMATS:
        raise ValueError(f"paddle.save: format must be one of {FORMATS}, received {format!r}")
    if format == "paddle":
        path = _check_path(path, "paddle.save")
        data = paddle_pickle.pickle_bytes(obj, protocol, "paddle.save")
        with atomic_file(path) as f:
            f.write(data)
        return
    write_archive(obj, path, "paddle.save")


def _check_path(path, api):
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{api}: path must be a str or os.PathLike, received {type(path).__name__}")
    path = os.fspath(path)
    if os.path.isdir(path):
        raise ValueError(f"{api}: path '{path}' is a directory; give a file name such as "
                         f"'{os.path.join(path, 'model.pdparams')}'")
    return path


@contextlib.contextmanager
def atomic_file(path, mode="wb"):
    """A file object that becomes `path` only when the block completes: written to `<path>.tmp<pid>`,
    fsynced, renamed over `path`. On any exception (KeyboardInterrupt included) the temporary file is
    removed and `path` keeps its old content."""
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, mode) as f:
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
    writer = _Writer()
    tree = writer.node(obj, "obj")
    manifest = json.dumps({"format": FORMAT, "version": VERSION, "tree": tree}).encode()
    members = dict(writer.arrays)
    members[_MANIFEST] = np.frombuffer(manifest, dtype=np.uint8)
    with atomic_file(path) as f:
        with zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED) as zf:
            for name, arr in members.items():
                buf = _io.BytesIO()
                np.lib.format.write_array(buf, np.asarray(arr, order="C"), allow_pickle=False)
                zf.writestr(name + ".npy", buf.getvalue())


def _read_members(path, api):
    try:
        with zipfile.ZipFile(path) as zf:
            _check_members(zf, os.path.getsize(path), path, api)
            bad = zf.testzip()
            if bad is not None:
                raise CheckpointError(f"{api}: '{path}' is corrupted (member '{bad}' fails its CRC check)")
            return {info.filename[:-4]: _read_array(zf, info, path, api) for info in zf.infolist()}
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


def _read_array(zf, info, path, api):
    name = info.filename
    try:
        with zf.open(info) as m:
            return np.lib.format.read_array(_io.BytesIO(m.read()), allow_pickle=False)
    except ValueError as e:
        if "pickle" in str(e).lower() or "object" in str(e).lower():
            raise CheckpointError(f"{api}: '{path}' member '{name}' holds a pickled object array; "
                                  "refusing to unpickle it") from None
        raise CheckpointError(f"{api}: '{path}' member '{name}' is not a valid array ({e})") from None


def _manifest(members, path, api):
    raw = members.get(_MANIFEST)
    if raw is None or raw.dtype != np.uint8 or raw.ndim != 1:
        raise CheckpointError(f"{api}: '{path}' has no valid manifest; it is not a paddlelite checkpoint")
    try:
        doc = json.loads(raw.tobytes().decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CheckpointError(f"{api}: '{path}' has a corrupted manifest ({e})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CheckpointError(f"{api}: '{path}' is not a paddlelite checkpoint")
    if doc.get("version") != VERSION:
        raise CheckpointError(f"{api}: '{path}' has format version {doc.get('version')}; this paddlelite "
                              f"reads version {VERSION}")
    return doc["tree"]


class _Reader:
    def __init__(self, members, path, return_numpy, place, api):
        self.members, self.path, self.return_numpy, self.place = members, path, return_numpy, place
        self.api = api
        self.used = set()

    def _array(self, node):
        key = node.get("array")
        arr = self.members.get(key)
        if arr is None:
            raise CheckpointError(f"{self.api}: '{self.path}' misses array '{key}' named by its manifest")
        if _digest(arr) != node.get("sha256"):
            raise CheckpointError(f"{self.api}: '{self.path}' array '{key}' does not match its recorded SHA-256; "
                                  "the file was modified or corrupted")
        self.used.add(key)
        return arr

    def node(self, n):
        if not isinstance(n, dict) or "type" not in n:
            raise CheckpointError(f"{self.api}: '{self.path}' has a malformed manifest entry {n!r:.80}")
        t = n["type"]
        if t == "tensor":
            arr = self._array(n)
            if self.return_numpy:
                return arr
            xp = self.place.xp
            data = arr if xp is np else xp.asarray(arr)
            out = wrap_array(data, self.place, bool(n.get("stop_gradient", True)))
            if n.get("name") is not None:
                out.name = n["name"]
            return out
        if t == "ndarray":
            return self._array(n)
        if t == "npscalar":
            return self._array(n)[()]
        if t == "value":
            return n["value"]
        if t == "int":
            return int(n["value"])
        if t == "float":
            return float.fromhex(n["value"])
        if t == "dict":
            return {k: self.node(v) for k, v in n["items"]}
        if t == "list":
            return [self.node(v) for v in n["items"]]
        if t == "tuple":
            return tuple(self.node(v) for v in n["items"])
        raise CheckpointError(f"{self.api}: '{self.path}' has an unknown manifest entry type {t!r}")


def load(path, **configs):
    """Load what `save` wrote, or a file real Paddle's paddle.save wrote. Tensors come back as Tensors on the
    current device (NumPy arrays with return_numpy=True). Paddle's pickles are read through a restricted
    unpickler: anything but arrays, plain values and containers is refused, so a pickle never runs code."""
    return read_archive(path, "paddle.load", bool(configs.get("return_numpy", False)),
                        bool(configs.get("keep_name_table", False)))


def _load_paddle_pickle(path, api, return_numpy, keep_name_table):
    from ..device import current_place
    place = current_place()

    def to_tensor(array, name):
        if return_numpy:
            return array
        if array.dtype == np.uint16:  # Paddle stores bfloat16 as its raw bits
            raise CheckpointError(f"{api}: '{path}' holds bfloat16 tensor data, which paddlelite does not support; "
                                  "load with return_numpy=True to get the raw uint16 bits")
        data = array if place.xp is np else place.xp.asarray(array)
        out = wrap_array(data, place, True)
        if name is not None:
            out.name = name
        return out

    with open(path, "rb") as f:
        data = f.read()
    try:
        tree = paddle_pickle.unpickle(data)
        return paddle_pickle.to_paddle_objects(tree, to_tensor, keep_name_table)
    except CheckpointError:
        raise
    except _PICKLE_ERRORS as e:
        raise CheckpointError(f"{api}: '{path}' is a pickle that is not a plain checkpoint of arrays, or is "
                              f"corrupted; refusing it ({type(e).__name__}: {e})") from None


def _existing_file(path, api):
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{api}: path must be a str or os.PathLike, received {type(path).__name__}")
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{api}: no such file '{path}'")
    if os.path.isdir(path):
        raise IsADirectoryError(f"{api}: '{path}' is a directory, expected a checkpoint file")
    return path


def read_archive(path, api, return_numpy=False, keep_name_table=False):
    """Read and verify a file `write_archive` wrote (zip and CRC, manifest, SHA-256 of every array, no
    unnamed arrays) or real Paddle's pickle (restricted unpickler); `api` names the caller in errors, which
    are CheckpointErrors naming the file."""
    path = _existing_file(path, api)
    with open(path, "rb") as f:
        head = f.read(4)
    if head[:1] in _PICKLE_MAGIC and head[:2] != b"PK":
        return _load_paddle_pickle(path, api, return_numpy, keep_name_table)
    if head != b"PK\x03\x04":
        raise CheckpointError(f"{api}: '{path}' is not a paddlelite checkpoint (no zip header)")
    members = _read_members(path, api)
    tree = _manifest(members, path, api)
    from ..device import current_place
    reader = _Reader(members, path, return_numpy, current_place(), api)
    out = reader.node(tree)
    extra = set(members) - reader.used - {_MANIFEST}
    if extra:
        raise CheckpointError(f"{api}: '{path}' holds arrays its manifest does not name: {sorted(extra)}")
    return out
