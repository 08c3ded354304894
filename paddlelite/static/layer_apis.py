"""paddle.static's layer-level APIs: paddle.static.nn (fc, conv2d, ... building named parameters),
paddle.static.accuracy and paddle.static.create_parameter.

They build layers, so they sit on the nn floor: the static core (this package's other modules) never
imports them, and the top-level package files them under paddle.static with `install`.
"""
import numpy as np

from ..framework import dtype as _dtype
from ..metric.metrics import top_k_accuracy
from ..nn.layer.param_attr import WeightNormParamAttr
from ..nn.layer.param_attr import create_parameter as _create_parameter
from . import nn
from .appender import layer_helper
from .framework import default_main_program, default_startup_program, program_unique_name, require_static


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    """A Parameter of the main program, initialised by an op of the startup program."""
    require_static("paddle.static.create_parameter")
    return _create_parameter(shape, dtype, name=name, attr=attr, is_bias=is_bias,
                             default_initializer=default_initializer)


_GLOBAL_VAR_DTYPES = ("bool", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                      "uint16")


def create_global_var(shape, value, dtype, persistable=False, force_cpu=False, name=None):
    """A variable of the main program's global block filled with `value` by an op of the startup program
    (named `global_var_<n>.tmp_0` unless named)."""
    api = "create_global_var"
    if not isinstance(shape, (list, tuple, np.ndarray)):
        raise TypeError(f"The type of 'shape' in {api} must be (list, tuple, numpy.ndarray), but received "
                        f"{type(shape)}.")
    for item in shape:
        if isinstance(item, bool) or not isinstance(item, (int, np.integer)):
            raise TypeError(f"The type of 'item of shape' in {api} must be int, but received {type(item)}.")
    dtype = _dtype.convert_dtype(dtype, api).name
    if dtype not in _GLOBAL_VAR_DTYPES:
        raise TypeError(f"The data type of 'dtype' in {api} must be one of {list(_GLOBAL_VAR_DTYPES)}, but "
                        f"received {dtype}.")
    from ..nn import initializer as init
    name = name or program_unique_name("_generated_var")
    shape = [int(d) for d in shape]
    var = default_main_program().global_block().create_var(name=name, shape=shape, dtype=dtype,
                                                            persistable=persistable, stop_gradient=True)
    startup = default_startup_program().global_block()
    target = startup.create_var(name=name, shape=shape, dtype=dtype, persistable=persistable, stop_gradient=True)
    init.Constant(float(value))(target, startup)
    return var


def accuracy(input, label, k=1, correct=None, total=None):
    """paddle.static.accuracy: metric.accuracy built as Paddle's static layer: its top_k does not sort, and the
    outputs of both ops are named by one LayerHelper ('accuracy_<n>.tmp_<k>')."""
    with layer_helper("accuracy"):
        return top_k_accuracy(input, label, k, correct, total, sorted=False)


def install(static):
    """Make the layer-level APIs attributes of the paddle.static namespace."""
    static.nn = nn
    static.accuracy = accuracy
    static.create_parameter = create_parameter
    static.create_global_var = create_global_var
    static.WeightNormParamAttr = WeightNormParamAttr
    from .ema import ExponentialMovingAverage  # builds on create_global_var above
    static.ExponentialMovingAverage = ExponentialMovingAverage
    from .metric import auc, ctr_metric_bundle
    static.auc, static.ctr_metric_bundle = auc, ctr_metric_bundle
