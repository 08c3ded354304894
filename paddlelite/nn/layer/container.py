"""Sequential, LayerList, LayerDict, ParameterList."""
import collections
from collections.abc import Iterable, Mapping

from .layers import Layer
from .param_attr import is_parameter

__all__ = ["Sequential", "LayerList", "LayerDict", "ParameterList", "ParameterDict", "ModuleList", "ModuleDict"]


def _index(i, n, api):
    if not isinstance(i, int):
        raise TypeError(f"{api}: index must be an int or slice, received {type(i).__name__}")
    if not -n <= i < n:
        raise IndexError(f"{api}: index {i} is out of range for {n} items")
    return i % n


def _renumber(container, layers):
    """Register `layers` in `container` under the names '0', '1', ... (replacing its sublayers)."""
    for key in list(container._sub_layers):
        delattr(container, key)
    for i, layer in enumerate(layers):
        container.add_sublayer(str(i), layer)


class Sequential(Layer):
    """Sequential(layer1, layer2, ...) or Sequential(('name', layer), ...): calls them in order."""

    def __init__(self, *layers):
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], collections.OrderedDict):
            layers = tuple(layers[0].items())
        if layers and all(isinstance(l, (list, tuple)) for l in layers):
            for item in layers:
                if len(item) != 2 or not isinstance(item[0], str):
                    raise TypeError(f"Sequential: named entries must be (str, Layer) pairs, received {item!r}")
                self.add_sublayer(item[0], item[1])
        else:
            for i, layer in enumerate(layers):
                if not isinstance(layer, Layer):
                    raise TypeError(f"Sequential: argument {i} must be a Layer, received {type(layer).__name__}")
                self.add_sublayer(str(i), layer)

    def __getitem__(self, name):
        if isinstance(name, slice):
            return self.__class__(*list(self._sub_layers.values())[name])
        if isinstance(name, str):
            return self._sub_layers[name]
        keys = list(self._sub_layers)
        return self._sub_layers[keys[_index(name, len(keys), "Sequential")]]

    def __setitem__(self, name, layer):
        if not isinstance(layer, Layer):
            raise TypeError(f"Sequential: item must be a Layer, received {type(layer).__name__}")
        keys = list(self._sub_layers)
        key = name if isinstance(name, str) else keys[_index(name, len(keys), "Sequential")]
        setattr(self, key, layer)

    def __delitem__(self, name):
        keys = list(self._sub_layers)
        key = name if isinstance(name, str) else keys[_index(name, len(keys), "Sequential")]
        delattr(self, key)

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def forward(self, input):
        for layer in self._sub_layers.values():
            input = layer(input)
        return input

    def append(self, module):
        """Add `module` at the end, named str(len(self)); returns self."""
        self.add_sublayer(str(len(self)), module)
        return self

    def extend(self, sequential):
        for layer in sequential:
            self.append(layer)
        return self

    def insert(self, index, module):
        """Put `module` before position `index` (the layers are renumbered '0', '1', ...); returns self."""
        if not isinstance(module, Layer):
            raise AssertionError(f"Sequential.insert: module must be a Layer, received {type(module).__name__}")
        n = len(self)
        if not isinstance(index, int) or not -n <= index <= n:
            raise IndexError(f"Sequential.insert: index {index!r} is out of range for {n} layers")
        layers = list(self._sub_layers.values())
        layers.insert(index, module)
        _renumber(self, layers)
        return self


