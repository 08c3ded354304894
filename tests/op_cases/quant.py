from . import OpCase, rand


def _straight_through(np, x, *statistics, **attrs):
    """The identity: the derivative the straight-through estimator gives fake quantization's rounding."""
    return (x,)


_SCALE = {"InScale": rand(1, low=0.5, high=1.0), "InAccum": rand(1, low=1.0, high=2.0),
          "InState": rand(1, low=1.0, high=2.0)}

CASES = [
    OpCase("fake_quantize_dequantize_moving_average_abs_max", {"X": rand(3, 4, low=-2, high=2), **_SCALE},
           surrogate=_straight_through, id="fake_qdq_moving_average_train"),
    OpCase("fake_quantize_dequantize_moving_average_abs_max",
           {"X": rand(2, 5, low=-2, high=2), "InScale": _SCALE["InScale"], "InAccum": None, "InState": None},
           attrs={"is_test": True, "round_type": 0, "bit_length": 4}, surrogate=_straight_through,
           id="fake_qdq_moving_average_test"),
]
