"""fluid.data_feeder (paddle.base.data_feeder): DataFeeder (a batch of samples as Executor.run's feed dict), the
argument checks Paddle's static APIs (and code written like them) call, and convert_dtype. As in Paddle the checks
are skipped in dynamic mode."""
import numpy as np

from ..framework.dtype import convert_dtype as _convert_dtype
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor
from ..static.executor import LoDTensor
from ..static.framework import Variable, default_main_program


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


def feed_variables(feed_list, program, api):
    out = []
    for k, v in enumerate(feed_list or ()):
        if isinstance(v, str):
            v = program.global_block().var(v)
        if not isinstance(v, Variable):
            raise TypeError(f"{api}: feed_list[{k}] must be a static Variable or its name, received {type(v).__name__}")
        out.append(v)
    return out


def batch_array(values, var):
    """The values of one slot for a batch as an array of `var`'s dtype and shape (-1 dims as they come)."""
    array = np.asarray(values._host() if isinstance(values, Tensor) else values, dtype=var.dtype.np)
    if var.shape and array.ndim != len(var.shape):
        try:
            array = array.reshape(var.shape)
        except ValueError:
            raise ValueError(f"feed variable '{var.name}' has shape {list(var.shape)}, received data of shape "
                             f"{list(array.shape)}") from None
    return array


class DataFeeder:
    """Turns a batch of samples (each a tuple with one value per feed variable) into the feed dict Executor.run
    takes: {name: LoDTensor}."""

    def __init__(self, feed_list, place, program=None):
        self.feed_vars = feed_variables(feed_list, program or default_main_program(), "DataFeeder")
        self.place = place

    def feed(self, iterable):
        columns = [[] for _ in self.feed_vars]
        for k, sample in enumerate(iterable):
            if len(sample) != len(self.feed_vars):
                raise ValueError(f"DataFeeder.feed: sample {k} has {len(sample)} fields, the feed_list "
                                 f"{len(self.feed_vars)}")
            for column, value in zip(columns, sample):
                column.append(value)
        out = {}
        for var, column in zip(self.feed_vars, columns):
            out[var.name] = t = LoDTensor()
            t.set(batch_array(column, var), self.place)
        return out


__all__ = ["DataFeeder"]
