from . import OpCase, rand

CASES = [
    OpCase("sum", {"X": rand(2, 3, 4)}, id="sum-all"),
    OpCase("sum", {"X": rand(2, 3, 4)}, {"axis": 1}, id="sum-axis"),
    OpCase("sum", {"X": rand(2, 3, 4)}, {"axis": [0, 2], "keepdim": True}, id="sum-axes-keepdim"),
    OpCase("mean", {"X": rand(2, 3, 4)}, id="mean-all"),
    OpCase("mean", {"X": rand(2, 3, 4)}, {"axis": -1}, id="mean-axis"),
    OpCase("mean", {"X": rand(2, 3)}, {"axis": [0], "keepdim": True}, id="mean-keepdim"),
    OpCase("mean_grad", {"X": rand(2, 3), "Dout": rand(3, seed=3)}, {"axis": 0}, id="mean_grad"),
]
