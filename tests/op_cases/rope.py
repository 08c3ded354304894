"""Gradient cases for the rotary position embedding (paddlelite/ops/rope.py)."""
from . import OpCase, rand

CASES = [
    OpCase("fused_rope", {"X": rand(2, 3, 2, 4, seed=1), "Sin": rand(1, 3, 4, seed=2), "Cos": rand(1, 3, 4, seed=3)},
           id="fused_rope-neox"),
    OpCase("fused_rope", {"X": rand(3, 2, 1, 6, seed=4), "Sin": rand(2, 3, 6, seed=5), "Cos": rand(2, 3, 6, seed=6)},
           {"use_neox_rotary_style": False, "time_major": True}, id="fused_rope-pairs-time-major-per-sequence"),
]
