"""paddle.static's layer-level APIs: paddle.static.nn (fc, conv2d, ... building named parameters),
paddle.static.accuracy and paddle.static.create_parameter.

They build layers, so they sit on the nn floor: the static core (this package's other modules) never
imports them, and the top-level package files them under paddle.static with `install`.
"""
from ..metric import accuracy
from ..nn.layer.param_attr import create_parameter as _create_parameter
from . import nn
from .framework import require_static


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    """A Parameter of the main program, initialised by an op of the startup program."""
    require_static("paddle.static.create_parameter")
    return _create_parameter(shape, dtype, name=name, attr=attr, is_bias=is_bias,
                             default_initializer=default_initializer)


def install(static):
    """Make the layer-level APIs attributes of the paddle.static namespace."""
    static.nn = nn
    static.accuracy = accuracy
    static.create_parameter = create_parameter
