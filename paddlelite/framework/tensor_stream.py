"""Paddle's tensor stream: the bytes of a `.pdiparams` file (Paddle's `save_combine` op), and of one tensor in it.

Each tensor is written as Paddle's DenseTensor serialization, little-endian:

    uint32  version (0)
    uint64  number of LoD levels, then per level: uint64 byte size, that many bytes of uint64 offsets
    uint32  tensor version (0)
    int32   byte size of the TensorDesc that follows (framework.proto: data type and dims)
    bytes   the TensorDesc
    bytes   the data, numel * item size, in C order

A combined file is those records back to back, one per variable, in the order of the sorted variable names (how
save_combine's callers list them); it names nothing, so the reader takes the names from the program.

A SelectedRows (row-sparse values: `height` rows of which `rows` are stored) is written as

    uint32  version (0)
    uint64  number of rows, then that many int64 row indices
    int64   height
    then the tensor of the stored rows from its tensor version on (no LoD)

Reading trusts nothing: every size is checked against the bytes that remain before anything is allocated or
parsed (so a file's few bytes never make a huge allocation), a TensorDesc is parsed from its bounded slice only,
and any inconsistency is a CheckpointError naming the file and the tensor.
"""
import struct

import numpy as np

from .dtype import DTYPES
from .framework_proto import DTYPE_BY_NUMBER, DTYPE_NUMBERS, messages
from .io import CheckpointError

_U32, _U64, _I32, _I64 = struct.Struct("<I"), struct.Struct("<Q"), struct.Struct("<i"), struct.Struct("<q")
_VERSION = 0


def _dense_bytes(array):
    """A tensor from its tensor version on: version, TensorDesc, data."""
    dtype = DTYPES.get(str(array.dtype))
    if dtype is None:
        raise TypeError(f"a Paddle parameter file holds tensors of the dtypes {sorted(DTYPE_NUMBERS)}, not "
                        f"{array.dtype}")
    desc = messages().VarType.TensorDesc(data_type=DTYPE_NUMBERS[dtype.name], dims=list(array.shape))
    desc_bytes = desc.SerializeToString()
    little = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))
    return b"".join([_U32.pack(_VERSION), _I32.pack(len(desc_bytes)), desc_bytes, little.tobytes()])


def tensor_bytes(array):
    """One tensor's record: `array` (a NumPy array of a Paddle dtype, bfloat16/float8 through ml_dtypes)."""
    return _U32.pack(_VERSION) + _U64.pack(0) + _dense_bytes(array)


def selected_rows_bytes(rows, height, array):
    """A SelectedRows' record: the row indices `rows`, `height` and the stored rows' values `array`."""
    rows = np.asarray(rows, dtype="<i8").reshape(-1)
    return b"".join([_U32.pack(_VERSION), _U64.pack(rows.size), rows.tobytes(), _I64.pack(int(height)),
                     _dense_bytes(array)])


def combined_bytes(arrays):
    """The combined stream of `arrays` ({name: array}), in sorted name order (save_combine's)."""
    return b"".join(tensor_bytes(arrays[name]) for name in sorted(arrays))


