"""Stub: a placeholder layer a model calls before a functional API, which QAT/PTQ replace with a QuanterStub holding
an observer (the stub's own, else the configuration's), so the API's input is observed or fake-quantized too."""
from ..layer.layers import Layer


class Stub(Layer):
    """The identity until quantization replaces it; `observer` (a QuanterFactory) overrides the configured one."""

    def __init__(self, observer=None):
        super().__init__()
        self._observer = observer

    def forward(self, input):
        return input


class QuanterStub(Layer):
    """What a Stub becomes: its observer (or the configuration's activation quanter) applied to the input."""

    def __init__(self, layer, q_config):
        super().__init__()
        self._observer = None
        if layer._observer is not None:
            self._observer = layer._observer._instance(layer)
        elif q_config.activation is not None:
            self._observer = q_config.activation._instance(layer)

    def forward(self, input):
        return self._observer(input) if self._observer is not None else input
