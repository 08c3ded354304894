"""ParamAttr and create_parameter: how a parameter is named, initialised and trained, in both modes.

Eager: a `Parameter` (trainable leaf) whose values come from its initialiser's registry op.
Static: a Parameter in the main program's global block, plus the same-named persistable variable in
the startup program with the initialiser's op writing it (Paddle's LayerHelper does exactly this).
"""
import numpy as np

from ...framework import dtype as _dtype
from ...framework.mode import in_static_mode
from ...device.place import current_place
from ...framework.tensor import Parameter
from ...utils import unique_name
from .. import initializer as _init

__all__ = ["ParamAttr", "WeightNormParamAttr", "create_parameter", "is_parameter"]


class ParamAttr:
    """paddle.ParamAttr(name, initializer, learning_rate, regularizer, trainable, do_model_average, need_clip)."""

    def __init__(self, name=None, initializer=None, learning_rate=1.0, regularizer=None, trainable=True,
                 do_model_average=True, need_clip=True):
        if name is not None and not isinstance(name, str):
            raise TypeError(f"ParamAttr: name must be a str or None, received {type(name).__name__}")
        if initializer is not None and not isinstance(initializer, _init.Initializer):
            raise TypeError(f"ParamAttr: initializer must be an nn.initializer.Initializer, received "
                            f"{type(initializer).__name__}")
        if not isinstance(learning_rate, (int, float)) or isinstance(learning_rate, bool):
            raise TypeError(f"ParamAttr: learning_rate must be a number, received {type(learning_rate).__name__}")
        if not isinstance(trainable, bool):
            raise TypeError(f"ParamAttr: trainable must be a bool, received {type(trainable).__name__}")
        self.name = name
        self.initializer = initializer
        self.learning_rate = float(learning_rate)
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    @staticmethod
    def _to_attr(arg):
        """None or True -> default ParamAttr; str -> named; Initializer -> with that initializer; False -> False."""
        if arg is None:
            return ParamAttr()
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, _init.Initializer):
            return ParamAttr(initializer=arg)
        if isinstance(arg, bool):  # Paddle's: True the default attribute, False no parameter
            return ParamAttr() if arg else False
        if isinstance(arg, (list, tuple)):
            return [ParamAttr._to_attr(a) for a in arg]
        raise TypeError(f"ParamAttr: expected a ParamAttr, str, Initializer, bool or None, received "
                        f"{type(arg).__name__}")

    def __repr__(self):
        return (f"ParamAttr(name={self.name!r}, initializer={type(self.initializer).__name__ if self.initializer else None}, "
                f"learning_rate={self.learning_rate}, trainable={self.trainable})")


class WeightNormParamAttr(ParamAttr):
    def __init__(self, dim=None, name=None, initializer=None, learning_rate=1.0, regularizer=None,
                 trainable=True, do_model_average=False, need_clip=True):
        super().__init__(name, initializer, learning_rate, regularizer, trainable, do_model_average, need_clip)
        self.dim = dim


def is_parameter(value):
    """An eager Parameter or a static-mode Parameter variable."""
    if isinstance(value, Parameter):
        return True
    return getattr(value, "_is_variable", False) and type(value).__name__ in ("Parameter", "EagerParamBase")


def _attach_attrs(param, attr):
    param.optimize_attr = {"learning_rate": attr.learning_rate}
    param.regularizer = attr.regularizer
    param.do_model_average = attr.do_model_average
    param.need_clip = attr.need_clip


def create_parameter(shape, dtype=None, name=None, attr=None, is_bias=False, default_initializer=None,
                     _name_key=None):
    """paddle.create_parameter: a new Parameter (eager) or static Parameter variable.

    Name: attr.name, else `name`, else `_name_key` or 'create_parameter_<n>.w' made unique (per program in static
    mode, as Paddle's LayerHelper).
    Initialiser: attr.initializer, else the global one (set_global_initializer), else default_initializer, else
    XavierUniform for weights and Constant(0) for biases.
    """
    if not isinstance(shape, (list, tuple)) or not all(isinstance(d, (int, np.integer)) for d in shape):
        raise TypeError(f"create_parameter: shape must be a list/tuple of ints, received {shape!r}")
    shape = [int(d) for d in shape]
    if any(d < 0 for d in shape):
        raise ValueError(f"create_parameter: shape entries must be non-negative, received {shape}")
    dtype = _dtype.convert_dtype(dtype if dtype is not None else _dtype.get_default_dtype()).name
    attr = ParamAttr._to_attr(attr)
    if attr is False:
        raise ValueError("create_parameter: attr=False means 'no parameter'; do not call create_parameter")
    pname = attr.name or name
    if not pname:  # Paddle's create_parameter_<n>.w_<k> (.b_<k> for a bias), counted per program in static mode
        generate = unique_name.generate
        if in_static_mode():
            from ...static.framework import program_unique_name as generate
        pname = generate(_name_key or generate("create_parameter") + (".b" if is_bias else ".w"))
    if default_initializer is not None and not isinstance(default_initializer, _init.Initializer):
        raise TypeError(f"create_parameter: default_initializer must be an Initializer or None, received "
                        f"{type(default_initializer).__name__}")
    init = attr.initializer or _init.global_initializer(is_bias) or default_initializer or \
        (_init.Constant(0.0) if is_bias else _init.XavierUniform())
    if in_static_mode():
        return _static_parameter(pname, shape, dtype, attr, init)
    if unique_name.parameter_name_used(pname):
        raise ValueError(f"parameter name [{pname}] have be been used. In dygraph mode, the name of parameter "
                         "can't be same.Please check the parameter attr value passed to self.create_parameter or "
                         "constructor of dygraph Layers")
    if _init.LazyGuard.active():  # values at initialize(), ops for Layer._startup_program()
        param = Parameter._lazy(shape, dtype, pname, attr.trainable, init, current_place())
    else:
        param = Parameter(init.array(shape, dtype), pname, trainable=attr.trainable)
    _attach_attrs(param, attr)
    return param


def _static_parameter(name, shape, dtype, attr, init):
    from ... import static
    main_block = static.default_main_program().global_block()
    param = main_block.create_parameter(name=name, shape=shape, dtype=dtype, trainable=attr.trainable)
    _attach_attrs(param, attr)
    startup_block = static.default_startup_program().global_block()
    if not startup_block.has_var(name):
        target = startup_block.create_parameter(name=name, shape=shape, dtype=dtype, trainable=attr.trainable)
        init(target, startup_block)
    return param