class _Reader:
    def __init__(self, data, where, api):
        self.data, self.pos, self.where, self.api = memoryview(data), 0, where, api

    def fail(self, msg):
        raise CheckpointError(f"{self.api}: {self.where} {msg}")

    def take(self, n, what):
        if n > len(self.data) - self.pos:
            self.fail(f"is truncated: {what} needs {n} bytes at offset {self.pos}, {len(self.data) - self.pos} remain")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def unpack(self, fmt, what):
        return fmt.unpack(self.take(fmt.size, what))[0]

    def tensor(self, name):
        what = f"tensor '{name}'"
        version = self.unpack(_U32, f"{what}'s version")
        if version != _VERSION:
            self.fail(f"holds {what} in version {version}; Paddle's tensor stream has version {_VERSION}")
        for level in range(self.unpack(_U64, f"{what}'s LoD level count")):
            size = self.unpack(_U64, f"{what}'s LoD level {level} size")
            if size % 8:
                self.fail(f"has a LoD level of {size} bytes in {what}, not a whole number of uint64 offsets")
            self.take(size, f"{what}'s LoD level {level}")  # offsets of a level-of-detail tensor: Paddle 3 reads none
        return self.dense(what)

    def selected_rows(self, what):
        """(rows, height, values) of a SelectedRows record."""
        version = self.unpack(_U32, f"{what}'s version")
        if version != _VERSION:
            self.fail(f"holds {what} in version {version}; Paddle's SelectedRows stream has version {_VERSION}")
        count = self.unpack(_U64, f"{what}'s row count")
        rows = np.frombuffer(self.take(_I64.size * count, f"{what}'s {count} rows"), dtype="<i8").astype(np.int64)
        height = self.unpack(_I64, f"{what}'s height")
        if height < 0 or (rows.size and (rows.min() < 0 or rows.max() >= height)):
            self.fail(f"gives {what} rows outside its height {height}")
        values = self.dense(what)
        if values.ndim == 0 or values.shape[0] != rows.size:
            self.fail(f"gives {what} {rows.size} rows but values of shape {list(values.shape)}")
        return rows, height, values

    def dense(self, what):
        version = self.unpack(_U32, f"{what}'s tensor version")
        if version != _VERSION:
            self.fail(f"holds {what} in tensor version {version}; Paddle writes version {_VERSION}")
        size = self.unpack(_I32, f"{what}'s TensorDesc size")
        if size < 0:
            self.fail(f"gives {what} a TensorDesc of negative size {size}")
        desc = messages().VarType.TensorDesc()
        raw = bytes(self.take(size, f"{what}'s TensorDesc"))
        try:
            desc.ParseFromString(raw)
        except Exception as e:  # noqa: BLE001 -- protobuf's DecodeError, or a missing required field
            self.fail(f"has a malformed TensorDesc for {what} ({type(e).__name__}: {e})")
        dtype_name = DTYPE_BY_NUMBER.get(desc.data_type)
        if dtype_name is None:
            self.fail(f"gives {what} data type {desc.data_type}, which no paddlelite tensor holds")
        dims = list(desc.dims)
        if any(d < 0 for d in dims):
            self.fail(f"gives {what} negative dims {dims}")
        dtype = DTYPES[dtype_name].np
        count, extent = 1, 1
        for d in dims:
            count, extent = count * d, extent * max(d, 1)
        if extent * dtype.itemsize >= 2 ** 62:  # no array has these dims, even an empty one
            self.fail(f"gives {what} the dims {dims[:8]}, larger than any array")
        nbytes = count * dtype.itemsize
        data = self.take(nbytes, f"{what}'s {dtype_name}{dims} data")  # checked against the bytes left first
        return np.frombuffer(data, dtype=dtype.newbyteorder("<")).astype(dtype, copy=True).reshape(dims)


def read_combined(data, names, where, api):
    """{name: array} of a combined stream holding one tensor per name of `names` (in the order given); `where` names
    the source and `api` the caller in errors. Every byte must be accounted for."""
    reader = _Reader(data, where, api)
    out = {name: reader.tensor(name) for name in names}
    if reader.pos != len(reader.data):
        reader.fail(f"holds {len(reader.data) - reader.pos} bytes after its {len(out)} tensors {list(out)[:5]}; it "
                    "does not belong to this program")
    return out


def read_one(data, where, api):
    """The array of a stream holding exactly one tensor (the files of Paddle's `save` op)."""
    return read_combined(data, ["tensor"], where, api)["tensor"]


def read_selected_rows(data, where, api):
    """(rows, height, values) of a stream holding exactly one SelectedRows."""
    reader = _Reader(data, where, api)
    out = reader.selected_rows("SelectedRows")
    if reader.pos != len(reader.data):
        reader.fail(f"holds {len(reader.data) - reader.pos} bytes after its SelectedRows")
    return out
