"""Gradient cases for nce (ops/nce.py): custom_neg_classes or a fixed seed keep the negatives the same on every run."""
import numpy as np

from . import OpCase, positive, rand

_LABEL = np.array([[0, 2], [3, 4], [5, 1]], dtype=np.int64)

CASES = [
    OpCase("nce", {"Input": rand(3, 4, seed=1), "Label": _LABEL, "Weight": rand(6, 4, seed=2),
                   "Bias": rand(6, 1, seed=3), "SampleWeight": positive(3, 1, seed=4)},
           {"num_total_classes": 6, "num_neg_samples": 3, "custom_neg_classes": [1, 3, 3]}, id="nce-custom-negatives"),
    OpCase("nce", {"Input": rand(3, 4, seed=5), "Label": _LABEL[:, :1], "Weight": rand(6, 4, seed=6)},
           {"num_total_classes": 6, "num_neg_samples": 4, "sampler": 1, "seed": 7}, id="nce-log-uniform-seeded"),
    OpCase("nce", {"Input": rand(3, 4, seed=8), "Label": _LABEL, "Weight": rand(6, 4, seed=9),
                   "Bias": rand(6, 1, seed=10), "CustomDistProbs": np.array([.1, .3, .2, .1, .2, .1], np.float32),
                   "CustomDistAlias": np.array([1, -1, 1, 4, -1, 2], np.int32),
                   "CustomDistAliasProbs": np.array([.6, 1., .8, .6, 1., .6], np.float32)},
           {"num_total_classes": 6, "num_neg_samples": 2, "sampler": 2, "seed": 3}, id="nce-custom-dist-seeded"),
]
