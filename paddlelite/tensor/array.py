"""paddle.tensor.array: tensor arrays (create_array, array_write, array_read, array_length).

In dynamic mode a tensor array is a Python list of Tensors, exactly as in Paddle. In static mode it is a
DENSE_TENSOR_ARRAY variable written and read by Paddle's ops (write_to_array, read_from_array, lod_array_length:
ops/tensor_array.py), inside while_loop bodies too; its variable shows the shape of the last element written, as
Paddle's does.
"""
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor
from ..framework.var_type import VarKind
from ..static.appender import layer_helper
from ..static.framework import Variable, default_main_program, program_unique_name

__all__ = ["array_length", "array_read", "array_write", "create_array"]


def _assert(ok, message):
    """Paddle asserts these arguments; raised explicitly so `python -O` keeps the check."""
    if not ok:
        raise AssertionError(message)


def _index(i, api):
    _assert(isinstance(i, (Tensor, Variable)), f"{api}: the index i must be a Tensor, received {type(i).__name__}")
    _assert(list(i.shape) == [1], f"{api}: the index i must have shape [1], received {list(i.shape)}")
    return i if isinstance(i, Variable) else int(i.item(0))


def _is_array(array):
    return isinstance(array, Variable) and array.type == "DENSE_TENSOR_ARRAY"


def _array_variable(name, dtype, shape=()):
    return default_main_program().current_block().create_var(name, shape, dtype, type=VarKind.DENSE_TENSOR_ARRAY)


def create_array(dtype, initialized_list=None):
    """A tensor array holding `initialized_list`'s Tensors (empty by default)."""
    array = []
    if initialized_list is not None:
        if not isinstance(initialized_list, (list, tuple)):
            raise TypeError(f"create_array: initialized_list must be a list or tuple, received "
                            f"{type(initialized_list).__name__}")
        array = list(initialized_list)
    for k, value in enumerate(array):
        if not isinstance(value, (Tensor, Variable)):
            raise TypeError(f"create_array: initialized_list[{k}] must be a Tensor, received {type(value).__name__}")
    if in_dynamic_mode():
        return array
    static = _array_variable(f"{program_unique_name('array')}.out", dtype)
    for k, value in enumerate(array):
        from .creation import full
        array_write(value, full([1], k, "int64"), static)
    return static


def array_write(x, i, array=None):
    """array[i] = x (past the end: the array grows); a new array when `array` is None. Returns the array."""
    if in_dynamic_mode():
        _assert(isinstance(x, Tensor), f"array_write: x must be a Tensor, received {type(x).__name__}")
        i = _index(i, "array_write")
        if array is None:
            array = create_array(x.dtype)
        _assert(isinstance(array, list), f"array_write: array must be a list in dynamic mode, received "
                                         f"{type(array).__name__}")
        _assert(i <= len(array), f"array_write: index {i} is past the end of an array of length {len(array)}")
        if i < len(array):
            array[i] = x
        else:
            array.append(x)
        return array
    _assert(isinstance(x, Variable), f"array_write: x must be a Variable, received {type(x).__name__}")
    i = _index(i, "array_write")
    with layer_helper("array_write") as name:
        if array is None:
            array = _array_variable(f"{name}.out", x.dtype)
        _assert(_is_array(array), f"array_write: array must be a tensor array (create_array), received "
                                  f"{getattr(array, 'type', type(array).__name__)}")
        block = default_main_program().current_block()
        block.append_op("write_to_array", {"X": [x], "I": [i], "Array": [array]}, {"Out": [array]})
    array._shape = x._shape  # as Paddle's write_to_array sets it
    return array


def array_read(array, i):
    """array[i]."""
    if in_dynamic_mode():
        _assert(isinstance(array, list), f"array_read: array must be a list in dynamic mode, received "
                                         f"{type(array).__name__}")
        return array[_index(i, "array_read")]
    _assert(_is_array(array), f"array_read: array must be a tensor array (create_array), received "
                              f"{type(array).__name__}")
    i = _index(i, "array_read")
    with layer_helper("array_read") as name:
        block = default_main_program().current_block()
        out = block.create_var(f"{name}.tmp_0", array._shape, array.dtype, stop_gradient=True)
        block.append_op("read_from_array", {"X": [array], "I": [i]}, {"Out": [out]})
    return out


def array_length(array):
    """len(array): an int in dynamic mode, an int64 [1] Variable in a static program."""
    if in_dynamic_mode():
        _assert(isinstance(array, list), f"array_length: array must be a list in dynamic mode, received "
                                         f"{type(array).__name__}")
        return len(array)
    _assert(_is_array(array), f"array_length: array must be a tensor array (create_array), received "
                              f"{type(array).__name__}")
    with layer_helper("array_length") as name:
        block = default_main_program().current_block()
        out = block.create_var(f"{name}.tmp_0", (1,), "int64", stop_gradient=True)
        block.append_op("lod_array_length", {"X": [array]}, {"Out": [out]})
    return out
