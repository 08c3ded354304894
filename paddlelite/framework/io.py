"""paddle.save / paddle.load without pickle.

A checkpoint is a zip written by NumPy (`.npz`): one `.npy` member per array (saved with
allow_pickle=False) plus `__manifest__`, a JSON document (stored as a uint8 array) describing the
object tree -- dicts, lists, tuples, Tensors, arrays, numbers, strings, None -- with the SHA-256 of
every array's bytes. Loading never unpickles: object arrays are refused by NumPy, a file that is a
pickle is refused before it is opened, and a truncated or edited file fails its zip or digest check
with an error that says so.
"""
import hashlib
import io as _io
import json
import os
import zipfile

import numpy as np

from .tensor import Parameter, Tensor, wrap_array

__all__ = ["save", "load", "CheckpointError", "write_archive", "read_archive"]

FORMAT = "paddlelite-checkpoint"
VERSION = 1
_MANIFEST = "__manifest__"
_PICKLE_MAGIC = (b"\x80", b"(", b"]", b"}", b"c")  # protocol 2+ opcode, or protocol 0/1 openers


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


def save(obj, path, protocol=4, **configs):
    """Save `obj` (e.g. a layer's or optimizer's state_dict) to `path` (written atomically)."""
    write_archive(obj, path, "paddle.save")


def write_archive(obj, path, api):
    """Write `obj` to `path` in the checkpoint format (the writer behind paddle.save, reused by
    paddle.static.save_inference_model); `api` names the caller in errors."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{api}: path must be a str or os.PathLike, received {type(path).__name__}")
    path = os.fspath(path)
    if os.path.isdir(path):
        raise ValueError(f"{api}: path '{path}' is a directory; give a file name such as "
                         f"'{os.path.join(path, 'model.pdparams')}'")
    writer = _Writer()
    tree = writer.node(obj, "obj")
    manifest = json.dumps({"format": FORMAT, "version": VERSION, "tree": tree}).encode()
    members = dict(writer.arrays)
    members[_MANIFEST] = np.frombuffer(manifest, dtype=np.uint8)
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        with zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED) as zf:
            for name, arr in members.items():
                buf = _io.BytesIO()
                np.lib.format.write_array(buf, np.asarray(arr, order="C"), allow_pickle=False)
                zf.writestr(name + ".npy", buf.getvalue())
    os.replace(tmp, path)


def _read_members(path, api):
    with open(path, "rb") as f:
        head = f.read(4)
    if head[:1] in _PICKLE_MAGIC and head[:2] != b"PK":
        raise CheckpointError(f"{api}: '{path}' looks like a pickle file; paddlelite never unpickles "
                              "(it can run arbitrary code). Convert it with a trusted tool to a paddlelite "
                              "checkpoint (paddle.save)")
    if head != b"PK\x03\x04":
        raise CheckpointError(f"{api}: '{path}' is not a paddlelite checkpoint (no zip header)")
    try:
        zf = zipfile.ZipFile(path)
        bad = zf.testzip()
    except (zipfile.BadZipFile, EOFError, OSError) as e:
        raise CheckpointError(f"{api}: '{path}' is truncated or corrupted ({e})") from None
    if bad is not None:
        raise CheckpointError(f"{api}: '{path}' is corrupted (member '{bad}' fails its CRC check)")
    out = {}
    with zf:
        for info in zf.infolist():
            name = info.filename
            if not name.endswith(".npy"):
                raise CheckpointError(f"{api}: '{path}' has an unexpected member '{name}'")
            try:
                with zf.open(info) as m:
                    out[name[:-4]] = np.lib.format.read_array(_io.BytesIO(m.read()), allow_pickle=False)
            except ValueError as e:
                if "pickle" in str(e).lower() or "object" in str(e).lower():
                    raise CheckpointError(f"{api}: '{path}' member '{name}' holds a pickled object array; "
                                          "refusing to unpickle it") from None
                raise CheckpointError(f"{api}: '{path}' member '{name}' is not a valid array ({e})") from None
    return out


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
    """Load what `save` wrote. Tensors come back as Tensors on the current device (NumPy arrays with
    return_numpy=True); nothing is ever unpickled."""
    return read_archive(path, "paddle.load", bool(configs.get("return_numpy", False)))


def read_archive(path, api, return_numpy=False):
    """Read and verify a file `write_archive` wrote (zip and CRC, manifest, SHA-256 of every array, no
    unnamed arrays); `api` names the caller in errors, which are CheckpointErrors naming the file."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{api}: path must be a str or os.PathLike, received {type(path).__name__}")
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{api}: no such file '{path}'")
    if os.path.isdir(path):
        raise IsADirectoryError(f"{api}: '{path}' is a directory, expected a checkpoint file")
    members = _read_members(path, api)
    tree = _manifest(members, path, api)
    from ..device import current_place
    reader = _Reader(members, path, return_numpy, current_place(), api)
    out = reader.node(tree)
    extra = set(members) - reader.used - {_MANIFEST}
    if extra:
        raise CheckpointError(f"{api}: '{path}' holds arrays its manifest does not name: {sorted(extra)}")
    return out
