"""BaseQuanter and BaseObserver: the layers quanters and observers are (a Layer that passes its input on,
fake-quantized or observed, and reports the scales, zero points, axis and bit length converted layers use)."""
import abc

from ..nn import Layer


class BaseQuanter(Layer, metaclass=abc.ABCMeta):
    """A layer that fake-quantizes its input (QAT) and knows its quantization parameters."""

    @abc.abstractmethod
    def forward(self, input):
        pass

    @abc.abstractmethod
    def scales(self):
        """The scale(s): a Tensor, or None before any were computed."""

    @abc.abstractmethod
    def zero_points(self):
        """The zero point(s), or None where they are all zero."""

    @abc.abstractmethod
    def quant_axis(self):
        """The axis the scales run along; -1 per tensor."""

    @abc.abstractmethod
    def bit_length(self):
        """The bits of the quantized values."""


class BaseObserver(BaseQuanter, metaclass=abc.ABCMeta):
    """A quanter that only watches its input (PTQ) and computes its thresholds from what it saw."""

    @abc.abstractmethod
    def cal_thresholds(self):
        pass
