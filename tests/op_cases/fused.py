"""Gradient cases for the fused ops (paddlelite/ops/fused.py)."""
import numpy as np

from . import OpCase, away_from_zero, rand

CASES = [
    OpCase("fused_bias_act", {"X": away_from_zero(3, 5, seed=1), "Bias": rand(5, seed=2) * 0.05}, {"act": act},
           id=f"fused_bias_act-{act}")
    for act in ("identity", "relu", "sigmoid", "tanh", "gelu", "gelu_tanh", "silu")
] + [
    OpCase("fused_bias_act", {"X": rand(2, 3, 4, seed=3), "Bias": rand(4, seed=4)}, {"act": "gelu"},
           id="fused_bias_act-3d"),
]

# sin/cos given as tables [positions, head_dim]: one angle per adjacent pair, as Paddle's gradient assumes
_ANGLES = np.repeat(np.linspace(-3, 3, 6 * 2).reshape(6, 2), 2, axis=1)
CASES += [
    OpCase("fused_rope", {"Q": rand(2, 3, 2, 4, seed=11), "K": rand(2, 3, 1, 4, seed=12), "V": None, "Sin": None,
                          "Cos": None, "PositionIds": None}, {"use_neox_rotary_style": neox},
           id=f"fused_rope-neox{neox}")
    for neox in (True, False)
] + [
    OpCase("fused_rope", {"Q": rand(3, 2, 2, 4, seed=13), "K": None, "V": rand(3, 2, 1, 4, seed=14),
                          "Sin": np.sin(_ANGLES), "Cos": np.cos(_ANGLES),
                          "PositionIds": np.array([[5, 0, 2], [1, 1, 4]], np.int64)},
           {"use_neox_rotary_style": False, "time_major": True}, id="fused_rope-tables-positions-time-major"),
]
CASES += [  # fixed seeds: the same mask on every forward
    OpCase("fused_dropout_add", {"X": rand(4, 5, seed=21), "Bias": rand(5, seed=22), "Y": rand(4, 5, seed=23)},
           {"dropout_prob": 0.4, "seed": 7}, id="fused_dropout_add-bias"),
    OpCase("fused_dropout_add", {"X": rand(2, 3, 4, seed=24), "Bias": None, "Y": rand(2, 3, 4, seed=25)},
           {"dropout_prob": 0.3, "seed": 3, "dropout_implementation": "downgrade_in_infer"},
           id="fused_dropout_add-downgrade"),
]
