"""Factories: what a QuantConfig holds. A factory keeps the arguments of a quanter (or observer) layer class and
makes one layer per quantized layer (`_instance(layer)`), so one configuration serves a whole model.
`@quanter("Name")` on a BaseQuanter subclass defines the factory class `Name` in the decorated class's module."""
import abc
import sys
from functools import partial


class ClassWithArguments(metaclass=abc.ABCMeta):
    def __init__(self, *args, **kwargs):
        self._args = args
        self._kwargs = kwargs

    @property
    def args(self):
        return self._args

    @property
    def kwargs(self):
        return self._kwargs

    @abc.abstractmethod
    def _get_class(self):
        pass

    def __str__(self):
        args_str = ",".join(list(self.args) + [f"{k}={v}" for k, v in self.kwargs.items()])
        return f"{self.__class__.__name__}({args_str})"

    def __repr__(self):
        return self.__str__()


class QuanterFactory(ClassWithArguments):
    """Makes the quanter layers of one configuration: `_get_class()(layer, *args, **kwargs)` per quantized layer."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.partial_class = None

    def _instance(self, layer):
        if self.partial_class is None:
            self.partial_class = partial(self._get_class(), *self.args, **self.kwargs)
        return self.partial_class(layer)


ObserverFactory = QuanterFactory


def quanter(class_name):
    """Class decorator: defines `class_name`, the QuanterFactory of the decorated quanter class, in the caller's
    module (and its __all__ where it has one); returns the class unchanged."""

    def wrapper(target_class):
        def get_class(self):
            return target_class

        factory = type(class_name, (QuanterFactory,), {"_get_class": get_class,
                                                       "__module__": target_class.__module__})
        namespace = sys._getframe(1).f_globals  # the module the decorated class is defined in
        namespace[class_name] = factory
        if "__all__" in namespace:
            namespace["__all__"].append(class_name)
        return target_class

    return wrapper
