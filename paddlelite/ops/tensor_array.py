"""Tensor arrays in static programs (Paddle's DENSE_TENSOR_ARRAY variables): write_to_array, read_from_array,
lod_array_length.

An array variable's value is a Python list of arrays (None where nothing was written yet); a variable no op has
written starts as the empty list (the executor gives it one, as Paddle's scope creates it). Forwards never change
the list they read: write_to_array returns a new list. In dynamic mode a tensor array is a Python list of Tensors
(tensor/array.py) and these ops do not run. They have no gradient: in a static program, gradients do not flow through
a tensor array (README.md, "Compatibility").
"""
import numpy as np

from .registry import Meta, register_op

_READS_INDEX = "reads the array index on the host"


def _index(i, op):
    if i.size != 1 or i.dtype.kind not in "iu":
        raise ValueError(f"op '{op}': I must be one int64 index, received dtype {i.dtype} of shape {list(i.shape)}")
    k = int(i.reshape(-1)[0])
    if k < 0:
        raise ValueError(f"op '{op}': the index must be non-negative, received {k}")
    return k


def _write_forward(xp, x, i, array):
    """`array` with element i set to x (past the end: the array grows, as Paddle's does)."""
    k = _index(i, "write_to_array")
    out = [] if array is None else list(array)
    out.extend([None] * (k + 1 - len(out)))
    out[k] = x
    return out


# Array: the array written into (Paddle's op reads its output variable; here that variable is also an input)
WRITE_TO_ARRAY = register_op("write_to_array", inputs=("X", "I", "Array"), outputs=("Out",),
                             optional_inputs=("Array",), forward=_write_forward,
                             infer=lambda x, i, array: Meta(x.shape, x.dtype), host_sync=_READS_INDEX)


def _read_forward(xp, array, i):
    k = _index(i, "read_from_array")
    if k >= len(array) or array[k] is None:
        raise ValueError(f"op 'read_from_array': nothing was written at index {k} of an array of length "
                         f"{len(array)}")
    return array[k]


READ_FROM_ARRAY = register_op("read_from_array", inputs=("X", "I"), outputs=("Out",), forward=_read_forward,
                              infer=lambda array, i: Meta(array.shape, array.dtype), host_sync=_READS_INDEX)

LOD_ARRAY_LENGTH = register_op("lod_array_length", inputs=("X",), outputs=("Out",),
                               forward=lambda xp, array: xp.asarray([len(array)], dtype=np.int64),
                               infer=lambda array: Meta((1,), np.dtype(np.int64)))
