"""Gradient cases for the recurrent cell steps (paddlelite/ops/rnn.py)."""
from . import OpCase, rand

CASES = [
    OpCase("lstm_cell", {"Gates": rand(3, 8, low=-2, high=2, seed=1), "CPrev": rand(3, 2, seed=2)}, id="lstm_cell"),
    OpCase("gru_cell", {"XGates": rand(3, 6, low=-2, high=2, seed=3), "HGates": rand(3, 6, low=-2, high=2, seed=4),
                        "HPrev": rand(3, 2, seed=5)}, id="gru_cell"),
]
