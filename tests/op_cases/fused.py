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
