"""Gradient cases for getitem, set_value, gather, gather_nd, masked_select, scatter and their grad ops
(ops/indexing.py)."""
import numpy as np

from . import OpCase, rand

I64 = np.int64
MASK = np.array([[True, False, True, True], [False, False, False, True], [True, True, False, False]])

CASES = [
    # indexing (tensor indices go through the API tests: the harness casts variadic inputs to float64)
    OpCase("getitem", {"X": rand(3, 4, 5), "Index": []},
           {"index": [["int", -1], ["slice", None, None, -2], ["none"], ["ellipsis"]]}, id="getitem-basic"),
    OpCase("getitem", {"X": rand(3, 4, 5), "Index": []},
           {"index": [["slice", 1, None, 1], ["list", [0, 2, 2, -1]]]}, id="getitem-list-repeated"),
    OpCase("getitem", {"X": rand(3, 4, 5), "Index": []},
           {"index": [["list", [0, 2]], ["slice", None, None, None], ["list", [[1], [3]]]]}, id="getitem-adv-split"),
    OpCase("getitem", {"X": rand(3, 4), "Index": []},
           {"index": [["list", [True, False, True]]]}, id="getitem-bool-list"),
    OpCase("getitem_grad", {"X": rand(3, 4), "OutGrad": rand(3, 3), "Index": []},
           {"index": [["slice", None, None, None], ["list", [1, 1, 0]]]}, id="getitem_grad-repeated"),
    OpCase("getitem_grad", {"X": rand(3, 4), "OutGrad": rand(2, 4), "Index": []},
           {"index": [["slice", None, None, -2]]}, id="getitem_grad-basic"),
    OpCase("set_value", {"Input": rand(3, 4), "ValueTensor": rand(4, seed=1), "Index": []},
           {"index": [["slice", 0, 2, None]]}, id="set_value-bcast"),
    OpCase("set_value", {"Input": rand(3, 4), "ValueTensor": rand(2, seed=1), "Index": []},
           {"index": [["int", 1], ["list", [0, 3]]]}, id="set_value-adv"),
    OpCase("masked_select", {"X": rand(3, 4), "Mask": MASK}, id="masked_select"),
    OpCase("masked_select_grad", {"X": rand(3, 4), "Mask": MASK, "YGrad": rand(int(MASK.sum()))},
           id="masked_select_grad"),
    OpCase("gather", {"X": rand(4, 3), "Index": np.array([3, 0, 3, 1], dtype=I64)}, {"axis": 0},
           id="gather-repeated"),
    OpCase("gather", {"X": rand(2, 4, 3), "Index": np.array([1, 1, -1], dtype=I64)}, {"axis": -2},
           id="gather-neg-axis"),
    OpCase("gather_grad", {"X": rand(4, 3), "Index": np.array([2, 2, 0], dtype=I64), "OutGrad": rand(3, 3)},
           {"axis": 0}, id="gather_grad"),
    OpCase("gather_nd", {"X": rand(3, 4, 2), "Index": np.array([[0, 1], [2, 3], [0, 1]], dtype=I64)},
           id="gather_nd-repeated"),
    OpCase("gather_nd_grad", {"X": rand(3, 4), "Index": np.array([[1], [1]], dtype=I64), "OutGrad": rand(2, 4)},
           id="gather_nd_grad"),
    OpCase("scatter", {"X": rand(4, 3), "Ids": np.array([2, 0], dtype=I64), "Updates": rand(2, 3, seed=1)},
           {"overwrite": True}, id="scatter-overwrite"),
    OpCase("scatter", {"X": rand(4, 3), "Ids": np.array([1, 1, 3], dtype=I64), "Updates": rand(3, 3, seed=1)},
           {"overwrite": False}, id="scatter-add-repeated"),
    OpCase("index_select", {"X": rand(3, 4), "Index": np.array([3, 0, 3], dtype=I64)}, {"dim": 1},
           id="index_select-repeated"),
]
