"""Gradient cases for conv2d, pool2d, layer_norm, batch_norm, embedding, dropout and their grad ops."""
import numpy as np

from . import OpCase, distinct, positive, rand

_IDS = np.array([[1, 3, 1], [0, 3, 3]], dtype=np.int64)  # repeated ids accumulate

CASES = [
    # ---- conv2d: stride / padding / dilation / groups / SAME / NHWC
    OpCase("conv2d", {"Input": rand(1, 2, 4, 4, seed=1), "Filter": rand(3, 2, 3, 3, seed=2)}, id="conv2d-basic"),
    OpCase("conv2d", {"Input": rand(2, 2, 4, 4, seed=3), "Filter": rand(2, 2, 2, 2, seed=4)},
           {"strides": [2, 1], "paddings": [1, 0]}, id="conv2d-stride-pad"),
    OpCase("conv2d", {"Input": rand(1, 2, 5, 4, seed=5), "Filter": rand(2, 2, 2, 2, seed=6)},
           {"dilations": [2, 1], "paddings": [1, 0, 0, 1]}, id="conv2d-dilation-asym-pad"),
    OpCase("conv2d", {"Input": rand(1, 4, 3, 3, seed=7), "Filter": rand(4, 2, 2, 2, seed=8)},
           {"groups": 2, "paddings": [1, 1]}, id="conv2d-groups"),
    OpCase("conv2d", {"Input": rand(1, 3, 3, 2, seed=9), "Filter": rand(2, 2, 2, 2, seed=10)},
           {"padding_algorithm": "SAME", "strides": [2, 2], "data_format": "NHWC"}, id="conv2d-same-nhwc"),
    OpCase("conv2d_grad", {"Input": rand(1, 2, 3, 3, seed=11), "Filter": rand(2, 2, 2, 2, seed=12),
                           "DOutput": rand(1, 2, 2, 2, seed=13)}, {"paddings": [0, 0]}, id="conv2d_grad"),
    OpCase("conv2d_grad", {"Input": rand(1, 2, 3, 3, seed=14), "Filter": rand(2, 1, 2, 2, seed=15),
                           "DOutput": rand(1, 2, 2, 2, seed=16)}, {"groups": 2, "strides": [2, 2], "paddings": [1, 1]},
           id="conv2d_grad-groups-stride"),
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
    # ---- layer_norm
    OpCase("layer_norm", {"X": rand(2, 3, 4, seed=1), "Scale": rand(12, seed=2), "Bias": rand(12, seed=3)},
           id="layer_norm-affine"),
    OpCase("layer_norm", {"X": rand(3, 5, seed=4), "Scale": None, "Bias": None}, {"begin_norm_axis": 1},
           id="layer_norm-plain"),
    OpCase("layer_norm", {"X": rand(2, 2, 4, seed=5), "Scale": rand(4, seed=6), "Bias": None},
           {"begin_norm_axis": 2, "epsilon": 1e-3}, id="layer_norm-scale-only"),
    # ---- batch_norm
    OpCase("batch_norm", {"X": rand(3, 2, 2, 2, seed=1), "Scale": rand(2, seed=2), "Bias": rand(2, seed=3),
                          "Mean": rand(2, seed=4), "Variance": positive(2, seed=5)}, id="batch_norm-train"),
    OpCase("batch_norm", {"X": rand(4, 3, seed=6), "Scale": rand(3, seed=7), "Bias": rand(3, seed=8),
                          "Mean": rand(3, seed=9), "Variance": positive(3, seed=10)}, {"is_test": True},
           id="batch_norm-eval-2d"),
    OpCase("batch_norm", {"X": rand(2, 2, 3, 2, seed=11), "Scale": rand(2, seed=12), "Bias": rand(2, seed=13),
                          "Mean": rand(2, seed=14), "Variance": positive(2, seed=15)}, {"data_layout": "NHWC"},
           id="batch_norm-nhwc"),
    # ---- embedding
    OpCase("embedding", {"Ids": _IDS, "W": rand(5, 3, seed=1)}, id="embedding-repeated"),
    OpCase("embedding", {"Ids": _IDS, "W": rand(5, 3, seed=2)}, {"padding_idx": 3}, id="embedding-padding"),
    OpCase("embedding_grad", {"Ids": _IDS, "W": rand(5, 3, seed=3), "DOut": rand(2, 3, 3, seed=4)},
           {"padding_idx": 1}, id="embedding_grad"),
    # ---- dropout (fixed seed: the same mask on every forward)
    OpCase("dropout", {"X": rand(4, 5, seed=1)}, {"dropout_prob": 0.4, "seed": 7}, id="dropout-upscale"),
    OpCase("dropout", {"X": rand(4, 5, seed=2)},
           {"dropout_prob": 0.3, "seed": 3, "dropout_implementation": "downgrade_in_infer"}, id="dropout-downgrade"),
    OpCase("dropout", {"X": rand(3, 4, seed=3)}, {"dropout_prob": 0.3, "is_test": True,
                                                  "dropout_implementation": "downgrade_in_infer"}, id="dropout-infer"),
    OpCase("dropout_grad", {"Mask": (rand(3, 4, seed=4) > 0).astype(np.uint8), "DOut": rand(3, 4, seed=5)},
           {"dropout_prob": 0.5}, id="dropout_grad"),
]
