"""Gradient cases for flash_attn (ops/attention.py): plain, causal, an additive mask broadcast over batch and
heads, grouped-query heads, and dropout with a fixed stream state (the same mask on every forward)."""
import numpy as np

from . import OpCase, rand

_SEED_OFFSET = np.array([2024, 3], dtype=np.int64)

CASES = [
    OpCase("flash_attn", {"q": rand(2, 3, 2, 4, seed=1), "k": rand(2, 5, 2, 4, seed=2), "v": rand(2, 5, 2, 4, seed=3)},
           id="flash_attn"),
    OpCase("flash_attn", {"q": rand(1, 4, 2, 3, seed=4), "k": rand(1, 4, 2, 3, seed=5), "v": rand(1, 4, 2, 3, seed=6)},
           {"causal": True}, id="flash_attn-causal"),
    OpCase("flash_attn", {"q": rand(2, 3, 2, 4, seed=7), "k": rand(2, 4, 2, 4, seed=8), "v": rand(2, 4, 2, 4, seed=9),
                          "attn_mask": rand(1, 1, 3, 4, seed=10)}, id="flash_attn-mask"),
    OpCase("flash_attn", {"q": rand(1, 3, 4, 2, seed=11), "k": rand(1, 5, 2, 2, seed=12),
                          "v": rand(1, 5, 2, 2, seed=13)}, id="flash_attn-gqa"),
    OpCase("flash_attn", {"q": rand(1, 3, 2, 4, seed=14), "k": rand(1, 6, 2, 4, seed=15), "v": rand(1, 6, 2, 4, seed=16),
                          "fixed_seed_offset": _SEED_OFFSET}, {"dropout": 0.4}, id="flash_attn-dropout"),
]
