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
    # the fused multi-layer op (static programs' LSTM / GRU / SimpleRNN): [T, B, I] input, cuDNN weight order
    OpCase("rnn", {"Input": rand(3, 2, 2, seed=15), "PreState": [rand(2, 2, 2, seed=16), rand(2, 2, 2, seed=17)],
                   "WeightList": [rand(8, 2, seed=18), rand(8, 2, seed=19), rand(8, 2, seed=20), rand(8, 2, seed=21),
                                  rand(8, seed=22), rand(8, seed=23), rand(8, seed=24), rand(8, seed=25)]},
           {"mode": "LSTM", "is_bidirec": True, "input_size": 2, "hidden_size": 2}, id="rnn-lstm-bidirect"),
    OpCase("rnn", {"Input": rand(3, 2, 2, seed=26), "PreState": [rand(2, 2, 2, seed=27)],
                   "WeightList": [rand(6, 2, seed=28), rand(6, 2, seed=29), rand(6, 2, seed=30), rand(6, 2, seed=31),
                                  rand(6, seed=32), rand(6, seed=33), rand(6, seed=34), rand(6, seed=35)]},
           {"mode": "GRU", "num_layers": 2, "input_size": 2, "hidden_size": 2}, id="rnn-gru-two-layers"),
]
