"""fluid.data_feeder (paddle.base.data_feeder): the argument checks Paddle's static APIs (and code written like them)
call, and convert_dtype. As in Paddle the checks are skipped in dynamic mode."""
from ..framework.dtype import convert_dtype as _convert_dtype
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor
from ..static.framework import Variable


def convert_dtype(dtype):
    """A dtype (paddle dtype, NumPy dtype or name) as its name: 'float32', 'int64', ..."""
    return _convert_dtype(dtype, "convert_dtype").name


def check_type(input, input_name, expected_type, op_name, extra_message=""):
    """TypeError unless `input` is an `expected_type` (static mode only)."""
    if in_dynamic_mode():
        return
    if isinstance(input, Tensor):
        raise TypeError(f"Please use `with base.dygraph.guard()` as context or `paddle.disable_static()` to switch to "
                        f"dygraph mode firstly. Because received '{input_name}' in {op_name} is an Eager Tensor.")
    if not isinstance(input, expected_type):
        raise TypeError(f"The type of '{input_name}' in {op_name} must be {expected_type}, but received "
                        f"{type(input)}. {extra_message}")


def check_dtype(input_dtype, input_name, expected_dtype, op_name, extra_message=""):
    """TypeError unless `input_dtype` is one of the dtype names `expected_dtype` (static mode only)."""
    if in_dynamic_mode():
        return
    if convert_dtype(input_dtype) not in expected_dtype:
        raise TypeError(f"The data type of '{input_name}' in {op_name} must be {expected_dtype}, but received "
                        f"{convert_dtype(input_dtype)}. {extra_message}")


def check_variable_and_dtype(input, input_name, expected_dtype, op_name, extra_message=""):
    """check_type(input, Variable) and check_dtype(input.dtype)."""
    check_type(input, input_name, Variable, op_name, extra_message)
    check_dtype(input.dtype, input_name, expected_dtype, op_name, extra_message)


__all__ = []
