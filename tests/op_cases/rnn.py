"""Gradient cases for the recurrent cell steps (paddlelite/ops/rnn.py)."""
from . import OpCase, rand

CASES = [
    OpCase("lstm_cell", {"Gates": rand(3, 8, low=-2, high=2, seed=1), "CPrev": rand(3, 2, seed=2)}, id="lstm_cell"),
    OpCase("gru_cell", {"XGates": rand(3, 6, low=-2, high=2, seed=3), "HGates": rand(3, 6, low=-2, high=2, seed=4),
                        "HPrev": rand(3, 2, seed=5)}, id="gru_cell"),
    # the grad ops are differentiable too (double backward): C is an input of its own here
    OpCase("lstm_cell_grad", {"Gates": rand(3, 8, low=-2, high=2, seed=6), "CPrev": rand(3, 2, seed=7),
                              "C": rand(3, 2, low=-2, high=2, seed=8), "DH": rand(3, 2, seed=9),
                              "DC": rand(3, 2, seed=10)}, id="lstm_cell_grad"),
    OpCase("gru_cell_grad", {"XGates": rand(3, 6, low=-2, high=2, seed=11), "HGates": rand(3, 6, low=-2, high=2, seed=12),
                             "HPrev": rand(3, 2, seed=13), "DH": rand(3, 2, seed=14)}, id="gru_cell_grad"),
]
