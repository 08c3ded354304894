"""The layers QAT puts in place of nn.Linear and nn.Conv2D: the same parameters (shared, not copied), the input and
the weight passed through the configured quanters before the layer's function."""
from .. import functional as F
from ..layer.conv import padded
from .format import ConvertibleQuantedLayer


class _Quanted(ConvertibleQuantedLayer):
    """The wrapped layer's weight and bias, and a quanter for each of weight and input (None where not configured)."""

    def __init__(self, layer, q_config):
        super().__init__()
        self.weight = layer.weight
        self.bias = layer.bias
        self.weight_quanter = None if q_config.weight is None else q_config.weight._instance(layer)
        self.activation_quanter = None if q_config.activation is None else q_config.activation._instance(layer)

    def forward(self, input):
        quant_input = input if self.activation_quanter is None else self.activation_quanter(input)
        quant_weight = self.weight if self.weight_quanter is None else self.weight_quanter(self.weight)
        return self._forward(quant_input, quant_weight)

    def weights_to_quanters(self):
        return [("weight", "weight_quanter")]

    def activation_quanters(self):
        return ["activation_quanter"]


class QuantedLinear(_Quanted):
    def __init__(self, layer, q_config):
        super().__init__(layer, q_config)
        self.name = layer.name

    def _forward(self, input, weight):
        return F.linear(x=input, weight=weight, bias=self.bias, name=self.name)


class QuantedConv2D(_Quanted):
    def __init__(self, layer, q_config):
        super().__init__(layer, q_config)
        self._groups = layer._groups
        self._stride = layer._stride
        self._padding = layer._padding
        self._padding_mode = layer._padding_mode
        self._pad = getattr(layer, "_pad", None)
        self._dilation = layer._dilation
        self._data_format = layer._data_format

    def _forward(self, input, weight):
        input = padded(input, self._padding_mode, self._pad, self._data_format)
        return F.conv2d(input, weight, bias=self.bias, padding=self._padding if self._padding_mode == "zeros" else 0,
                        stride=self._stride, dilation=self._dilation, groups=self._groups,
                        data_format=self._data_format)
