"""Gradient cases for take_along_axis, top_k_v2, argsort, take_along_axis_grad and put_along_axis."""
import numpy as np

from . import OpCase, distinct, rand

I64 = np.int64

CASES = [
    OpCase("take_along_axis", {"X": rand(3, 4), "Index": np.array([[0, 3], [1, 1], [2, 0]], dtype=I64)},
           {"axis": 1}, id="take_along_axis-repeat"),
    OpCase("take_along_axis", {"X": rand(4, 2, 3), "Index": np.array([[[3, 0, -1]], [[1, 2, 2]]], dtype=I64)
           .transpose(1, 0, 2)}, {"axis": 0}, id="take_along_axis-axis0-neg"),
    OpCase("take_along_axis_grad", {"X": rand(3, 4), "Index": np.array([[2, 2], [0, 1], [3, 3]], dtype=I64),
                                    "OutGrad": rand(3, 2)}, {"axis": 1}, grad_inputs=("OutGrad",)),
    OpCase("top_k_v2", {"X": distinct(3, 5)}, {"k": 2, "axis": -1, "largest": True}, id="topk-largest"),
    OpCase("top_k_v2", {"X": distinct(4, 3, seed=3)}, {"k": 3, "axis": 0, "largest": False}, id="topk-smallest-axis0"),
    OpCase("argsort", {"X": distinct(2, 5)}, {"axis": -1, "descending": False}, id="argsort-asc"),
    OpCase("argsort", {"X": distinct(3, 2, 2, seed=5)}, {"axis": 0, "descending": True}, id="argsort-desc-axis0"),
    OpCase("cummax", {"X": distinct(2, 5)}, {"axis": 1}, id="cummax"),
    OpCase("cummin", {"X": distinct(3, 4)}, {"axis": -2}, id="cummin"),
    # distinct values: a tie would move under the finite differences (tests/test_counting_series_vs_paddle.py
    # checks the gradient with ties against Paddle)
    OpCase("mode", {"X": distinct(2, 4, seed=4)}, {"axis": 1}, id="mode"),
    OpCase("mode", {"X": distinct(3, 2, seed=6)}, {"axis": 0}, id="mode-axis0"),
] + [
    OpCase("put_along_axis", {"Input": distinct(3, 4, seed=11), "Index": np.array([[0, 2, 2, 1], [0, 0, 1, 1]], dtype=I64),
                              "Value": distinct(2, 4, seed=12)},
           {"axis": 0, "reduce": reduce, "include_self": include_self}, id=f"put_along_axis-{reduce}-{include_self}")
    for reduce in ("assign", "add", "mul", "mean", "amin", "amax") for include_self in (True, False)
]
