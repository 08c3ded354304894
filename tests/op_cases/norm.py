"""Gradient cases for layer_norm, rms_norm, instance_norm, batch_norm, sync_batch_norm and group_norm (ops/norm.py)."""
from . import OpCase, positive, rand
from .collective import one_rank_world

CASES = [
    # ---- layer_norm
    OpCase("layer_norm", {"X": rand(2, 3, 4, seed=1), "Scale": rand(12, seed=2), "Bias": rand(12, seed=3)},
           id="layer_norm-affine"),
    OpCase("layer_norm", {"X": rand(3, 5, seed=4), "Scale": None, "Bias": None}, {"begin_norm_axis": 1},
           id="layer_norm-plain"),
    OpCase("layer_norm", {"X": rand(2, 2, 4, seed=5), "Scale": rand(4, seed=6), "Bias": None},
           {"begin_norm_axis": 2, "epsilon": 1e-3}, id="layer_norm-scale-only"),
    # ---- fused_bias_residual_layernorm (Paddle's fused_layer_norm)
    OpCase("fused_bias_residual_layernorm", {"X": rand(2, 3, 4, seed=81), "Bias": rand(12, seed=82),
                                             "Residual": rand(2, 3, 4, seed=83), "NormWeight": rand(12, seed=84),
                                             "NormBias": rand(12, seed=85)}, {"residual_alpha": 0.7},
           id="fused_layer_norm-residual"),
    OpCase("fused_bias_residual_layernorm", {"X": rand(3, 5, seed=86), "Bias": None, "Residual": None,
                                             "NormWeight": rand(5, seed=87), "NormBias": None}, {"epsilon": 1e-3},
           id="fused_layer_norm-plain"),
    OpCase("fused_bias_residual_layernorm", {"X": rand(2, 2, 4, seed=88), "Bias": rand(4, seed=89), "Residual": None,
                                             "NormWeight": None, "NormBias": rand(4, seed=90)}, {"begin_norm_axis": 2},
           id="fused_layer_norm-bias-no-weight"),
    # ---- rms_norm (Paddle's fused_rms_norm): with bias and residual the gradient of ResidualOut joins h's
    OpCase("rms_norm", {"X": rand(2, 3, 4, seed=61), "Bias": rand(12, seed=62), "Residual": rand(2, 3, 4, seed=63),
                        "NormWeight": rand(12, seed=64), "NormBias": rand(12, seed=65)}, id="rms_norm-residual"),
    OpCase("rms_norm", {"X": rand(3, 5, seed=66), "Bias": None, "Residual": None, "NormWeight": rand(5, seed=67),
                        "NormBias": None}, {"epsilon": 1e-3}, id="rms_norm-plain"),
    OpCase("rms_norm", {"X": rand(2, 2, 4, seed=68), "Bias": None, "Residual": rand(2, 2, 4, seed=69),
                        "NormWeight": None, "NormBias": rand(4, seed=70)}, {"begin_norm_axis": 2},
           id="rms_norm-residual-no-weight"),
    # ---- instance_norm
    OpCase("instance_norm", {"X": rand(2, 3, 2, 2, seed=41), "Scale": rand(3, seed=42), "Bias": rand(3, seed=43)},
           id="instance_norm-affine"),
    OpCase("instance_norm", {"X": rand(3, 2, 4, seed=44), "Scale": None, "Bias": None}, {"epsilon": 1e-3},
           id="instance_norm-plain"),
    # ---- batch_norm
    OpCase("batch_norm", {"X": rand(3, 2, 2, 2, seed=1), "Scale": rand(2, seed=2), "Bias": rand(2, seed=3),
                          "Mean": rand(2, seed=4), "Variance": positive(2, seed=5)}, id="batch_norm-train"),
    OpCase("batch_norm", {"X": rand(4, 3, seed=6), "Scale": rand(3, seed=7), "Bias": rand(3, seed=8),
                          "Mean": rand(3, seed=9), "Variance": positive(3, seed=10)}, {"is_test": True},
           id="batch_norm-eval-2d"),
    OpCase("batch_norm", {"X": rand(2, 2, 3, 2, seed=11), "Scale": rand(2, seed=12), "Bias": rand(2, seed=13),
                          "Mean": rand(2, seed=14), "Variance": positive(2, seed=15)}, {"data_layout": "NHWC"},
           id="batch_norm-nhwc"),
    # ---- sync_batch_norm: without a process group batch_norm's numbers; in a world of one, through the
    # gathered statistics and all-reduced sums (tests/distributed/check_sync_batch_norm.py: 2 ranks)
    OpCase("sync_batch_norm", {"X": rand(3, 2, 2, 2, seed=21), "Scale": rand(2, seed=22), "Bias": rand(2, seed=23),
                               "Mean": rand(2, seed=24), "Variance": positive(2, seed=25)}, id="sync_batch_norm-alone"),
    OpCase("sync_batch_norm", {"X": rand(2, 2, 3, 2, seed=26), "Scale": rand(2, seed=27), "Bias": rand(2, seed=28),
                               "Mean": rand(2, seed=29), "Variance": positive(2, seed=30)}, {"data_layout": "NHWC"},
           context=one_rank_world, id="sync_batch_norm-one-rank-nhwc"),
    # ---- group_norm
    OpCase("group_norm", {"X": rand(2, 4, 3, 2, seed=31), "Scale": rand(4, seed=32), "Bias": rand(4, seed=33)},
           {"groups": 2}, id="group_norm"),
    OpCase("group_norm", {"X": rand(2, 3, 6, seed=34), "Scale": rand(6, seed=35)},
           {"groups": 3, "data_layout": "NHWC"}, id="group_norm-nhwc-no-bias"),
]
