"""PTQ's observers: AbsmaxObserver (the largest |x| seen, one scale per tensor) and GroupWiseWeightObserver (a 2-D
weight's largest |w| per group of `group_size` input rows and output column). Both pass their input on unchanged."""
import numpy as np

from .. import tensor as T
from .base_quanter import BaseObserver
from .factory import ObserverFactory

__all__ = ["AbsmaxObserver", "GroupWiseWeightObserver"]


class AbsmaxObserver(ObserverFactory):
    def __init__(self, quant_bits=8):
        super().__init__(quant_bits=quant_bits)

    def _get_class(self):
        return AbsmaxObserverLayer


class GroupWiseWeightObserver(ObserverFactory):
    # Paddle's factory drops group_size (its layers always group by 128); it is passed on here
    def __init__(self, quant_bits=8, group_size=128):
        super().__init__(quant_bits=quant_bits, group_size=group_size)

    def _get_class(self):
        return GroupWiseWeightObserverLayer


class _MaxObserver(BaseObserver):
    """Scale = the observed maximum; zero points 0. Before anything was observed the scales are None."""

    def __init__(self, quant_bits):
        super().__init__()
        self._quant_bits = quant_bits
        self._max = None
        self._scale = None
        self._zero_point = None

    def bit_length(self):
        return self._quant_bits

    def quant_axis(self):
        return -1

    def cal_thresholds(self):
        if self._scale is None:
            self._scale = self._max
        self._zero_point = None if self._scale is None else T.zeros_like(self._scale)

    def scales(self):
        if self._scale is None:
            self.cal_thresholds()
        return self._scale

    def zero_points(self):
        return self._zero_point


class AbsmaxObserverLayer(_MaxObserver):
    INIT_ABS_MAX = 1e-7

    def __init__(self, layer, quant_bits=8):
        super().__init__(quant_bits)
        self.abs_max_val = T.to_tensor(AbsmaxObserverLayer.INIT_ABS_MAX)

    def forward(self, input):
        self._min, self._max = self.cal_min_max(input)
        return input

    def cal_min_max(self, inputs):
        abs_max_val = T.max(T.abs(inputs))
        if self._max is not None:
            abs_max_val = T.maximum(abs_max_val, self._max.cast(inputs.dtype))
        return 0, abs_max_val


class GroupWiseWeightObserverLayer(_MaxObserver):
    def __init__(self, layer, quant_bits=8, group_size=128):
        super().__init__(quant_bits)
        self.group_size = group_size
        self._layer = layer

    def forward(self, inputs):
        self._max = self._cal_abs_max(inputs)
        return inputs

    def _cal_abs_max(self, inputs):
        """[in_rows / group_size, out_columns]: the largest |w| of each group of rows per column (1e-8 for 0)."""
        rows = inputs.shape
        assert self.group_size in (64, 128), "group_size only support 64 or 128"
        assert rows[0] % self.group_size == 0, "group_size must be a factor of input channels"
        assert len(rows) == 2, "Currently only support 2D tensor"
        grouped = inputs.transpose([1, 0]).reshape([rows[1], rows[0] // self.group_size, self.group_size])
        abs_max = T.max(T.abs(grouped), axis=2).cast("float32")
        abs_max = T.where(abs_max == np.float32(0), np.float32(1e-8), abs_max)
        return abs_max.transpose([1, 0])

    def min_value(self):
        return 0.0

    def max_value(self):
        return self._max

    def zero_points(self):
        if self._zero_point is None:
            self.cal_thresholds()
        return self._zero_point
