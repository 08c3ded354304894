"""Gradient cases for the fused ops (paddlelite/ops/fused.py)."""
from . import OpCase, away_from_zero, rand

CASES = [
    OpCase("fused_bias_act", {"X": away_from_zero(3, 5, seed=1), "Bias": rand(5, seed=2) * 0.05}, {"act": act},
           id=f"fused_bias_act-{act}")
    for act in ("identity", "relu", "sigmoid", "tanh", "gelu", "gelu_tanh", "silu")
] + [
    OpCase("fused_bias_act", {"X": rand(2, 3, 4, seed=3), "Bias": rand(4, seed=4)}, {"act": "gelu"},
           id="fused_bias_act-3d"),
    # swiglu: one input split in halves, and two inputs
    OpCase("swiglu", {"X": rand(2, 3, 6, seed=5), "Y": None}, id="swiglu-halves"),
    OpCase("swiglu", {"X": rand(3, 4, seed=6), "Y": rand(3, 4, seed=7)}, id="swiglu-two-inputs"),
]