class LayerList(Layer):
    """A list of sublayers, registered under the names '0', '1', ..."""

    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            for layer in sublayers:
                self.append(layer)

    def _check(self, layer):
        if not isinstance(layer, Layer):
            raise TypeError(f"LayerList: items must be Layers, received {type(layer).__name__}")
        return layer

    def __getitem__(self, idx):
        layers = list(self._sub_layers.values())
        if isinstance(idx, slice):
            return self.__class__(layers[idx])
        return layers[_index(idx, len(layers), "LayerList")]

    def __setitem__(self, idx, layer):
        idx = _index(idx, len(self), "LayerList")
        setattr(self, str(idx), self._check(layer))

    def __delitem__(self, idx):
        layers = list(self._sub_layers.values())
        if isinstance(idx, slice):
            del layers[idx]
        else:
            del layers[_index(idx, len(layers), "LayerList")]
        _renumber(self, layers)

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(list(self._sub_layers.values()))

    def append(self, sublayer):
        self.add_sublayer(str(len(self)), self._check(sublayer))
        return self

    def insert(self, index, sublayer):
        layers = list(self._sub_layers.values())
        layers.insert(index, self._check(sublayer))
        _renumber(self, layers)

    def extend(self, sublayers):
        for layer in sublayers:
            self.append(layer)
        return self


class LayerDict(Layer):
    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key):
        return self._sub_layers[key]

    def __setitem__(self, key, layer):
        self.add_sublayer(key, layer)

    def __delitem__(self, key):
        delattr(self, key)

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers)

    def __contains__(self, key):
        return key in self._sub_layers

    def keys(self):
        return self._sub_layers.keys()

    def values(self):
        return self._sub_layers.values()

    def items(self):
        return self._sub_layers.items()

    def clear(self):
        for key in list(self._sub_layers):
            delattr(self, key)

    def pop(self, key):
        layer = self._sub_layers[key]
        delattr(self, key)
        return layer

    def update(self, sublayers):
        """Add the sublayers of a mapping (or LayerDict), or of a sequence of (key, layer) pairs, in order."""
        if not isinstance(sublayers, Iterable):  # AssertionError, as Paddle's
            raise AssertionError(f"LayerDict.update: sublayers must be an iterable of key/value pairs, received "
                                 f"{type(sublayers).__name__}")
        if isinstance(sublayers, (Mapping, LayerDict)):
            items = list(sublayers.items())
        else:
            items = list(sublayers)
            for i, kv in enumerate(items):
                if len(kv) != 2:
                    raise ValueError(f"LayerDict.update: the {i}'s element of sublayers has {len(kv)} entries, a "
                                     f"(key, layer) pair has 2")
        for key, layer in items:
            self.add_sublayer(key, layer)


class ParameterDict(Layer):
    """A dict of parameters, registered under their keys (a mapping or (key, parameter) pairs, in order)."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return self._parameters[key]

    def __setitem__(self, key, param):
        if not is_parameter(param):
            raise TypeError(f"ParameterDict: values must be Parameters, received {type(param).__name__}")
        setattr(self, key, param)

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters)

    def update(self, parameters):
        if isinstance(parameters, (dict, ParameterDict)):
            items = parameters.items() if isinstance(parameters, dict) else parameters._parameters.items()
        else:
            items = list(parameters)
            for i, kv in enumerate(items):
                if not isinstance(kv, (list, tuple)) or len(kv) != 2:
                    raise ValueError(f"ParameterDict.update: the {i}'s element of parameters must be a (key, "
                                     f"parameter) pair, received {kv!r}")
        for key, param in items:
            self.add_parameter(key, param)


class ParameterList(Layer):
    """A list of parameters, registered under the names '0', '1', ..."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            for p in parameters:
                self.append(p)

    def __getitem__(self, idx):
        params = list(self._parameters.values())
        return params[_index(idx, len(params), "ParameterList")]

    def __setitem__(self, idx, param):
        setattr(self, str(_index(idx, len(self), "ParameterList")), param)

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(list(self._parameters.values()))

    def append(self, parameter):
        if not is_parameter(parameter):
            raise TypeError(f"ParameterList: items must be Parameters, received {type(parameter).__name__}")
        self.add_parameter(str(len(self)), parameter)
        return self


ModuleList, ModuleDict = LayerList, LayerDict  # Paddle's aliases (paddle.nn.modules)
