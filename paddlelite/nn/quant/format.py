"""The layers a quantized model is converted into (paddle.nn.quant.format): LinearQuanter (x to its integer levels
under fixed scales, op quantize_linear), LinearDequanter (back, op dequantize_linear), LinearQuanterDequanter (the
two in a row), and ConvertibleQuantedLayer, the base of QAT's layers, whose `_convert` swaps its trained quanters
for these.

Bit lengths (4, 3) and (5, 2) stand for float8 e4m3 / e5m2: values scaled to the format's range and rounded by a
cast. Scales of rank 2 are group-wise (one row per `group_size` input channels, GroupWiseWeightObserver's); with
a zero point they are per element.
"""
import abc

from ... import tensor as T
from ...framework.dtype import convert_dtype
from ...ops import apply
from ...ops import quant as _quant
from ...utils import unique_name
from .. import initializer
from ..layer.layers import Layer
from ..layer.param_attr import ParamAttr

# (exponent bits, mantissa bits) -> (the float8 dtype, its largest finite value)
_FLOAT8 = {(4, 3): ("float8_e4m3fn", 448), (5, 2): ("float8_e5m2", 57344)}


def _levels_range(bit_length):
    """(qmin, qmax, bit_length as the ops take it) of an integer bit length or a float8 (exponent, mantissa) pair."""
    if isinstance(bit_length, tuple):
        if bit_length not in _FLOAT8:
            raise NotImplementedError("Currently, only float8_e4m3 and float8_e5m2 formats are supported. Please set "
                                      "quant_bits to (4,3) or (5,2) for the corresponding format.")
        top = _FLOAT8[bit_length][1]
        return -top, top, sum(bit_length) + 1
    qmax = (1 << (bit_length - 1)) - 1
    return -qmax - 1, qmax, bit_length


def _along(scale, x, axis):
    """scale reshaped to broadcast along x's axis `axis` (itself for a per-tensor axis < 0)."""
    if axis < 0:
        return scale
    shape = [1] * len(x.shape)
    shape[axis] = -1
    return scale.reshape(shape)


class _LinearQuantFormat(Layer):
    """The scales, zero point and level range LinearQuanter and LinearDequanter share."""

    def __init__(self, scales, zero_point=None, quant_axis=None, bit_length=8, group_size=128):
        super().__init__()
        scales = T.to_tensor(scales, dtype="float32")
        # Paddle raises a TypeError for a quanter without zero points (FakeQuanterWithAbsMaxObserver's): they are 0
        zero_point = T.zeros_like(scales) if zero_point is None else T.to_tensor(zero_point, dtype="float32")
        self._scales = self._fixed("quant_dequant.scale", scales, 1.0)
        self._zero_point = self._fixed("quant_dequant.zero_point", zero_point, 0.0)
        self._quant_axis = -1 if quant_axis is None else quant_axis
        self._float8 = _FLOAT8.get(bit_length) if isinstance(bit_length, tuple) else None
        self._qmin, self._qmax, self._bit_length = _levels_range(bit_length)
        self._group_size = group_size

    def _fixed(self, prefix, value, init):
        attr = ParamAttr(name=unique_name.generate(prefix), initializer=initializer.Constant(init), trainable=False)
        p = self.create_parameter(shape=value.shape, dtype="float32", attr=attr)
        p.set_value(value)
        return p

    def _group_wise(self, values):
        """Scales and zero points per element of a weight of group-wise scales (one row per group_size rows)."""
        if T.sum(self._zero_point).item() != 0:
            return self._scales, self._zero_point, 1
        repeat = self._group_size
        return (T.repeat_interleave(self._scales, repeat, 0), T.repeat_interleave(self._zero_point, repeat, 0),
                self._qmax)

    def _linear(self, op, input):
        x = input if input.dtype == convert_dtype("float32") else input.astype("float32")
        out = apply(op, x, self._scales, self._zero_point, quant_axis=self._quant_axis, bit_length=self._bit_length,
                    qmin=self._qmin, qmax=self._qmax)
        return out if out.dtype == input.dtype else out.astype(input.dtype)

    @classmethod
    def from_quanter(cls, quanter):
        return cls(quanter.scales(), zero_point=quanter.zero_points(), quant_axis=quanter.quant_axis(),
                   bit_length=quanter.bit_length())


