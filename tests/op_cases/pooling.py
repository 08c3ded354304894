"""Gradient cases for pool2d, pool3d and fractional_max_pool2d/3d (ops/pooling.py)."""
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
    # ---- max pooling with the index of each maximum
    OpCase("max_pool2d_with_index", {"X": distinct(2, 2, 5, 5, seed=15)},
           {"ksize": [3, 3], "strides": [2, 2], "paddings": [1, 1]}, id="maxpool2d-with-index"),
    OpCase("max_pool2d_with_index", {"X": distinct(1, 2, 5, 7, seed=16)},
           {"ksize": [2, 3], "strides": [2, 2], "paddings": [0, 1], "ceil_mode": True}, id="maxpool2d-with-index-ceil"),
    OpCase("max_pool2d_with_index", {"X": distinct(1, 2, 5, 4, seed=17)}, {"ksize": [2, 3], "adaptive": True},
           id="maxpool2d-with-index-adaptive"),
    OpCase("max_pool3d_with_index", {"X": distinct(1, 2, 4, 3, 5, seed=18)}, {"ksize": [2, 2, 3], "adaptive": True},
           id="maxpool3d-with-index-adaptive"),
    OpCase("max_pool3d_with_index", {"X": distinct(1, 1, 3, 4, 4, seed=19)}, {"global_pooling": True},
           id="maxpool3d-with-index-global"),
    # ---- fractional max pooling (fixed random_u; grads are the output grads at the masked argmax)
    OpCase("fractional_max_pool2d", {"X": distinct(1, 2, 7, 6, seed=12)},
           {"output_size": [4, 3], "kernel_size": [0, 0], "random_u": 0.3}, id="fracpool2d-disjoint"),
    OpCase("fractional_max_pool2d", {"X": distinct(2, 1, 6, 7, seed=13)},
           {"output_size": [3, 4], "kernel_size": [2, 3], "random_u": 0.7}, id="fracpool2d-overlap"),
    OpCase("fractional_max_pool3d", {"X": distinct(1, 2, 5, 4, 6, seed=14)},
           {"output_size": [3, 2, 4], "kernel_size": [0, 0, 0], "random_u": 0.45}, id="fracpool3d"),
]
