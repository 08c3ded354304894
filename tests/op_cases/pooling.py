"""Gradient cases for pool2d and pool3d (ops/pooling.py)."""
from . import OpCase, distinct, rand

CASES = [
    # ---- pool2d (max on distinct values: no ties)
    OpCase("pool2d", {"X": distinct(1, 2, 4, 4, seed=1)}, {"ksize": [2, 2], "strides": [2, 2]}, id="maxpool"),
    OpCase("pool2d", {"X": distinct(1, 2, 5, 5, seed=2)},
           {"ksize": [3, 3], "strides": [2, 2], "paddings": [1, 1], "ceil_mode": True}, id="maxpool-pad-ceil"),
    OpCase("pool2d", {"X": rand(1, 2, 4, 5, seed=3)},
           {"pooling_type": "avg", "ksize": [3, 2], "strides": [2, 2], "paddings": [1, 1]}, id="avgpool-exclusive"),
    OpCase("pool2d", {"X": rand(1, 2, 5, 5, seed=4)},
           {"pooling_type": "avg", "ksize": [3, 3], "strides": [2, 2], "paddings": [1, 1], "exclusive": False,
            "ceil_mode": True}, id="avgpool-inclusive-ceil"),
    OpCase("pool2d", {"X": rand(1, 2, 5, 4, seed=5)}, {"pooling_type": "avg", "ksize": [2, 3], "adaptive": True},
           id="avgpool-adaptive"),
    OpCase("pool2d", {"X": distinct(1, 2, 5, 4, seed=6)}, {"pooling_type": "max", "ksize": [2, 3], "adaptive": True},
           id="maxpool-adaptive"),
    OpCase("pool2d", {"X": rand(2, 3, 3, 2, seed=7)}, {"pooling_type": "avg", "global_pooling": True,
                                                       "data_format": "NHWC"}, id="avgpool-global-nhwc"),
    # ---- pool3d
    OpCase("pool3d", {"X": distinct(1, 2, 4, 3, 4, seed=8)}, {"ksize": [2, 2, 2], "strides": [2, 1, 2]},
           id="maxpool3d"),
    OpCase("pool3d", {"X": rand(1, 2, 4, 4, 5, seed=9)}, {"pooling_type": "avg", "ksize": [2, 3, 2],
                                                          "strides": [2, 2, 2], "paddings": [1, 1, 0],
                                                          "ceil_mode": True}, id="avgpool3d-pad-ceil"),
    OpCase("pool3d", {"X": distinct(1, 2, 4, 3, 5, seed=10)}, {"ksize": [2, 2, 3], "adaptive": True},
           id="maxpool3d-adaptive"),
    OpCase("pool3d", {"X": rand(2, 3, 3, 2, 2, seed=11)}, {"pooling_type": "avg", "ksize": [2, 1, 2], "adaptive": True,
                                                           "data_format": "NDHWC"}, id="avgpool3d-adaptive-ndhwc"),
]