class LinearQuanter(_LinearQuantFormat):
    """x -> round(x / scale * qmax) clipped to [qmin, qmax] (op quantize_linear), in x's dtype."""

    def forward(self, input):
        if self._float8 is not None:
            dtype, top = self._float8
            scale = _along(self._scales, input, self._quant_axis)
            levels = T.clip(input.astype("float32") * float(top) / scale, -float(top), float(top))
            return levels.astype(dtype).astype(input.dtype)
        if len(self._scales.shape) > 1:
            scale, zero_point, qmax = self._group_wise(input)
            levels = T.round(input.astype("float32") / scale * float(qmax)) + zero_point
            return T.clip(levels, float(self._qmin), float(self._qmax)).astype(input.dtype)
        return self._linear(_quant.QUANTIZE_LINEAR, input)


class LinearDequanter(_LinearQuantFormat):
    """levels -> levels * scale / qmax (op dequantize_linear), in the levels' dtype."""

    def forward(self, input):
        if self._float8 is not None:
            scale = _along(self._scales, input, self._quant_axis)
            return (input.astype("float32") / float(self._float8[1]) * scale).astype(input.dtype)
        if len(self._scales.shape) > 1:
            scale, zero_point, qmax = self._group_wise(input)
            return ((input.astype("float32") - zero_point) / float(qmax) * scale).astype(input.dtype)
        return self._linear(_quant.DEQUANTIZE_LINEAR, input)


class LinearQuanterDequanter(Layer):
    """A quanter then a dequanter (either may be None): the fake quantization a converted model keeps."""

    def __init__(self, quanter, dequanter):
        super().__init__()
        self._quanter = quanter
        self._dequanter = dequanter

    def forward(self, input):
        out = input
        if self._quanter is not None:
            out = self._quanter(out)
        if self._dequanter is not None:
            out = self._dequanter(out)
        return out

    @staticmethod
    def from_quanter(quanter):
        assert quanter is not None
        return LinearQuanterDequanter(LinearQuanter.from_quanter(quanter), LinearDequanter.from_quanter(quanter))


class ConvertibleQuantedLayer(Layer, metaclass=abc.ABCMeta):
    """A layer holding quanters for its weights and activations, convertible once into LinearQuanterDequanters
    (the weights then stored quantized unless remain_weight)."""

    def __init__(self):
        super().__init__()
        self.converted = False

    @abc.abstractmethod
    def weights_to_quanters(self) -> list[tuple[str, str]]:
        """[(weight attribute, its quanter's attribute)]"""

    @abc.abstractmethod
    def activation_quanters(self) -> list[str]:
        """The attributes holding the activations' quanters."""

    def _convert_quanter_to_qdq(self, quanter_name):
        quanter = getattr(self, quanter_name, None)
        if quanter is None:
            return None
        qdq = LinearQuanterDequanter.from_quanter(quanter)
        setattr(self, quanter_name, qdq)
        return qdq

    def _quant_weights(self, weight_name, quanter):
        weight = getattr(self, weight_name)
        weight.set_value(quanter(weight))

    def _convert(self, remain_weight=False):
        assert not self.converted, "The model should be converted only once."
        for weight_name, quanter_name in self.weights_to_quanters():
            qdq = self._convert_quanter_to_qdq(quanter_name)
            if qdq is not None and remain_weight is False:
                self._quant_weights(weight_name, qdq._quanter)
                qdq._quanter = None
        for quanter_name in self.activation_quanters():
            self._convert_quanter_to_qdq(quanter_name)
        self.converted = True
