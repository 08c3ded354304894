"""QuantConfig: which quanter (or observer) factories each layer of a model gets, for its activations and its
weights. Precedence, most specific first: a layer's name prefix (add_name_config / add_layer_config), its type
(add_type_config), its parent's configuration, the global one. QAT/PTQ `_specify` a model against it, then swap
the mapped layer types (Linear, Conv2D, Stub, and add_qat_layer_mapping's) for their quantized layers and wrap the
configured leaves (ReLU, AvgPool2D, layers without sublayers, add_customized_leaf's) with observers."""
import copy

from .. import nn
from ..nn.quant import qat, stub
from .wrapper import ObserveWrapper

DEFAULT_QAT_LAYER_MAPPINGS = {nn.quant.Stub: stub.QuanterStub, nn.Linear: qat.QuantedLinear,
                              nn.Conv2D: qat.QuantedConv2D}
DEFAULT_LEAVES = [nn.ReLU, nn.AvgPool2D]


class SingleLayerConfig:
    """The activation and weight factories of one layer (either may be None)."""

    def __init__(self, activation, weight):
        self._activation = activation
        self._weight = weight

    @property
    def activation(self):
        return self._activation

    @property
    def weight(self):
        return self._weight

    def __str__(self):
        return f"activation: {self._activation}\nweight: {self._weight}"


class QuantConfig:
    def __init__(self, activation, weight):
        self._global_config = None if activation is None and weight is None else SingleLayerConfig(activation, weight)
        self._layer2config = {}
        self._prefix2config = {}
        self._type2config = {}
        self._model = None
        self._qat_layer_mapping = copy.deepcopy(DEFAULT_QAT_LAYER_MAPPINGS)
        self._customized_leaves = []

    def add_layer_config(self, layer, activation=None, weight=None):
        """Configure a layer (or a list of layers) of the model by its full name."""
        for one in layer if isinstance(layer, list) else [layer]:
            self.add_name_config(one.full_name(), activation=activation, weight=weight)

    def add_name_config(self, layer_name, activation=None, weight=None):
        """Configure the layer(s) of the given full name(s)."""
        if isinstance(layer_name, str):
            self._prefix2config[layer_name] = SingleLayerConfig(activation, weight)
        if isinstance(layer_name, list):
            for name in layer_name:
                self.add_name_config(name, activation=activation, weight=weight)

    def add_type_config(self, layer_type, activation=None, weight=None):
        """Configure every layer of the given type(s)."""
        if isinstance(layer_type, type) and issubclass(layer_type, nn.Layer):
            self._type2config[layer_type] = SingleLayerConfig(activation, weight)
        if isinstance(layer_type, list):
            for one in layer_type:
                self.add_type_config(one, activation=activation, weight=weight)

    def add_qat_layer_mapping(self, source, target):
        """Quantize layers of type `source` as layers of type `target` (built as target(layer, config))."""
        assert isinstance(source, type) and issubclass(source, nn.Layer), (
            "The source layer to be placed should be a subclass of paddle.nn.Layer")
        assert isinstance(target, type) and issubclass(target, nn.Layer), (
            "The target layer should be a subclass of paddle.nn.qat.Layer")
        self._qat_layer_mapping[source] = target

    def add_customized_leaf(self, layer_type):
        """Treat layers of `layer_type` as leaves: observed as a whole, their sublayers left alone."""
        self._customized_leaves.append(layer_type)

    @property
    def customized_leaves(self):
        return self._customized_leaves

    @property
    def qat_layer_mappings(self):
        return self._qat_layer_mapping

    @property
    def default_qat_layer_mapping(self):
        return DEFAULT_QAT_LAYER_MAPPINGS

    @property
    def global_config(self):
        return self._global_config

    def _need_observe(self, layer):
        return self._is_leaf(layer) and self._has_observer_config(layer)

    def _get_qat_layer(self, layer):
        return self._qat_layer_mapping[type(layer)](layer, self._get_config_by_layer(layer))

    def _has_observer_config(self, layer):
        config = self._get_config_by_layer(layer)
        return config is not None and config.activation is not None

    def _is_leaf(self, layer):
        return (type(layer) in DEFAULT_LEAVES or not layer._sub_layers
                or type(layer) in self.customized_leaves)

    def _get_observer(self, layer):
        config = self._get_config_by_layer(layer)
        factory = None if config is None else config.activation
        return None if factory is None else factory._instance(layer)

    def _get_observe_wrapper(self, layer):
        return ObserveWrapper(self._get_observer(layer), layer)

    def _get_config_by_layer(self, layer):
        return self._layer2config.get(layer, None)

    def _is_quantifiable(self, layer):
        return layer in self._layer2config

    def _specify(self, model):
        """Resolve the configuration of every sublayer of `model` (by the precedence above)."""
        self._model = model
        self._specify_helper(model)

    def _specify_helper(self, model):
        for child in model.children():
            config = self._layer2config.get(model, self.global_config)
            config = self._type2config.get(type(child), config)
            config = self._prefix2config.get(child.full_name(), config)
            if config is not None:
                self._layer2config[child] = config
            self._specify_helper(child)
        return self

    def details(self):
        """The specified model's layers with their configurations (the configuration itself before one is)."""
        return self.__str__() if self._model is None else self._details_helper(self._model)

    def _details_helper(self, layer):
        lines = []
        for name, sublayer in layer.named_children():
            text = _indent(self._details_helper(sublayer), 2)
            if sublayer in self._layer2config:
                lines.append(f"({name}): {text}, {self._layer2config[sublayer]}")
        text = layer.__class__.__name__ + "("
        if lines:
            text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __str__(self):
        result = f"Global config:\n{self._global_config}\n"
        if self._type2config:
            result += f"Layer type config:\n{self._type2config}\n"
        if self._prefix2config:
            result += f"Layer prefix config: \n{self._prefix2config}\n"
        return result


def _indent(text, indent):
    """Every line of `text` but the first indented by `indent` spaces."""
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * indent + line for line in rest])
