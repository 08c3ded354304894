"""FakeQuanterWithAbsMaxObserver: QAT's quanter. In training, the scale follows a moving average of max|x| and x
is fake-quantized by it (op fake_quantize_dequantize_moving_average_abs_max, whose gradient passes straight
through); in evaluation the scale stays. Scale, state and accumulator are non-trainable parameters, so they are
saved with the model."""
from ..framework.mode import in_static_mode, no_grad
from ..nn.layer.param_attr import ParamAttr
from ..nn.initializer import Constant
from ..ops import apply
from ..ops import quant as _quant
from ..static.appender import as_variable
from ..tensor.creation import assign
from ..utils import unique_name
from .base_quanter import BaseQuanter
from .factory import QuanterFactory

__all__ = ["FakeQuanterWithAbsMaxObserver"]


class FakeQuanterWithAbsMaxObserver(QuanterFactory):
    def __init__(self, moving_rate=0.9, bit_length=8, dtype="float32", name=None):
        super().__init__(name=name, moving_rate=moving_rate, bit_length=bit_length, dtype=dtype)

    def _get_class(self):
        return FakeQuanterWithAbsMaxObserverLayer


class FakeQuanterWithAbsMaxObserverLayer(BaseQuanter):
    def __init__(self, layer, name=None, moving_rate=0.9, bit_length=8, dtype="float32"):
        super().__init__()
        self._moving_rate = moving_rate
        self._bit_length = bit_length
        self._scale = self._statistic(name, "scale", 0.001, dtype)
        self._state = self._statistic(name, "state", 1, dtype)
        self._accum = self._statistic(name, "accum", 1, dtype)

    def _statistic(self, name, what, init, dtype):
        prefix = f"{name}.{what}" if name else f"quant_dequant.{what}"
        attr = ParamAttr(name=unique_name.generate(prefix), initializer=Constant(init), trainable=False)
        p = self.create_parameter(shape=[1], attr=attr, dtype=dtype)
        p.stop_gradient = True
        return p

    def forward(self, input):
        state, accum = (self._state, self._accum) if self.training else (None, None)
        out, scale, new_state, new_accum = apply(
            _quant.FAKE_QDQ_MOVING_AVERAGE_ABS_MAX, input, self._scale, accum, state,
            moving_rate=float(self._moving_rate), bit_length=int(self._bit_length), is_test=not self.training,
            round_type=1)
        updated = [(self._scale, scale)] + ([(state, new_state), (accum, new_accum)] if self.training else [])
        with no_grad():
            for stat, new in updated:
                if not (in_static_mode() and new is as_variable(stat)):  # a static op writes them in place
                    assign(new, output=stat)
        return out

    def bit_length(self):
        return self._bit_length

    def quant_axis(self):
        return -1

    def scales(self):
        return self._scale

    def zero_points(self):
        return None
