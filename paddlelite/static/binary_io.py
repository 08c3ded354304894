"""Paddle's binary records of one DenseTensor or SelectedRows (framework/tensor_stream.py has their layout): what
paddle.save(obj, use_binary_format=True) writes and paddle.load reads back, and core's save_dense_tensor /
load_dense_tensor / save_selected_rows / load_selected_rows on files."""
import numpy as np

from ..device.place import Place
from ..framework.io import CheckpointError, install_format, open_regular
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor, wrap_array
from ..framework.tensor_stream import read_one, read_selected_rows, selected_rows_bytes, tensor_bytes
from .executor import DenseTensor
from .selected_rows import SelectedRows


def _initialized(tensor, api):
    if not tensor._is_initialized():
        raise ValueError(f"{api}: the tensor to save is not initialized (set its values first: t.set(array, place))")
    return np.array(tensor)


def dense_tensor_bytes(tensor, api="paddle.save"):
    return tensor_bytes(_initialized(tensor, api))


def selected_rows_record(selected_rows, api="paddle.save"):
    values = _initialized(selected_rows.get_tensor(), api)
    if values.ndim == 0 or values.shape[0] != len(selected_rows.rows()):
        raise ValueError(f"{api}: a SelectedRows of {len(selected_rows.rows())} rows holds values of shape "
                         f"{list(values.shape)}; their first dim must be the number of rows")
    return selected_rows_bytes(selected_rows.rows(), selected_rows.height(), values)


def _dense_tensor_of(array):
    t = DenseTensor()
    t.set(array, Place("cpu"))
    return t


def _selected_rows_of(rows, height, values):
    out = SelectedRows(rows.tolist(), height)
    out.get_tensor().set(values, Place("cpu"))
    return out


def decode(data, where, return_numpy=False):
    """The SelectedRows or the tensor a binary record holds (tried in that order, as Paddle's paddle.load): a Tensor in
    dynamic mode, a DenseTensor in static mode, a NumPy array with return_numpy."""
    try:
        return _selected_rows_of(*read_selected_rows(data, where, "paddle.load"))
    except CheckpointError:
        pass
    try:
        array = read_one(data, where, "paddle.load")
    except CheckpointError as e:
        raise CheckpointError(f"paddle.load: {where} is neither a tensor nor a SelectedRows record Paddle's binary "
                              f"format writes ({e})") from None
    if return_numpy:
        return array
    return wrap_array(array, Place("cpu"), True) if in_dynamic_mode() else _dense_tensor_of(array)


def _write(data, path, api):
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as e:  # RuntimeError, as Paddle's core raises
        raise RuntimeError(f"{api}: cannot open '{path}' for writing: {e}") from None
    return len(data)


def _read(path, api):
    try:
        where, f = open_regular(path, api)
    except OSError as e:
        raise RuntimeError(f"{api}: cannot open '{path}' for reading: {e}") from None
    with f:
        return f.read(), f"'{where}'"


def save_dense_tensor(tensor, path):
    """Write `tensor`'s record to `path` (its directory must exist); the bytes written."""
    return _write(dense_tensor_bytes(tensor, "core.save_dense_tensor"), path, "core.save_dense_tensor")


def load_dense_tensor(tensor, path):
    """Set `tensor` from the record at `path`; the bytes read."""
    data, where = _read(path, "core.load_dense_tensor")
    tensor.set(read_one(data, where, "core.load_dense_tensor"), Place("cpu"))
    return len(data)


def save_selected_rows(selected_rows, path):
    """Write `selected_rows`' record to `path` (its directory must exist); the bytes written."""
    return _write(selected_rows_record(selected_rows, "core.save_selected_rows"), path, "core.save_selected_rows")


def load_selected_rows(selected_rows, path):
    """Set `selected_rows` (rows, height, values) from the record at `path`; the bytes read."""
    data, where = _read(path, "core.load_selected_rows")
    rows, height, values = read_selected_rows(data, where, "core.load_selected_rows")
    selected_rows.set_rows(rows.tolist())
    selected_rows.set_height(height)
    selected_rows.get_tensor().set(values, Place("cpu"))
    return len(data)


install_format(DenseTensor, binary=dense_tensor_bytes, sniff=lambda head: head == b"\0\0\0\0", decode=decode)
install_format(SelectedRows, binary=selected_rows_record)
install_format(Tensor, binary=lambda t: tensor_bytes(t.numpy()))
