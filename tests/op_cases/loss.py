"""Gradient cases for softmax_with_cross_entropy (hard / soft labels, ignore_index, axis)."""
import numpy as np

from . import OpCase, positive, rand


def _soft(*shape, axis=-1, seed=0):
    p = positive(*shape, seed=seed)
    return p / p.sum(axis=axis, keepdims=True)


CASES = [
    OpCase("softmax_with_cross_entropy", {"Logits": rand(4, 5, seed=1),
                                          "Label": np.array([[0], [4], [2], [2]], dtype=np.int64)}, id="swce-hard"),
    OpCase("softmax_with_cross_entropy", {"Logits": rand(4, 5, seed=2),
                                          "Label": np.array([[1], [-100], [3], [-100]], dtype=np.int64)},
           id="swce-ignore-index"),
    OpCase("softmax_with_cross_entropy", {"Logits": rand(3, 4, seed=3),
                                          "Label": np.array([[1], [0], [3]], dtype=np.int64)}, {"ignore_index": 0},
           id="swce-ignore-class0"),
    OpCase("softmax_with_cross_entropy", {"Logits": rand(3, 4, seed=4), "Label": _soft(3, 4, seed=5)},
           {"soft_label": True}, id="swce-soft"),
    OpCase("softmax_with_cross_entropy", {"Logits": rand(2, 3, 4, seed=6),
                                          "Label": np.array([[[0, 2, 1, 2]], [[1, 1, 0, 2]]], dtype=np.int64)},
           {"axis": 1}, id="swce-axis1"),
    OpCase("softmax_with_cross_entropy", {"Logits": rand(2, 3, 2, seed=7), "Label": _soft(2, 3, 2, axis=1, seed=8)},
           {"soft_label": True, "axis": 1}, id="swce-soft-axis1"),
    # use_softmax=False: Logits are probabilities (F.cross_entropy(use_softmax=False))
    OpCase("softmax_with_cross_entropy", {"Logits": positive(4, 5, low=0.1, high=1.0, seed=9),
                                          "Label": np.array([[0], [-100], [2], [4]], dtype=np.int64)},
           {"use_softmax": False}, id="swce-probabilities-ignore-index"),
    OpCase("softmax_with_cross_entropy", {"Logits": positive(3, 4, low=0.1, high=1.0, seed=10),
                                          "Label": _soft(3, 4, seed=11)}, {"soft_label": True, "use_softmax": False},
           id="swce-probabilities-soft"),
    # binary cross entropy on logits; pos_weight is the positive term's weight, ignore_index labels give 0
    OpCase("sigmoid_cross_entropy_with_logits", {"X": rand(3, 4, low=-3.0, high=3.0, seed=12),
                                                 "Label": positive(3, 4, low=0.0, high=1.0, seed=13)},
           id="sce"),
    OpCase("sigmoid_cross_entropy_with_logits", {"X": rand(2, 5, seed=14),
                                                 "Label": np.array([[0.0, 1.0, -100.0, 1.0, 0.5],
                                                                    [1.0, -100.0, 0.0, 0.0, 1.0]]),
                                                 "pos_weight": positive(2, 5, seed=15)},
           {"normalize": True}, id="sce-pos-weight-ignore-normalize"),
    # binary cross entropy on probabilities (inputs inside (0, 1), away from the clamps)
    OpCase("bce_loss", {"X": positive(3, 4, low=0.05, high=0.95, seed=25), "Label": positive(3, 4, low=0.0, high=1.0,
                                                                                               seed=26)}, id="bce"),
    # nll_loss over class axis 1: mean divides by the kept labels' total weight
    OpCase("nll_loss", {"X": rand(4, 3, seed=16), "Label": np.array([0, 2, -100, 2], dtype=np.int64),
                        "Weight": positive(3, seed=17)}, id="nll-weight-ignore-mean"),
    OpCase("nll_loss", {"X": rand(2, 3, 2, 2, seed=18),
                        "Label": np.array([[[0, 1], [2, 2]], [[1, 0], [0, 2]]], dtype=np.int64)},
           {"reduction": "none"}, id="nll-4d-none"),
    OpCase("nll_loss", {"X": rand(3, 4, seed=19), "Label": np.array([3, 1, 0], dtype=np.int64)},
           {"reduction": "sum"}, id="nll-sum"),
    # kldiv_loss: non-positive targets give 0; log_target takes log-probabilities
    OpCase("kldiv_loss", {"X": rand(3, 4, seed=20),
                          "Target": np.array([[0.2, 0.0, 0.5, 0.3], [0.1, 0.4, -0.2, 0.5], [0.25] * 4])},
           {"reduction": "none"}, id="kldiv-none"),
    OpCase("kldiv_loss", {"X": rand(2, 3, seed=21), "Target": rand(2, 3, seed=22)},
           {"reduction": "batchmean", "log_target": True}, id="kldiv-log-target-batchmean"),
    OpCase("kldiv_loss", {"X": rand(2, 3, seed=23), "Target": positive(2, 3, seed=24)}, {"reduction": "mean"},
           id="kldiv-mean"),
    # huber_loss (smooth_l1_loss): both branches, X and Y differentiable
    OpCase("huber_loss", {"X": rand(3, 4, low=-2.0, high=2.0, seed=25), "Y": rand(3, 4, low=-2.0, high=2.0, seed=26)},
           {"delta": 0.7}, id="huber"),
    OpCase("label_smooth", {"X": positive(3, 4, seed=27)}, {"epsilon": 0.1}, id="label_smooth"),
    OpCase("label_smooth", {"X": positive(3, 4, seed=28), "PriorDist": positive(1, 4, seed=29)}, {"epsilon": 0.2},
           id="label_smooth-prior"),
]

# (norm_by_times is not a case: it scales the gradient but not the loss, as in Paddle, so it is no derivative)
_CTC_LABEL = np.array([[1, 2, 2], [3, 1, 0], [4, 0, 0]], dtype=np.int32)
CASES += [
    OpCase("warpctc", {"Logits": rand(6, 3, 5, seed=9), "Label": _CTC_LABEL,
                       "LogitsLength": np.array([6, 4, 5], dtype=np.int64),
                       "LabelLength": np.array([3, 2, 0], dtype=np.int64)}, id="warpctc"),
    OpCase("warpctc", {"Logits": rand(4, 2, 4, seed=11), "Label": np.array([[0, 1], [2, 2]], dtype=np.int32),
                       "LogitsLength": np.array([4, 4], dtype=np.int64),
                       "LabelLength": np.array([2, 1], dtype=np.int64)}, {"blank": 3}, id="warpctc-blank-last"),
]
# (fastemit_lambda 0: FastEmit scales part of the gradient but not the loss, so only then is it a derivative)
CASES += [
    OpCase("warprnnt", {"input": rand(2, 4, 3, 4, seed=12), "label": np.array([[1, 3], [2, 0]], dtype=np.int32),
                        "input_lengths": np.array([4, 3], dtype=np.int32),
                        "label_lengths": np.array([2, 1], dtype=np.int32)}, {"fastemit_lambda": 0.0}, id="warprnnt"),
]
