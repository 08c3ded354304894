"""paddle.nn.quant: the layers quantization builds on (Stub; qat's QuantedLinear/QuantedConv2D; format's
LinearQuanter/LinearDequanter that converted models hold)."""
from . import format, qat, stub
from .stub import Stub

__all__ = ["Stub"]
