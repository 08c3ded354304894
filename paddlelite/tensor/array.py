"""paddle.tensor.array: tensor arrays (create_array, array_write, array_read, array_length).

In dynamic mode a tensor array is a Python list of Tensors, exactly as in Paddle. paddlelite's static
programs have no tensor-array variable type (Paddle's DENSE_TENSOR_ARRAY and its read/write ops), so in
static mode these raise NotImplementedError naming what to use instead.
"""
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor

__all__ = ["array_length", "array_read", "array_write", "create_array"]


def _require_dynamic(api):
    if not in_dynamic_mode():
        raise NotImplementedError(f"{api}: paddlelite's static programs have no tensor arrays; build the "
                                  "list eagerly, or carry the values through static.nn.while_loop's loop_vars")


def _assert(ok, message):
    """Paddle asserts these arguments; raised explicitly so `python -O` keeps the check."""
    if not ok:
        raise AssertionError(message)


def _index(i, api):
    _assert(isinstance(i, Tensor), f"{api}: the index i must be a Tensor, received {type(i).__name__}")
    _assert(i.shape == [1], f"{api}: the index i must have shape [1], received {i.shape}")
    return int(i.item(0))


def create_array(dtype, initialized_list=None):
    """A tensor array: the list of `initialized_list`'s Tensors (empty by default)."""
    array = []
    if initialized_list is not None:
        if not isinstance(initialized_list, (list, tuple)):
            raise TypeError(f"create_array: initialized_list must be a list or tuple, received "
                            f"{type(initialized_list).__name__}")
        array = list(initialized_list)
    for k, value in enumerate(array):
        if not isinstance(value, Tensor):
            raise TypeError(f"create_array: initialized_list[{k}] must be a Tensor, received {type(value).__name__}")
    _require_dynamic("create_array")
    return array


def array_write(x, i, array=None):
    """array[i] = x (i == len(array) appends); a new array when `array` is None. Returns the array."""
    _require_dynamic("array_write")
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


def array_read(array, i):
    """array[i]."""
    _require_dynamic("array_read")
    _assert(isinstance(array, list), f"array_read: array must be a list in dynamic mode, received "
                                     f"{type(array).__name__}")
    return array[_index(i, "array_read")]


def array_length(array):
    """len(array) (an int, as in Paddle's dynamic mode)."""
    _require_dynamic("array_length")
    _assert(isinstance(array, list), f"array_length: array must be a list in dynamic mode, received "
                                     f"{type(array).__name__}")
    return len(array)
