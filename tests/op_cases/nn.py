"""Gradient cases for embedding, dropout, prelu and their grad ops (ops/nn.py)."""
import numpy as np

from . import OpCase, away_from_zero, rand

_IDS = np.array([[1, 3, 1], [0, 3, 3]], dtype=np.int64)  # repeated ids accumulate

CASES = [
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
    # prelu: one slope, or one per channel (channel-first and channel-last); inputs away from the kink at 0
    OpCase("prelu", {"X": away_from_zero(3, 4, seed=6), "Alpha": rand(1, seed=7)}, id="prelu-all"),
    OpCase("prelu", {"X": away_from_zero(2, 3, 2, 2, seed=8), "Alpha": rand(3, seed=9)},
           {"mode": "channel", "data_format": "NCHW"}, id="prelu-channel"),
    OpCase("prelu", {"X": away_from_zero(2, 2, 3, seed=10), "Alpha": rand(3, seed=11)},
           {"mode": "channel", "data_format": "NHWC"}, id="prelu-channel-last"),
]
